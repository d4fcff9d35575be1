// `npm test`: every check, stopping at the first failure. After setup, two
// lanes run side by side, each in order:
//   Rust:    rustfmt -> native tests, linted as they build (`linted`)
//            -> clippy for wasm32 without saved threads (the main
//            entry's module) -> the embedded module's decoder (unpack/: fmt, clippy for
//            wasm32, tests linted as they build)
//            -> wasm-bindgen-test in Node and in headless Chromium, linted
//            as they build -> JS suites, once pkg/ is built
//   package: npm ci (when the lockfile changed) -> build pkg/ -> JS suites
// Neither lane's checks need the other's: the package's wasm module is
// built by its own toolchain into its own target directory
// (scripts/build.mjs), and the JS suites read pkg/ alone. Side by side
// they keep both cores busy, where one after the other each leaves one
// idle for long stretches (the module's single-threaded LTO, Node and
// Chromium driving a page). The JS suites are one queue, longest first,
// each suite taken by whichever lane is free: the package lane from the
// start, the Rust lane once its own checks are done.
//
// The Rust lane's output is shown as it comes, the package lane's after it
// (as it comes from then on). It ends with each stage's wall time and
// every JS suite's.
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { root, capture, main } from "./lib.mjs";
import { setupSystem } from "./setup.mjs";

const wasmTarget = ["--target", "wasm32-unknown-unknown"];
const unpack = ["--manifest-path", "unpack/Cargo.toml"];
const fuzz = ["--manifest-path", "fuzz/Cargo.toml"];
const inChromium = { CHROMEDRIVER: "/usr/bin/chromedriver", WASM_BINDGEN_USE_BROWSER: "1", CI: "1" };
const logs = path.join(root, "target", "npm-test");
const packageLog = path.join(logs, "package-lane.log");

/**
 * The environment of a cargo build that is also `cargo clippy -- -D
 * warnings`: clippy's driver compiles the workspace's own crates (cargo's
 * documented `RUSTC_WORKSPACE_WRAPPER`, what `cargo clippy` itself sets,
 * over `cargo check`), so the tests' build runs every lint, with
 * Cargo.toml's `[lints]` and clippy.toml, on every target it builds (the
 * library, its unit tests, tests/, examples/), and a warning fails it. One
 * build where a clippy pass and a test build each compiled everything: a
 * fresh checkout's `npm test` saves the two clippy runs (80 s on a quiet
 * machine, 158 s on a loaded run). Dependencies are compiled by rustc
 * alone, their lints capped by cargo.
 */
function linted() {
  const driver = capture("rustup", ["which", "clippy-driver"])?.trim();
  if (!driver) throw new Error("rustup which clippy-driver found no clippy: npm run setup installs it");
  return { ...process.env, RUSTC_WORKSPACE_WRAPPER: driver, RUSTFLAGS: "-Dwarnings" };
}

/**
 * The suites that take longest (building apps with bundlers and Next.js,
 * driving pages), first in the queue: taken last, one of them would keep
 * one lane running long after the other has finished.
 */
const longest = ["next", "bundlers", "browser", "demo", "checker", "checker-inputs", "inspector", "checker-hostile", "perf-bench", "element"];

function jsTests() {
  const dir = path.join(root, "tests", "js");
  const rank = (f) => {
    const i = longest.indexOf(f.replace(/\.test\.mjs$/, ""));
    return i < 0 ? longest.length : i;
  };
  return readdirSync(dir)
    .filter((f) => f.endsWith(".test.mjs"))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((f) => path.join("tests", "js", f));
}

/** `node --test` for one suite: node's own default reporter, and its wall time for the summary. */
function jsSuite(file) {
  const shown = process.stdout.isTTY ? "spec" : "tap";
  const times = path.join(logs, `${path.basename(file)}.tsv`);
  return ["--test", `--test-reporter=${shown}`, "--test-reporter-destination=stdout", "--test-reporter=./scripts/suite-times.mjs", `--test-reporter-destination=${times}`, file];
}

const started = Date.now();
const seconds = (since) => (Date.now() - since) / 1000;
const stages = [];
const running = new Set();

/**
 * Runs `cmd` in its own process group (so that a failure elsewhere can stop
 * it and everything it started), its output to `out` (a file descriptor).
 */
function spawnIn(out, cmd, args, env = process.env) {
  const shown = [cmd, ...args].join(" ");
  writeSync(out, `\n$ ${shown}\n`);
  const child = spawn(cmd, args, { cwd: root, env, stdio: ["ignore", out, out], detached: true });
  running.add(child);
  return new Promise((resolve, reject) => {
    child.on("error", (error) => reject(new Error(`${shown}: ${error.message}`)));
    child.on("exit", (code, signal) => {
      running.delete(child);
      if (code === 0) resolve();
      else reject(new Error(`${shown}: exit status ${code ?? signal}`));
    });
  });
}

function stopAll() {
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  }
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}

/** Runs `fn` as the stage `name`, recording its wall time. */
async function stage(name, fn) {
  const start = Date.now();
  try {
    await fn();
  } finally {
    stages.push({ name, at: (start - started) / 1000, took: seconds(start) });
  }
}

/** A lane's steps, one after another, each a stage. */
async function lane(name, out, steps) {
  for (const [step, cmd, args, env] of steps) await stage(`${name}: ${step}`, () => spawnIn(out, cmd, args, env));
}

/** The JS suites from the shared `queue` one at a time, once `built`, until it is empty. */
async function jsSuites(name, out, queue, built) {
  await built;
  const start = Date.now();
  let count = 0;
  try {
    for (let file; (file = queue.shift()); count++) await spawnIn(out, process.execPath, jsSuite(file));
  } finally {
    stages.push({ name: `${name}: JS suites (${count})`, at: (start - started) / 1000, took: seconds(start) });
  }
}

/** Copies what `file` gains to stdout until `done` settles, then the rest. */
async function follow(file, done) {
  const fd = openSync(file, "r");
  const buffer = Buffer.alloc(1 << 16);
  const drain = () => {
    let n;
    while ((n = readSync(fd, buffer, 0, buffer.length, null)) > 0) process.stdout.write(buffer.subarray(0, n));
  };
  let settled = false;
  done.then(() => (settled = true), () => (settled = true));
  while (!settled) {
    drain();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  drain();
  closeSync(fd);
}

function summary() {
  const secs = (s) => `${s.toFixed(1).padStart(6)} s`;
  console.log("\nnpm test, wall time per stage (from its start; the two lanes overlap):");
  for (const { name, at, took } of stages.sort((a, b) => a.at - b.at)) console.log(`${secs(took)}  ${name.padEnd(40)} at ${secs(at)}`);
  console.log(`${secs(seconds(started))}  total`);
  let suites = [];
  try {
    suites = readdirSync(logs)
      .filter((f) => f.endsWith(".tsv"))
      .flatMap((f) => readFileSync(path.join(logs, f), "utf8").trim().split("\n").filter(Boolean))
      .map((line) => line.split("\t"))
      .map(([ms, file]) => [Number(ms) / 1000, path.relative(root, file)])
      .sort((a, b) => b[0] - a[0]);
  } catch {}
  if (!suites.length) return;
  console.log(`\nJS suites (${suites.length}), slowest first:`);
  for (const [s, file] of suites) console.log(`${secs(s)}  ${file}`);
}

main(async () => {
  try {
    // The npm dependencies are the package lane's first step (its build
    // script installs them), while the Rust lane starts.
    await stage("setup", () => setupSystem());
    rmSync(logs, { recursive: true, force: true });
    mkdirSync(logs, { recursive: true });
    const packageOut = openSync(packageLog, "w");
    const queue = jsTests();
    const built = lane("package", packageOut, [["npm ci, build pkg/", process.execPath, ["scripts/build.mjs"]]]);
    built.catch(() => {}); // awaited below
    const lint = linted();
    const rust = (async () => {
      await lane("rust", 1, [
        ["cargo fmt", "cargo", ["fmt", "--all", "--check"]],
        ["cargo test, linted", "cargo", ["test"], lint],
        // The main entry's module is built without saved threads: linted too.
        ["clippy wasm32, no saved threads", "cargo", ["clippy", ...wasmTarget, "--lib", "--no-default-features", "--", "-D", "warnings"]],
        // The decoder of the embedded module: a crate of its own.
        ["unpack: cargo fmt", "cargo", ["fmt", ...unpack, "--check"]],
        ["unpack: clippy wasm32", "cargo", ["clippy", ...unpack, ...wasmTarget, "--lib", "--", "-D", "warnings"]],
        // Linted as they build, as the crate's own; in the dev profile: its
        // overflow checks make a damaged stream's arithmetic fail the tests,
        // where release (fat LTO, 22 s to build the three test binaries
        // against 2 s) would wrap silently.
        ["unpack: tests against xz, linted", "cargo", ["test", ...unpack], lint],
        // The fuzz targets' checks on stable, without libFuzzer, over what
        // fuzz runs found and generated inputs (fuzz/tests/replay.rs): a
        // check the code outgrew fails here, not in the next fuzz run.
        ["fuzz: cargo fmt", "cargo", ["fmt", ...fuzz, "--check"]],
        ["fuzz: targets replayed, linted", "cargo", ["test", ...fuzz], lint],
        ["wasm tests, Node, linted", "cargo", ["test", ...wasmTarget, "--test", "wasm_binding"], lint],
        // The same build: the environment differs only in what cargo does not track.
        ["wasm tests, Chromium", "cargo", ["test", ...wasmTarget, "--test", "wasm_binding"], { ...lint, ...inChromium }],
      ]);
      await jsSuites("rust", 1, queue, built);
    })();
    const pkg = jsSuites("package", packageOut, queue, built);
    // The first failure stops the other lane; the package lane's output
    // is shown whole either way.
    const both = Promise.all([rust, pkg]);
    both.catch(stopAll);
    await rust.catch(() => {});
    await follow(packageLog, pkg);
    closeSync(packageOut);
    await both;
  } finally {
    summary();
  }
});
