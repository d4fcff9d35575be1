// agui-tool-calls/svelte with Svelte 5 in headless Chromium, from one Vite
// production build whose components, and the package's <ToolCalls>
// shipped as source, @sveltejs/vite-plugin-svelte compiles
// (tests/js/fixtures/svelte-app): a two-turn conversation read from real
// event streams through snippets, a burst of a thousand deltas in one
// frame, the store contract, and no subscription left after unmount.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { launchChromium } from "./support/chromium.mjs";
import { expected, runBindingApp } from "./support/binding-app.mjs";

let browser;
let result;
let warnings;
before(async () => {
  browser = await launchChromium();
  ({ result, warnings } = await runBindingApp(browser, "svelte-app", [svelte()]));
});
after(async () => {
  await browser?.close();
});

test("a two-turn conversation: one call approved and answered, one declined, then an interrupt approved with edits", () => {
  const c = result.conversation;
  assert.equal(c.live, 1, "the stores and <ToolCalls> share one tracker subscription");
  assert.deepEqual(c.turn1, expected.turn1);
  assert.equal(c.extra1, "2 to answer; interrupts: ");
  assert.deepEqual(c.afterApprove, { c1: 1, c2: 0 }, "approve and answer in one click: one render of c1's snippet, none of c2's");
  assert.deepEqual(c.answered, expected.answered);
  assert.deepEqual(c.roles, ["user", "assistant", "tool", "tool"]);
  assert.deepEqual(c.turn2, [...expected.answered, expected.turn2Interrupt], "the backend call awaiting approval renders with its snippet in `render`");
  assert.equal(c.extra2, "0 to answer; interrupts: i1:open");
  assert.deepEqual(c.resolved, [...expected.answered, expected.resolvedInterrupt]);
  assert.equal(c.extra3, "0 to answer; interrupts: i1:resolved");
  assert.deepEqual(c.resume, expected.resume);
});

test("the production build prints no warning", () => {
  assert.deepEqual(warnings, []);
});

test("s6_svelte_arguments_render_as_text_an_img_onerror_argument_is_its_characters", () => {
  assert.equal(result.conversation.images, 0);
  assert.equal(result.conversation.pwned, null);
});

test("unmounting the components drops the tracker subscription", () => {
  assert.equal(result.conversation.liveAfterUnmount, 0);
  assert.equal(result.burst.liveAfterUnmount, 0);
});

test("n1_svelte_a_thousand_deltas_in_one_frame_render_once_and_only_their_call", () => {
  const { pushedBeforeFrame, renders, shown, live } = result.burst;
  assert.equal(pushedBeforeFrame, true, "the pushes fit in one frame");
  assert.deepEqual(renders, { all: 1, b: 1, s: 0 }, "one render of the snapshot and of call b (read with fromStore), none of call s");
  assert.equal(shown, '{"text":"'.length + 1000, "the render shows the latest snapshot");
  assert.equal(live, 1, "three stores, one subscription");
});

test("the stores honour the Svelte store contract; the tracker does not", () => {
  const { heard, live, liveAfterStop, get, trackerCalledAtOnce } = result.storeContract;
  assert.deepEqual(heard, ["", "{}"], "the current value at once, then only when the call changes");
  assert.equal(live, 1);
  assert.equal(liveAfterStop, 0, "the last unsubscribe drops the tracker subscription");
  assert.equal(get, 2, "svelte/store's get() reads it");
  assert.equal(trackerCalledAtOnce, false, "the tracker's subscribe does not call the listener with the current snapshot");
});

test("<ToolCalls> given another tracker follows it: its subscription, and the actions it binds", () => {
  const { live, liveAfterSwap, consent, shown, liveAfterUnmount } = result.swap;
  assert.deepEqual(live, [1, 0]);
  assert.deepEqual(liveAfterSwap, [0, 1]);
  assert.deepEqual(consent, ["unrequested", "approved"], "Approve acts on the new tracker's call");
  assert.equal(shown, "c1 approved Approve");
  assert.deepEqual(liveAfterUnmount, [0, 0]);
});
