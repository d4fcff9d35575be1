import type { Injector, Signal } from "@angular/core";
import type { Snapshot, ToolOption, ToolCallState, ToolCallTracker } from "./index.js";
import type { ToolCallActions } from "./actions.js";
export type { ToolCallActions };

export interface SignalOptions {
  /**
   * `true` (the default): the signal changes at most once per animation
   * frame, to the latest snapshot. `false`: on every snapshot (tests).
   */
  coalesce?: boolean;
  /** Outside an injection context: the injector whose `DestroyRef` ends the subscription. */
  injector?: Injector;
}

/**
 * The tracker's current snapshot, as a signal. Made in an injection
 * context (a field initialiser, the constructor), or with
 * `options.injector`; the subscription ends with that injector
 * (`DestroyRef`). Throws elsewhere.
 *
 * @example
 * class Calls {
 *   readonly snapshot = toolCallsSignal(tracker); // {{ snapshot().calls.length }}
 * }
 */
export declare function toolCallsSignal<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: SignalOptions,
): Signal<Snapshot<Tools>>;

/**
 * The call with this id (a string, or a signal such as an `input()`),
 * `undefined` until it starts; notifies only when that call changes.
 *
 * @example
 * readonly id = input.required<string>();
 * readonly call = toolCallSignal(tracker, this.id);
 */
export declare function toolCallSignal<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  id: string | (() => string),
  options?: SignalOptions,
): Signal<ToolCallState<Tools> | undefined>;

/**
 * The calls the application must answer (`snapshot.pendingCalls`); notifies only when they change.
 *
 * @example
 * readonly pending = pendingCallsSignal(tracker);
 */
export declare function pendingCallsSignal<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: SignalOptions,
): Signal<Snapshot<Tools>["pendingCalls"]>;

/**
 * The thread's open interrupts (`snapshot.interrupts`); notifies only when they change.
 *
 * @example
 * readonly interrupts = interruptsSignal(tracker);
 */
export declare function interruptsSignal<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: SignalOptions,
): Signal<Snapshot<Tools>["interrupts"]>;


/**
 * `approve`, `decline`, `answer`, `fail`, bound to one call, and
 * `approveWithEdits`, `reject`, bound to the interrupt it awaits
 * (`call.awaitingInterrupt`): for a template's buttons.
 *
 * @example
 * readonly actions = toolCallActions(tracker, "c1");
 * // <button (click)="actions.approve()">Approve</button>
 */
export declare function toolCallActions(tracker: ToolCallTracker<readonly ToolOption[]>, id: string, interruptId?: string): ToolCallActions;
