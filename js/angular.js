// @ts-check
// The Angular binding: signals over a tracker's snapshots, for standalone
// components (zoneless or not), made in an injection context (a field
// initialiser, the constructor) or given an injector, and released with
// that injector's `DestroyRef` (the component's, or the service's).
//
// Each signal reads one store shared by every consumer of the tracker
// (./store.js: one tracker subscription while some consumer listens, at
// most one publication per animation frame by default). Signals compare
// with `Object.is` and unchanged calls keep their identical objects, so the
// signal of one call notifies only when that call changes, and a template
// reading it is checked again only then.
import { DestroyRef, assertInInjectionContext, computed, inject, signal } from "@angular/core";
import { findCall, storeOf } from "./store.js";
import { argFieldReader, argsStatusReader, callTree } from "./actions.js";

export { bindActions as toolCallActions } from "./actions.js";

/**
 * The store's snapshot as a writable signal, set on each publication
 * until `DestroyRef` fires.
 *
 * @param {Function} caller
 * @param {import("./index.js").ToolCallTracker} tracker
 * @param {{ coalesce?: boolean, injector?: import("@angular/core").Injector } | undefined} options
 */
function snapshotSignal(caller, tracker, options) {
  if (!options?.injector) assertInInjectionContext(caller);
  const destroyRef = options?.injector ? options.injector.get(DestroyRef) : inject(DestroyRef);
  const store = storeOf(tracker, options);
  const snapshot = signal(store.getSnapshot());
  destroyRef.onDestroy(store.subscribe(() => snapshot.set(store.getSnapshot())));
  return snapshot;
}

/**
 * The tracker's current snapshot, as a signal.
 *
 * @example
 * class Calls {
 *   readonly snapshot = toolCallsSignal(tracker); // {{ snapshot().calls.length }}
 * }
 */
export function toolCallsSignal(tracker, options) {
  return snapshotSignal(toolCallsSignal, tracker, options).asReadonly();
}

/**
 * One call by id (a string, or a signal such as an `input()`), as a signal:
 * `undefined` until it starts, notifying only when that call changes.
 *
 * @example
 * readonly id = input.required<string>();
 * readonly call = toolCallSignal(tracker, this.id);
 */
export function toolCallSignal(tracker, id, options) {
  const snapshot = snapshotSignal(toolCallSignal, tracker, options);
  const last = { index: -1 };
  return computed(() => findCall(snapshot().calls, typeof id === "function" ? id() : id, last));
}

/**
 * The calls the application must answer (`snapshot.pendingCalls`), as a
 * signal notifying only when that list changes.
 *
 * @example
 * readonly pending = pendingCallsSignal(tracker);
 */
export function pendingCallsSignal(tracker, options) {
  const snapshot = snapshotSignal(pendingCallsSignal, tracker, options);
  return computed(() => snapshot().pendingCalls);
}

/**
 * The thread's open interrupts (`snapshot.interrupts`), as a signal
 * notifying only when they change.
 *
 * @example
 * readonly interrupts = interruptsSignal(tracker);
 */
export function interruptsSignal(tracker, options) {
  const snapshot = snapshotSignal(interruptsSignal, tracker, options);
  return computed(() => snapshot().interrupts);
}

/** A string, or a signal's current value. */
const valueOf = (v) => (typeof v === "function" ? v() : v);

/**
 * One top-level field of a call's arguments, `{ value, complete }`
 * (`call.isComplete(field)`), as a signal notifying only when the field's
 * value or completeness changes: a template reading a complete field is
 * not checked again while other fields stream. The id and the field may
 * be signals (an `input()`).
 *
 * @example
 * readonly url = argFieldSignal(tracker, "c1", "url"); // @if (url().complete) { <a [href]="url().value">link</a> }
 */
export function argFieldSignal(tracker, callId, field, options) {
  const snapshot = snapshotSignal(argFieldSignal, tracker, options);
  const read = argFieldReader();
  return computed(() => read(snapshot(), valueOf(callId), valueOf(field)));
}

/**
 * Each top-level field of a call's arguments, `"streaming"` or
 * `"complete"` (`call.argsStatus()`, `{}` until the call starts), as a
 * signal notifying only when a field appears or completes.
 *
 * @example
 * readonly status = toolArgsStatusSignal(tracker, "c1"); // {{ status().url ?? "not yet" }}
 */
export function toolArgsStatusSignal(tracker, callId, options) {
  const snapshot = snapshotSignal(toolArgsStatusSignal, tracker, options);
  const read = argsStatusReader();
  return computed(() => read(snapshot(), valueOf(callId)));
}

/**
 * The user's standing approvals (`snapshot.standingApprovals`, given by
 * `approve({ remember: "tool" })`), as a signal notifying only when they
 * change.
 *
 * @example
 * readonly standing = standingApprovalsSignal(tracker);
 * // @for (s of standing(); track s.tool) { <button (click)="tracker.revokeApproval(s.tool)">Ask again for {{ s.tool }}</button> }
 */
export function standingApprovalsSignal(tracker, options) {
  const snapshot = snapshotSignal(standingApprovalsSignal, tracker, options);
  return computed(() => snapshot().standingApprovals);
}

/**
 * The calls as a tree, for a nested rendering: each call (`kind: "call"`,
 * with `entry.interrupt`, the interrupt it awaits), then the subagents it
 * started (`kind: "subagent"`), each holding its own calls, nested the
 * same way; at the top, the parent agent's calls. Every call is in it,
 * pending ones of nested subagents included. Track nodes by `key`; a
 * call's object is the same while it is unchanged, so an OnPush card
 * given `node.call` is checked only when its call changes.
 *
 * @example
 * readonly tree = toolCallTreeSignal(tracker);
 * // @for (node of tree(); track node.key) { @if (node.kind === "call") { <call-card [call]="node.call" /> } @else { <subagent-group [node]="node" /> } }
 */
export function toolCallTreeSignal(tracker, options) {
  const snapshot = snapshotSignal(toolCallTreeSignal, tracker, options);
  return computed(() => {
    const s = snapshot();
    const interrupts = new Map(s.interrupts.map((i) => [i.interrupt.id, i]));
    return callTree(s, s.calls.map((call) => ({ call, interrupt: call.awaitingInterrupt === undefined ? undefined : interrupts.get(call.awaitingInterrupt) })));
  });
}
