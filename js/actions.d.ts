import type { ContentPart, FieldStatus, InterruptState, Snapshot, Subagent, ToolCallState, ToolCallTracker } from "./index.js";

/**
 * The tracker's answers bound to one call (and to the interrupt it awaits),
 * as every binding's `<ToolCalls>` hands them to a call's renderer.
 *
 * @example
 * const { approve, answer } = bindActions(tracker, "c1");
 * approve({ remember: "tool" });
 * answer("Deployed checkout.");
 */
export interface ToolCallActions {
  /** Approves the call; `{ remember: "tool" }` also approves later calls to its tool whose arguments pass its schema. */
  approve(options?: { remember?: "tool" }): void;
  decline(reason?: string | null): void;
  answer(content: string | ContentPart[]): void;
  fail(error: string, content?: string | null): void;
  /** Resolves the interrupt the call awaits with `{ approved: true }`, and the edited arguments as `editedArgs` when given (validated against the tool's schema). Throws when the call awaits no interrupt. */
  approveWithEdits(editedArgs?: Record<string, unknown>): void;
  /** Cancels the interrupt the call awaits: the call is declined. Throws when the call awaits no interrupt. */
  reject(): void;
}

/** What a call's renderer gets: the call, the interrupt it awaits, and the tracker's answers bound to them. */
export interface ToolCallProps<Call> extends ToolCallActions {
  call: Call;
  /** The open interrupt asking this call's approval (rule I3), if any. */
  interrupt?: InterruptState;
}

/** The actions bound to call `id` (and to `interruptId`, the interrupt it awaits). */
export declare function bindActions(tracker: ToolCallTracker<any>, id: string, interruptId?: string): ToolCallActions;

/**
 * Each call of `snapshot`, in first-start order, with the open interrupt it
 * awaits (if any) and the renderer it gets: `render[call.name]` for a call
 * to an advertised tool or one awaiting an interrupt's approval, `fallback`
 * for any other (or none: left out).
 */
export declare function callsToRender<R>(
  snapshot: Snapshot<any>,
  render: { readonly [name: string]: R | undefined } | undefined | null,
  fallback: R | undefined | null,
): { call: ToolCallState<any>; interrupt: InterruptState | undefined; renderer: R }[];

/** A call in the tree of `callTree`: the call, its item of `entries` (if any), then the subagents it started. */
export interface CallNode<E> {
  readonly kind: "call";
  /** The call's id. */
  readonly key: string;
  readonly call: ToolCallState<any>;
  /** The call's item of the `entries` given (absent: none, the call renders nothing). */
  readonly entry: E | undefined;
  readonly subagents: readonly SubagentNode<E>[];
}

/** A subagent in the tree of `callTree`: its calls (each with what it started), then the subagents it started without a call. */
export interface SubagentNode<E> {
  readonly kind: "subagent";
  /** `subagent:` and the run id. */
  readonly key: string;
  readonly subagent: Subagent;
  readonly children: readonly (CallNode<E> | SubagentNode<E>)[];
}

/**
 * The calls of `snapshot` as a tree: each call, then the subagents it
 * started (`parentToolCallId`) holding their own calls; every call placed
 * once, a cycle ended, what no walk reached last at the top.
 *
 * @example
 * const draw = (node) => node.kind === "call" ? [card(node.entry), ...node.subagents.map(draw)] : group(node.subagent, node.children.map(draw));
 * callTree(snapshot, callsToRender(snapshot, renderers, fallback)).map(draw);
 */
export declare function callTree<E extends { call: ToolCallState<any> }>(
  snapshot: Snapshot<any>,
  entries: readonly E[],
): (CallNode<E> | SubagentNode<E>)[];

/** One field of a call's arguments: its value so far, and whether it is complete (it never changes again). */
export interface ArgFieldValue {
  readonly value: unknown;
  readonly complete: boolean;
}

/**
 * A reader of one top-level field of a call's arguments, returning the
 * same object while its value and completeness stay the same.
 *
 * @example
 * const read = argFieldReader();
 * const url = read(tracker.snapshot(), "c1", "url"); // { value: "https://exa", complete: false }
 */
export declare function argFieldReader(): (snapshot: Snapshot<any>, callId: string, field: string) => ArgFieldValue;

/**
 * A reader of each top-level field's status of a call's arguments
 * (`call.argsStatus()`, `{}` until it starts), returning the same object
 * until a field appears or completes.
 *
 * @example
 * const read = argsStatusReader();
 * read(tracker.snapshot(), "c1"); // { url: "complete", note: "streaming" }
 */
export declare function argsStatusReader(): (snapshot: Snapshot<any>, callId: string) => { readonly [field: string]: FieldStatus };
