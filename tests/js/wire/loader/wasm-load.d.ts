// The loader as js/ imports it (`./wasm-load.js`): the build bundles
// js/wasm-embedded.js into pkg/tracker.js under that name, so no file of
// that name exists to type-check against; this one stands for it (a root
// of `rootDirs` in ../tsconfig.json and ../../checker-types/tsconfig.json).
export * from "../../../../js/wasm-embedded.js";
