// @ts-check
// The main entry (and `agui-tool-calls/init`, its other name): the tracker
// (js/tracker.js) over the wasm module built without saved threads, which
// every page downloads and few use: `load` and `ToolCallTracker.restore`
// with a saved value refuse, naming `agui-tool-calls/full` (js/full.js),
// the same exports over the module with everything. The bytes' module
// hands them to the loader as it is evaluated: an import for its effect.
import "./wasm-bytes.js";

// Named one by one: the tracker module also exports what the package's own
// modules share (the loader's `provide`, the core's `WasmTracker`).
export { init, warmUp, ToolCallTracker, ToolCallStreamError, ToolCallRefusedError, TrackerFreedError, TrackerTrappedError } from "./tracker.js";
