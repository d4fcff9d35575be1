// The JS layer's share of a delta, alone: each checkout's SnapshotBuilder
// (js/snapshot.js) folds the same text change into a snapshot 5,000 times,
// on the last of 100 calls (99 complete), as `applyTextChange` does for
// every `TOOL_CALL_ARGS`; with and without a read of the open call's
// `partialArgs` after each. The records that set the calls up come from
// each checkout's own wasm core (its built pkg/).
//   node bench/perf/append.mjs <checkout> [<checkout> ...]
// (this repository's root, a worktree of another commit, each built with
// `npm run build`). CPU time per append, mean over 180 rounds after 20;
// the checkouts alternate round by round in one process, so the ratios
// hold on a busy machine where the absolute figures do not.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { cpuTime } from "./measure.mjs";

const roots = process.argv.slice(2).map((dir) => path.resolve(dir));
if (roots.length === 0) throw new Error("usage: node bench/perf/append.mjs <checkout> [<checkout> ...]");
const APPENDS = 5000;
const ROUNDS = 200;
const WARM = 20;

const load = (root, file) => import(pathToFileURL(path.join(root, file)).href);

/** A round of checkout `root`: its builder set up with 100 calls, then the appends, timed. */
async function roundOf(root) {
  const { ToolCallTracker } = await load(root, "pkg/index.js");
  const { WasmTracker } = await load(root, "pkg/agui_tool_calls.js");
  const { SnapshotBuilder } = await load(root, "js/snapshot.js");
  new ToolCallTracker().free(); // the module loaded
  const core = new WasmTracker("{}", false);
  const record = (event) => {
    core.feedJson(JSON.stringify(event));
    core.takeChange(true);
    return JSON.parse(core.takeRecord());
  };
  const records = [record({ type: "RUN_STARTED", threadId: "t", runId: "r" })];
  for (let i = 0; i < 100; i++) {
    records.push(record({ type: "TOOL_CALL_START", toolCallId: `c${i}`, toolCallName: "write_report", parentMessageId: `m${i}` }));
    if (i === 99) break;
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
    for (let i = 0; i < APPENDS; i++) {
      const first = i === 0;
      const snapshot = builder.appendText(version++, 99, first ? '{"title":"' : "abcd", 10 + 4 * i, '"}');
      if (read) sink += snapshot.openCalls[0].partialArgs === undefined ? 0 : 1;
    }
    return { ms: cpuTime() - t0, sink };
  };
}

const rounds = [];
for (const root of roots) rounds.push(await roundOf(root));
for (const read of [false, true]) {
  const totals = roots.map(() => 0);
  for (let r = 0; r < ROUNDS; r++) {
    rounds.forEach((round, i) => {
      const { ms } = round(read);
      if (r >= WARM) totals[i] += ms;
    });
  }
  const perAppend = totals.map((ms) => (ms * 1e3) / ((ROUNDS - WARM) * APPENDS));
  const cells = roots.map((root, i) => `${root} ${perAppend[i].toFixed(3)} µs (${(perAppend[i] / perAppend[0]).toFixed(2)}x)`);
  console.log(`${read ? "append + partialArgs" : "append alone"}: ${cells.join(" | ")}`);
}
