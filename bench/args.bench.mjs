// Streaming arguments: cost per delta of 4-byte deltas at 1 KB, 16 KB and
// 256 KB of arguments, this package against the re-parse-everything
// approach of partial-json, untruncate-json and the AI SDK's
// parsePartialJson, on the same deltas, in one run. `npm run bench:args`.
//
// Ours, three ways: the reader (each delta as an event into the wasm core,
// no snapshot), push (event object to new frozen snapshot, the whole
// pipeline), and push + reading partialArgs after every delta, as a page
// that renders every delta (the value is built incrementally: the new text
// plus the open containers).
//
// The re-parsers do O(text) work per delta, so running all 65,000 deltas of
// 256 KB would take minutes; for them the cost per delta is the mean over
// 200 prefixes spread evenly through the text (the same average, sampled).
import { parse as partialJson } from "partial-json";
import untruncateModule from "untruncate-json";
import { parsePartialJson } from "@ai-sdk/ui-utils";
import { init, ToolCallTracker } from "../pkg/index.js";
import { WasmTracker } from "../pkg/tracker.js";

await init(); // the glue (`WasmTracker`) is used directly
import { nsPerOp, argumentsOfSize, deltas, kb, warmUp } from "./support.mjs";

warmUp(ToolCallTracker);

const untruncateJson = untruncateModule.default ?? untruncateModule;
const SIZES = [1024, 16 * 1024, 256 * 1024];
const DELTA = 4;
const SAMPLES = 200;

/** This package: every delta pushed as a TOOL_CALL_ARGS event. */
function ours(parts, readPartial) {
  let tracker;
  const setup = () => {
    tracker?.free();
    tracker = new ToolCallTracker();
    tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
    tracker.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "write_report" });
  };
  return nsPerOp(
    parts.length,
    (i) => {
      const s = tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: parts[i] });
      if (readPartial) void s.calls[0].partialArgs;
    },
    3,
    setup,
  );
}

/**
 * The reader alone: each delta as a TOOL_CALL_ARGS event (JSON text) into
 * the wasm core, which parses the event and advances the argument reader,
 * without building a snapshot.
 */
function reader(parts) {
  const events = parts.map((delta) => JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta }));
  let core;
  const setup = () => {
    core?.free();
    core = new WasmTracker("{}");
    core.feedJson('{"type":"RUN_STARTED","threadId":"t","runId":"r"}');
    core.feedJson('{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"write_report"}');
  };
  return nsPerOp(events.length, (i) => core.feedJson(events[i]), 3, setup);
}

/** A re-parser: append the delta, parse the whole text (sampled prefixes). */
function reparser(parts, parseText) {
  const prefixes = [];
  let text = "";
  const every = Math.max(1, Math.floor(parts.length / SAMPLES));
  parts.forEach((d, i) => {
    text += d;
    if (i % every === 0) prefixes.push(text);
  });
  return nsPerOp(prefixes.length, (i) => parseText(prefixes[i]), 2);
}

const competitors = {
  "partial-json": (t) => partialJson(t),
  "untruncate-json": (t) => {
    try {
      return JSON.parse(untruncateJson(t));
    } catch {
      return undefined;
    }
  },
  "ai-sdk parsePartialJson": (t) => parsePartialJson(t),
};

const rows = [];
for (const size of SIZES) {
  const parts = deltas(argumentsOfSize(size), DELTA);
  const row = { size: kb(size), deltas: parts.length };
  row["ours: reader"] = reader(parts);
  row["ours: push"] = ours(parts, false);
  row["ours: push + partialArgs"] = ours(parts, true);
  for (const [name, fn] of Object.entries(competitors)) row[name] = reparser(parts, fn);
  rows.push(row);
}

const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);
console.log(`cost per ${DELTA}-byte delta (Node ${process.version})\n`);
console.table(
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "number" && k !== "deltas" ? fmt(v) : v]))),
);

const [small, mid, large] = rows;
const fastest16 = Math.min(...Object.keys(competitors).map((k) => mid[k]));
console.log("ratios");
console.log(`  flatness, ours reader, 256 KB / 1 KB:              ${(large["ours: reader"] / small["ours: reader"]).toFixed(2)}x  (target ≤ 1.5x)`);
console.log(`  flatness, ours push, 256 KB / 1 KB:                ${(large["ours: push"] / small["ours: push"]).toFixed(2)}x`);
console.log(`  speed-up at 16 KB, fastest re-parser / ours reader: ${(fastest16 / mid["ours: reader"]).toFixed(1)}x  (target ≥ 20x)`);
console.log(`  speed-up at 16 KB, fastest re-parser / ours push:  ${(fastest16 / mid["ours: push"]).toFixed(1)}x  (event to frozen snapshot, against a parse alone)`);
console.log(`  speed-up at 16 KB, fastest re-parser / ours push + partialArgs: ${(fastest16 / mid["ours: push + partialArgs"]).toFixed(1)}x`);
console.log(`  flatness, ours push + partialArgs, 256 KB / 1 KB:  ${(large["ours: push + partialArgs"] / small["ours: push + partialArgs"]).toFixed(2)}x`);
