// Cost of one streamed argument delta, from event to new snapshot, with
// one call in the thread and with 200, 1,000 and 3,000 completed calls
// plus one streaming: push + snapshot should cost what the event changed,
// not what the thread holds (rule N1). Side by side with @ag-ui/client 1.0.0, whose
// verifyEvents + defaultApplyEvents emit the new messages state per event.
// `npm run bench:snapshot`.
import { AbstractAgent, defaultApplyEvents, verifyEvents } from "@ag-ui/client";
import { from, lastValueFrom, toArray } from "rxjs";
import { performance } from "node:perf_hooks";
import { ToolCallTracker } from "../pkg/index.js";
import { nsPerOp, prelude, warmUp } from "./support.mjs";

warmUp(ToolCallTracker);

const DELTAS = 4000;
const input = { threadId: "t", runId: "r", messages: [], tools: [], context: [], state: {}, forwardedProps: {} };

const delta = (i) => ({ type: "TOOL_CALL_ARGS", toolCallId: "live", delta: i === 0 ? '{"text":"' : "abcd" });

function ours(completed) {
  let tracker;
  let i = 0;
  const setup = () => {
    tracker?.free();
    tracker = new ToolCallTracker();
    for (const e of prelude(completed)) tracker.push(e);
    i = 0;
  };
  const ns = nsPerOp(
    DELTAS,
    () => {
      tracker.push(delta(i++));
      tracker.snapshot();
    },
    9,
    setup,
  );
  tracker.free();
  return ns;
}

class Agent extends AbstractAgent {
  run() {
    throw new Error("not used");
  }
}

async function reference(completed) {
  const run = async (events) => {
    const t0 = performance.now();
    const agent = new Agent({ threadId: "t" });
    await lastValueFrom(defaultApplyEvents(input, from(events).pipe(verifyEvents()), agent, []).pipe(toArray()));
    return performance.now() - t0;
  };
  const base = prelude(completed);
  const streamed = [...base, ...Array.from({ length: DELTAS }, (_, i) => delta(i))];
  await run(streamed); // warm-up
  const ms = (await run(streamed)) - (await run(base));
  return (ms * 1e6) / DELTAS;
}

const rows = [];
// The reference's states, a copy of its messages per event, are all kept
// (`toArray`): with 1,000 calls its memory ran out (a 4 GB heap) on 4,000
// deltas, so it runs up to 200.
const REFERENCE_UP_TO = 200;
const THREADS = [0, 200, 1000, 3000];
// Ours first, every thread, then the reference: its garbage (gigabytes
// at 200 calls) made the next row of ours swing when they alternated.
const oursNs = THREADS.map((completed) => ours(completed));
for (const [i, completed] of THREADS.entries()) {
  const r = completed <= REFERENCE_UP_TO ? await reference(completed) : NaN;
  rows.push({ thread: completed ? `${completed} completed + 1 streaming` : "1 streaming call", ours: oursNs[i], "@ag-ui/client": r });
}
const fmt = (ns) => (Number.isNaN(ns) ? "-" : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);
console.log(`cost per TOOL_CALL_ARGS event, push + snapshot (Node ${process.version}, ${DELTAS} deltas)\n`);
console.table(rows.map((r) => ({ thread: r.thread, ours: fmt(r.ours), "@ag-ui/client": fmt(r["@ag-ui/client"]), "client / ours": Number.isNaN(r["@ag-ui/client"]) ? "-" : `${(r["@ag-ui/client"] / r.ours).toFixed(1)}x` })));
// Between two long threads, the same code path: the growth with the thread alone.
const rowOf = (completed) => rows[THREADS.indexOf(completed)];
console.log(`3000 completed / 200 completed: ours ${(rowOf(3000).ours / rowOf(200).ours).toFixed(2)}x`);
for (const row of rows.slice(1)) {
  const client = row["@ag-ui/client"] / rows[0]["@ag-ui/client"];
  console.log(`${row.thread} / 1 call: ours ${(row.ours / rows[0].ours).toFixed(2)}x, @ag-ui/client ${Number.isNaN(client) ? "-" : `${client.toFixed(2)}x`}`);
}
