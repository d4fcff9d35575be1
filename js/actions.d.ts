import type { ContentPart, InterruptState, Snapshot, ToolCallState, ToolCallTracker } from "./index.js";

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
