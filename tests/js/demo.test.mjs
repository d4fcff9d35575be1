// `npm run demo` in real headless Chromium: the React chat streams a run from
// the demo agent, shows the frontend call's arguments filling in, renders the
// model's markup as text, and answers the call (approve or decline) so that the
// next run is accepted.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { launchChromium } from "./support/chromium.mjs";
import { root } from "./support/paths.mjs";
import { startDemo } from "../../scripts/demo.mjs";
import { INVESTIGATE, INVESTIGATOR, PROPOSED_DEPLOY, SERVICE_STATUS } from "../../examples/scenarios.mjs";

const MARKUP = "<img src=x onerror=alert(1)>";
const WAIT = { timeout: 20_000 };
// Screenshots for a reviewer (git-ignored).
const outDir = path.join(root, "test-output");

let browser;
let demo;
before(async () => {
  mkdirSync(outDir, { recursive: true });
  // The demo's own pace between events: at 15 ms, a page on a busy machine
  // rendered a whole call's streaming arguments in two frames.
  [browser, demo] = await Promise.all([launchChromium(), startDemo({ pace: 40 })]);
});
after(async () => {
  await browser?.close();
  await demo?.close();
});

/** Opens the demo in a fresh page (a fresh thread) that records what a reviewer would watch. */
async function openDemo() {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  const seen = { dialogs: [], errors: [], runs: [] };
  page.on("dialog", (dialog) => {
    seen.dialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
  page.on("pageerror", (error) => seen.errors.push(error.message));
  page.on("response", (response) => {
    if (response.url() === demo.endpoint && response.request().method() === "POST") seen.runs.push(response.status());
  });
  await page.goto(demo.url);
  await page.waitForSelector(".composer button:not([disabled])", WAIT);
  // Every distinct state of the first card, as the page renders it.
  await page.evaluate(() => {
    window.cardStates = [];
    new MutationObserver(() => {
      const card = document.querySelector(".card");
      if (!card) return;
      const state = { status: card.dataset.status, text: card.querySelector("pre").textContent };
      const last = window.cardStates.at(-1);
      if (!last || last.status !== state.status || last.text !== state.text) window.cardStates.push(state);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return { page, seen };
}

const cardText = (page) => page.locator(".card").first().textContent();

/** Sends the first message and waits for the call to await the user. */
async function untilPending(page) {
  await page.click(".composer button");
  await page.waitForSelector('.card[data-status="pending"]', WAIT);
}

const waitForText = (page, text) =>
  page.waitForFunction((t) => document.querySelector(".timeline").textContent.includes(t), text, WAIT);

/** Sends `text` as the next message. */
async function say(page, text) {
  await page.fill(".composer input", text);
  await page.click(".composer button");
}

test("four turns on nextRun: approve, decline, a backend call with its streamed result, approve again", async () => {
  const { page, seen } = await openDemo();
  const pendingCard = '.card[data-status="pending"]';
  const cards = (status) => page.locator(`.card[data-status="${status}"]`).count();
  try {
    // 1: approve.
    await untilPending(page);
    await page.click(`${pendingCard} button.approve`);
    await waitForText(page, `Deploying ${PROPOSED_DEPLOY.service} ${PROPOSED_DEPLOY.version}`);
    await page.waitForSelector('[data-run-status="finished"]', WAIT);
    // 2: decline.
    await say(page, "Deploy it once more, please.");
    await page.waitForSelector(pendingCard, WAIT);
    await page.click(`${pendingCard} button.decline`);
    await waitForText(page, "Understood, not deploying.");
    await page.waitForSelector('[data-run-status="finished"]', WAIT);
    // 3: the agent calls its own tool and streams the result.
    await say(page, "What is the status of checkout-api?");
    await waitForText(page, `${SERVICE_STATUS.service} is healthy`);
    await page.waitForSelector('[data-run-status="finished"]', WAIT);
    const backend = page.locator('.card[data-status="answered"]').last();
    assert.ok((await backend.textContent()).includes("check_status"));
    assert.ok((await backend.locator(".result").textContent()).includes("answered (stream)"));
    // 4: approve again.
    await say(page, "Now deploy, please.");
    await page.waitForSelector(pendingCard, WAIT);
    await page.click(`${pendingCard} button.approve`);
    await page.waitForFunction(() => document.querySelectorAll(".msg").length >= 12 && !document.querySelector('[data-run-status="running"]'), null, WAIT);
    await page.waitForSelector('[data-run-status="finished"]', WAIT);
    // Seven runs, each accepted by an agent that refuses a history with an unanswered call.
    assert.deepEqual(seen.runs, [200, 200, 200, 200, 200, 200, 200]);
    assert.equal(await cards("declined"), 1);
    assert.equal(await page.locator(".card .fact-approved").count(), 2);
    assert.equal(await page.locator(".timeline").textContent().then((t) => t.split("Deploying").length - 1), 2);
    assert.equal(await page.locator(".problems").count(), 0, "no error and no violation shown");
    await page.screenshot({ path: path.join(outDir, "demo-four-turns.png") });
    assert.deepEqual(seen.dialogs, []);
    assert.deepEqual(seen.errors, []);
  } finally {
    await page.close();
  }
});

test("approve: arguments stream in live, markup stays text, and the next run is accepted", async () => {
  const { page, seen } = await openDemo();
  try {
    await untilPending(page);

    // The arguments filled in while the call was open: partial JSON first, growing.
    const states = await page.evaluate(() => window.cardStates);
    const streaming = states.filter((s) => s.status === "streaming");
    const lengths = [...new Set(streaming.map((s) => s.text.length))];
    assert.ok(lengths.length >= 3, `at least 3 distinct argument lengths while streaming, saw ${lengths}`);
    assert.deepEqual(lengths, [...lengths].sort((a, b) => a - b), "the arguments only grow");
    const partial = streaming.map((s) => tryParse(s.text)).find((v) => v && "service" in v && !("notes" in v));
    assert.ok(partial, "a partial value (service known, notes not yet) was shown while the call was open");
    const final = states.at(-1);
    assert.equal(final.status, "pending");
    assert.deepEqual(JSON.parse(final.text), PROPOSED_DEPLOY);

    // The model's markup is text: in the card's text, never an element, never run.
    assert.ok((await cardText(page)).includes(MARKUP));
    assert.equal(await page.evaluate(() => document.querySelectorAll(".card img, img").length), 0);
    assert.equal(await page.locator(".card .fact-valid").count(), 1, "the arguments are valid against the schema");

    // Going on without answering is refused by the tracker, naming the call; nothing is posted.
    const callId = await page.locator(".card").first().getAttribute("data-call-id");
    await page.fill(".composer input", "What now?");
    await page.click(".composer button");
    await page.waitForSelector(".problems .error", WAIT);
    assert.ok((await page.locator(".problems .error").textContent()).includes(callId));
    assert.deepEqual(seen.runs, [200]);
    await page.fill(".composer input", "");
    await page.screenshot({ path: path.join(outDir, "demo-pending.png") });

    await page.click(".card button.approve");
    await waitForText(page, `Deploying ${PROPOSED_DEPLOY.service} ${PROPOSED_DEPLOY.version}`);
    await page.waitForSelector('[data-run-status="finished"]', WAIT);
    assert.deepEqual(seen.runs, [200, 200], "the agent accepted the answered thread");
    assert.equal(await page.locator('.card[data-status="pending"]').count(), 0);
    assert.equal(await page.locator(".card").first().getAttribute("data-status"), "answered");
    assert.equal(await page.locator(".card .fact-approved").count(), 1);
    assert.equal(await page.locator(".problems").count(), 0, "no error and no violation shown");

    await page.screenshot({ path: path.join(outDir, "demo.png") });
    assert.deepEqual(seen.dialogs, [], "no dialog opened");
    assert.deepEqual(seen.errors, []);
  } finally {
    await page.close();
  }
});

test("decline: the call is answered with the refusal and the agent does not deploy", async () => {
  const { page, seen } = await openDemo();
  try {
    await untilPending(page);
    await page.click(".card button.decline");
    await waitForText(page, "Understood, not deploying.");
    await page.waitForSelector('[data-run-status="finished"]', WAIT);
    assert.deepEqual(seen.runs, [200, 200]);
    assert.equal(await page.locator(".card").first().getAttribute("data-status"), "declined");
    assert.equal(await page.locator(".card .fact-declined").count(), 1);
    assert.ok(!(await page.locator(".timeline").textContent()).includes("Deploying"));
    await page.screenshot({ path: path.join(outDir, "demo-declined.png") });
    assert.deepEqual(seen.dialogs, []);
    assert.deepEqual(seen.errors, []);
  } finally {
    await page.close();
  }
});

test("a reload in the middle of an approval, then always allow: the thread comes back and later calls run without asking", async () => {
  const { page, seen } = await openDemo();
  const pendingCard = '.card[data-status="pending"]';
  const deployed = (n) => page.waitForFunction((n) => document.querySelector(".timeline").textContent.split("Deploying").length - 1 === n, n, WAIT);
  try {
    await untilPending(page);
    const callId = await page.locator(pendingCard).getAttribute("data-call-id");
    // The page reloads while the call awaits the user: the chat, the call and its arguments come back, still pending.
    await page.reload();
    await page.waitForSelector(pendingCard, WAIT);
    assert.equal(await page.locator(pendingCard).getAttribute("data-call-id"), callId);
    assert.ok((await page.locator(".timeline").textContent()).includes(`I'll deploy ${PROPOSED_DEPLOY.service}`));
    assert.deepEqual(JSON.parse(await page.locator(`${pendingCard} pre`).textContent()), PROPOSED_DEPLOY);
    // Always allow: this call is answered, and the next deploy call is approved by that standing decision, without asking.
    await page.click(`${pendingCard} button.approve-always`);
    await deployed(1);
    await page.waitForSelector('[data-run-status="finished"]', WAIT);
    await page.waitForSelector('.standing [data-tool="confirm_deploy"]', WAIT);
    await say(page, "Deploy it once more, please.");
    await deployed(2);
    await page.waitForSelector('[data-run-status="finished"]', WAIT);
    assert.equal(await page.locator(".card .fact-standing").count(), 1, "the second call was approved by the standing approval");
    assert.equal(await page.locator(".card .fact-standing").getAttribute("title"), `the standing approval given on ${callId}`);
    // Reloaded again: the standing approval and who decided come back; withdrawn, the next call asks again.
    await page.reload();
    await page.waitForSelector('.standing [data-tool="confirm_deploy"]', WAIT);
    assert.equal(await page.locator(".card .fact-standing").count(), 1);
    await page.click(".standing button.revoke");
    await say(page, "Deploy it a third time, please.");
    await page.waitForSelector(pendingCard, WAIT);
    await page.click(`${pendingCard} button.approve`);
    await deployed(3);
    await page.waitForSelector('[data-run-status="finished"]', WAIT);
    // Six runs, each accepted by an agent that refuses a history with an unanswered call.
    assert.deepEqual(seen.runs, [200, 200, 200, 200, 200, 200]);
    assert.equal(await page.locator(".problems").count(), 0, "no error and no violation shown");
    await page.screenshot({ path: path.join(outDir, "demo-reload-standing.png") });
    assert.deepEqual(seen.dialogs, []);
    assert.deepEqual(seen.errors, []);
  } finally {
    await page.close();
  }
});

test("a8_a_nested_subagents_frontend_call_is_answered_in_the_demo", async () => {
  const { page, seen } = await openDemo();
  try {
    await say(page, "Please investigate checkout-api before deploying.");
    const nested = page.locator('.card.nested[data-status="pending"]');
    await nested.waitFor(WAIT);
    // The subagent's call says whose it is, and the call that started the subagent says so too.
    assert.ok((await nested.textContent()).includes(INVESTIGATOR));
    const parent = page.locator(".card", { hasText: INVESTIGATE }).first();
    assert.ok((await parent.textContent()).includes(`${INVESTIGATOR} (finished)`));
    assert.equal(await parent.getAttribute("data-status"), "answered");
    await nested.locator("button.approve").click();
    await waitForText(page, `Deploying ${PROPOSED_DEPLOY.service} ${PROPOSED_DEPLOY.version}`);
    await page.waitForSelector('[data-run-status="finished"]', WAIT);
    assert.deepEqual(seen.runs, [200, 200], "the agent accepted the history with the nested call answered");
    assert.equal(await page.locator(".card.nested .fact-approved").count(), 1);
    assert.equal(await page.locator(".problems").count(), 0, "no error and no violation shown");
    await page.screenshot({ path: path.join(outDir, "demo-subagent.png") });
    assert.deepEqual(seen.dialogs, []);
    assert.deepEqual(seen.errors, []);
  } finally {
    await page.close();
  }
});

function tryParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
