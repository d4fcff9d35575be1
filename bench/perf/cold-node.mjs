// One cold sample in a fresh Node process, for bench/perf.bench.mjs:
// `node bench/perf/cold-node.mjs ours|ref` prints the figures of
// measure.mjs's `cold()` as JSON.
import { cold } from "./measure.mjs";
import { scenario, sseChunks } from "./streams.mjs";

const lib = process.argv[2];
if (lib !== "ours" && lib !== "ref") throw new Error("usage: node bench/perf/cold-node.mjs ours|ref");
const chunks = sseChunks(scenario("cold"));
const load = () => (lib === "ours" ? import("../../pkg/index.js") : import("./reference.mjs"));
console.log(JSON.stringify(await cold(lib, load, chunks)));
