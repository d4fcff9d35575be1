// `agui-tool-calls/full`: the main entry's exports, over the wasm module
// with saved threads (`load`, `ToolCallTracker.restore` with a saved value).
export * from "./index.js";
