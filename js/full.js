// @ts-check
// `agui-tool-calls/full`: the main entry's exports over the wasm module
// with every feature, saved threads (`load`) included: 3.5 KB gzip more
// than the main entry's (docs/size.md, "Saved threads in a module of
// their own"). A page that imports both entries downloads both modules
// and runs this one, if it is imported before `init()` is called.
import "./wasm-bytes-full.js";

export * from "./tracker.js";
