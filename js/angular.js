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
