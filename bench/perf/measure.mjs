// The measured loops of `npm run bench` (bench/perf.bench.mjs), shared by
// Node and the Chromium page so both run the very same code on the very
// same streams. Plain ESM, no Node-only import. Each loop reads the time
// from `now()` (milliseconds): `performance.now()`, the wall clock, by
// default (the browser has nothing else); Node passes its process CPU time.
import { oneChunk, scenario, sseChunks } from "./streams.mjs";

const wallClock = () => performance.now();

/** The median of `xs` (the mean of the middle two for an even count); `xs` is left as it was. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Node's clock for the loops: the process's CPU time, every thread (GC and compiler threads too), in ms. */
export function cpuTime() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e3;
}

/**
 * The floor: what any consumer of the stream pays at least, in the same
 * process. `TextDecoder` + split on the blank line + `JSON.parse` of each
 * frame, fed the same byte chunks as the tracker.
 */
export function floor(chunks, now = wallClock) {
  const decoder = new TextDecoder();
  let buffer = "";
  let sink = 0;
  const t0 = now();
  for (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    const frames = buffer.split("\n\n");
    buffer = frames.pop();
    for (const text of frames) sink += JSON.parse(text.slice(6)).type.length; // after "data: "
  }
  return { ms: now() - t0, sink };
}

/** Reads what a streaming card shows: the open call's partial value. */
function readOpen(snapshot) {
  const open = snapshot.openCalls;
  return open.length > 0 && open[0].partialArgs !== undefined ? 1 : 0;
}

/** Ours on raw bytes: `pushSse(chunk)`, `snapshot()`, the open call's `partialArgs`, per chunk. */
export function oursSse(Tracker, chunks, now = wallClock) {
  const tracker = new Tracker();
  let sink = 0;
  const t0 = now();
  for (const chunk of chunks) {
    tracker.pushSse(chunk);
    sink += readOpen(tracker.snapshot());
  }
  const ms = now() - t0;
  tracker.free();
  return { ms, sink };
}

/** Ours on event objects: `push(event)`, `snapshot()`, the open call's `partialArgs`, per event. */
export function oursPush(Tracker, events, now = wallClock) {
  const tracker = new Tracker();
  let sink = 0;
  const t0 = now();
  for (const event of events) {
    tracker.push(event);
    sink += readOpen(tracker.snapshot());
  }
  const ms = now() - t0;
  tracker.free();
  return { ms, sink };
}

const agentClasses = new WeakMap();

/** A bare @ag-ui/client agent: `defaultApplyEvents` needs one to read messages from. */
function agentOf(ref) {
  if (!agentClasses.has(ref)) {
    agentClasses.set(
      ref,
      class extends ref.AbstractAgent {
        run() {
          throw new Error("not used");
        }
      },
    );
  }
  return new (agentClasses.get(ref))({ threadId: "t" });
}

const runInput = { threadId: "t", runId: "r", messages: [], tools: [], context: [], state: {}, forwardedProps: {} };

/**
 * @ag-ui/client 1.0 as its HttpAgent consumes a response: its own SSE
 * parsing (`transformHttpEventStream`, fed the HEADERS then each DATA
 * chunk), `verifyEvents`, `defaultApplyEvents`; `onState` gets each new
 * state (its messages). `raw: false` feeds event objects instead, past the
 * SSE stage. Returns `push(item)` and `end()` (resolves once all is applied).
 */
export function referencePipeline(ref, onState, raw = true) {
  const source = new ref.Subject();
  const events = raw ? ref.transformHttpEventStream(source) : source;
  let resolve;
  let reject;
  const finished = new Promise((res, rej) => ((resolve = res), (reject = rej)));
  ref
    .defaultApplyEvents(runInput, events.pipe(ref.verifyEvents()), agentOf(ref), [])
    .subscribe({ next: onState, error: reject, complete: resolve });
  if (raw) source.next({ type: "headers", status: 200, headers: new Headers({ "content-type": "text/event-stream" }) });
  return {
    push: (item) => source.next(raw ? { type: "data", data: item } : item),
    end: () => (source.complete(), finished),
  };
}

/** The reference through the whole stream: every item pushed, then until all is applied. */
export async function reference(ref, items, raw = true, now = wallClock) {
  let sink = 0;
  const t0 = now();
  const pipeline = referencePipeline(ref, (state) => (sink += state.messages?.length ?? 0), raw);
  for (const item of items) pipeline.push(item);
  await pipeline.end();
  return { ms: now() - t0, sink };
}

/**
 * The steady-state runner: `run(key, variant)` times one pass of scenario
 * `key` (streams.mjs) with `now` and returns `{ ms, events }`. Variants:
 * `floor`, `ours`, `ref` (one chunk per event), `oursPush`, `refPush`
 * (event objects), `floorMany`, `oursMany`, `refMany` (every event of the
 * scenario up to its last TOOL_CALL_ARGS in one chunk: the call is still
 * open, so the read of `partialArgs` is part of it). `repeat(key, variant,
 * minMs)` runs passes back to back until `minMs` of wall time has passed
 * and returns the events they read: what one timed call into a page runs.
 * With `timestamps`, every event carries a `timestamp` (ms, after `type`,
 * as @ag-ui/core's schemas order it), as many agents send them.
 */
export function runner({ Tracker, ref, scale = 1, now = wallClock, timestamps = false }) {
  const cache = new Map();
  const streams = (key) => {
    if (!cache.has(key)) {
      const plain = scenario(key, scale);
      const events = timestamps ? plain.map(({ type, ...rest }, i) => ({ type, timestamp: 1764518400000 + i, ...rest })) : plain;
      const many = events.slice(0, events.findLastIndex((e) => e.type === "TOOL_CALL_ARGS") + 1);
      cache.set(key, { events, chunks: sseChunks(events), many, manyChunk: [oneChunk(many)] });
    }
    return cache.get(key);
  };
  const variants = {
    floor: (s) => [floor(s.chunks, now), s.events.length],
    ours: (s) => [oursSse(Tracker, s.chunks, now), s.events.length],
    ref: async (s) => [await reference(ref, s.chunks, true, now), s.events.length],
    oursPush: (s) => [oursPush(Tracker, s.events, now), s.events.length],
    refPush: async (s) => [await reference(ref, s.events, false, now), s.events.length],
    floorMany: (s) => [floor(s.manyChunk, now), s.many.length],
    oursMany: (s) => [oursSse(Tracker, s.manyChunk, now), s.many.length],
    refMany: async (s) => [await reference(ref, s.manyChunk, true, now), s.many.length],
  };
  const run = async (key, variant) => {
    const [{ ms, sink }, events] = await variants[variant](streams(key));
    if (!(sink > 0)) throw new Error(`${variant} on ${key} read nothing`);
    return { ms, events };
  };
  return {
    run,
    async repeat(key, variant, minMs) {
      // Passes of the same stream, back to back, until minMs has passed: a
      // steady state, so one long pass or several short ones measure the
      // same per event.
      const t0 = performance.now();
      let events = 0;
      do events += (await run(key, variant)).events;
      while (performance.now() - t0 < minMs);
      return events;
    },
    eventCount: (key) => streams(key).events.length,
  };
}

/** A cold start, first half: the import, wall-clock ms (a latency). */
export async function coldImport(load) {
  const t0 = performance.now();
  const mod = await load();
  return { mod, importMs: performance.now() - t0 };
}

/**
 * A cold start, second half: a page's (or process's) first stream through
 * `mod` (`lib` is `ours` or `ref`), `chunks` one event each. Returns
 * `toFirstMs`, wall-clock ms from its start to the first snapshot (or
 * state) that shows the call, and `ms`, the whole stream timed with `now`.
 */
export async function coldStream(lib, mod, chunks, now = wallClock) {
  const t0 = performance.now();
  const start = now();
  let first;
  if (lib === "ours") {
    const tracker = new mod.ToolCallTracker();
    for (const chunk of chunks) {
      tracker.pushSse(chunk);
      const snapshot = tracker.snapshot();
      if (first === undefined && snapshot.calls.length > 0) first = performance.now();
      readOpen(snapshot);
    }
  } else {
    // Fed the first two chunks (RUN_STARTED, TOOL_CALL_START), then waited
    // for the state that shows the call, then the rest.
    let shown;
    const seen = new Promise((resolve) => (shown = resolve));
    const pipeline = referencePipeline(mod, (state) => {
      if (first === undefined && state.messages?.length > 0) (first = performance.now()), shown();
    });
    pipeline.push(chunks[0]);
    pipeline.push(chunks[1]);
    await seen;
    for (const chunk of chunks.slice(2)) pipeline.push(chunk);
    await pipeline.end();
  }
  return { toFirstMs: first - t0, ms: now() - start };
}
