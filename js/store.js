// @ts-check
// The framework-free store over a tracker's snapshots, shared by every
// binding (agui-tool-calls/react, agui-tool-calls/element): one tracker
// subscription per tracker and publishing mode, made while some consumer
// listens and dropped when the last one leaves, and by default at most one
// new snapshot published per animation frame (a stream of a thousand
// deltas in one frame costs one render, not a thousand).

/** Stores by tracker, one per publishing mode: `frame` and `sync`. */
const stores = new WeakMap();

/**
 * The store of `tracker` in the mode `options.coalesce` asks for: the same
 * object for every consumer of that tracker and mode.
 *
 * @example
 * const store = storeOf(tracker);
 * const stop = store.subscribe(() => draw(store.getSnapshot()));
 * stop(); // the last consumer: the tracker subscription goes too
 */
export function storeOf(tracker, options) {
  let pair = stores.get(tracker);
  if (!pair) stores.set(tracker, (pair = {}));
  const mode = options?.coalesce === false ? "sync" : "frame";
  return (pair[mode] ??= createStore(tracker, mode === "frame"));
}

// Where there are no animation frames (a server, a test runner), a ~16 ms timer.
const nextFrame = (fn) =>
  typeof requestAnimationFrame === "function" ? requestAnimationFrame(fn) : setTimeout(fn, 16);

/**
 * A source over one tracker, in the shape `useSyncExternalStore` takes:
 * `subscribe` is one function for every consumer, so a framework never
 * resubscribes; the tracker is subscribed to while some consumer listens.
 * Coalescing, the published snapshot stays the one of the last frame while
 * a frame is scheduled.
 */
function createStore(tracker, coalesce) {
  const listeners = new Set();
  let unsubscribe = null;
  let scheduled = false;
  let published = tracker.snapshot();
  // The last snapshot the tracker told: what stays shown once it is freed.
  let heard = published;
  // The tracker's snapshot, or the last one heard once it is freed: a frame
  // scheduled before `free()` (say, `root.unmount(); tracker.free()` right
  // after a delta) runs after it, and a consumer may render once more.
  const current = () => {
    try {
      published = tracker.snapshot();
    } catch (error) {
      if (error?.name !== "TrackerFreedError") throw error;
      published = heard;
    }
    return published;
  };
  const notify = () => {
    scheduled = false;
    current();
    for (const listener of [...listeners]) listener();
  };
  const onSnapshot = (snapshot) => {
    heard = snapshot;
    if (!coalesce) return notify();
    if (!scheduled) {
      scheduled = true;
      nextFrame(notify);
    }
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      unsubscribe ??= tracker.subscribe(onSnapshot);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && unsubscribe) {
          unsubscribe();
          unsubscribe = null;
        }
      };
    },
    getSnapshot() {
      // Between frames (or unsubscribed), the tracker's own snapshot.
      return scheduled ? published : current();
    },
  };
}

/**
 * The call `id` of `calls`, looked up from the index it had last time
 * (`memo.index`, updated): calls keep their index, so finding it again is
 * one look, not a scan per render.
 */
export function findCall(calls, id, memo) {
  if (calls[memo.index]?.id !== id) memo.index = calls.findIndex((c) => c.id === id);
  return calls[memo.index];
}
