// Small helpers shared by the setup, build and test scripts (Node builtins only,
// so they run before `npm ci` has installed anything).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Runs a command in the repository root, streaming its output; throws on failure. */
export function run(cmd, args, options = {}) {
  const shown = [cmd, ...args].join(" ");
  console.log(`\n$ ${shown}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...options });
  if (result.error) throw new Error(`${shown}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${shown}: exit status ${result.status}`);
}

/** Runs a command quietly and returns its stdout, or null when it cannot run. */
export function capture(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, encoding: "utf8", ...options });
  return result.status === 0 ? result.stdout : null;
}

/** Runs `main`, printing a one-line error instead of a stack trace on failure. */
export async function main(fn) {
  try {
    await fn();
  } catch (error) {
    console.error(`\nerror: ${error.message}`);
    process.exit(1);
  }
}
