import type { Component, MaybeRefOrGetter, ShallowRef, VNodeChild } from "vue";
import type {
  ArgKey,
  ArgsStatus,
  ArgValue,
  PartialValue,
  Snapshot,
  Subagent,
  ToolArgs,
  ToolOption,
  ToolCallFor,
  ToolCallState,
  ToolCallTracker,
  ToolName,
} from "./index.js";
import type { ToolCallActions, ToolCallProps } from "./actions.js";
export type { ToolCallActions, ToolCallProps };

export interface StoreOptions {
  /**
   * `true` (the default): the refs change at most once per animation frame,
   * to the latest snapshot. `false`: on every snapshot (tests).
   */
  coalesce?: boolean;
}

/**
 * The tracker's current snapshot, as a shallow ref. Call it in `setup()`
 * (or an `effectScope()`): the subscription ends with that scope; it
 * throws elsewhere.
 *
 * @example
 * const snapshot = useToolCalls(tracker);
 * const count = computed(() => snapshot.value.calls.length);
 */
export declare function useToolCalls<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: StoreOptions,
): Readonly<ShallowRef<Snapshot<Tools>>>;

/**
 * The call with this id (a string, a ref or a getter such as `() => props.id`),
 * `undefined` until it starts; triggers only when that call changes.
 *
 * @example
 * const call = useToolCall(tracker, () => props.id);
 */
export declare function useToolCall<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  id: MaybeRefOrGetter<string>,
  options?: StoreOptions,
): Readonly<ShallowRef<ToolCallState<Tools> | undefined>>;

/**
 * The calls the application must answer (`snapshot.pendingCalls`); triggers only when they change.
 *
 * @example
 * const pending = usePendingCalls(tracker);
 */
export declare function usePendingCalls<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: StoreOptions,
): Readonly<ShallowRef<Snapshot<Tools>["pendingCalls"]>>;

/**
 * The thread's open interrupts (`snapshot.interrupts`); triggers only when they change.
 *
 * @example
 * const interrupts = useInterrupts(tracker);
 */
export declare function useInterrupts<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: StoreOptions,
): Readonly<ShallowRef<Snapshot<Tools>["interrupts"]>>;

/** One field of a call's arguments: its value so far, and whether it is complete (it never changes again). */
export interface ArgField<T> {
  readonly value: PartialValue<T> | undefined;
  readonly complete: boolean;
}

/**
 * One top-level field of the call `callId`'s arguments (each a string, a
 * ref or a getter), typed by the tools' schemas; triggers only when that
 * field's value or completeness changes (a complete field stays quiet while
 * other fields stream).
 *
 * @example
 * const url = useArgField(tracker, () => props.id, "url");
 * watchEffect(() => url.value.complete && prefetch(url.value.value));
 */
export declare function useArgField<Tools extends readonly ToolOption[], K extends ArgKey<ToolArgs<Tools>>>(
  tracker: ToolCallTracker<Tools>,
  callId: MaybeRefOrGetter<string>,
  field: MaybeRefOrGetter<K>,
  options?: StoreOptions,
): Readonly<ShallowRef<ArgField<ArgValue<ToolArgs<Tools>, K>>>>;

/**
 * Each top-level field of the call `callId`'s arguments, `"streaming"` or
 * `"complete"`; triggers only when a field appears or completes.
 *
 * @example
 * const status = useToolArgsStatus(tracker, "c1"); // status.value.url === "complete"
 */
export declare function useToolArgsStatus<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  callId: MaybeRefOrGetter<string>,
  options?: StoreOptions,
): Readonly<ShallowRef<ArgsStatus<ToolArgs<Tools>>>>;

/**
 * The user's standing approvals (`snapshot.standingApprovals`); triggers only when they change.
 *
 * @example
 * const standing = useStandingApprovals(tracker);
 * // <button v-for="s in standing" @click="tracker.revokeApproval(s.tool)">Ask again for {{ s.tool }}</button>
 */
export declare function useStandingApprovals<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: StoreOptions,
): Readonly<ShallowRef<Snapshot<Tools>["standingApprovals"]>>;

/** The props of what renders calls to the tool `Name` (a component in `render`, or the slot `#Name`). */
export type ToolCallRenderProps<Tools extends readonly ToolOption[], Name extends ToolName<Tools>> = ToolCallProps<ToolCallFor<Tools, Name>>;

export interface ToolCallsProps<Tools extends readonly ToolOption[]> extends StoreOptions {
  /** The tracker whose calls are shown; given another, the component follows it. */
  tracker: ToolCallTracker<Tools>;
  /** A component per advertised tool, by name; it wins over a slot of the same name. */
  render?: { readonly [Name in ToolName<Tools>]?: Component<ToolCallRenderProps<Tools, Name>> };
  /** The component of every other call; absent: the `#fallback` slot, or nothing. */
  fallback?: Component<ToolCallProps<ToolCallState<Tools>>>;
  /**
   * `true` (the default): a subagent's calls render right after the call
   * that started it, inside `subagent`; `false`: every call in one flat
   * list, in first-start order.
   */
  nested?: boolean;
  /** The group around one subagent's calls, given `subagent` and the calls in its default slot (default: a `<div role="group">` labelled with its name). */
  subagent?: Component<{ subagent: Subagent }>;
}

/** `<ToolCalls>`'s slots: one per tool name, and `#fallback`. */
export type ToolCallsSlots<Tools extends readonly ToolOption[]> = {
  [Name in ToolName<Tools>]?: (props: ToolCallRenderProps<Tools, Name>) => VNodeChild;
} & {
  fallback?: (props: ToolCallProps<ToolCallState<Tools>>) => VNodeChild;
};

/**
 * Every call of the tracker, each through its tool's component or slot (or `fallback`).
 *
 * @example
 * <ToolCalls :tracker="tracker" :render="{ confirm_deploy: DeployCard }">
 *   <template #fallback="{ call }"><pre>{{ call.argsText }}</pre></template>
 * </ToolCalls>
 */
export declare const ToolCalls: {
  new <const Tools extends readonly ToolOption[]>(props: ToolCallsProps<Tools>): {
    $props: ToolCallsProps<Tools>;
    $slots: ToolCallsSlots<Tools>;
  };
};
