import type { ReactNode } from "react";
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
   * `true` (the default): at most one render per animation frame, showing
   * the latest snapshot. `false`: a render for every snapshot (tests).
   */
  coalesce?: boolean;
}

/** The tracker's current snapshot; one subscription per tracker, renders coalesced per frame by default. */
export declare function useToolCalls<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: StoreOptions,
): Snapshot<Tools>;

/** The call with this id (`undefined` until it starts); re-renders only when that call changes. */
export declare function useToolCall<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  id: string,
  options?: StoreOptions,
): ToolCallState<Tools> | undefined;

/** The calls the application must answer (`snapshot.pendingCalls`); re-renders only when they change. */
export declare function usePendingCalls<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: StoreOptions,
): Snapshot<Tools>["pendingCalls"];

/** One field of a call's arguments: its value so far, and whether it is complete (it never changes again). */
export interface ArgField<T> {
  readonly value: PartialValue<T> | undefined;
  readonly complete: boolean;
}

/**
 * One top-level field of the call `callId`'s arguments, typed by the tools'
 * schemas; re-renders only when that field's value or completeness changes
 * (a complete field never re-renders while other fields stream).
 *
 * @example
 * const url = useArgField(tracker, callId, "url");
 * useEffect(() => { if (url.complete) prefetch(url.value); }, [url]);
 */
export declare function useArgField<Tools extends readonly ToolOption[], K extends ArgKey<ToolArgs<Tools>>>(
  tracker: ToolCallTracker<Tools>,
  callId: string,
  field: K,
  options?: StoreOptions,
): ArgField<ArgValue<ToolArgs<Tools>, K>>;

/**
 * Each top-level field of the call `callId`'s arguments, `"streaming"` or
 * `"complete"`; re-renders only when a field appears or completes.
 *
 * @example
 * const status = useToolArgsStatus(tracker, callId); // { url: "complete", note: "streaming" }
 */
export declare function useToolArgsStatus<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  callId: string,
  options?: StoreOptions,
): ArgsStatus<ToolArgs<Tools>>;

/** The thread's open interrupts (`snapshot.interrupts`); re-renders only when they change. */
export declare function useInterrupts<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: StoreOptions,
): Snapshot<Tools>["interrupts"];

/**
 * The user's standing approvals (`snapshot.standingApprovals`); re-renders
 * only when they change.
 *
 * ```tsx
 * const standing = useStandingApprovals(tracker);
 * return standing.map((s) => <button key={s.tool} onClick={() => tracker.revokeApproval(s.tool)}>Ask again for {s.tool}</button>);
 * ```
 */
export declare function useStandingApprovals<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: StoreOptions,
): Snapshot<Tools>["standingApprovals"];


/** The props of the component that renders calls to the tool `Name`. */
export type ToolCallRenderProps<Tools extends readonly ToolOption[], Name extends ToolName<Tools>> = ToolCallProps<ToolCallFor<Tools, Name>>;

export interface ToolCallsProps<Tools extends readonly ToolOption[]> extends StoreOptions {
  tracker: ToolCallTracker<Tools>;
  /** A component per advertised tool, by name (keep their identity stable: module-level components). */
  render?: { readonly [Name in ToolName<Tools>]?: (props: ToolCallRenderProps<Tools, Name>) => ReactNode };
  /** The component of every other call; absent: those calls render nothing. */
  fallback?: (props: ToolCallProps<ToolCallState<Tools>>) => ReactNode;
  /**
   * `true` (the default): a subagent's calls render right after the call
   * that started it, inside `subagent`; `false`: every call in one flat
   * list, in first-start order.
   */
  nested?: boolean;
  /** The group around one subagent's calls (default: a `<div role="group">` labelled with its name). */
  subagent?: (props: { subagent: Subagent; children: ReactNode }) => ReactNode;
}

/** Every call of the tracker, each through its tool's component (or `fallback`). */
export declare function ToolCalls<Tools extends readonly ToolOption[]>(props: ToolCallsProps<Tools>): ReactNode;
