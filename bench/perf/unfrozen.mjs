// What freezing costs the goals' pipeline: how many objects the JS layer
// freezes per event, and a copy of the package whose page freezes none.
//   node bench/perf/unfrozen.mjs [<out>]   (after `npm run build`)
// writes the copy to <out> (default: a new temporary directory) and prints
// the commands that compare it with pkg/:
//   node bench/perf/builds.mjs pkg <out> <out> pkg [--chromium]
//   node bench/perf/layers.mjs <out>
// The copy breaks the package's contract (snapshots, states, lists and
// partial values deeply frozen) and exists to be measured: the difference
// is what the freezing costs, the rest of the layer as it is. Every
// `Object.freeze(...)` of the snapshot layer's sources becomes the value
// itself; records the core sends are frozen by the same code, so they are
// left unfrozen too. The copy's tracker.js is bundled from js/ again,
// with pkg/'s glue, which the build minified after bundling its own: the
// two may differ in how terser arranged the loader, code that runs at
// `init()`, never per event.
import { mkdtempSync, readFileSync, cpSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { rebundleTracker } from "../../scripts/build.mjs";
import { oursSse } from "./measure.mjs";
import { scenario, sseChunks } from "./streams.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkg = path.join(root, "pkg");
const LAYER = ["snapshot.js", "partial-value.js", "patched-list.js"];
const FREEZE = "Object.freeze(";

/** What a frozen value is, for the count (the page's class names are minified). */
function kindOf(value) {
  if (Array.isArray(value)) return "arrays";
  if (value === null || typeof value !== "object") return "other objects";
  if (Object.hasOwn(value, "openCalls")) return "snapshots";
  return Object.hasOwn(value, "argsText") ? "call states" : "other objects";
}

/** Freezes per event of pkg/'s pipeline on each stream, by what is frozen. */
async function freezesPerEvent() {
  const { init, ToolCallTracker } = await import(pathToFileURL(path.join(pkg, "index.js")).href);
  await init();
  const freeze = Object.freeze;
  const rows = [];
  for (const key of ["a", "b", "c"]) {
    const chunks = sseChunks(scenario(key));
    const kinds = { snapshots: 0, "call states": 0, arrays: 0, "other objects": 0 };
    // Counted, then frozen as before: the package reads `Object.freeze` at each call.
    Object.freeze = (value) => {
      kinds[kindOf(value)]++;
      return freeze(value);
    };
    try {
      oursSse(ToolCallTracker, chunks);
    } finally {
      Object.freeze = freeze;
    }
    const total = Object.values(kinds).reduce((a, b) => a + b, 0);
    const parts = Object.entries(kinds).map(([kind, n]) => `${kind} ${(n / chunks.length).toFixed(2)}`);
    rows.push(`${key}: ${(total / chunks.length).toFixed(2)} freezes per event (${parts.join(", ")})`);
  }
  return rows;
}

/** The copy of pkg/ in `out` whose page freezes nothing; checked. */
async function unfrozenCopy(out) {
  cpSync(pkg, out, { recursive: true });
  await rebundleTracker(out, undefined, (dir) => {
    for (const name of LAYER) {
      const file = path.join(dir, name);
      const source = readFileSync(file, "utf8");
      if (!source.includes(FREEZE)) throw new Error(`${name} freezes nothing any more: update bench/perf/unfrozen.mjs`);
      writeFileSync(file, source.replaceAll(FREEZE, "((value) => value)("));
    }
  });
  const { init, ToolCallTracker } = await import(pathToFileURL(path.join(out, "index.js")).href);
  await init();
  const tracker = new ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  const snapshot = tracker.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
  tracker.free();
  if (Object.isFrozen(snapshot) || Object.isFrozen(snapshot.calls[0])) throw new Error("the copy still freezes its snapshots");
}

const out = path.resolve(process.argv[2] ?? mkdtempSync(path.join(os.tmpdir(), "agui-unfrozen-")));
for (const row of await freezesPerEvent()) console.log(row);
await unfrozenCopy(out);
const relative = path.relative(process.cwd(), out);
const rel = relative === "" ? "." : relative.startsWith("..") ? out : relative;
console.log(`\nwritten: ${out}\ncompare: node bench/perf/builds.mjs pkg ${rel} ${rel} pkg [--chromium]\n         node bench/perf/layers.mjs ${rel}`);
