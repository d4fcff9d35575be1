// The React binding: hooks over a tracker's snapshots and a component that
// renders each call with the application's per-tool components.
//
// Every hook of one tracker shares one store (./store.js: one tracker
// subscription, made once, whatever the renders), and by default the store
// publishes at most one new snapshot per animation frame: a stream of a
// thousand deltas in one frame costs one render, not a thousand.
import { createElement, Fragment, memo, useMemo, useRef, useSyncExternalStore } from "react";
import { findCall, storeOf } from "./store.js";
import { bindActions, callsToRender } from "./actions.js";

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

/** The thread's open interrupts (`snapshot.interrupts`): re-renders only when they change. */
export function useInterrupts(tracker, options) {
  const store = storeOf(tracker, options);
  const select = () => store.getSnapshot().interrupts;
  return useSyncExternalStore(store.subscribe, select, select);
}

/** The user's standing approvals (`snapshot.standingApprovals`): re-renders only when they change. */
export function useStandingApprovals(tracker, options) {
  const store = storeOf(tracker, options);
  const select = () => store.getSnapshot().standingApprovals;
  return useSyncExternalStore(store.subscribe, select, select);
}

/** One call with its component: re-renders when the call, its interrupt (or the component) changes. */
const CallView = memo(function CallView({ tracker, call, interrupt, component }) {
  const interruptId = interrupt?.interrupt.id;
  const actions = useMemo(() => bindActions(tracker, call.id, interruptId), [tracker, call.id, interruptId]);
  return createElement(component, { call, interrupt, ...actions });
});

/**
 * Renders every call of the tracker, in first-start order: a call to an
 * advertised tool, or one awaiting an interrupt's approval, named in
 * `render` with that component, any other call with `fallback` (or
 * nothing). Each component gets the call, the interrupt it awaits (if any)
 * and the actions bound to them, and re-renders only when they change.
 */
export function ToolCalls({ tracker, render, fallback, coalesce }) {
  const snapshot = useToolCalls(tracker, { coalesce });
  const children = callsToRender(snapshot, render, fallback).map(({ call, interrupt, renderer }) =>
    createElement(CallView, { key: call.id, tracker, call, interrupt, component: renderer }),
  );
  return createElement(Fragment, null, children);
}
