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
import { bindingTests, runBindingApp } from "./support/binding-app.mjs";

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

bindingTests("svelte", () => ({ result, warnings }));

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
