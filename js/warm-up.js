// @ts-check
// The warm-ups `init({ warmUp })` and `warmUp()` start: the small stream
// they run, and the `"idle"` one, which runs it on this thread (the
// `"worker"` one is js/warm.js, loaded only when asked for).
import { warmOnce } from "./wasm-load.js";

/**
 * The warm-up `mode` names, unless one started before; `Tracker` is the
 * class the `"idle"` one feeds (the main entry's: passed, not imported,
 * so that the two modules do not import each other).
 * @param {"idle" | "worker"} mode
 * @param {new () => { push(event: object): any, pushSse(chunk: Uint8Array): any, snapshot(): any, free(): void }} Tracker
 * @returns {Promise<boolean>}
 */
export function startWarmUp(mode, Tracker) {
  return warmOnce((compiled, loaded) => {
    if (mode === "worker") return import("./warm.js").then((m) => m.warm(compiled, warmUpFrames()), () => false);
    return loaded.then(() => warmWhenIdle(Tracker), () => false);
  });
}

/**
 * Whether a tracker has been fed (the warm-up's own aside): then the first
 * stream has begun, compiling as it goes, and there is nothing left to
 * warm. Making one is not enough: an app makes its tracker when it mounts,
 * long before its first stream.
 */
let streamed = false;

/** Called by every push: a stream has begun. */
export function streamBegan() {
  streamed = true;
}

/**
 * The `"idle"` warm-up. V8 compiles a wasm function on its first call, and
 * a JS function on its first run, on the thread that runs it: a page's
 * first stream paid about half its main-thread time for that
 * (bench/perf/cold-chromium.mjs). Once the thread is idle (a browser's
 * `requestIdleCallback`; elsewhere, Node or a worker, the next turn of its
 * event loop, a timer that does not keep Node's process alive), and
 * unless a tracker has been fed by then, the warm-up stream
 * (`warmUpStream`) runs through two throwaway trackers, as bytes and as
 * objects, its snapshots read as a component reads them. Resolves whether
 * it ran, cleanly.
 */
function warmWhenIdle(Tracker) {
  return new Promise((resolve) => {
    const run = () => resolve(!streamed && warmHere(Tracker));
    if (typeof requestIdleCallback === "function") requestIdleCallback(run);
    else Object(setTimeout(run)).unref?.(); // Node's timer object; a number elsewhere
  });
}

function warmHere(Tracker) {
  const frames = warmUpFrames();
  const trackers = [new Tracker(), new Tracker()];
  try {
    warmUpEvents().forEach((event, i) => {
      for (const snapshot of [trackers[0].pushSse(frames[i]), trackers[1].push(event)]) void snapshot.openCalls[0]?.partialArgs;
    });
    return trackers.every((tracker) => {
      const { run, violations } = tracker.snapshot();
      return run.status === "finished" && violations.length === 0;
    });
  } catch {
    return false;
  } finally {
    for (const tracker of trackers) tracker.free();
    streamed = false;
  }
}

// The small stream both warm-ups run: one clean run with one call, so that
// every event reaches the code it is to warm. Its argument deltas end
// inside a string, an escape, a number and a literal, as a model's do, and
// hold every kind of JSON value. Each event's JSON, as an agent sends it.
const warmUpStream = [
  '{"type":"RUN_STARTED","threadId":"t","runId":"r"}',
  '{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search"}',
  '{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\\"q\\":\\"caf\\\\u00"}',
  '{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"e9 \\\\\\"x\\\\\\"\\",\\"n\\":-1.5"}',
  '{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"e1,\\"l\\":[true,nu"}',
  '{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"ll],\\"o\\":{}}"}',
  '{"type":"TOOL_CALL_END","toolCallId":"c1"}',
  '{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":"found"}',
  '{"type":"RUN_FINISHED","threadId":"t","runId":"r"}',
];

/** The stream's events, as objects. */
const warmUpEvents = () => warmUpStream.map((json) => JSON.parse(json));

/** The same events as event-stream frames, a frame per event, in the bytes a `fetch` body reads. */
function warmUpFrames() {
  const encoder = new TextEncoder();
  return warmUpStream.map((json) => encoder.encode(`data: ${json}\n\n`));
}
