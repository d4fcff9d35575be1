// Costs a hostile or careless stream could make grow without bound:
// many warnings (every one kept and copied per event would be quadratic),
// and reading `partialArgs` after every delta of one wide open array.
// `npm run bench:hostile` (AGUI_PKG=<dir> measures another build, AGUI_N
// sets the events per case, AGUI_CASES=repeated,distinct,wide picks cases).
import { performance } from "node:perf_hooks";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.env.AGUI_PKG ? path.resolve(process.env.AGUI_PKG) : new URL("../pkg/", import.meta.url).pathname;
const { ToolCallTracker } = await import(pathToFileURL(path.join(dir, "index.js")).href);

const N = Number(process.env.AGUI_N ?? 80000);

function timed(label, fn) {
  const t0 = performance.now();
  const detail = fn();
  const ms = performance.now() - t0;
  console.log(`${label}: ${(ms / 1000).toFixed(2)} s (${((ms * 1e6) / N).toFixed(0)} ns per event)${detail ? `, ${detail}` : ""}`);
}

function unknownEvents(typeOf) {
  const t = new ToolCallTracker();
  t.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  for (let i = 0; i < N; i++) t.push({ type: typeOf(i) });
  const kept = t.snapshot().violations.length;
  t.free();
  return `${kept} violations kept`;
}

function wideArray() {
  const t = new ToolCallTracker();
  t.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  t.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
  t.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: '{"items":[' });
  let value;
  for (let i = 0; i < N; i++) {
    const s = t.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: i ? `,${i}` : "0" });
    value = s.calls[0].partialArgs;
  }
  t.free();
  return `last read has ${value.items.length} items`;
}

console.log(`Node ${process.version}, ${N} events each, package ${path.relative(process.cwd(), dir) || "."}`);
const cases = {
  repeated: ["unknown events, one type (E3 each)", () => unknownEvents(() => "NOT_A_TYPE")],
  distinct: ["unknown events, each a new type", () => unknownEvents((i) => `NOT_A_TYPE_${i}`)],
  wide: ["wide open array, partialArgs read per delta", wideArray],
};
for (const name of (process.env.AGUI_CASES ?? Object.keys(cases).join(",")).split(",")) timed(...cases[name]);
