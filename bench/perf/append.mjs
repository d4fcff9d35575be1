// The JS layer's share of a delta, alone: each checkout's SnapshotBuilder
// (js/snapshot.js) folds in the text changes of one call's 1 KB of nested
// arguments (bench/support.mjs's document, in deltas of 4 characters, as
// the streams of `npm run bench` send them), on the last of 50 calls (49
// complete), as `applyTextChange` does for every `TOOL_CALL_ARGS`; with and
// without a read of the open call's `partialArgs` after each. The changes
// (appended text, cut, suffix) are this repository's core's, taken once
// from its built pkg/; the records that set the calls up come from each
// checkout's own core.
//   node bench/perf/append.mjs <checkout> [<checkout> ...]
// (this repository's root, a worktree of another commit, each built with
// `npm run build`). CPU time per change, median of 150 rounds after 10;
// the checkouts alternate round by round in one process, so the ratios
// hold on a busy machine where the absolute figures do not (give each
// checkout twice, in both orders, to see what is left of the noise).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { argumentsOfSize, deltas } from "../support.mjs";
import { cpuTime } from "./measure.mjs";
import { DELTA_UNITS } from "./streams.mjs";

const roots = process.argv.slice(2).map((dir) => path.resolve(dir));
if (roots.length === 0) throw new Error("usage: node bench/perf/append.mjs <checkout> [<checkout> ...]");
const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const CALLS = 50;
const ROUNDS = 150;
const WARM = 10;

const load = (root, file) => import(pathToFileURL(path.join(root, file)).href);

/** The text changes of the call, as this repository's core reports them: `[append, cut, suffix]`. */
async function textChanges() {
  const { init } = await load(here, "pkg/index.js");
  await init();
  const { WasmTracker, initSync } = await load(here, "pkg/tracker.js");
  const { memory } = initSync();
  const decoder = new TextDecoder();
  const core = new WasmTracker("{}", 0);
  const feed = (event) => {
    core.feedJson(JSON.stringify(event));
    return core.takeChange(false);
  };
  const changes = [];
  feed({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  if (feed({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "write_report" }) === 1) core.takeRecord();
  for (const delta of deltas(argumentsOfSize(1024), DELTA_UNITS)) {
    const change = feed({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta });
    if (change <= 1) throw new Error("a delta the core did not report as appended text");
    // The change header, as js/wasm-text.js reads it: [version, index, text address, append bytes, suffix bytes, cut].
    const [, , at, appended, suffix, cut] = new Float64Array(memory.buffer, change, 6);
    const text = (from, length) => decoder.decode(new Uint8Array(memory.buffer, from, length));
    changes.push([text(at, appended), cut, text(at + appended, suffix)]);
  }
  core.free();
  // The header read here as js/wasm-text.js reads it (which imports the
  // glue, so it loads from pkg/ alone): the appended texts must rebuild the
  // document, or the layout changed under this copy of it.
  if (changes.map(([append]) => append).join("") !== argumentsOfSize(1024)) throw new Error("the change headers read do not rebuild the arguments");
  return changes;
}

/** A round of checkout `root`: its builder set up with `CALLS` calls, then the changes, timed. */
async function roundOf(root, changes) {
  const { init } = await load(root, "pkg/index.js");
  await init?.();
  // The glue, bundled into the tracker's module (older builds: a file of its own).
  const { WasmTracker } = await load(root, "pkg/tracker.js").then((m) => (m.WasmTracker ? m : load(root, "pkg/agui_tool_calls.js")));
  const { SnapshotBuilder } = await load(root, "js/snapshot.js");
  const core = new WasmTracker("{}", 0);
  const record = (event) => {
    core.feedJson(JSON.stringify(event));
    core.takeChange(true);
    return JSON.parse(core.takeRecord());
  };
  const records = [record({ type: "RUN_STARTED", threadId: "t", runId: "r" })];
  for (let i = 0; i < CALLS; i++) {
    records.push(record({ type: "TOOL_CALL_START", toolCallId: `c${i}`, toolCallName: "write_report", parentMessageId: `m${i}` }));
    if (i === CALLS - 1) break;
    records.push(record({ type: "TOOL_CALL_ARGS", toolCallId: `c${i}`, delta: '{"a":1}' }));
    records.push(record({ type: "TOOL_CALL_END", toolCallId: `c${i}` }));
  }
  core.free();
  return (read) => {
    const builder = new SnapshotBuilder();
    for (const r of records) builder.apply(r);
    let version = 1e6;
    let sink = 0;
    const t0 = cpuTime();
    for (const [append, cut, suffix] of changes) {
      const snapshot = builder.appendText(version++, CALLS - 1, append, cut, suffix);
      if (read) sink += snapshot.openCalls[0].partialArgs === undefined ? 0 : 1;
    }
    return { ms: cpuTime() - t0, sink };
  };
}

const changes = await textChanges();
const rounds = [];
for (const root of roots) rounds.push(await roundOf(root, changes));
for (const read of [false, true]) {
  const samples = roots.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    rounds.forEach((round, i) => {
      const { ms } = round(read);
      if (r >= WARM) samples[i].push(ms);
    });
  }
  const perChange = samples.map((xs) => (xs.sort((p, q) => p - q)[xs.length >> 1] * 1e3) / changes.length);
  const cells = roots.map((root, i) => `${root} ${perChange[i].toFixed(3)} µs (${(perChange[i] / perChange[0]).toFixed(2)}x)`);
  console.log(`${read ? "append + partialArgs" : "append alone"}: ${cells.join(" | ")}`);
}
