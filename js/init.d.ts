// `agui-tool-calls/init`: the main entry's declarations (the same module).
export * from "./index.js";
