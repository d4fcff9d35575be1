// What the framework binding tests share: the two turns of the
// conversation as real event streams, and one production build of a
// fixture app through its framework's Vite plugin, served beside them and
// opened in headless Chromium (tests/js/fixtures/binding-harness.js drives
// the page).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { serveStatic } from "./static-server.mjs";
import { resultOf, viteBuild } from "./bundle.mjs";
import { runStarted, runFinished, start, args, end, sse } from "./events.mjs";

/** The first turn: two calls awaiting approval, one argument hostile markup. */
export const turn1 = [
  runStarted("r1"),
  start("c1", "confirm_deploy", { parentMessageId: "a1" }),
  args("c1", '{"service":'),
  args("c1", ' "checkout"}'),
  end("c1"),
  start("c2", "delete_service", { parentMessageId: "a1" }),
  args("c2", '{"service":"<img src=x onerror=window.pwned=1>"}'),
  end("c2"),
  runFinished("r1"),
];

/** The second turn: a backend call the run stops on, asking its approval (rule I3). */
export const turn2 = [
  runStarted("r2"),
  start("c3", "transfer", { parentMessageId: "a2" }),
  args("c3", '{"amount":5}'),
  end("c3"),
  runFinished("r2", { outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "tool_approval", toolCallId: "c3", message: "Send 5?" }] } }),
];

/** What every app's cards show, turn by turn. */
export const expected = {
  turn1: ["confirm_deploy checkout awaiting approval Approve Decline", "delete_service <img src=x onerror=window.pwned=1> awaiting approval Approve Decline"],
  answered: ["confirm_deploy checkout answered: Deployed checkout.", "delete_service <img src=x onerror=window.pwned=1> declined"],
  turn2Interrupt: "transfer 5 awaiting interrupt Send 5? (open) Approve Reject",
  resolvedInterrupt: "transfer 5 awaiting interrupt Send 5? (resolved)",
  resume: [{ interruptId: "i1", status: "resolved", payload: { approved: true, editedArgs: { amount: 3 } } }],
};

/**
 * Builds `fixture` for production with `plugins` (one build per suite),
 * serves it with the streams, and returns `window.result` of its page
 * and the warnings the build printed.
 */
export async function runBindingApp(browser, fixture, plugins) {
  const streams = mkdtempSync(path.join(tmpdir(), "agui-streams-"));
  writeFileSync(path.join(streams, "turn1.sse"), sse(turn1));
  writeFileSync(path.join(streams, "turn2.sse"), sse(turn2));
  const warnings = [];
  const dist = await viteBuild(fixture, "vite", warnings, { plugins });
  const server = await serveStatic({ "/streams/": streams, "/": dist });
  try {
    return { result: await resultOf(browser, `${server.url}/index.html`, 60_000, { console: true }), warnings };
  } finally {
    await server.close();
  }
}

/**
 * The tests every framework binding passes, on one run of its fixture app
 * (`runBindingApp` in a `before`): the two-turn conversation, a build with
 * no warning, stream markup shown as text, no subscription left after
 * unmount, and one render for a burst of a thousand deltas. `name` goes
 * into the rule-named tests; `clicked(afterApprove)` checks the renders
 * of c1's and c2's cards for one approve-and-answer click, since Angular
 * also checks a view whose listener fired.
 *
 * @param {string} name
 * @param {() => { result: any, warnings: string[] }} run
 * @param {{ clicked?: (afterApprove: { c1: number, c2: number }) => void }} [options]
 */
export function bindingTests(name, run, { clicked = (a) => assert.deepEqual(a, { c1: 1, c2: 0 }, "one render of c1's card, none of c2's") } = {}) {
  test("a two-turn conversation: one call approved and answered, one declined, then an interrupt approved with edits", () => {
    const c = run().result.conversation;
    assert.equal(c.live, 1, "everything the app reads shares one tracker subscription");
    assert.deepEqual(c.turn1, expected.turn1);
    assert.equal(c.extra1, "2 to answer; interrupts: ");
    clicked(c.afterApprove);
    assert.deepEqual(c.answered, expected.answered);
    assert.deepEqual(c.roles, ["user", "assistant", "tool", "tool"]);
    assert.deepEqual(c.turn2, [...expected.answered, expected.turn2Interrupt], "the backend call awaiting approval renders with its tool's renderer");
    assert.equal(c.extra2, "0 to answer; interrupts: i1:open");
    assert.deepEqual(c.resolved, [...expected.answered, expected.resolvedInterrupt]);
    assert.equal(c.extra3, "0 to answer; interrupts: i1:resolved");
    assert.deepEqual(c.resume, expected.resume);
  });

  test("the production build prints no warning", () => {
    assert.deepEqual(run().warnings, []);
  });

  test(`s6_${name}_arguments_render_as_text_an_img_onerror_argument_is_its_characters`, () => {
    assert.equal(run().result.conversation.images, 0);
    assert.equal(run().result.conversation.pwned, null);
  });

  test("unmounting the app drops the tracker subscription", () => {
    assert.equal(run().result.conversation.liveAfterUnmount, 0);
    assert.equal(run().result.burst.liveAfterUnmount, 0);
  });

  test(`n1_${name}_a_thousand_deltas_in_one_frame_render_once_and_only_their_call`, () => {
    const { pushedBeforeFrame, renders, shown, live } = run().result.burst;
    assert.equal(pushedBeforeFrame, true, "the pushes fit in one frame");
    assert.deepEqual(renders, { all: 1, b: 1, s: 0 }, "one render of the snapshot and of call b, none of call s");
    assert.equal(shown, '{"text":"'.length + 1000, "the render shows the latest snapshot");
    assert.equal(live, 1, "three readers, one subscription");
  });
}
