// agui-tool-calls/angular with Angular 22 in headless Chromium, from one
// Vite production build (tests/js/fixtures/angular-app). Angular's own
// builder (@angular/build) is not used: the app's standalone, zoneless,
// OnPush components are compiled just in time by @angular/compiler in the
// page, and the package's signals are what is tested: a two-turn
// conversation read from real event streams, a burst of a thousand deltas
// in one frame, injection contexts, and no subscription left once the
// application (and so each component's DestroyRef) is destroyed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launchChromium } from "./support/chromium.mjs";
import { expected, runBindingApp } from "./support/binding-app.mjs";

/**
 * Production mode, as Angular's builder sets it: no development checks.
 * The page holds Angular's just-in-time compiler, over Vite's 500 kB
 * chunk warning: that limit is raised, and any other warning still fails.
 */
const production = {
  name: "angular-production",
  config: () => ({ define: { ngDevMode: "false", ngServerMode: "false" }, build: { chunkSizeWarningLimit: 4096 } }),
};

let browser;
let result;
let warnings;
before(async () => {
  browser = await launchChromium();
  ({ result, warnings } = await runBindingApp(browser, "angular-app", [production]));
});
after(async () => {
  await browser?.close();
});

test("a two-turn conversation: one call approved and answered, one declined, then an interrupt approved with edits", () => {
  const c = result.conversation;
  assert.equal(c.live, 1, "the signals share one tracker subscription");
  assert.deepEqual(c.turn1, expected.turn1);
  assert.equal(c.extra1, "2 to answer; interrupts: ");
  // Angular also checks a view whose listener fired, which may come before
  // the frame's new snapshot: c1's card is checked once or twice.
  assert.ok(c.afterApprove.c1 >= 1 && c.afterApprove.c1 <= 2, `c1's card checked ${c.afterApprove.c1} times`);
  assert.equal(c.afterApprove.c2, 0, "approve and answer c1: c2's card is not checked at all");
  assert.deepEqual(c.answered, expected.answered);
  assert.deepEqual(c.roles, ["user", "assistant", "tool", "tool"]);
  assert.deepEqual(c.turn2, [...expected.answered, expected.turn2Interrupt]);
  assert.equal(c.extra2, "0 to answer; interrupts: i1:open");
  assert.deepEqual(c.resolved, [...expected.answered, expected.resolvedInterrupt]);
  assert.equal(c.extra3, "0 to answer; interrupts: i1:resolved");
  assert.deepEqual(c.resume, expected.resume);
});

test("the production build prints no warning", () => {
  assert.deepEqual(warnings, []);
});

test("s6_angular_arguments_render_as_text_an_img_onerror_argument_is_its_characters", () => {
  assert.equal(result.conversation.images, 0);
  assert.equal(result.conversation.pwned, null);
});

test("destroying the application releases the subscription through DestroyRef", () => {
  assert.equal(result.conversation.liveAfterUnmount, 0);
  assert.equal(result.burst.liveAfterUnmount, 0);
});

test("n1_angular_a_thousand_deltas_in_one_frame_render_once_and_only_their_call", () => {
  const { pushedBeforeFrame, renders, shown, live } = result.burst;
  assert.equal(pushedBeforeFrame, true, "the pushes fit in one frame");
  assert.deepEqual(renders, { all: 1, b: 1, s: 0 }, "one check of the snapshot's view and of call b's, none of call s's");
  assert.equal(shown, '{"text":"'.length + 1000, "the render shows the latest snapshot");
  assert.equal(live, 1, "three signals, one subscription");
});

test("signals made with an injector end with it; outside an injection context they are refused", () => {
  const { version, live, liveAfterDestroy, outside } = result.contexts;
  assert.equal(version, "running", "coalesce: false reads every snapshot");
  assert.equal(live, 1);
  assert.equal(liveAfterDestroy, 0);
  assert.match(outside, /NG0203/);
});
