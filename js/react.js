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

/**
 * `approve(options?)` (`{ remember: "tool" }` for a standing approval),
 * `decline`, `answer` and `fail`, bound to one call; for a call
 * awaiting an interrupt's approval (rule I3), `approveWithEdits(editedArgs?)`
 * (resolves it with `{ approved: true }`, the edits as `editedArgs`) and
 * `reject()` (cancels it), bound to that interrupt.
 */
function useActions(tracker, id, interruptId) {
  return useMemo(() => {
    const awaited = () => interruptId ?? fail(`tool call ${JSON.stringify(id)} awaits no interrupt`);
    return {
      approve: (options) => void tracker.approve(id, options),
      decline: (reason) => void tracker.decline(id, reason),
      answer: (content) => void tracker.answer(id, content),
      fail: (error, content) => void tracker.fail(id, error, content),
      approveWithEdits: (editedArgs) => void tracker.resolveInterrupt(awaited(), { approved: true }, editedArgs === undefined ? undefined : { editedArgs }),
      reject: () => void tracker.cancelInterrupt(awaited()),
    };
  }, [tracker, id, interruptId]);
}

const fail = (message) => {
  throw new Error(message);
};

/** One call with its component: re-renders when the call, its interrupt (or the component) changes. */
const CallView = memo(function CallView({ tracker, call, interrupt, component }) {
  const actions = useActions(tracker, call.id, interrupt?.interrupt.id);
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
  const children = [];
  const interrupts = snapshot.interrupts.length > 0 ? new Map(snapshot.interrupts.map((i) => [i.interrupt.id, i])) : null;
  for (const call of snapshot.calls) {
    const awaited = call.awaitingInterrupt;
    const interrupt = awaited === undefined ? undefined : interrupts?.get(awaited);
    const own = (call.advertised || interrupt) && render && Object.hasOwn(render, call.name) ? render[call.name] : undefined;
    const component = own ?? fallback;
    if (component) children.push(createElement(CallView, { key: call.id, tracker, call, interrupt, component }));
  }
  return createElement(Fragment, null, children);
}
