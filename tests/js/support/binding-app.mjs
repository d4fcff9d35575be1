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

/**
 * A research call starts a subagent whose own call starts another, whose
 * frontend call (`confirm`) awaits the application: the subagent tree.
 */
export const nestedTurn = [
  runStarted("r1"),
  start("c1", "research"),
  end("c1"),
  start("top", "search"),
  end("top"),
  { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "researcher", parentToolCallId: "c1" },
  { ...start("c2", "delegate"), subagentRunId: "s1" },
  { ...end("c2"), subagentRunId: "s1" },
  { type: "SUBAGENT_STARTED", subagentRunId: "s2", name: "reader", parentToolCallId: "c2", parentSubagentRunId: "s1" },
  { ...start("c3", "confirm"), subagentRunId: "s2" },
  { ...args("c3", '{"q":"ok?"}'), subagentRunId: "s2" },
  { ...end("c3"), subagentRunId: "s2" },
  { type: "SUBAGENT_FINISHED", subagentRunId: "s2" },
  { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
  runFinished("r1"),
];

/** Three runs, each a call to one tool awaiting the user: Always allow on the first, Ask again after the second. */
const deploy = (run, id) => [runStarted(run), start(id, "confirm_deploy"), args(id, '{"service":"checkout"}'), end(id), runFinished(run)];
export const standingTurns = [deploy("r1", "a1"), deploy("r2", "a2"), deploy("r3", "a3")];

/** One call whose `url` completes while `note` keeps streaming, each delta in a frame of its own. */
export const fieldEvents = [
  runStarted("r1"),
  start("f", "fetch_page"),
  ...['{"url":"https://exa', 'mple.com"', ',"note":"a', "b", "c", "d", "e", '"}'].map((d) => args("f", d)),
  end("f"),
];

/** Writes every stream the binding apps read into `dir`: the conversation's turns, and the cases of issue 26. */
export function writeStreams(dir) {
  writeFileSync(path.join(dir, "turn1.sse"), sse(turn1));
  writeFileSync(path.join(dir, "turn2.sse"), sse(turn2));
  writeFileSync(path.join(dir, "nested.sse"), sse(nestedTurn));
  standingTurns.forEach((events, i) => writeFileSync(path.join(dir, `standing${i + 1}.sse`), sse(events)));
  writeFileSync(path.join(dir, "fields.json"), JSON.stringify(fieldEvents));
}

/** What every app's cards show, turn by turn. */
export const expected = {
  turn1: ["confirm_deploy checkout awaiting approval Approve Decline", "delete_service <img src=x onerror=window.pwned=1> awaiting approval Approve Decline"],
  answered: ["confirm_deploy checkout answered: Deployed checkout.", "delete_service <img src=x onerror=window.pwned=1> declined"],
  turn2Interrupt: "transfer 5 awaiting interrupt Send 5? (open) Approve Reject",
  resolvedInterrupt: "transfer 5 awaiting interrupt Send 5? (resolved)",
  resume: [{ interruptId: "i1", status: "resolved", payload: { approved: true, editedArgs: { amount: 3 } } }],
  nested: "c1 [researcher:finished c2 [reader:finished c3]] top",
  standing: {
    first: { cards: ["a1 unrequested Approve Always allow"], standing: "" },
    pending: (id) => `${id} unrequested Approve Always allow`,
  },
};

/**
 * Builds `fixture` for production with `plugins` (one build per suite),
 * serves it with the streams, and returns `window.result` of its page
 * and the warnings the build printed.
 */
export async function runBindingApp(browser, fixture, plugins) {
  const streams = mkdtempSync(path.join(tmpdir(), "agui-streams-"));
  writeStreams(streams);
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
 * Then the cases of issue 26: a field's status (a reader of a complete
 * field renders no more while another streams), the subagent tree (a
 * nested subagent's frontend call shown under the call that started it,
 * and answered there; `flatOptOut: false` for a binding without a
 * component of its own that could opt out), and standing approvals
 * (Always allow, a later call approved by it, Ask again).
 *
 * @param {string} name
 * @param {() => { result: any, warnings: string[] }} run
 * @param {{ clicked?: (afterApprove: { c1: number, c2: number }) => void, flatOptOut?: boolean }} [options]
 */
export function bindingTests(name, run, { clicked = (a) => assert.deepEqual(a, { c1: 1, c2: 0 }, "one render of c1's card, none of c2's"), flatOptOut = true } = {}) {
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

  test(`t5_${name}_a_reader_of_a_complete_field_does_not_render_while_another_field_streams`, () => {
    const { whileNoteStreamed, after, seen, liveAfterUnmount } = run().result.fields;
    // url: rendered first, then as it grew, then once complete; never again while "note" streamed five deltas.
    assert.deepEqual(seen.url, [":false", "https://exa:false", "https://example.com:true"]);
    assert.equal(whileNoteStreamed.url, 3);
    assert.equal(after.url, 3, "closing the call leaves a complete field alone");
    assert.ok(whileNoteStreamed.note >= 6, `${whileNoteStreamed.note} renders of the streaming field`);
    // The status map changes only when a field appears or completes.
    assert.deepEqual(seen.status, ["{}", '{"url":"streaming"}', '{"url":"complete"}', '{"url":"complete","note":"streaming"}', '{"url":"complete","note":"complete"}']);
    assert.equal(liveAfterUnmount, 0);
  });

  test(`a8_${name}_nests_a_subagents_calls_under_the_call_that_started_it_and_answers_its_frontend_call_there`, () => {
    const n = run().result.nested;
    assert.equal(n.nested, expected.nested);
    if (flatOptOut) assert.equal(n.flat, "c1 top c2 c3", "opted out: one flat list");
    assert.deepEqual(n.pending, ["c3"]);
    assert.equal(n.answeredCard, "confirm answered: yes");
    assert.deepEqual(n.answer, { content: "yes" }, "the next run carries the answer given in the nested group");
    assert.equal(n.liveAfterUnmount, 0);
  });

  test(`s3_${name}_always_allow_approves_a_later_call_to_the_tool_until_ask_again`, () => {
    const s = run().result.standing;
    assert.deepEqual(s.first, expected.standing.first);
    assert.deepEqual(s.always, { cards: ["a1 approved"], standing: "confirm_deploy:a1 Ask again" });
    assert.deepEqual(s.covered, { cards: ["a1 approved", "a2 approved on a1"], standing: "confirm_deploy:a1 Ask again" }, "the standing approval approved a2, and says so");
    assert.deepEqual(s.revoked, { cards: ["a1 approved", expected.standing.pending("a2")], standing: "" }, "Ask again: a2 awaits the user again");
    assert.deepEqual(s.third, { cards: ["a1 approved", expected.standing.pending("a2"), expected.standing.pending("a3")], standing: "" });
    assert.equal(s.liveAfterUnmount, 0);
  });
}