// Chunked streams across subagent lanes: CPU time per pair of events (one
// TOOL_CALL_CHUNK opening a new call, one TEXT_MESSAGE_CHUNK opening a new
// message, both from the same subagent) with 250, 1,000 and 4,000 calls
// already in the thread, over 50 lanes. No list is filtered or copied per
// event (rule N1): a long list is edited, and made when read (here, never;
// once per 32 edits), so the three figures should be about equal. Then
// whole calls (a start, 21 deltas and an end, the open call read after
// each delta) after as many: the records' lists edited, the deltas'
// snapshots made over them.
// `npm run build` first, then `node bench/chunks.bench.mjs`.
import { ToolCallTracker } from "../pkg/index.js";

const LANES = 50;
const MEASURED = 1000;
const SIZES = [250, 1000, 4000];

/** Pushes pair `i`: a tool chunk then a text chunk, on lane `i % LANES`. */
function pushPair(tracker, i) {
  const subagentRunId = `sub-${i % LANES}`;
  tracker.push({
    type: "TOOL_CALL_CHUNK",
    toolCallId: `call-${i}`,
    toolCallName: "lookup",
    subagentRunId,
    delta: '{"q":1}',
  });
  tracker.push({ type: "TEXT_MESSAGE_CHUNK", messageId: `msg-${i}`, subagentRunId, delta: "ok" });
}

/** CPU microseconds (user + system) of `fn()`. */
function cpuMicros(fn) {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

/**
 * Best of three: µs per unit of `count` units pushed by `push` (each
 * `events` events long, counted per unit) after `calls` units already in
 * the thread.
 */
function bestOf(push, calls, count, events = 1) {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const tracker = new ToolCallTracker();
    tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
    for (let i = 0; i < calls; i++) push(tracker, i);
    const micros = cpuMicros(() => {
      for (let i = calls; i < calls + count; i++) push(tracker, i);
    });
    best = Math.min(best, micros / (count * events));
    tracker.free?.();
  }
  return best;
}

/** µs per pair for MEASURED pairs after `calls` calls. */
const perPair = (calls) => bestOf(pushPair, calls, MEASURED);

/** Pushes call `i` whole: its start, 21 deltas (each snapshot's open call read) and its end. */
function pushCall(tracker, i) {
  const toolCallId = `call-${i}`;
  tracker.push({ type: "TOOL_CALL_START", toolCallId, toolCallName: "lookup" });
  tracker.push({ type: "TOOL_CALL_ARGS", toolCallId, delta: "[" });
  for (let k = 0; k < 19; k++) void tracker.push({ type: "TOOL_CALL_ARGS", toolCallId, delta: `${k},` }).openCalls[0].argsText;
  tracker.push({ type: "TOOL_CALL_ARGS", toolCallId, delta: "0]" });
  tracker.push({ type: "TOOL_CALL_END", toolCallId });
}

/** µs per event of 300 calls streamed whole (23 events each) after `calls` calls. */
const perEvent = (calls) => bestOf(pushCall, calls, 300, 23);

perPair(250); // warm-up
console.log(`chunk pairs over ${LANES} subagent lanes, CPU time, best of 3 x ${MEASURED} pairs`);
for (const calls of SIZES) {
  console.log(`${String(calls).padStart(5)} calls: ${perPair(calls).toFixed(1).padStart(7)} µs per pair`);
}
perEvent(250); // warm-up
console.log(`\ncalls streamed whole (start, 21 deltas, end), one lane, CPU time, best of 3 x 300 calls`);
for (const calls of SIZES) {
  console.log(`${String(calls).padStart(5)} calls: ${perEvent(calls).toFixed(2).padStart(7)} µs per event`);
}
