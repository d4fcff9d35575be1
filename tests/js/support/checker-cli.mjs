// Runs the stream checker as users run it: `agui-tool-calls check` in a
// child process on the built package.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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

/**
 * `check` with `args` in a child process, its peak RSS reported
 * (`AGUI_CHECK_REPORT_RSS`): `{ status, stdout, stderr, peak }`.
 */
export async function checkMeasured(args) {
  const child = spawn(process.execPath, [cli, "check", ...args], { env: { ...process.env, AGUI_CHECK_REPORT_RSS: "1", NO_COLOR: "1" } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const [status] = await once(child, "close");
  const peak = Number(stderr.match(/^rss-peak-bytes: (\d+)$/m)?.[1]);
  assert.ok(peak > 0, stderr);
  return { status, stdout, stderr, peak };
}

/** One event as a line of JSON. */
export const ev = (e) => JSON.stringify(e) + "\n";
export const started = ev({ type: "RUN_STARTED", threadId: "t", runId: "r" });
export const finished = ev({ type: "RUN_FINISHED", threadId: "t", runId: "r" });

/** A scratch folder, removed when the process exits, and `write(name, content)` that puts a file in it and returns its path. */
export function scratch(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const write = (name, content) => {
    const file = path.join(dir, name);
    writeFileSync(file, content);
    return file;
  };
  return { dir, write };
}
