// One cold sample in a fresh Node process, for bench/perf.bench.mjs:
// `node bench/perf/cold-node.mjs ours|off|ref [pkgDir]` prints, as JSON,
// the import's wall-clock ms, the wall-clock ms from the start of the
// import to the first snapshot showing the call, the process's CPU ms
// from the start of the import to the start of the stream, and the first
// stream's CPU time per event in µs. `ours`: `init({ warmUp: "idle" })`
// (the warm-up runs on the event loop's next turn); `off`: `init()`, no
// warm-up; from pkg/, or from pkgDir (the profile's
// copy). As in the page, the stream starts once the process is idle and
// ours' warm-up has ended: a server's first stream comes after it started.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { coldImport, coldStream, cpuTime } from "./measure.mjs";
import { scenario, sseChunks } from "./streams.mjs";

const lib = process.argv[2];
if (!["ours", "off", "ref"].includes(lib)) throw new Error("usage: node bench/perf/cold-node.mjs ours|off|ref [pkgDir]");
const dir = process.argv[3] ? path.resolve(process.argv[3]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "pkg");
const file = (name) => pathToFileURL(path.join(dir, name)).href;
const chunks = sseChunks(scenario("cold"));
const load = async () => {
  if (lib === "ref") return import("./reference.mjs");
  const mod = await import(file("index.js"));
  await mod.init(lib === "ours" ? { warmUp: "idle" } : undefined);
  return mod;
};
cpuTime(); // its first call loads what it needs: not on the stream's time
const c0 = cpuTime();
const { mod, importMs } = await coldImport(load);
const alive = setTimeout(() => {}, 60_000); // the warm-up's timer alone would not keep the process alive
// The loader's warm-up, re-exported by the tracker's module (older builds: the loader's file).
const loader = async (name) => import(file(name)).catch(() => ({}));
if (lib !== "ref") await ((await loader("tracker.js")).warmed ?? (await loader("wasm-load.js")).warmed)?.();
await new Promise((resolve) => setTimeout(resolve));
clearTimeout(alive);
const beforeMs = cpuTime() - c0;
const { toFirstMs, ms } = await coldStream(lib === "ref" ? "ref" : "ours", mod, chunks, cpuTime);
console.log(JSON.stringify({ importMs, firstSnapshotMs: importMs + toFirstMs, beforeMs, perEventUs: (ms * 1e3) / chunks.length, events: chunks.length }));
