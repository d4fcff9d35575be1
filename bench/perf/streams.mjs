// The streams of `npm run bench` (bench/perf.bench.mjs), built the same way
// in Node and in the Chromium page: plain ESM, no Node-only import.
import { argumentsOfSize, deltas } from "../support.mjs";

/** UTF-16 units per TOOL_CALL_ARGS delta: what models stream, a few characters at a time. */
export const DELTA_UNITS = 4;

/**
 * The events of one streamed call: START, its arguments in deltas of
 * `DELTA_UNITS`, END, and the backend's RESULT when `result` is given; each
 * from subagent `owner` when given (its `subagentRunId` second, as the
 * Python encoder writes it).
 */
function call(id, bytes, result, owner) {
  const from = owner === undefined ? {} : { subagentRunId: owner };
  const events = [{ type: "TOOL_CALL_START", ...from, toolCallId: id, toolCallName: "write_report", parentMessageId: `m_${id}` }];
  for (const delta of deltas(argumentsOfSize(bytes), DELTA_UNITS)) events.push({ type: "TOOL_CALL_ARGS", ...from, toolCallId: id, delta });
  events.push({ type: "TOOL_CALL_END", ...from, toolCallId: id });
  if (result) events.push({ type: "TOOL_CALL_RESULT", ...from, messageId: `r_${id}`, toolCallId: id, content: result, role: "tool" });
  return events;
}

/** One run holding `calls`, one after the other. */
function run(calls) {
  return [{ type: "RUN_STARTED", threadId: "t", runId: "r" }, ...calls.flat(), { type: "RUN_FINISHED", threadId: "t", runId: "r" }];
}

/**
 * The scenarios, by key: `a` one call with 64 KB of arguments; `b` 100
 * calls of 1 KB each, each answered by the backend before the next starts;
 * `c` the same from a subagent (every tool event carries `subagentRunId`);
 * `cold` one call of 1 KB, a page's first stream. `scale` < 1 shrinks them
 * (the quick mode of the bench: the same code on tiny streams).
 */
export function scenario(key, scale = 1) {
  const kb = (n) => Math.max(64, Math.round(n * 1024 * scale));
  switch (key) {
    case "a":
      return run([call("c1", kb(64))]);
    case "b":
      return run(Array.from({ length: Math.max(2, Math.round(100 * scale)) }, (_, i) => call(`c${i}`, kb(1), `done ${i}`)));
    case "c":
      return run(Array.from({ length: Math.max(2, Math.round(100 * scale)) }, (_, i) => call(`c${i}`, kb(1), `done ${i}`, "sub_1")));
    case "cold":
      return run([call("c1", 1024)]);
    default:
      throw new Error(`unknown scenario ${key}`);
  }
}

const encoder = new TextEncoder();

/** One event as an event-stream frame. */
const frame = (event) => `data: ${JSON.stringify(event)}\n\n`;

/** Each event as its own `text/event-stream` chunk of bytes, as a network read would bring it. */
export const sseChunks = (events) => events.map((e) => encoder.encode(frame(e)));

/** Every event in one chunk of bytes. */
export const oneChunk = (events) => encoder.encode(events.map(frame).join(""));
