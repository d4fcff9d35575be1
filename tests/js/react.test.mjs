// agui-tool-calls/react with React 19 in headless Chromium, from a Vite
// production build: one subscription per tracker, renders coalesced per
// animation frame, useToolCall, usePendingCalls and <ToolCalls>.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launchChromium } from "./support/chromium.mjs";
import { serveStatic } from "./support/static-server.mjs";
import { resultOf, viteBuild } from "./support/bundle.mjs";

let browser;
let result;
before(async () => {
  browser = await launchChromium();
  const server = await serveStatic({ "/": await viteBuild("react-hooks-app") });
  try {
    result = await resultOf(browser, `${server.url}/index.html`, 60_000);
  } finally {
    await server.close();
  }
});
after(async () => {
  await browser?.close();
});

test("n1_a_thousand_events_in_one_frame_give_one_render", () => {
  const { coalesced } = result;
  assert.equal(coalesced.framesDuringPushes, 0, "the pushes fit in one frame");
  assert.equal(coalesced.renders, 1);
  assert.equal(coalesced.shown, '{"text":"'.length + 1000, "the render shows the latest snapshot");
});

test("coalesce false renders every snapshot (the opt-out)", () => {
  const { everySnapshot } = result;
  assert.ok(everySnapshot.renders >= 1000, `${everySnapshot.renders} renders`);
  assert.equal(everySnapshot.shown, '{"text":"'.length + 1000);
});

test("the hooks subscribe once per tracker, whatever the renders", () => {
  // Three hooks, twenty re-renders of their component: one subscription,
  // dropped on unmount, made again by the next mount.
  assert.deepEqual(result.stable, { subscriptions: 1, afterUnmount: 1, remount: 2 });
});

test("n1_use_tool_call_rerenders_only_when_that_call_changes", () => {
  const { before, after, text } = result.oneCall;
  assert.equal(after.a, before.a, "call a did not change");
  assert.equal(after.missing, before.missing, "a call that never started does not re-render");
  assert.equal(after.b, before.b + 3, "once per delta to call b");
  assert.equal(text, '{"t":1}');
});

test("f2_use_pending_calls_rerenders_when_the_pending_list_changes", () => {
  const { whileStreaming, renders, seen } = result.pending;
  assert.equal(whileStreaming, 1, "streaming deltas leave the pending list alone");
  assert.deepEqual(seen, ["", "q", ""]);
  assert.equal(renders, 3);
});

test("tool_calls_renders_each_tool_with_its_component_and_bound_actions", () => {
  const { html, before, after, messages, consent } = result.toolCalls;
  assert.deepEqual(html, ["card:d1", "card:d2", "color:p", "other:s"]);
  assert.equal(after.d1, before.d1 + 1, "approve and answer in one click: one render of d1");
  assert.equal(after.d2, before.d2 + 1, "decline: one change of d2");
  assert.deepEqual(messages, [
    { toolCallId: "d1", content: "Deployed api.", error: undefined },
    { toolCallId: "d2", content: messages[1].content, error: "declined" },
    { toolCallId: "p", content: messages[2].content, error: "no colors" },
  ]);
  assert.match(messages[1].content, /not today/);
  assert.deepEqual(consent, ["approved", "declined", "unrequested", "unrequested"]);
});

test("a tracker freed while a frame is scheduled: the frame runs without error, mounted or not", () => {
  assert.deepEqual(result.freedUnmounted, { errors: [], shown: "" });
  // Still mounted: the last snapshot read before free() stays shown.
  assert.deepEqual(result.freedMounted, { errors: [], shown: "{" });
});

test("i3_tool_calls_renders_an_approval_bound_to_its_interrupt_and_use_interrupts_follows_them", () => {
  const { streamingRenders, seen, shown, after, resume, consent } = result.interrupts;
  assert.equal(streamingRenders, 1, "streaming calls leave the interrupts alone");
  assert.deepEqual(seen, ["", "i1:open", "i1:resolved"]);
  assert.equal(shown, "Send 5? (open)");
  assert.equal(after, "Send 5? (resolved)");
  assert.deepEqual(resume, [{ interruptId: "i1", status: "resolved", payload: { approved: true, editedArgs: { amount: 3 } } }]);
  assert.equal(consent, "approved");
});

test("t5_use_arg_field_does_not_rerender_a_complete_field_while_others_stream", () => {
  const { whileNoteStreamed, after, seen, switched } = result.argField;
  assert.deepEqual(switched, ["https://example.com:true", "https://ot:false"], "another call id: that call's field");
  // url: rendered first, then as it grew, then once complete; never again while "note" streamed five deltas.
  assert.deepEqual(seen.url, [":false", "https://exa:false", "https://example.com:true"]);
  assert.equal(whileNoteStreamed.url, 3);
  assert.equal(after.url, 3, "closing the call leaves a complete field alone");
  assert.ok(whileNoteStreamed.note >= 6, `${whileNoteStreamed.note} renders of the streaming field`);
  // The status map changes only when a field appears or completes.
  assert.deepEqual(seen.status, ["{}", '{"url":"streaming"}', '{"url":"complete"}', '{"url":"complete","note":"streaming"}', '{"url":"complete","note":"complete"}']);
});

test("a8_tool_calls_nests_a_subagents_calls_under_the_call_that_started_it", () => {
  assert.deepEqual(result.nestedCalls, {
    nested: "c1 [researcher:finished c2 [reader:finished c3]] top",
    flat: "c1 top c2 c3",
  });
});

test("a8_a_nested_subagents_frontend_call_is_answered_and_the_next_run_carries_it", () => {
  assert.deepEqual(result.nestedAnswer, { pending: ["c3"], answer: { content: "yes" } });
});
