// The worker of warm.js: instantiates the module the page compiled (the
// same compiled code, shared) and runs a small stream through the wasm
// tracker once, so that V8 compiles the functions a stream runs on this
// thread rather than on the page's. Its memory goes with it.
import { WasmTracker, initSync } from "./agui_tool_calls.js";

/** A tool with a schema, so that the schema compiler and validator are compiled too. */
export const options = {
  tools: [{ name: "search", parameters: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1 } }, required: ["query"] } }],
};

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
    const tracker = new WasmTracker(JSON.stringify(options), false);
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

/** One run as event-stream frames, the events a first stream brings: a text message, a call of the declared tool (arguments of every JSON kind in small deltas), a call the backend answers. */
export function frames() {
  const encoder = new TextEncoder();
  const frame = (event) => encoder.encode(`data: ${JSON.stringify(event)}\n\n`);
  const id = { toolCallId: "c1" };
  const args = '{"query":"caf\\u00e9 \\"menu\\"","limit":12,"ratio":-0.5e1,"strict":true,"tags":["a",null,false],"where":{"city":"Zürich"}}';
  const text = { messageId: "m1" };
  const events = [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "TEXT_MESSAGE_START", ...text, role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", ...text, delta: "Searching" },
    { type: "TEXT_MESSAGE_END", ...text },
    { type: "TOOL_CALL_START", ...id, toolCallName: "search", parentMessageId: "m1" },
  ];
  for (let i = 0; i < args.length; i += 4) events.push({ type: "TOOL_CALL_ARGS", ...id, delta: args.slice(i, i + 4) });
  events.push({ type: "TOOL_CALL_END", ...id });
  // A call the backend answers: a tool the options do not declare.
  const backend = { toolCallId: "c2" };
  events.push({ type: "TOOL_CALL_START", ...backend, toolCallName: "fetch", parentMessageId: "m1" });
  events.push({ type: "TOOL_CALL_ARGS", ...backend, delta: '{"url":"/"}' }, { type: "TOOL_CALL_END", ...backend });
  events.push({ type: "TOOL_CALL_RESULT", messageId: "r1", ...backend, content: "found", role: "tool" });
  events.push({ type: "RUN_FINISHED", threadId: "t", runId: "r" });
  return events.map(frame);
}
