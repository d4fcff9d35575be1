// Installs what building and testing need, idempotently: a second run only
// checks and takes seconds. Called by `npm start` and `npm test`.
//
//   - the wasm32-unknown-unknown Rust target
//   - the toolchain of Cargo.toml's `rust-version`, to build the library with it
//   - a pinned nightly with its standard library's source, for the release
//     wasm module alone (`releaseToolchain`)
//   - the wasm-bindgen CLI at exactly the version in Cargo.lock
//   - the npm devDependencies, from the committed lockfile
//   - Chromium and ChromeDriver (Debian packages) for the browser tests
//   - xz (Debian's xz-utils), which packs the embedded wasm module
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { root, run, capture, main } from "./lib.mjs";

function ensureWasmTarget() {
  const installed = capture("rustup", ["target", "list", "--installed"]) ?? "";
  if (!installed.split("\n").includes("wasm32-unknown-unknown")) {
    run("rustup", ["target", "add", "wasm32-unknown-unknown"]);
  }
}

/** The oldest Rust the crate declares it builds with (Cargo.toml `rust-version`). */
export function declaredRustVersion() {
  const manifest = readFileSync(path.join(root, "Cargo.toml"), "utf8");
  const match = manifest.match(/^rust-version = "([^"]+)"/m);
  if (!match) throw new Error("Cargo.toml declares no rust-version");
  return match[1];
}

function ensureDeclaredToolchain() {
  const version = declaredRustVersion();
  const installed = capture("rustup", ["target", "list", "--installed", "--toolchain", version]) ?? "";
  if (!installed.split("\n").includes("wasm32-unknown-unknown")) {
    run("rustup", ["toolchain", "install", version, "--profile", "minimal", "--target", "wasm32-unknown-unknown"]);
  }
}

/**
 * The toolchain of the release wasm module in pkg/ (scripts/build.mjs), and
 * of it alone: tests, clippy and native builds use the stable toolchain.
 * A nightly, because the module rebuilds the standard library with
 * panics that abort at once (`-Zbuild-std`, `-Cpanic=immediate-abort`): no
 * panic messages, locations or formatting linked, about 6 KB gzip less
 * (`docs/size.md`). Pinned, so that a build is the same on every machine;
 * it needs only `rust-src`, not the wasm32 target's prebuilt library.
 */
export const releaseToolchain = "nightly-2026-05-19";

function ensureReleaseToolchain() {
  const installed = capture("rustup", ["component", "list", "--installed", "--toolchain", releaseToolchain]) ?? "";
  if (!installed.split("\n").includes("rust-src")) {
    run("rustup", ["toolchain", "install", releaseToolchain, "--profile", "minimal", "--component", "rust-src"]);
  }
}

/** The wasm-bindgen version Cargo.lock pins: the CLI must match it exactly. */
export function lockedWasmBindgenVersion() {
  const lock = readFileSync(path.join(root, "Cargo.lock"), "utf8");
  const match = lock.match(/name = "wasm-bindgen"\nversion = "([^"]+)"/);
  if (!match) throw new Error("Cargo.lock does not pin wasm-bindgen");
  return match[1];
}

function ensureWasmBindgenCli() {
  const want = lockedWasmBindgenVersion();
  const have = capture("wasm-bindgen", ["--version"]) ?? "";
  if (have.trim() !== `wasm-bindgen ${want}`) {
    // No --locked: one of the CLI's locked dependencies is not on the registry.
    run("cargo", ["install", "wasm-bindgen-cli", "--version", `=${want}`]);
  }
}

function ensureNodeModules() {
  const lock = readFileSync(path.join(root, "package-lock.json"));
  const digest = createHash("sha256").update(lock).digest("hex");
  const stamp = path.join(root, "node_modules", ".setup-stamp");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === digest) return;
  run("npm", ["ci", "--no-audit", "--no-fund"]);
  writeFileSync(stamp, digest);
}

/** Installs Debian packages, as root or through sudo. */
function aptInstall(packages) {
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const apt = (args) =>
    sudo.length ? run("sudo", ["apt-get", ...args]) : run("apt-get", args);
  apt(["update"]);
  apt(["install", "-y", "--no-install-recommends", ...packages]);
}

function ensureChromium() {
  if (existsSync("/usr/bin/chromium") && existsSync("/usr/bin/chromedriver")) return;
  aptInstall(["chromium", "chromium-driver"]);
}

/** `xz`, which packs the embedded wasm module (scripts/build.mjs). */
function ensureXz() {
  if (capture("xz", ["--version"]) === null) aptInstall(["xz-utils"]);
}

export function setup() {
  ensureWasmTarget();
  ensureDeclaredToolchain();
  ensureReleaseToolchain();
  ensureWasmBindgenCli();
  ensureNodeModules();
  ensureChromium();
  ensureXz();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(() => {
    setup();
    console.log("setup: everything is in place");
  });
}
