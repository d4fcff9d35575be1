// One cold sample in a fresh Node process, for bench/perf.bench.mjs:
// `node bench/perf/cold-node.mjs ours|ref [pkgDir]` prints the figures of
// measure.mjs's `cold()` as JSON (ours from pkg/, or from pkgDir: the
// profile's copy).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { cold } from "./measure.mjs";
import { scenario, sseChunks } from "./streams.mjs";

const lib = process.argv[2];
if (lib !== "ours" && lib !== "ref") throw new Error("usage: node bench/perf/cold-node.mjs ours|ref [pkgDir]");
const pkg = process.argv[3] ? pathToFileURL(path.join(path.resolve(process.argv[3]), "index.js")).href : "../../pkg/index.js";
const chunks = sseChunks(scenario("cold"));
const load = () => (lib === "ours" ? import(pkg) : import("./reference.mjs"));
console.log(JSON.stringify(await cold(lib, load, chunks)));
