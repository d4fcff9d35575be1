// Chunked streams across subagent lanes: CPU time per pair of events (one
// TOOL_CALL_CHUNK opening a new call, one TEXT_MESSAGE_CHUNK opening a new
// message, both from the same subagent) with 250, 1,000 and 4,000 calls
// already in the thread, over 50 lanes. No list is filtered per event
// (rule N1), but each list a record changes is copied once (`calls`, and a
// derived list a call enters or leaves): the figures grow with the
// thread by that copy (about 1.2-1.7x from 250 to 4,000 calls).
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

/** Best of three: µs per pair for MEASURED pairs after `calls` calls. */
function perPair(calls) {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const tracker = new ToolCallTracker();
    tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
    for (let i = 0; i < calls; i++) pushPair(tracker, i);
    const micros = cpuMicros(() => {
      for (let i = calls; i < calls + MEASURED; i++) pushPair(tracker, i);
    });
    best = Math.min(best, micros / MEASURED);
    tracker.free?.();
  }
  return best;
}

perPair(250); // warm-up
console.log(`chunk pairs over ${LANES} subagent lanes, CPU time, best of 3 x ${MEASURED} pairs`);
for (const calls of SIZES) {
  console.log(`${String(calls).padStart(5)} calls: ${perPair(calls).toFixed(1).padStart(7)} µs per pair`);
}
