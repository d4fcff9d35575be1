// agui-tool-calls/vue with Vue 3 in headless Chromium, from one Vite
// production build whose single-file components @vitejs/plugin-vue
// compiles (tests/js/fixtures/vue-app): a two-turn conversation read from
// real event streams through <ToolCalls> slots and a render component, a
// burst of a thousand deltas in one frame, and no subscription left after
// unmount.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import vue from "@vitejs/plugin-vue";
import { launchChromium } from "./support/chromium.mjs";
import { expected, runBindingApp } from "./support/binding-app.mjs";

let browser;
let result;
let warnings;
before(async () => {
  browser = await launchChromium();
  ({ result, warnings } = await runBindingApp(browser, "vue-app", [vue()]));
});
after(async () => {
  await browser?.close();
});

test("a two-turn conversation: one call approved and answered, one declined, then an interrupt approved with edits", () => {
  const c = result.conversation;
  assert.equal(c.live, 1, "the composables and <ToolCalls> share one tracker subscription");
  assert.deepEqual(c.turn1, expected.turn1);
  assert.equal(c.extra1, "2 to answer; interrupts: ");
  assert.deepEqual(c.afterApprove, { c1: 1, c2: 0 }, "approve and answer in one click: one render of c1's slot, none of c2's");
  assert.deepEqual(c.answered, expected.answered);
  assert.deepEqual(c.roles, ["user", "assistant", "tool", "tool"]);
  assert.deepEqual(c.turn2, [...expected.answered, expected.turn2Interrupt], "the backend call awaiting approval renders with its render component");
  assert.equal(c.extra2, "0 to answer; interrupts: i1:open");
  assert.deepEqual(c.resolved, [...expected.answered, expected.resolvedInterrupt]);
  assert.equal(c.extra3, "0 to answer; interrupts: i1:resolved");
  assert.deepEqual(c.resume, expected.resume);
});

test("the production build prints no warning", () => {
  assert.deepEqual(warnings, []);
});

test("s6_vue_arguments_render_as_text_an_img_onerror_argument_is_its_characters", () => {
  assert.equal(result.conversation.images, 0);
  assert.equal(result.conversation.pwned, null);
});

test("unmounting the app drops the tracker subscription", () => {
  assert.equal(result.conversation.liveAfterUnmount, 0);
  assert.equal(result.burst.liveAfterUnmount, 0);
});

test("n1_vue_a_thousand_deltas_in_one_frame_render_once_and_only_their_call", () => {
  const { pushedBeforeFrame, renders, shown, live } = result.burst;
  assert.equal(pushedBeforeFrame, true, "the pushes fit in one frame");
  assert.deepEqual(renders, { all: 1, b: 1, s: 0 }, "one render of the snapshot and of call b, none of call s");
  assert.equal(shown, '{"text":"'.length + 1000, "the render shows the latest snapshot");
  assert.equal(live, 1, "three composables, one subscription");
});

test("useToolCall follows a ref id; composables refuse to run outside a scope", () => {
  const { first, second, all, live, liveAfterStop, outside } = result.composables;
  assert.equal(first, "one");
  assert.equal(second, "two", "the ref follows the id");
  assert.equal(all, 2);
  assert.equal(live, 2, "one subscription per publishing mode (coalesced, and every snapshot)");
  assert.equal(liveAfterStop, 0, "stopping the scope unsubscribes");
  assert.match(outside, /useToolCalls\(\) must be called in a component's setup\(\) or an effectScope\(\)/);
});

test("<ToolCalls> given another tracker follows it: its subscription, and the actions it binds", () => {
  const { live, liveAfterSwap, consent, shown, liveAfterUnmount } = result.swap;
  assert.deepEqual(live, [1, 0]);
  assert.deepEqual(liveAfterSwap, [0, 1]);
  assert.deepEqual(consent, ["unrequested", "approved"], "Approve acts on the new tracker's call");
  assert.equal(shown, "c1 approved Approve");
  assert.deepEqual(liveAfterUnmount, [0, 0]);
});
