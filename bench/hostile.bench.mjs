// Hostile streams against the built package (pkg/): how much wasm memory and
// time each takes before the tracker stops it (or the module traps).
//
//   node bench/hostile.bench.mjs            every scenario, each in a fresh process
//   node bench/hostile.bench.mjs sse-line   one scenario
//   node bench/hostile.bench.mjs schema-    every scenario whose name starts so
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
    const call = JSON.parse(core.text(2 /* summaryWithoutViolations */)).calls?.[0];
    return { fed: s.length, stopped: ok ? "no" : "fatal", validation: call?.validation };
  },
  /**
   * The application's own ordinary schema (a list of strings) and calls
   * whose 4 MiB of arguments are 2M numbers: every item fails.
   */
  "schema-errors": (core) => {
    const zeros = "0,".repeat(MiB - 16);
    core.feedJson(JSON.stringify({ type: "RUN_STARTED", threadId: "t", runId: "r" }));
    let fed = 0;
    let slowest = 0;
    for (let i = 0; i < 15; i++) {
      const id = `c${i}`;
      let ok =
        core.feedJson(JSON.stringify({ type: "TOOL_CALL_START", toolCallId: id, toolCallName: "f" })) &&
        core.feedJson(JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: id, delta: `{"l":[${zeros}` })) &&
        core.feedJson(JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: id, delta: `${zeros}0]}` }));
      if (ok) {
        const t0 = performance.now();
        ok = core.feedJson(JSON.stringify({ type: "TOOL_CALL_END", toolCallId: id }));
        slowest = Math.max(slowest, performance.now() - t0);
      }
      fed += 4 * MiB;
      if (!ok) return { fed, stopped: "fatal", slowestEventMs: slowest, ...verdict(core) };
    }
    return { fed, stopped: "no", slowestEventMs: slowest, ...verdict(core) };
  },
  /** A stream schema requiring a 1,000-character name of each item; 1.3M `{}`. */
  "schema-long-required": (core) => {
    streamSchema(core, { type: "array", items: { required: ["n".repeat(1000)] } });
    return streamCall(core, `[${"{},".repeat(1_300_000)}{}]`);
  },
  /** A stream schema's `enum` of 100,000 strings against 100,000 items in none of them. */
  "schema-enum": (core) => {
    const values = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    streamSchema(core, { type: "array", items: { enum: values } });
    return streamCall(core, JSON.stringify(values.map((v) => `w${v}`)));
  },
  /** A stream schema of 100,000 `properties`, compiled at the call's end, against 100,000 keys, twice (two runs). */
  "schema-properties": (core) => {
    const properties = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`p${i}`, { type: "string" }]));
    const args = JSON.stringify(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`p${i}`, i])));
    let result;
    for (let run = 0; run < 2; run++) {
      const t0 = performance.now();
      streamSchema(core, { type: "object", properties }, `r${run}`);
      const runStartMs = performance.now() - t0;
      result = { ...streamCall(core, args, `c${run}`), runStartMs: Math.round(runStartMs) };
      core.feedJson(JSON.stringify({ type: "RUN_FINISHED", threadId: "t", runId: `r${run}` }));
    }
    return result;
  },
  /** As many subschemas with a keyword as one 4 MiB `RUN_STARTED` carries (`"pN":{"type":"null"}`), compiled at a call's end. */
  "schema-compile-4mib": (core) => packedSchema(core, { type: "null" }),
  /** As many empty subschemas as one 4 MiB `RUN_STARTED` carries (`"pN":{}`). */
  "schema-compile-4mib-empty": (core) => packedSchema(core, {}),
  /** Draft-04's boolean `exclusiveMaximum`: `{n: 1}` against `maximum: 1, exclusiveMaximum: true`. */
  "draft04-exclusive": (core) => {
    streamSchema(core, { $schema: "http://json-schema.org/draft-04/schema#", properties: { n: { maximum: 1, exclusiveMaximum: true } } });
    return streamCall(core, JSON.stringify({ n: 1 }));
  },
};

/** A stream schema of as many properties `sub` as fit in 4 MiB, compiled at a call's end. */
function packedSchema(core, sub) {
  const properties = {};
  const size = JSON.stringify(sub).length + 5;
  let bytes = 0;
  for (let i = 0; bytes < 4 * MiB - 65536; i++) {
    properties[`p${i}`] = sub;
    bytes += size + String(i).length;
  }
  const t0 = performance.now();
  streamSchema(core, { type: "object", properties });
  const runStartMs = Math.round(performance.now() - t0);
  return { ...streamCall(core, "{}"), runStartMs, subschemas: Object.keys(properties).length };
}

/** A run whose input advertises `parameters` for tool `f`: a schema only the stream supplies. */
function streamSchema(core, parameters, runId = "r") {
  const tool = { name: "f", description: "", parameters };
  core.feedJson(JSON.stringify({ type: "RUN_STARTED", threadId: "t", runId, input: { tools: [tool] } }));
}

/** One call to `f` with `text` as arguments, in deltas of 2 MiB; the time its END took. */
function streamCall(core, text, id = "c") {
  let ok = core.feedJson(JSON.stringify({ type: "TOOL_CALL_START", toolCallId: id, toolCallName: "f" }));
  for (let at = 0; ok && at < text.length; at += 2 * MiB) {
    ok = core.feedJson(JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: id, delta: text.slice(at, at + 2 * MiB) }));
  }
  const t0 = performance.now();
  ok = ok && core.feedJson(JSON.stringify({ type: "TOOL_CALL_END", toolCallId: id }));
  return { fed: text.length, stopped: ok ? "no" : "fatal", slowestEventMs: Math.round(performance.now() - t0), ...verdict(core) };
}

/** The last call's validation, and how many schema errors it counts and keeps. */
function verdict(core) {
  const calls = JSON.parse(core.text(2 /* summaryWithoutViolations */)).calls ?? [];
  const call = calls[calls.length - 1];
  const error = call?.argsError;
  return {
    validation: call?.validation,
    ...(error && { errorCount: error.errorCount, errorsKept: error.errors?.length, lastError: error.errors?.at(-1)?.message.slice(0, 80) }),
  };
}

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
  const glue = await import(new URL("tracker.js", pkg)); // the glue, bundled there
  const exports = glue.initSync(); // already initialised: returns the exports
  // The application's own tool for `schema-errors`; the other scenarios advertise theirs in the run input.
  const options = name === "schema-errors" ? { tools: [{ name: "f", description: "", parameters: { type: "object", properties: { l: { type: "array", items: { type: "string" } } } } }] } : {};
  const core = new glue.WasmTracker(JSON.stringify(options));
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
    fatal = JSON.parse(core.text(2 /* summaryWithoutViolations */)).fatal;
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
      ...(result.slowestEventMs !== undefined && { slowestEventMs: Math.round(result.slowestEventMs) }),
      ...(result.runStartMs !== undefined && { runStartMs: result.runStartMs }),
      ...(result.subschemas !== undefined && { subschemas: result.subschemas }),
      ...(result.errorCount !== undefined && { errorCount: result.errorCount, errorsKept: result.errorsKept, lastError: result.lastError }),
    }),
  );
}

const wanted = process.argv[2];
if (wanted && wanted in scenarios) {
  await runOne(wanted);
} else {
  for (const name of Object.keys(scenarios).filter((n) => !wanted || n.startsWith(wanted))) {
    execFileSync(process.execPath, [fileURLToPath(import.meta.url), name], { stdio: "inherit" });
  }
}
