// agui-tool-calls/element in headless Chromium: <agui-tool-calls> and
// <agui-tool-call> in a plain module page (no bundler) under a strict CSP,
// a two-turn conversation read from real event streams, the user's
// keyboard on the buttons, what the shadow DOM shows, the events the page
// hears, one draw per frame, and no subscription left once the elements
// go. Also: a Vite build of a page using it, and the entry kept out of the
// main entry's module graph. `UPDATE_GENERATED=1` rewrites docs/element.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launchChromium } from "./support/chromium.mjs";
import { serveStatic } from "./support/static-server.mjs";
import { resultOf, viteBuild } from "./support/bundle.mjs";
import { fixturesDir, pkgDir, root } from "./support/paths.mjs";
import { runStarted, runFinished, start, args, end, result, sse } from "./support/events.mjs";
// The first turn the framework bindings read too (two calls awaiting
// approval, one argument hostile markup), and the streams of their cases
// of issue 26 with what the cases expect.
import { expected, writeStreams } from "./support/binding-app.mjs";

// No 'unsafe-inline' for styles or scripts: the elements style themselves
// with a constructable stylesheet.
const csp = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'";

const turn2 = [
  runStarted("r2"),
  start("c3", "search_logs", { parentMessageId: "a2" }),
  args("c3", '{"q":"deploy"}'),
  end("c3"),
  result("c3", "2 errors"),
  { type: "TEXT_MESSAGE_START", messageId: "a3", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "a3", delta: "Checkout is deployed." },
  { type: "TEXT_MESSAGE_END", messageId: "a3" },
  runFinished("r2"),
];

const turn3 = [
  runStarted("r3"),
  start("c4", "transfer", { parentMessageId: "a4" }),
  args("c4", '{"amount":5}'),
  end("c4"),
  runFinished("r3", {
    outcome: {
      type: "interrupt",
      interrupts: [
        { id: "i1", reason: "tool_approval", toolCallId: "c4", message: "Send 5?" },
        { id: "i2", reason: "region", message: "Deploy to <b>eu</b>?" },
      ],
    },
  }),
];

let browser;
let server;
let page;
const errors = [];
before(async () => {
  browser = await launchChromium();
  const streams = mkdtempSync(path.join(tmpdir(), "agui-streams-"));
  writeStreams(streams); // its turn2 is the element's own, below
  writeFileSync(path.join(streams, "turn2.sse"), sse(turn2));
  writeFileSync(path.join(streams, "turn3.sse"), sse(turn3));
  server = await serveStatic({ "/pkg/": pkgDir, "/streams/": streams, "/": fixturesDir }, { "content-security-policy": csp });
  page = await browser.newPage({ viewport: { width: 640, height: 900 } });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`${server.url}/element-page.html`);
  await page.waitForFunction(() => window.ready === true, null, { timeout: 20_000 });
});
after(async () => {
  await page?.close();
  await server?.close();
  await browser?.close();
});

/** The Approve or Decline button of a call, found as a screen reader names it. */
const button = (name) => page.locator("agui-tool-calls").getByRole("button", { name, exact: true });

test("a two-turn conversation: the user approves and answers one call and declines one with the keyboard; the page decides", async () => {
  await page.evaluate(() => harness.turn1());
  assert.deepEqual(await page.evaluate(() => harness.text()), [
    'confirm_deploy awaiting approval { "service": "checkout" } validation valid consent unrequested Approve Always allow Decline',
    'delete_service awaiting approval { "service": "<img src=x onerror=window.pwned=1>" } validation valid consent unrequested Approve Always allow Decline',
  ]);
  // Real buttons, labelled with the tool and the call: focus, then the keyboard.
  await button("Approve confirm_deploy call c1").focus();
  await page.keyboard.press("Enter");
  await page.evaluate(() => harness.frames());
  // Approved, not answered: the card asks for the answer, and the focus is in its field.
  assert.equal(
    (await page.evaluate(() => harness.text()))[0],
    'confirm_deploy awaiting answer { "service": "checkout" } validation valid consent approved Answer',
  );
  assert.equal(await page.evaluate(() => harness.focused()), "answer-input");
  assert.equal(await page.locator("agui-tool-calls").getByRole("textbox", { name: "Answer to confirm_deploy call c1" }).count(), 1);
  await page.keyboard.type("Deployed checkout.");
  await page.keyboard.press("Enter");
  await button("Decline delete_service call c2").focus();
  await page.keyboard.press("Space");
  await page.evaluate(() => harness.frames());
  // Bubbling and composed: the document hears them, from the list element.
  assert.deepEqual(await page.evaluate(() => harness.events), [
    ["approve", "c1", "confirm_deploy", "agui-tool-calls"],
    ["answer", "c1", "confirm_deploy", "agui-tool-calls", "Deployed checkout."],
    ["decline", "c2", "delete_service", "agui-tool-calls"],
  ]);
  const answered = await page.evaluate(() => harness.text());
  assert.equal(answered[0], 'confirm_deploy answered { "service": "checkout" } validation valid consent approved answered (application) Deployed checkout.');
  assert.match(answered[1], /^delete_service declined .* consent declined answered with an error \(declined\) .*Not now/);

  const roles = await page.evaluate(() => harness.turn2());
  assert.deepEqual(roles, ["user", "assistant", "tool", "tool"]);
  const shown = await page.evaluate(() => harness.text());
  assert.equal(shown.length, 3, "in first-start order, across turns");
  assert.deepEqual(shown.slice(0, 2), answered, "the first turn's cards are unchanged");
  assert.equal(shown[2], 'search_logs answered { "q": "deploy" } validation unvalidated consent unrequested answered (stream) 2 errors');
});

test("i3_element_open_interrupts_show_approve_and_reject_which_dispatch_events_the_page_answers", async () => {
  await page.evaluate(() => harness.turn3());
  const shown = await page.evaluate(() => harness.text());
  // The call's approval on its card; the other interrupt on a card of its own, after the calls.
  assert.deepEqual(shown.slice(3), [
    'transfer awaiting approval { "amount": 5 } validation unvalidated consent unrequested Send 5? Approve Reject',
    "region awaiting answer Deploy to <b>eu</b>? Approve Reject",
  ]);
  assert.equal(await page.locator("agui-tool-calls").getByRole("button", { name: "Reject interrupt i2", exact: true }).count(), 1);
  await button("Approve transfer call c4").focus();
  await page.keyboard.press("Enter");
  await page.evaluate(() => harness.frames());
  await page.locator("agui-tool-calls").getByRole("button", { name: "Reject interrupt i2", exact: true }).focus();
  await page.keyboard.press("Space");
  await page.evaluate(() => harness.frames());
  assert.deepEqual((await page.evaluate(() => harness.events)).slice(3), [
    ["interrupt-approve", "i1", "tool_approval", "c4", "transfer", "agui-tool-calls"],
    ["interrupt-reject", "i2", "region", null, null, "agui-tool-calls"],
  ]);
  assert.deepEqual((await page.evaluate(() => harness.text())).slice(3), [
    'transfer approved { "amount": 5 } validation unvalidated consent approved Send 5?',
    "region cancelled Deploy to <b>eu</b>?",
  ]);
  assert.deepEqual(await page.evaluate(() => harness.resume()), [
    { interruptId: "i1", status: "resolved", payload: { approved: true } },
    { interruptId: "i2", status: "cancelled" },
  ]);
});

test("s6_element_arguments_are_text_an_img_onerror_argument_renders_as_its_characters", async () => {
  const text = await page.evaluate(() => harness.text());
  assert.ok(text.some((line) => line.includes('"<img src=x onerror=window.pwned=1>"')));
  assert.equal(await page.evaluate(() => harness.images()), 0);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
});

test("s6_element_styled_under_a_strict_csp_without_unsafe_inline_and_restyled_by_the_page", async () => {
  // The first card is answered: its border takes --agui-ok, which the page set.
  assert.deepEqual(await page.evaluate(() => harness.styles()), {
    borderLeftWidth: "4px",
    borderLeftColor: "rgb(1, 2, 3)",
    borderLeftStyle: "solid",
    declinedBorderLeftStyle: "dashed",
    toolDecoration: "underline",
  });
  assert.deepEqual(errors, []);
});

test("n1_element_a_thousand_deltas_in_one_frame_draw_once_and_only_their_call", async () => {
  const burst = await page.evaluate(() => harness.burst());
  assert.equal(burst.pushedBeforeFrame, true, "the pushes fit in one frame");
  assert.deepEqual(burst.changes, { streaming: 1, still: 0 }, "one draw of the streaming call, none of the other");
  assert.equal(burst.shownLength, 1000, "the draw shows the latest snapshot");
  assert.equal(burst.liveWithElements, 1, "two elements, one tracker subscription");
  assert.equal(burst.liveAfterRemoval, 0, "removing the last element unsubscribes");
});

test("removing <agui-tool-calls> drops the tracker subscription; adding it back subscribes and redraws", async () => {
  assert.deepEqual(await page.evaluate(() => harness.removeAndReadd()), {
    before: 1,
    afterRemoval: 0,
    readded: 1,
    cards: 5,
    afterSecondRemoval: 0,
  });
});

test("t5_element_agui_tool_arg_does_not_redraw_a_complete_field_while_another_streams", async () => {
  const { whileNoteStreamed, after, seen, completed, shown, live, liveAfterRemoval } = await page.evaluate(() => harness.fields());
  // url: drawn first, then as it grew, then once complete (the host gets `complete`); never again while "note" streamed.
  assert.deepEqual(seen, [":false:false", "https://exa:false:false", "https://example.com:true:true"]);
  assert.equal(whileNoteStreamed.url, 3);
  assert.equal(after.url, 3, "closing the call leaves a complete field alone");
  assert.ok(whileNoteStreamed.note >= 6, `${whileNoteStreamed.note} draws of the streaming field`);
  assert.deepEqual(completed, [["url", "https://example.com"], ["note", "abcde"]], "agui-arg-complete, once per field");
  assert.equal(shown, "https://example.com");
  assert.equal(live, 1, "two elements, one tracker subscription");
  assert.equal(liveAfterRemoval, 0);
});

test("a8_element_nests_a_subagents_calls_under_the_call_that_started_it_and_answers_its_frontend_call_there", async () => {
  const n = await page.evaluate(() => harness.nested());
  assert.equal(n.nested, expected.nested);
  assert.equal(n.flat, "c1 top c2 c3", "the flat attribute: one list");
  assert.equal(n.answeredCard, 'confirm answered { "q": "ok?" } validation valid consent approved answered (application) yes');
  assert.deepEqual(n.answer, { content: "yes" }, "the next run carries the answer given in the nested group");
  assert.equal(n.liveAfterRemoval, 0);
});

test("s3_element_always_allow_approves_a_later_call_to_the_tool_until_ask_again", async () => {
  const s = await page.evaluate(() => harness.standing());
  const card = (rest) => `confirm_deploy ${rest.replace("ARGS", '{ "service": "checkout" } validation valid')}`;
  const pending = card("awaiting approval ARGS consent unrequested Approve Always allow Decline");
  const approved = card("awaiting answer ARGS consent approved Answer");
  assert.deepEqual(s.first, { cards: [pending], standing: "" });
  assert.deepEqual(s.always, { cards: [approved], standing: "Always allowed: confirm_deploy (from a1)Ask again" });
  assert.deepEqual(s.covered.cards, [approved, card("awaiting answer ARGS consent approved always allowed on a1 Answer")], "a2 approved by the standing approval, which the card names");
  assert.deepEqual(s.revoked, { cards: [approved, pending], standing: "" }, "Ask again: a2 awaits the user again");
  assert.deepEqual(s.third, { cards: [approved, pending, pending], standing: "" });
  assert.deepEqual(s.heard, [["approve", "a1", "tool"], ["revoke-approval", "confirm_deploy", "a1"]]);
  assert.equal(s.liveAfterRemoval, 0);
});

test("a tracker set before the element is defined is taken over; a new call-id shows that call", async () => {
  const shown = await resultOf(browser, `${server.url}/element-early.html`);
  assert.deepEqual(shown, { definedWhenSet: false, before: "set_before_define", after: "switched_to", tracker: true });
});

test("the screenshot of the elements in the demo's style", async () => {
  const shown = await page.evaluate(() => harness.showcase());
  assert.deepEqual(
    shown.map((line) => line.split(" ").slice(0, 3).join(" ")),
    ["search_runbooks answered {", "confirm_deploy awaiting approval", "rollback_release awaiting approval", "confirm_deploy streaming {"],
  );
  const file = process.env.UPDATE_GENERATED ? path.join(root, "docs", "element.png") : path.join(root, "test-output", "element.png");
  mkdirSync(path.dirname(file), { recursive: true });
  await page.locator("#showcase").screenshot({ path: file });
  assert.ok(readFileSync(file).length > 10_000, "a screenshot with content");
  assert.ok(existsSync(path.join(root, "docs", "element.png")), "docs/element.png is committed (UPDATE_GENERATED=1 writes it)");
});

test("loads from a Vite production build: importing the entry defines the elements", async () => {
  const app = await serveStatic({ "/": await viteBuild("element-app") });
  try {
    const shown = await resultOf(browser, `${app.url}/index.html`);
    assert.deepEqual(shown, { defined: true, state: "complete", args: { q: "vite" } });
  } finally {
    await app.close();
  }
});

/** The UI bindings' modules: each entry, and what they share. */
const bindings = ["element.js", "react.js", "vue.js", "svelte.js", "angular.js", "store.js", "actions.js"];

test("no binding is in the main entry's module graph", () => {
  const reached = new Set();
  const visit = (name) => {
    if (reached.has(name)) return;
    reached.add(name);
    const code = readFileSync(path.join(pkgDir, name), "utf8");
    for (const [, spec] of code.matchAll(/(?:from|import)\s*\(?\s*["']\.\/([^"']+)["']/g)) visit(spec);
  };
  visit("index.js");
  assert.ok(reached.has("wasm-bytes.js") && reached.size > 3, `the graph was read: ${[...reached]}`);
  for (const name of bindings) assert.ok(!reached.has(name), `${name} is loaded by the main entry`);
});

test("importable where there is no DOM (server rendering): the classes exist, nothing is defined", async () => {
  const { AguiToolCallElement, AguiToolCallsElement } = await import(path.join(pkgDir, "element.js"));
  assert.equal(typeof AguiToolCallElement, "function");
  assert.equal(typeof AguiToolCallsElement, "function");
  assert.equal(globalThis.customElements, undefined);
});

test("the bindings ship minified, each with a source map naming its file of js/", () => {
  for (const name of bindings) {
    const source = readFileSync(path.join(pkgDir, name), "utf8");
    assert.ok(source.endsWith(`\n//# sourceMappingURL=${name}.map`), name);
    assert.ok(source.length < readFileSync(path.join(root, "js", name), "utf8").length, `${name} is minified`);
    const map = JSON.parse(readFileSync(path.join(pkgDir, `${name}.map`), "utf8"));
    assert.deepEqual(map.sources, [`js/${name}`], name);
    assert.equal(map.sourcesContent[0], readFileSync(path.join(root, "js", name), "utf8"), name);
  }
});
