// The core's cost per event in machine instructions, which do not swing
// with the machine's load as times do: the streams of `npm run bench` (a,
// b, c) through `Tracker::push_sse`, one event per chunk, each chunk's
// changes taken as the binding takes them, in a native build run under
// Valgrind (cachegrind, no cache simulation).
//   node bench/core.bench.mjs [<checkout> ...]   (`npm run bench:core`)
// With checkouts of the crate (another commit's worktree, say), each is
// counted too, side by side with this one, as a ratio to it: a change to
// the core is judged in one run, to the instruction. Native x86-64, not
// wasm, and the core alone (not the JS layer): a guide to the core's
// share of `npm run bench`'s figures, not a substitute for them. Needs
// Valgrind (`apt-get install valgrind`); nothing else runs it.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { scenario, sseChunks } from "./perf/streams.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const checkouts = [root, ...process.argv.slice(2).map((dir) => path.resolve(dir))];
const KEYS = ["a", "b", "c"];

// The driver: the chunks of one stream, fed as the binding feeds them.
// Only the crate's public API of long standing, so an older checkout builds it too.
const DRIVER = `
use agui_tool_calls::{Changes, Options, Tracker};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[1]).unwrap();
    let lengths: Vec<usize> = std::fs::read_to_string(&args[2]).unwrap().lines().map(|l| l.parse().unwrap()).collect();
    let feed = args[3] == "feed";
    let mut tracker = Tracker::new(Options::default());
    let mut changes = Changes::default();
    let (mut at, mut calls) = (0, 0);
    for &n in &lengths {
        if feed {
            tracker.push_sse(&bytes[at..at + n]).unwrap();
            tracker.take_changes_into(&mut changes);
            calls += changes.calls.len();
        }
        at += n;
    }
    println!("{calls}");
}
`;

const need = spawnSync("valgrind", ["--version"], { encoding: "utf8" });
if (need.status !== 0) throw new Error("bench:core needs Valgrind (apt-get install valgrind)");

const work = mkdtempSync(path.join(os.tmpdir(), "agui-core-bench-"));
try {
  const streams = Object.fromEntries(KEYS.map((key) => [key, writeStream(key)]));
  const rows = checkouts.map((dir) => ({ dir, counts: count(build(dir), streams) }));
  report(rows, streams);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The stream `key` as the bytes of its chunks and their lengths, one event each. */
function writeStream(key) {
  const chunks = sseChunks(scenario(key));
  const bytes = path.join(work, `${key}.sse`);
  const lengths = path.join(work, `${key}.lengths`);
  writeFileSync(bytes, Buffer.concat(chunks.map((c) => Buffer.from(c))));
  writeFileSync(lengths, chunks.map((c) => c.length).join("\n"));
  return { bytes, lengths, events: chunks.length };
}

/** The driver built natively (release) against the crate at `dir`; its path. */
function build(dir) {
  const crate = path.join(work, `driver-${checkouts.indexOf(dir)}`);
  mkdirSync(path.join(crate, "src"), { recursive: true });
  writeFileSync(
    path.join(crate, "Cargo.toml"),
    `[package]\nname = "core-bench-driver"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\nagui-tool-calls = { path = ${JSON.stringify(dir)} }\n\n[profile.release]\ndebug = false\n\n[workspace]\n`,
  );
  writeFileSync(path.join(crate, "src", "main.rs"), DRIVER);
  // One target directory per checkout, kept between runs: a rebuild is incremental.
  const target = path.join(os.tmpdir(), "agui-core-bench-target", Buffer.from(dir).toString("base64url"));
  const cargo = spawnSync("cargo", ["build", "--release", "--quiet", "--manifest-path", path.join(crate, "Cargo.toml"), "--target-dir", target], { stdio: "inherit" });
  if (cargo.status !== 0) throw new Error(`the driver did not build against ${dir}`);
  return path.join(target, "release", "core-bench-driver");
}

/** Instructions the driver runs on each stream, less those of reading it alone. */
function count(driver, streams) {
  const counts = {};
  for (const [key, s] of Object.entries(streams)) {
    counts[key] = instructions(driver, s, "feed") - instructions(driver, s, "read");
  }
  return counts;
}

function instructions(driver, s, mode) {
  const run = spawnSync("valgrind", ["--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", driver, s.bytes, s.lengths, mode], { encoding: "utf8" });
  const refs = /I\s+refs:\s+([\d,]+)/.exec(run.stderr);
  if (run.status !== 0 || !refs) throw new Error(`valgrind failed on ${driver}: ${run.stderr.slice(-500)}`);
  return Number(refs[1].replaceAll(",", ""));
}

function report(rows, streams) {
  const first = rows[0].counts;
  console.log("Core instructions per event (native x86-64, Tracker::push_sse + take_changes_into, one event per chunk):\n");
  console.log(`| checkout | ${KEYS.map((k) => `(${k})`).join(" | ")} |`);
  console.log(`|---|${KEYS.map(() => "---").join("|")}|`);
  for (const { dir, counts } of rows) {
    const cells = KEYS.map((k) => {
      const perEvent = Math.round(counts[k] / streams[k].events).toLocaleString("en-US");
      return dir === root ? perEvent : `${perEvent} (${(counts[k] / first[k]).toFixed(3)}x)`;
    });
    console.log(`| ${dir === root ? "this checkout" : dir} | ${cells.join(" | ")} |`);
  }
}
