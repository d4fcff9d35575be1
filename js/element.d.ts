import type { ToolCallState, ToolCallTracker, ToolOption } from "./index.js";

/** What every event of a call's buttons carries. */
export interface ToolCallEventDetail {
  /** The call's `toolCallId`. */
  readonly callId: string;
  /** The call's tool name. */
  readonly toolName: string;
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
 * `<agui-tool-call>`, then the open interrupts that ask no call's approval,
 * each with Approve and Reject; their events reach the page through it.
 *
 * @example
 * const list = document.createElement("agui-tool-calls");
 * list.tracker = tracker;
 * list.addEventListener("agui-decline", (e) => tracker.decline(e.detail.callId));
 * list.addEventListener("agui-interrupt-approve", (e) => tracker.resolveInterrupt(e.detail.interruptId, { approved: true }));
 * list.addEventListener("agui-interrupt-reject", (e) => tracker.cancelInterrupt(e.detail.interruptId));
 * document.body.append(list);
 */
export declare class AguiToolCallsElement extends HTMLElement {
  /** The tracker whose calls are shown; `null` until given. */
  get tracker(): ToolCallTracker<readonly ToolOption[]> | null;
  set tracker(tracker: ToolCallTracker<readonly ToolOption[]> | null | undefined);
}

declare global {
  interface HTMLElementTagNameMap {
    "agui-tool-call": AguiToolCallElement;
    "agui-tool-calls": AguiToolCallsElement;
  }
  /** The events the elements dispatch: bubbling and composed, so a listener on an ancestor, the document or the window hears them. */
  interface GlobalEventHandlersEventMap {
    "agui-approve": CustomEvent<ToolCallEventDetail>;
    "agui-decline": CustomEvent<ToolCallEventDetail>;
    "agui-answer": CustomEvent<ToolCallAnswerDetail>;
    "agui-interrupt-approve": CustomEvent<InterruptEventDetail>;
    "agui-interrupt-reject": CustomEvent<InterruptEventDetail>;
  }
}
