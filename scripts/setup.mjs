// Installs what building and testing need, idempotently: a second run only
// checks and takes seconds. Called by `npm start` and `npm test`.
//
//   - the Rust toolchain rust-toolchain.toml pins (rustfmt, clippy and the
//     wasm32-unknown-unknown target with it)
//   - a pinned nightly with its standard library's source, for the release
//     wasm module alone (`releaseToolchain`)
//   - the wasm-bindgen CLI at exactly the version in Cargo.lock
//   - the npm devDependencies, from the committed lockfile
//   - Chromium and ChromeDriver (Debian packages) for the browser tests
//   - xz (Debian's xz-utils), which packs the embedded wasm module
//   - a C++ compiler (Debian's g++), which the fuzz crate's libFuzzer needs
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { root, run, capture, main } from "./lib.mjs";

/**
 * The toolchain every cargo command in the repository uses
 * (rust-toolchain.toml), and the crate's `rust-version`: one release,
 * so that what the crate declares is what every check builds with.
 */
function pinnedToolchain() {
  const file = readFileSync(path.join(root, "rust-toolchain.toml"), "utf8");
  const match = file.match(/^channel = "([^"]+)"/m);
  if (!match) throw new Error("rust-toolchain.toml pins no channel");
  return match[1];
}

function ensurePinnedToolchain() {
  const toolchain = pinnedToolchain();
  for (const manifest of ["Cargo.toml", "unpack/Cargo.toml"]) {
    const declared = readFileSync(path.join(root, manifest), "utf8").match(/^rust-version = "([^"]+)"/m)?.[1];
    if (!toolchain.startsWith(`${declared}.`)) throw new Error(`${manifest} declares rust-version ${declared}, rust-toolchain.toml pins ${toolchain}: they must name one release`);
  }
  const listed = (what) => (capture("rustup", [what, "list", "--installed", "--toolchain", toolchain]) ?? "").split("\n");
  const components = listed("component"); // `clippy-<host triple>`
  const complete = listed("target").includes("wasm32-unknown-unknown") && ["clippy", "rustfmt"].every((c) => components.some((line) => line.startsWith(`${c}-`)));
  if (!complete) {
    run("rustup", ["toolchain", "install", toolchain, "--profile", "minimal", "--component", "clippy,rustfmt", "--target", "wasm32-unknown-unknown"]);
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

/** The npm devDependencies, installed by `npm ci` when the lockfile changed. */
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

/** A C++ compiler: `npm test` replays the fuzz targets, and their crate builds libFuzzer (fuzz/tests/replay.rs). */
function ensureCxx() {
  if (capture("c++", ["--version"]) === null) aptInstall(["g++"]);
}

/** Everything but the npm dependencies: what cargo and the browser tests need. */
export function setupSystem() {
  ensurePinnedToolchain();
  ensureReleaseToolchain();
  ensureWasmBindgenCli();
  ensureChromium();
  ensureXz();
  ensureCxx();
}

export function setup() {
  setupSystem();
  ensureNodeModules();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(() => {
    setup();
    console.log("setup: everything is in place");
  });
}
