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
import { bindingTests, runBindingApp } from "./support/binding-app.mjs";

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

bindingTests("vue", () => ({ result, warnings }));

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
