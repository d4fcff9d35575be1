// @ts-check
// `agui-tool-calls/full`: the main entry's exports over the wasm module
// with every feature, saved threads (`load`) included: 3.7 KB gzip more
// than the main entry's (docs/size.md, "Saved threads in a module of
// their own"). A page that imports both entries downloads both modules
// and runs this one, if it is imported before `init()` is called.
import "./wasm-bytes-full.js";
import { loadedModule } from "./tracker.js";

// Imported after `init()` chose the main entry's module: its trackers
// refuse a saved thread, and nothing can change that now. Said here, at
// the mistake, rather than at the refusal, which names this entry.
if (loadedModule() === "main") {
  console.warn("agui-tool-calls: agui-tool-calls/full was imported after init() loaded the main entry's module, which cannot load saved threads: import agui-tool-calls/full before calling init()");
}

// The main entry's exports (see js/index.js).
export { init, warmUp, ToolCallTracker, ToolCallStreamError, ToolCallRefusedError, TrackerFreedError, TrackerTrappedError } from "./tracker.js";
