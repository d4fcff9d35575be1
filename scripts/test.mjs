// `npm test`: every check, in order, stopping at the first failure.
//   setup -> rustfmt -> clippy (native and wasm32) -> the library with the
//   declared rust-version -> native tests -> build
//   -> wasm-bindgen-test in Node and in headless Chromium -> JS tests on pkg/
// It ends with each stage's wall time and the slowest JS suites.
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { root, run, main } from "./lib.mjs";
import { setup, declaredRustVersion } from "./setup.mjs";
import { buildPackage } from "./build.mjs";

const wasmTarget = ["--target", "wasm32-unknown-unknown"];
const chromium = { ...process.env, CHROMEDRIVER: "/usr/bin/chromedriver", WASM_BINDGEN_USE_BROWSER: "1", CI: "1" };
const suiteTimesFile = path.join(root, "target", "js-suite-times.tsv");

function jsTests() {
  const dir = path.join(root, "tests", "js");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".test.mjs"))
    .map((f) => path.join("tests", "js", f));
}

const started = Date.now();
const stages = [];

/** Runs one stage, recording its wall time. */
async function stage(name, fn) {
  const start = Date.now();
  try {
    await fn();
  } finally {
    stages.push([name, (Date.now() - start) / 1000]);
  }
}

function summary() {
  const secs = (s) => `${s.toFixed(1).padStart(6)} s`;
  console.log("\nnpm test, wall time per stage:");
  for (const [name, s] of stages) console.log(`${secs(s)}  ${name}`);
  console.log(`${secs((Date.now() - started) / 1000)}  total`);
  let suites = [];
  try {
    suites = readFileSync(suiteTimesFile, "utf8").trim().split("\n").filter(Boolean)
      .map((line) => line.split("\t"))
      .map(([ms, file]) => [Number(ms) / 1000, path.relative(root, file)])
      .sort((a, b) => b[0] - a[0]);
  } catch {
    return; // the JS suites did not run
  }
  console.log("\nJS suites, slowest first:");
  for (const [s, file] of suites) console.log(`${secs(s)}  ${file}`);
}

function jsReporters() {
  mkdirSync(path.dirname(suiteTimesFile), { recursive: true });
  rmSync(suiteTimesFile, { force: true });
  // node's own default reporter, plus the per-file times for the summary.
  const shown = process.stdout.isTTY ? "spec" : "tap";
  return [
    `--test-reporter=${shown}`, "--test-reporter-destination=stdout",
    "--test-reporter=./scripts/suite-times.mjs", `--test-reporter-destination=${suiteTimesFile}`,
  ];
}

main(async () => {
  try {
    await stage("setup", () => setup());
    await stage("cargo fmt", () => run("cargo", ["fmt", "--all", "--check"]));
    await stage("clippy native", () => run("cargo", ["clippy", "--all-targets", "--", "-D", "warnings"]));
    await stage("clippy wasm32", () => run("cargo", ["clippy", ...wasmTarget, "--lib", "--test", "wasm_binding", "--", "-D", "warnings"]));
    const msrv = `+${declaredRustVersion()}`;
    await stage("rust-version check native", () => run("cargo", [msrv, "check", "--lib"]));
    await stage("rust-version check wasm32", () => run("cargo", [msrv, "check", ...wasmTarget, "--lib"]));
    await stage("cargo test", () => run("cargo", ["test"]));
    await stage("build pkg/", () => buildPackage());
    await stage("wasm tests, Node", () => run("cargo", ["test", ...wasmTarget, "--test", "wasm_binding"]));
    await stage("wasm tests, Chromium", () => run("cargo", ["test", ...wasmTarget, "--test", "wasm_binding"], { env: chromium }));
    await stage("JS suites", () => run("node", ["--test", "--test-concurrency=1", ...jsReporters(), ...jsTests()]));
  } finally {
    summary();
  }
});
