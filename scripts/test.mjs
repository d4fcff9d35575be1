// `npm test`: every check, in order, stopping at the first failure.
//   setup -> rustfmt -> clippy (native and wasm32) -> the library with the
//   declared rust-version -> native tests -> the decoder's (unpack/) -> build
//   -> wasm-bindgen-test in Node and in headless Chromium -> JS tests on pkg/
import { readdirSync } from "node:fs";
import path from "node:path";
import { root, run, main } from "./lib.mjs";
import { setup, declaredRustVersion } from "./setup.mjs";
import { buildPackage } from "./build.mjs";

const wasmTarget = ["--target", "wasm32-unknown-unknown"];
const chromium = { ...process.env, CHROMEDRIVER: "/usr/bin/chromedriver", WASM_BINDGEN_USE_BROWSER: "1", CI: "1" };

function jsTests() {
  const dir = path.join(root, "tests", "js");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".test.mjs"))
    .map((f) => path.join("tests", "js", f));
}

main(async () => {
  setup();
  run("cargo", ["fmt", "--all", "--check"]);
  run("cargo", ["clippy", "--all-targets", "--", "-D", "warnings"]);
  run("cargo", ["clippy", ...wasmTarget, "--lib", "--test", "wasm_binding", "--", "-D", "warnings"]);
  const msrv = `+${declaredRustVersion()}`;
  run("cargo", [msrv, "check", "--lib"]);
  run("cargo", [msrv, "check", ...wasmTarget, "--lib"]);
  run("cargo", ["test"]);
  // The decoder of the embedded module (unpack/): a crate of its own.
  const unpack = ["--manifest-path", "unpack/Cargo.toml"];
  run("cargo", ["fmt", ...unpack, "--check"]);
  run("cargo", ["clippy", ...unpack, "--all-targets", "--", "-D", "warnings"]);
  run("cargo", ["clippy", ...unpack, ...wasmTarget, "--lib", "--", "-D", "warnings"]);
  run("cargo", ["test", ...unpack, "--release"]);
  await buildPackage();
  run("cargo", ["test", ...wasmTarget, "--test", "wasm_binding"]);
  run("cargo", ["test", ...wasmTarget, "--test", "wasm_binding"], { env: chromium });
  run("node", ["--test", "--test-concurrency=1", ...jsTests()]);
});
