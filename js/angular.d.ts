import type { Injector, Signal } from "@angular/core";
import type {
  ArgKey,
  ArgsStatus,
  ArgValue,
  InterruptState,
  PartialValue,
  Snapshot,
  ToolArgs,
  ToolOption,
  ToolCallState,
  ToolCallTracker,
} from "./index.js";
import type { CallNode, SubagentNode, ToolCallActions } from "./actions.js";
export type { CallNode, SubagentNode, ToolCallActions };

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

/** One field of a call's arguments: its value so far, and whether it is complete (it never changes again). */
export interface ArgField<T> {
  readonly value: PartialValue<T> | undefined;
  readonly complete: boolean;
}

/**
 * One top-level field of the call `callId`'s arguments (each a string or a
 * signal), typed by the tools' schemas; notifies only when that field's
 * value or completeness changes (a complete field is quiet while others
 * stream).
 *
 * @example
 * readonly url = argFieldSignal(tracker, "c1", "url"); // @if (url().complete) { <a [href]="url().value">link</a> }
 */
export declare function argFieldSignal<Tools extends readonly ToolOption[], K extends ArgKey<ToolArgs<Tools>>>(
  tracker: ToolCallTracker<Tools>,
  callId: string | (() => string),
  field: K | (() => K),
  options?: SignalOptions,
): Signal<ArgField<ArgValue<ToolArgs<Tools>, K>>>;

/**
 * Each top-level field of the call `callId`'s arguments, `"streaming"` or
 * `"complete"`; notifies only when a field appears or completes.
 *
 * @example
 * readonly status = toolArgsStatusSignal(tracker, "c1"); // {{ status().url ?? "not yet" }}
 */
export declare function toolArgsStatusSignal<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  callId: string | (() => string),
  options?: SignalOptions,
): Signal<ArgsStatus<ToolArgs<Tools>>>;

/**
 * The user's standing approvals (`snapshot.standingApprovals`); notifies only when they change.
 *
 * @example
 * readonly standing = standingApprovalsSignal(tracker);
 * // @for (s of standing(); track s.tool) { <button (click)="tracker.revokeApproval(s.tool)">Ask again for {{ s.tool }}</button> }
 */
export declare function standingApprovalsSignal<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: SignalOptions,
): Signal<Snapshot<Tools>["standingApprovals"]>;

/** What a call node of `toolCallTreeSignal` carries beside its call: the interrupt it awaits. */
export interface TreeEntry<Tools extends readonly ToolOption[]> {
  readonly call: ToolCallState<Tools>;
  readonly interrupt: InterruptState | undefined;
}

/**
 * The calls as a tree: each call, then the subagents it started, each
 * holding its own calls nested the same way; every call is in it. Track
 * nodes by `key`.
 *
 * @example
 * readonly tree = toolCallTreeSignal(tracker);
 * // @for (node of tree(); track node.key) { @if (node.kind === "call") { <call-card [call]="node.call" /> } @else { <subagent-group [node]="node" /> } }
 */
export declare function toolCallTreeSignal<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: SignalOptions,
): Signal<(CallNode<TreeEntry<Tools>> | SubagentNode<TreeEntry<Tools>>)[]>;
