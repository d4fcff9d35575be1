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
import { bindingTests, runBindingApp } from "./support/binding-app.mjs";

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

bindingTests("angular", () => ({ result, warnings }), {
  // Angular also checks a view whose listener fired, which may come before
  // the frame's new snapshot: c1's card is checked once or twice.
  clicked: ({ c1, c2 }) => {
    assert.ok(c1 >= 1 && c1 <= 2, `c1's card checked ${c1} times`);
    assert.equal(c2, 0, "approve and answer c1: c2's card is not checked at all");
  },
  // No component of the binding renders the calls: a template walks toolCallTreeSignal, or the flat list.
  flatOptOut: false,
});

test("signals made with an injector end with it; outside an injection context they are refused", () => {
  const { version, live, liveAfterDestroy, outside } = result.contexts;
  assert.equal(version, "running", "coalesce: false reads every snapshot");
  assert.equal(live, 1);
  assert.equal(liveAfterDestroy, 0);
  assert.match(outside, /NG0203/);
});
