// The worker of warm.js: instantiates the module the page compiled (the
// same compiled code, shared) and runs a small stream through the wasm
// tracker once, so that V8 compiles the functions a stream runs on this
// thread rather than on the page's. Its memory goes with it.
import { WasmTracker, initSync } from "./agui_tool_calls.js";

// One pass: that compiles each function the stream runs. More passes
// would also have V8 optimise the hottest ones (shared too), but measured
// no faster a first stream in the page (64-68 µs per event after 1, 3 or
// 30 passes, bench/perf/cold-chromium.mjs --after-warm-up) for about 8
// times the worker's CPU time (30 passes; optimising the largest
// functions is most of it).
globalThis.onmessage = ({ data: module }) => {
  let ok = false;
  try {
    initSync({ module });
    const tracker = new WasmTracker("{}", false);
    for (const frame of frames()) {
      tracker.feedSse(frame);
      if (tracker.takeChange() === 1) tracker.takeRecord();
    }
    tracker.free();
    ok = true;
  } finally {
    globalThis.postMessage(ok);
  }
};

/**
 * One run with one call, as event-stream frames, a frame per event: its
 * argument deltas end inside a string, an escape, a number and a literal,
 * as a model's do, and hold every kind of JSON value.
 */
export function frames() {
  const call = { toolCallId: "c1" };
  const events = [{ type: "RUN_STARTED", threadId: "t", runId: "r" }, { type: "TOOL_CALL_START", ...call, toolCallName: "search" }];
  for (const delta of ['{"q":"caf\\u00', 'e9 \\"x\\"","n":-1.5', 'e1,"l":[true,nu', 'll],"o":{}}']) events.push({ type: "TOOL_CALL_ARGS", ...call, delta });
  events.push({ type: "TOOL_CALL_END", ...call }, { type: "TOOL_CALL_RESULT", messageId: "m1", ...call, content: "found" });
  events.push({ type: "RUN_FINISHED", threadId: "t", runId: "r" });
  const encoder = new TextEncoder();
  return events.map((event) => encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
}
