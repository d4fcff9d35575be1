// Runs the stream checker as users run it: `agui-tool-calls check` in a
// child process on the built package.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pkgDir } from "./paths.mjs";

/** The package's command-line entry point. */
export const cli = path.join(pkgDir, "cli.js");

/** `check` with `args`, waited for; its status, stdout and stderr as text. */
export function check(args, options = {}) {
  const result = spawnSync(process.execPath, [cli, "check", ...args], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  assert.equal(result.error, undefined);
  return result;
}

/** `check --format json` with `args`, its report parsed. */
export function checkJson(args, options) {
  const result = check(["--format", "json", ...args], options);
  return { ...result, report: JSON.parse(result.stdout) };
}
