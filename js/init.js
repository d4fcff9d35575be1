// @ts-check
// `agui-tool-calls/init`: the main entry under the name it had when the
// main entry awaited `init()` at the top level. Both are the same module
// now, neither awaits anything at import: kept so that existing imports
// keep working.
export * from "./index.js";
