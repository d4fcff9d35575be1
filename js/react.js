// The React binding: hooks over a tracker's snapshots and a component that
// renders each call with the application's per-tool components.
//
// Every hook of one tracker shares one store (./store.js: one tracker
// subscription, made once, whatever the renders), and by default the store
// publishes at most one new snapshot per animation frame: a stream of a
// thousand deltas in one frame costs one render, not a thousand.
import { createElement, Fragment, memo, useMemo, useRef, useSyncExternalStore } from "react";
import { findCall, storeOf } from "./store.js";

/**
 * The tracker's current snapshot. Snapshots are immutable and unchanged
 * calls keep their identical objects, so `memo` components re-render only
 * for the calls that changed. `{ coalesce: false }` renders every snapshot.
 */
export function useToolCalls(tracker, options) {
  const store = storeOf(tracker, options);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

/**
 * One call by id (`undefined` until it starts): re-renders only when that
 * call changes. Calls keep their index, so finding it again is one look.
 */
export function useToolCall(tracker, id, options) {
  const store = storeOf(tracker, options);
  const last = useRef({ index: -1 }).current;
  const select = () => findCall(store.getSnapshot().calls, id, last);
  return useSyncExternalStore(store.subscribe, select, select);
}

/** The calls the application must answer: re-renders only when that list changes. */
export function usePendingCalls(tracker, options) {
  const store = storeOf(tracker, options);
  const select = () => store.getSnapshot().pendingCalls;
  return useSyncExternalStore(store.subscribe, select, select);
}

/** `approve`, `decline`, `answer` and `fail`, bound to one call. */
function useActions(tracker, id) {
  return useMemo(
    () => ({
      approve: () => void tracker.approve(id),
      decline: (reason) => void tracker.decline(id, reason),
      answer: (content) => void tracker.answer(id, content),
      fail: (error, content) => void tracker.fail(id, error, content),
    }),
    [tracker, id],
  );
}

/** One call with its component: re-renders when the call (or the component) changes. */
const CallView = memo(function CallView({ tracker, call, component }) {
  const actions = useActions(tracker, call.id);
  return createElement(component, { call, ...actions });
});

/**
 * Renders every call of the tracker, in first-start order: a call to an
 * advertised tool named in `render` with that component, any other call
 * with `fallback` (or nothing). Each component gets the call and the
 * actions bound to it, and re-renders only when its call changes.
 */
export function ToolCalls({ tracker, render, fallback, coalesce }) {
  const snapshot = useToolCalls(tracker, { coalesce });
  const children = [];
  for (const call of snapshot.calls) {
    const own = call.advertised && render && Object.hasOwn(render, call.name) ? render[call.name] : undefined;
    const component = own ?? fallback;
    if (component) children.push(createElement(CallView, { key: call.id, tracker, call, component }));
  }
  return createElement(Fragment, null, children);
}
