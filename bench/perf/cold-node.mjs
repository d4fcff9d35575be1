// One cold sample in a fresh Node process, for bench/perf.bench.mjs:
// `node bench/perf/cold-node.mjs ours|ref [pkgDir]` prints, as JSON, the
// import's wall-clock ms, the wall-clock ms from the start of the import
// to the first snapshot showing the call, and the first stream's CPU time
// per event in µs (ours from pkg/, or from pkgDir: the profile's copy).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { coldImport, coldStream } from "./measure.mjs";
import { scenario, sseChunks } from "./streams.mjs";

const lib = process.argv[2];
if (lib !== "ours" && lib !== "ref") throw new Error("usage: node bench/perf/cold-node.mjs ours|ref [pkgDir]");
const pkg = process.argv[3] ? pathToFileURL(path.join(path.resolve(process.argv[3]), "index.js")).href : "../../pkg/index.js";
const chunks = sseChunks(scenario("cold"));
const load = () => (lib === "ours" ? import(pkg) : import("./reference.mjs"));
const cpuTime = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e3;
};
cpuTime(); // its first call loads what it needs: not on the stream's time
const { mod, importMs } = await coldImport(load);
const { toFirstMs, ms } = await coldStream(lib, mod, chunks, cpuTime);
console.log(JSON.stringify({ importMs, firstSnapshotMs: importMs + toFirstMs, perEventUs: (ms * 1e3) / chunks.length, events: chunks.length }));
