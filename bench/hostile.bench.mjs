// Hostile streams against the built package (pkg/): how much wasm memory and
// time each takes before the tracker stops it (or the module traps).
//
//   node bench/hostile.bench.mjs            every scenario, each in a fresh process
//   node bench/hostile.bench.mjs sse-line   one scenario
//   AGUI_PKG=/path/to/pkg node bench/hostile.bench.mjs   another build
//
// Each scenario runs in its own process: wasm memory only grows, so one
// scenario's peak would hide the next one's.
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const MiB = 1024 * 1024;

const scenarios = {
  /** `data: ` and then never a line end. */
  "sse-line": (core) => endless(core, "data: ", () => "a".repeat(MiB)),
  /** A comment line that never ends. */
  "sse-comment": (core) => endless(core, ": ", () => "a".repeat(MiB)),
  /** `data:` lines, never a blank line to end the event. */
  "sse-data-lines": (core) => endless(core, "", () => `data: ${"a".repeat(MiB - 7)}\n`),
  /** Calls with arguments at the per-call limit (4 MiB in two deltas), up to 10 000 calls. */
  "many-calls": (core) => {
    let fed = 0;
    const half = "x".repeat(2 * MiB - 8);
    core.feedJson(JSON.stringify({ type: "RUN_STARTED", threadId: "t", runId: "r" }));
    for (let i = 0; i < 10_000; i++) {
      const id = `call_${i}`;
      const ok =
        core.feedJson(JSON.stringify({ type: "TOOL_CALL_START", toolCallId: id, toolCallName: "f" })) &&
        core.feedJson(JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: id, delta: `["${half}` })) &&
        core.feedJson(JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: id, delta: `${half}"]` })) &&
        core.feedJson(JSON.stringify({ type: "TOOL_CALL_END", toolCallId: id }));
      fed += 2 * half.length;
      if (!ok) return { fed, stopped: "fatal" };
    }
    return { fed, stopped: "no" };
  },
  /**
   * Calls whose 4 MiB of arguments parse into millions of values at the end:
   * the most memory one event can take while it is applied.
   */
  "wide-args": (core) => wideResults(core, 0),
  /** The same once the thread budget is nearly spent (7 calls of 4 MiB). */
  "full-then-wide": (core) => wideResults(core, 7),
  /** A pattern from the stream's run input that backtracks exponentially. */
  regex: (core) => {
    const tool = {
      name: "f",
      parameters: { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } },
    };
    const s = `${"a".repeat(29)}!`;
    core.feedJson(JSON.stringify({ type: "RUN_STARTED", threadId: "t", runId: "r", input: { tools: [tool] } }));
    core.feedJson(JSON.stringify({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" }));
    core.feedJson(JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: JSON.stringify({ s }) }));
    const ok = core.feedJson(JSON.stringify({ type: "TOOL_CALL_END", toolCallId: "c" }));
    const call = JSON.parse(core.summary()).calls?.[0];
    return { fed: s.length, stopped: ok ? "no" : "fatal", validation: call?.validation };
  },
};

/** `calls` calls with 4 MiB of arguments, then calls with 2M zeros as arguments. */
function wideResults(core, calls) {
  let fed = 0;
  const half = "x".repeat(2 * MiB - 8);
  core.feedJson(JSON.stringify({ type: "RUN_STARTED", threadId: "t", runId: "r" }));
  for (let i = 0; i < calls; i++) {
    core.feedJson(JSON.stringify({ type: "TOOL_CALL_START", toolCallId: `a${i}`, toolCallName: "f" }));
    core.feedJson(JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: `a${i}`, delta: `["${half}` }));
    core.feedJson(JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: `a${i}`, delta: `${half}"]` }));
    if (!core.feedJson(JSON.stringify({ type: "TOOL_CALL_END", toolCallId: `a${i}` }))) return { fed, stopped: "fatal early" };
  }
  // Calls whose arguments are 2M zeros (two deltas of 2 MiB), parsed at the end.
  const zeros = "0,".repeat(MiB - 16);
  for (let i = 0; i < 100; i++) {
    const id = `z${i}`;
    const ok =
      core.feedJson(JSON.stringify({ type: "TOOL_CALL_START", toolCallId: id, toolCallName: "f" })) &&
      core.feedJson(JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: id, delta: `[${zeros}` })) &&
      core.feedJson(JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: id, delta: `${zeros}0]` })) &&
      core.feedJson(JSON.stringify({ type: "TOOL_CALL_END", toolCallId: id }));
    fed += 4 * MiB;
    if (!ok) return { fed, stopped: "fatal" };
  }
  return { fed, stopped: "no" };
}

/** Feeds `head`, then `chunk()` again and again, up to 2 GiB or a stop. */
function endless(core, head, chunk) {
  core.feedSse(new TextEncoder().encode(head));
  const bytes = new TextEncoder().encode(chunk());
  let fed = head.length;
  while (fed < 2048 * MiB) {
    const ok = core.feedSse(bytes);
    fed += bytes.length;
    if (!ok) return { fed, stopped: "fatal" };
  }
  return { fed, stopped: "no" };
}

async function runOne(name) {
  const pkg = process.env.AGUI_PKG ? pathToFileURL(`${process.env.AGUI_PKG}/`) : new URL("../pkg/", import.meta.url);
  await (await import(new URL("index.js", pkg))).init(); // instantiates the module
  const glue = await import(new URL("agui_tool_calls.js", pkg));
  const exports = glue.initSync(); // already initialised: returns the exports
  const core = new glue.WasmTracker("{}");
  const t0 = performance.now();
  let result;
  try {
    result = scenarios[name](core);
  } catch (e) {
    result = { stopped: `trap: ${e.message}` };
  }
  const ms = performance.now() - t0;
  const memory = exports.memory.buffer.byteLength / MiB;
  let fatal = null;
  try {
    fatal = JSON.parse(core.summary()).fatal;
  } catch {
    // a trapped module answers nothing more
  }
  console.log(
    JSON.stringify({
      scenario: name,
      ms: Math.round(ms),
      wasmMemoryMiB: Math.round(memory),
      fedMiB: result.fed === undefined ? undefined : Math.round(result.fed / MiB),
      stopped: result.stopped,
      fatal: fatal && `${fatal.code}: ${fatal.message}`,
      ...(result.validation !== undefined && { validation: result.validation }),
    }),
  );
}

const wanted = process.argv[2];
if (wanted) {
  await runOne(wanted);
} else {
  for (const name of Object.keys(scenarios)) {
    execFileSync(process.execPath, [fileURLToPath(import.meta.url), name], { stdio: "inherit" });
  }
}
