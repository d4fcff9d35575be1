// The worker of warm.js: instantiates the module the page compiled (the
// same compiled code, shared) and runs a small stream through the wasm
// tracker, so that V8 compiles, then optimises, the functions a stream
// runs on this thread rather than on the page's. Its memory goes with it.
import { WasmTracker, initSync } from "./agui_tool_calls.js";

/** Passes through the stream: enough calls for V8 to optimise the hottest functions. */
const ROUNDS = 30;

onmessage = ({ data: module }) => {
  let ok = false;
  try {
    initSync({ module });
    const stream = frames();
    for (let round = 0; round < ROUNDS; round++) {
      const tracker = new WasmTracker("{}", false);
      for (const frame of stream) {
        tracker.feedSse(frame);
        if (tracker.takeChange() === 1) tracker.takeRecord();
      }
      tracker.free();
    }
    ok = true;
  } finally {
    postMessage(ok);
  }
};

/** One run with one call, as event-stream frames: the events a first stream brings, arguments of every JSON kind in small deltas. */
function frames() {
  const encoder = new TextEncoder();
  const frame = (event) => encoder.encode(`data: ${JSON.stringify(event)}\n\n`);
  const id = { toolCallId: "c1" };
  const args = '{"query":"caf\\u00e9 \\"menu\\"","limit":12,"ratio":-0.5e1,"strict":true,"tags":["a",null,false],"where":{"city":"Zürich"}}';
  const events = [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "TOOL_CALL_START", ...id, toolCallName: "search", parentMessageId: "m1" },
  ];
  for (let i = 0; i < args.length; i += 4) events.push({ type: "TOOL_CALL_ARGS", ...id, delta: args.slice(i, i + 4) });
  events.push({ type: "TOOL_CALL_END", ...id }, { type: "TOOL_CALL_RESULT", messageId: "r1", ...id, content: "found", role: "tool" });
  events.push({ type: "RUN_FINISHED", threadId: "t", runId: "r" });
  return events.map(frame);
}
