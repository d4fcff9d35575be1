// `npm test`: every check, stopping at the first failure. After setup, two
// lanes run side by side, each in order:
//   Rust:    rustfmt -> clippy (native and wasm32) -> the library with the
//            declared rust-version (native and wasm32) -> native tests
//            -> wasm-bindgen-test in Node and in headless Chromium
//   package: build pkg/ -> JS tests on pkg/
// Neither needs the other: the package's wasm module is built by its own
// toolchain into its own target directory (scripts/build.mjs), and the JS
// tests read pkg/ alone. Side by side they keep both cores busy, where one
// after the other each leaves one idle for long stretches (the module's
// single-threaded LTO, Node and Chromium driving a page).
//
// The Rust lane's output is shown as it comes, the package lane's after it
// (as it comes from then on). It ends with each stage's wall time and the
// slowest JS suites.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { root, capture, main } from "./lib.mjs";
import { setup, declaredRustVersion } from "./setup.mjs";

const wasmTarget = ["--target", "wasm32-unknown-unknown"];
const chromium = { ...process.env, CHROMEDRIVER: "/usr/bin/chromedriver", WASM_BINDGEN_USE_BROWSER: "1", CI: "1" };
const logs = path.join(root, "target", "npm-test");
const suiteTimesFile = path.join(logs, "js-suite-times.tsv");
const packageLog = path.join(logs, "package-lane.log");

/** The toolchain's own target triple (`rustc -vV`). */
function hostTarget(toolchain) {
  const host = capture("rustc", [toolchain, "-vV"])?.match(/^host: (\S+)$/m)?.[1];
  if (!host) throw new Error(`rustc ${toolchain} -vV names no host target`);
  return host;
}

function jsTests() {
  const dir = path.join(root, "tests", "js");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".test.mjs"))
    .map((f) => path.join("tests", "js", f));
}

function jsReporters() {
  // node's own default reporter, plus the per-file times for the summary.
  const shown = process.stdout.isTTY ? "spec" : "tap";
  return [
    `--test-reporter=${shown}`, "--test-reporter-destination=stdout",
    "--test-reporter=./scripts/suite-times.mjs", `--test-reporter-destination=${suiteTimesFile}`,
  ];
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

/** A lane: its stages one after another, each timed. */
async function lane(name, out, steps) {
  for (const [stage, cmd, args, env] of steps) {
    const start = Date.now();
    try {
      await spawnIn(out, cmd, args, env);
    } finally {
      stages.push({ name: `${name}: ${stage}`, at: (start - started) / 1000, took: seconds(start) });
    }
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
  for (const { name, at, took } of stages) console.log(`${secs(took)}  ${name.padEnd(36)} at ${secs(at)}`);
  console.log(`${secs(seconds(started))}  total`);
  if (!existsSync(suiteTimesFile)) return;
  const suites = readFileSync(suiteTimesFile, "utf8").trim().split("\n").filter(Boolean)
    .map((line) => line.split("\t"))
    .map(([ms, file]) => [Number(ms) / 1000, path.relative(root, file)])
    .sort((a, b) => b[0] - a[0]);
  console.log("\nJS suites, slowest first:");
  for (const [s, file] of suites) console.log(`${secs(s)}  ${file}`);
}

main(async () => {
  try {
    const start = Date.now();
    try {
      setup();
    } finally {
      stages.push({ name: "setup", at: 0, took: seconds(start) });
    }
    rmSync(logs, { recursive: true, force: true });
    mkdirSync(logs, { recursive: true });
    const packageOut = openSync(packageLog, "w");
    const msrv = `+${declaredRustVersion()}`;
    const rust = lane("rust", 1, [
      ["cargo fmt", "cargo", ["fmt", "--all", "--check"]],
      ["clippy native", "cargo", ["clippy", "--all-targets", "--", "-D", "warnings"]],
      ["clippy wasm32", "cargo", ["clippy", ...wasmTarget, "--lib", "--test", "wasm_binding", "--", "-D", "warnings"]],
      // Both targets in one build: their build scripts and proc macros
      // are compiled once (half the time of two).
      ["rust-version check, native and wasm32", "cargo", [msrv, "check", "--lib", "--target", hostTarget(msrv), ...wasmTarget]],
      ["cargo test", "cargo", ["test"]],
      ["wasm tests, Node", "cargo", ["test", ...wasmTarget, "--test", "wasm_binding"]],
      ["wasm tests, Chromium", "cargo", ["test", ...wasmTarget, "--test", "wasm_binding"], chromium],
    ]);
    const pkg = lane("package", packageOut, [
      ["build pkg/", process.execPath, ["scripts/build.mjs"]],
      ["JS suites", process.execPath, ["--test", "--test-concurrency=1", ...jsReporters(), ...jsTests()]],
    ]);
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
