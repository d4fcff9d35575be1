// @ts-check
// The React binding: hooks over a tracker's snapshots and a component that
// renders each call with the application's per-tool components.
//
// Every hook of one tracker shares one store (./store.js: one tracker
// subscription, made once, whatever the renders), and by default the store
// publishes at most one new snapshot per animation frame: a stream of a
// thousand deltas in one frame costs one render, not a thousand.
import { createElement, Fragment, memo, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { findCall, storeOf } from "./store.js";
import { argFieldReader, argsStatusReader, bindActions, callTree, callsToRender } from "./actions.js";

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

/**
 * One top-level field of a call's arguments, `{ value, complete }`
 * (`call.isComplete(field)`): re-renders only when the field's value or
 * completeness changes, so a component reading a complete field does not
 * re-render while other fields stream. A complete value never changes
 * again while the call streams, and is kept as first seen.
 */
export function useArgField(tracker, callId, field, options) {
  const store = storeOf(tracker, options);
  const [read] = useState(argFieldReader);
  const select = () => read(store.getSnapshot(), callId, field);
  return useSyncExternalStore(store.subscribe, select, select);
}

/**
 * Each top-level field of a call's arguments, `"streaming"` or
 * `"complete"` (`call.argsStatus()`, `{}` until the call starts):
 * re-renders only when a field appears or completes, not on every delta.
 */
export function useToolArgsStatus(tracker, callId, options) {
  const store = storeOf(tracker, options);
  const [read] = useState(argsStatusReader);
  const select = () => read(store.getSnapshot(), callId);
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
const CallView = memo(
  /** @param {{ tracker: import("./index.js").ToolCallTracker, call: import("./index.js").ToolCallState, interrupt: import("./index.js").InterruptState | undefined, component: any }} props */
  function CallView({ tracker, call, interrupt, component }) {
    const interruptId = interrupt?.interrupt.id;
    const actions = useMemo(() => bindActions(tracker, call.id, interruptId), [tracker, call.id, interruptId]);
    return createElement(component, { call, interrupt, ...actions });
  },
);

/**
 * Renders every call of the tracker, in first-start order: a call to an
 * advertised tool, or one awaiting an interrupt's approval, named in
 * `render` with that component, any other call with `fallback` (or
 * nothing). Each component gets the call, the interrupt it awaits (if any)
 * and the actions bound to them, and re-renders only when they change.
 *
 * Nested (the default; `nested={false}` renders every call in one flat
 * list): right after a call come the subagents it started
 * (`parentToolCallId`), each as the `subagent` component (a `role="group"`
 * element by default) holding that subagent's calls, nested the same way,
 * then the subagents it started itself without a call. A call no walk from
 * the top reaches (a cycle a stream drew) is rendered at the top all the
 * same: every call, pending ones of nested subagents included, is shown.
 */
export function ToolCalls({ tracker, render, fallback, coalesce, nested = true, subagent = SubagentGroup }) {
  const snapshot = useToolCalls(tracker, { coalesce });
  const entries = callsToRender(snapshot, render, fallback);
  const view = ({ call, interrupt, renderer }) => createElement(CallView, { key: call.id, tracker, call, interrupt, component: renderer });
  if (!nested || snapshot.subagents.length === 0) return createElement(Fragment, null, entries.map(view));
  const node = (n) =>
    n.kind === "call"
      ? createElement(Fragment, { key: n.key }, n.entry ? view(n.entry) : null, n.subagents.map(node))
      : createElement(subagent, { key: n.key, subagent: n.subagent, children: n.children.map(node) });
  return createElement(Fragment, null, callTree(snapshot, entries).map(node));
}

/** The default group of a subagent's calls. */
function SubagentGroup({ subagent, children }) {
  return createElement("div", { role: "group", "aria-label": subagent.name, "data-subagent-run-id": subagent.subagentRunId, "data-status": subagent.status }, children);
}
