// Checked by `tsc --noEmit` (tests/js/types.test.mjs): the element entry's
// classes, its events' details, and the tag and event map augmentations.
import { ToolCallTracker, type ToolCallState } from "agui-tool-calls";
import {
  AguiToolCallElement,
  AguiToolCallsElement,
  type InterruptEventDetail,
  type ToolCallAnswerDetail,
  type ToolCallEventDetail,
} from "agui-tool-calls/element";

const tools = [{ name: "confirm_deploy", parameters: { type: "object", properties: { service: { type: "string" } } } }] as const;
const typed = new ToolCallTracker({ tools, requireApproval: ["confirm_deploy"] });
const untyped = new ToolCallTracker();

// document.createElement knows the tags.
const list: AguiToolCallsElement = document.createElement("agui-tool-calls");
const one: AguiToolCallElement = document.createElement("agui-tool-call");
list.tracker = typed;
list.tracker = untyped;
list.tracker = null;
one.tracker = typed;
one.callId = "c1";
const id: string | null = one.callId;
const call: ToolCallState | undefined = one.call;
const found: AguiToolCallElement | null = document.querySelector("agui-tool-call");

// The events, typed on the elements, the document and the window.
list.addEventListener("agui-approve", (e) => typed.approve(e.detail.callId));
document.addEventListener("agui-decline", (e) => typed.decline(e.detail.callId, `no ${e.detail.toolName}`));
window.addEventListener("agui-answer", (e) => typed.answer(e.detail.callId, e.detail.content));
list.addEventListener("agui-interrupt-approve", (e) => typed.resolveInterrupt(e.detail.interruptId, { approved: true }));
document.addEventListener("agui-interrupt-reject", (e) => typed.cancelInterrupt(e.detail.interruptId));
const onCall: InterruptEventDetail = { interruptId: "i1", reason: "tool_approval", callId: "c1", toolName: "confirm_deploy" };
const callId: string | undefined = onCall.callId;
const detail: ToolCallEventDetail = { callId: "c1", toolName: "confirm_deploy" };
const answer: ToolCallAnswerDetail = { ...detail, content: "yes" };

// @ts-expect-error a tracker, not a snapshot
one.tracker = typed.snapshot();
// @ts-expect-error `call` is read-only
one.call = undefined;
// @ts-expect-error an approval carries no content
document.addEventListener("agui-approve", (e) => e.detail.content);
// @ts-expect-error the details are read-only
answer.content = "no";
// @ts-expect-error an interrupt's event may carry no call: callId is optional
document.addEventListener("agui-interrupt-approve", (e) => typed.approve(e.detail.callId));

export { id, call, found, answer, callId };
