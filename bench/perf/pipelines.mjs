// The pipelines `node bench/perf/builds.mjs` compares, shared by Node and
// its Chromium page: each stream's events one chunk each through
// `pushSse`, the same as event objects through `push`, and every event up
// to the last delta in one chunk. Plain ESM, no Node-only import.
import { floor, oursPush, oursSse } from "./measure.mjs";
import { oneChunk, scenario, sseChunks } from "./streams.mjs";

/** The pipelines' names, in the order `pipelines` gives them. */
export const PIPELINES = ["pushSse, one event per chunk", "push(event)", "one chunk of many events"];

/**
 * The pipelines of stream `key` ("a", "b" or "c"), by name: `floor(now)`,
 * `ours(Tracker, now)` (each `{ ms }`) and `n`, the events a pass reads.
 * With `timestamps`, every event carries a `timestamp` (ms, after `type`,
 * as @ag-ui/core's schemas order it), as many agents send them.
 */
export function pipelines(key, timestamps = false) {
  const events = timestamps ? scenario(key).map(({ type, ...rest }, i) => ({ type, timestamp: 1764518400000 + i, ...rest })) : scenario(key);
  const many = events.slice(0, events.findLastIndex((e) => e.type === "TOOL_CALL_ARGS") + 1);
  const chunks = sseChunks(events);
  const chunk = [oneChunk(many)];
  const [sse, push, one] = PIPELINES;
  return {
    [sse]: { floor: (now) => floor(chunks, now), ours: (T, now) => oursSse(T, chunks, now), n: events.length },
    [push]: { floor: (now) => floor(chunks, now), ours: (T, now) => oursPush(T, events, now), n: events.length },
    [one]: { floor: (now) => floor(chunk, now), ours: (T, now) => oursSse(T, chunk, now), n: many.length },
  };
}
