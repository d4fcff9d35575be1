// @ts-check
// The worker of warm.js: instantiates the module the page compiled (the
// same compiled code, shared) and runs the small stream the page sends
// (js/warm-up.js) through the wasm tracker once, so that V8 compiles the
// functions a stream runs on this thread rather than on the page's. Its
// memory goes with it.
import { WasmTracker, initSync } from "./agui_tool_calls.js";

// One pass: that compiles each function the stream runs. More passes
// would also have V8 optimise the hottest ones (shared too), but measured
// no faster a first stream in the page (64-68 µs per event after 1, 3 or
// 30 passes, bench/perf/cold-chromium.mjs --warm-up) for about 8
// times the worker's CPU time (30 passes; optimising the largest
// functions is most of it).
globalThis.onmessage = ({ data: { module, frames } }) => {
  let ok = false;
  try {
    initSync({ module });
    const tracker = new WasmTracker("{}", 0);
    for (const frame of frames) {
      tracker.feedSse(frame);
      if (tracker.takeChange() === 1) tracker.takeRecord();
    }
    tracker.free();
    ok = true;
  } finally {
    globalThis.postMessage(ok);
  }
};
