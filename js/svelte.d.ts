import type { ComponentInternals, Snippet } from "svelte";
import type { Readable } from "svelte/store";
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
   * `true` (the default): subscribers hear at most once per animation
   * frame, the latest snapshot. `false`: every snapshot (tests).
   */
  coalesce?: boolean;
}

/**
 * The tracker's current snapshot, as a readable store (`$snapshot` in a
 * component, `fromStore(store).current` with runes). One tracker
 * subscription per tracker while some subscriber listens.
 *
 * @example
 * const snapshot = toolCallsStore(tracker); // {$snapshot.calls.length}
 */
export declare function toolCallsStore<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: StoreOptions,
): Readable<Snapshot<Tools>>;

/**
 * The call with this id (`undefined` until it starts); tells its subscribers only when that call changes.
 *
 * @example
 * const call = toolCallStore(tracker, "c1"); // {$call?.status}
 */
export declare function toolCallStore<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  id: string,
  options?: StoreOptions,
): Readable<ToolCallState<Tools> | undefined>;

/**
 * The calls the application must answer (`snapshot.pendingCalls`); tells its subscribers only when they change.
 *
 * @example
 * const pending = pendingCallsStore(tracker); // {$pending.length} to answer
 */
export declare function pendingCallsStore<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: StoreOptions,
): Readable<Snapshot<Tools>["pendingCalls"]>;

/**
 * The thread's open interrupts (`snapshot.interrupts`); tells its subscribers only when they change.
 *
 * @example
 * const interrupts = interruptsStore(tracker); // {#each $interrupts as i}...{/each}
 */
export declare function interruptsStore<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: StoreOptions,
): Readable<Snapshot<Tools>["interrupts"]>;

/** One field of a call's arguments: its value so far, and whether it is complete (it never changes again). */
export interface ArgField<T> {
  readonly value: PartialValue<T> | undefined;
  readonly complete: boolean;
}

/**
 * One top-level field of the call `callId`'s arguments, typed by the
 * tools' schemas; tells its subscribers only when that field's value or
 * completeness changes (a complete field is quiet while others stream).
 *
 * @example
 * const url = argFieldStore(tracker, "c1", "url"); // {#if $url.complete}<a href={$url.value}>{$url.value}</a>{/if}
 */
export declare function argFieldStore<Tools extends readonly ToolOption[], K extends ArgKey<ToolArgs<Tools>>>(
  tracker: ToolCallTracker<Tools>,
  callId: string,
  field: K,
  options?: StoreOptions,
): Readable<ArgField<ArgValue<ToolArgs<Tools>, K>>>;

/**
 * Each top-level field of the call `callId`'s arguments, `"streaming"` or
 * `"complete"`; tells its subscribers only when a field appears or completes.
 *
 * @example
 * const status = toolArgsStatusStore(tracker, "c1"); // {$status.url ?? "not yet"}
 */
export declare function toolArgsStatusStore<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  callId: string,
  options?: StoreOptions,
): Readable<ArgsStatus<ToolArgs<Tools>>>;

/**
 * The user's standing approvals (`snapshot.standingApprovals`); tells its subscribers only when they change.
 *
 * @example
 * const standing = standingApprovalsStore(tracker); // {#each $standing as s}<button onclick={() => tracker.revokeApproval(s.tool)}>Ask again for {s.tool}</button>{/each}
 */
export declare function standingApprovalsStore<Tools extends readonly ToolOption[]>(
  tracker: ToolCallTracker<Tools>,
  options?: StoreOptions,
): Readable<Snapshot<Tools>["standingApprovals"]>;

/** What the snippet of the tool `Name` gets. */
export type ToolCallRenderProps<Tools extends readonly ToolOption[], Name extends ToolName<Tools>> = ToolCallProps<ToolCallFor<Tools, Name>>;

export interface ToolCallsProps<Tools extends readonly ToolOption[]> extends StoreOptions {
  tracker: ToolCallTracker<Tools>;
  /** A snippet per advertised tool, by name; it wins over a snippet passed under the tool's name. */
  render?: { readonly [Name in ToolName<Tools>]?: Snippet<[ToolCallRenderProps<Tools, Name>]> };
  /** The snippet of every other call; absent: those calls render nothing. */
  fallback?: Snippet<[ToolCallProps<ToolCallState<Tools>>]>;
  /**
   * `true` (the default): a subagent's calls render right after the call
   * that started it, inside `subagent`; `false`: every call in one flat
   * list, in first-start order.
   */
  nested?: boolean;
  /** The group around one subagent's calls, given the subagent and its calls as a snippet (default: a `<div role="group">` labelled with its name). */
  subagent?: Snippet<[{ subagent: Subagent; children: Snippet }]>;
}

/**
 * Snippets passed under a tool's name (`{#snippet confirm_deploy({ call, approve })}`
 * inside `<ToolCalls>`); with untyped tools, any name.
 */
export type ToolCallSnippets<Tools extends readonly ToolOption[]> = string extends ToolName<Tools>
  ? { readonly [name: string]: unknown }
  : { readonly [Name in Exclude<ToolName<Tools>, keyof ToolCallsProps<Tools> | "children">]?: Snippet<[ToolCallRenderProps<Tools, Name>]> };

/**
 * Every call of the tracker, each through its tool's snippet (or `fallback`).
 *
 * @example
 * <ToolCalls {tracker}>
 *   {#snippet confirm_deploy({ call, approve, decline })}...{/snippet}
 *   {#snippet fallback({ call })}<pre>{call.argsText}</pre>{/snippet}
 * </ToolCalls>
 */
export declare function ToolCalls<const Tools extends readonly ToolOption[]>(
  this: void,
  internals: ComponentInternals,
  props: ToolCallsProps<Tools> & ToolCallSnippets<Tools>,
): Record<string, never>;
