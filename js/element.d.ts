import type { ToolCallState, ToolCallTracker, ToolOption } from "./index.js";

/** What every event of a call's buttons carries. */
export interface ToolCallEventDetail {
  /** The call's `toolCallId`. */
  readonly callId: string;
  /** The call's tool name. */
  readonly toolName: string;
}

/** `agui-approve`: Approve, or Always allow (`remember: "tool"`, what `tracker.approve(callId, { remember })` takes). */
export interface ToolCallApproveDetail extends ToolCallEventDetail {
  /** `"tool"` from Always allow: approve later calls to this tool too. */
  readonly remember?: "tool";
}

/** `agui-revoke-approval`: Ask again on a standing approval. */
export interface RevokeApprovalDetail {
  /** The tool whose standing approval the user withdraws (`tracker.revokeApproval(tool)`). */
  readonly tool: string;
  /** The call the approval was given on. */
  readonly toolCallId: string;
}

/** `agui-arg-complete`: a field of `<agui-tool-arg>` is complete. */
export interface ArgCompleteDetail {
  readonly callId: string;
  readonly field: string;
  /** The field's complete value. */
  readonly value: unknown;
}

/** `agui-answer`: the text the user typed for an approved call. */
export interface ToolCallAnswerDetail extends ToolCallEventDetail {
  readonly content: string;
}

/** `agui-interrupt-approve` and `agui-interrupt-reject`: an open interrupt's buttons. */
export interface InterruptEventDetail {
  /** The interrupt's id. */
  readonly interruptId: string;
  /** Why the run stopped, as sent. */
  readonly reason: string;
  /** For an interrupt asking a call's approval (rule I3): the call's `toolCallId`. */
  readonly callId?: string;
  /** For an interrupt asking a call's approval: the call's tool name. */
  readonly toolName?: string;
}

/**
 * `<agui-tool-call call-id="c1">`: one call of `tracker`, redrawn when that
 * call (or the interrupt it awaits) changes, at most once per animation
 * frame. Its buttons dispatch `agui-approve`, `agui-decline` and
 * `agui-answer`, or, for a call awaiting an interrupt's approval,
 * `agui-interrupt-approve` and `agui-interrupt-reject`; the application
 * answers the tracker.
 *
 * @example
 * const el = document.createElement("agui-tool-call");
 * el.callId = "c1";
 * el.tracker = tracker;
 * el.addEventListener("agui-approve", (e) => tracker.approve(e.detail.callId));
 * document.body.append(el);
 */
export declare class AguiToolCallElement extends HTMLElement {
  static readonly observedAttributes: readonly ["call-id"];
  /** The tracker whose call is shown; `null` until given. */
  get tracker(): ToolCallTracker<readonly ToolOption[]> | null;
  set tracker(tracker: ToolCallTracker<readonly ToolOption[]> | null | undefined);
  /** The `call-id` attribute. */
  get callId(): string | null;
  set callId(id: string | null | undefined);
  /** The call as last drawn (`undefined` until it starts). */
  get call(): ToolCallState | undefined;
}

/**
 * `<agui-tool-calls>`: every call of `tracker`, in first-start order, each an
 * `<agui-tool-call>`, a subagent's calls nested under the call that started
 * it in a `role="group"` element (`part="subagent"`) unless `flat`, then the
 * open interrupts that ask no call's approval, each with Approve and Reject,
 * then the standing approvals, each with Ask again; their events reach the
 * page through it.
 *
 * @example
 * const list = document.createElement("agui-tool-calls");
 * list.tracker = tracker;
 * list.addEventListener("agui-approve", (e) => tracker.approve(e.detail.callId, { remember: e.detail.remember }));
 * list.addEventListener("agui-decline", (e) => tracker.decline(e.detail.callId));
 * list.addEventListener("agui-revoke-approval", (e) => tracker.revokeApproval(e.detail.tool));
 * list.addEventListener("agui-interrupt-approve", (e) => tracker.resolveInterrupt(e.detail.interruptId, { approved: true }));
 * list.addEventListener("agui-interrupt-reject", (e) => tracker.cancelInterrupt(e.detail.interruptId));
 * document.body.append(list);
 */
export declare class AguiToolCallsElement extends HTMLElement {
  static readonly observedAttributes: readonly ["flat"];
  /** The tracker whose calls are shown; `null` until given. */
  get tracker(): ToolCallTracker<readonly ToolOption[]> | null;
  set tracker(tracker: ToolCallTracker<readonly ToolOption[]> | null | undefined);
  /** Every call in one list, no subagent groups (the `flat` attribute). */
  get flat(): boolean;
  set flat(flat: boolean);
}

/**
 * `<agui-tool-arg call-id="c1" field="url">`: one top-level field of a
 * call's arguments as text, redrawn only when its value or completeness
 * changes (a complete field is not redrawn while others stream); the host
 * gets the `complete` attribute, and dispatches `agui-arg-complete`, once
 * the field is complete.
 *
 * @example
 * const url = document.createElement("agui-tool-arg");
 * url.callId = "c1";
 * url.field = "url";
 * url.tracker = tracker;
 * url.addEventListener("agui-arg-complete", (e) => prefetch(e.detail.value));
 * document.body.append(url);
 */
export declare class AguiToolArgElement extends HTMLElement {
  static readonly observedAttributes: readonly ["call-id", "field"];
  /** The tracker whose call is read; `null` until given. */
  get tracker(): ToolCallTracker<readonly ToolOption[]> | null;
  set tracker(tracker: ToolCallTracker<readonly ToolOption[]> | null | undefined);
  /** The `call-id` attribute. */
  get callId(): string | null;
  set callId(id: string | null | undefined);
  /** The `field` attribute: a top-level field of the arguments. */
  get field(): string | null;
  set field(name: string | null | undefined);
  /** The field's value as last drawn (`undefined` until it starts). */
  get value(): unknown;
  /** Whether the field is complete (its value never changes again), as last drawn. */
  get complete(): boolean;
}

declare global {
  interface HTMLElementTagNameMap {
    "agui-tool-call": AguiToolCallElement;
    "agui-tool-calls": AguiToolCallsElement;
    "agui-tool-arg": AguiToolArgElement;
  }
  /** The events the elements dispatch: bubbling and composed, so a listener on an ancestor, the document or the window hears them. */
  interface GlobalEventHandlersEventMap {
    "agui-approve": CustomEvent<ToolCallApproveDetail>;
    "agui-decline": CustomEvent<ToolCallEventDetail>;
    "agui-answer": CustomEvent<ToolCallAnswerDetail>;
    "agui-interrupt-approve": CustomEvent<InterruptEventDetail>;
    "agui-interrupt-reject": CustomEvent<InterruptEventDetail>;
    "agui-revoke-approval": CustomEvent<RevokeApprovalDetail>;
    "agui-arg-complete": CustomEvent<ArgCompleteDetail>;
  }
}
