// The thread loop in JS: nextRun over five turns (each output passes the strict
// history check and @ag-ui/client's own outgoing-input validation), feeding the
// output back, abortRun mid-call, and onEvent (rule F6, L5, E1).
import { test } from "node:test";
import { Worker } from "node:worker_threads";
import assert from "node:assert/strict";
import { enforceOutgoingInput } from "@ag-ui/client";
import { ToolCallRefusedError, ToolCallTracker } from "../../pkg/index.js";
import { ABANDONED, CANCELLED } from "../../js/next-run.js";
import { runStarted, runFinished, start, args, end, result, call, sse } from "./support/events.mjs";
import { checkHistory } from "./support/history-check.mjs";

const TOOLS = [{ name: "confirm_deploy", description: "Ask the user", parameters: { type: "object" } }];
const user = (id) => ({ id, role: "user", content: `message ${id}` });
const input = (runId, messages) => ({ threadId: "t1", runId, messages, tools: TOOLS, context: [], state: {}, forwardedProps: { keep: true } });
const text = (id, words) => [
  { type: "TEXT_MESSAGE_START", messageId: id, role: "assistant" },
  ...words.map((delta) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: id, delta })),
  { type: "TEXT_MESSAGE_END", messageId: id },
];
const withParent = (id, name, parent) => [start(id, name, { parentMessageId: parent }), args(id, '{"service":'), args(id, '"checkout"}'), end(id)];

/** @ag-ui/client's own check of what it sends: it must accept the input and strip nothing. */
function clientAccepts(next) {
  const warn = console.warn;
  const warnings = [];
  console.warn = (...a) => warnings.push(a.join(" "));
  try {
    assert.deepEqual(enforceOutgoingInput(structuredClone(next)), next);
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(warnings, []);
}

test("f6_five_turns_next_run_gives_a_complete_history_the_client_accepts", () => {
  const tracker = new ToolCallTracker({ tools: TOOLS });
  // What a chat app keeps: its user messages and the assistant's text, as AG-UI messages.
  const chat = [user("u1")];
  const users = ["u1"];
  const calls = [];
  const turns = [
    // 1: a text message and a frontend call in it, answered.
    { events: [...text("a1", ["Deploy ", "now?"]), ...withParent("c1", "confirm_deploy", "a1")], decide: (t) => t.answer("c1", "approved"), calls: ["c1"] },
    // 2: declined.
    { events: withParent("c2", "confirm_deploy", "a2"), decide: (t) => t.decline("c2", "not today"), calls: ["c2"] },
    // 3: failed, with content parts.
    { events: withParent("c3", "confirm_deploy", "a3"), decide: (t) => t.fail("c3", "the deploy tool crashed"), calls: ["c3"] },
    // 4: a backend call with its streamed result, and a frontend call with no parent message.
    {
      events: [...withParent("b4", "search_docs", "a4"), result("b4", "3 documents"), ...call("c4", "confirm_deploy", ["{}"])],
      decide: (t) => t.answer("c4", [{ type: "text", text: "approved" }]),
      calls: ["b4", "c4"],
    },
    // 5: answered again, the app kept the assistant text of turn 1 only.
    { events: [...text("a5", ["ok"]), ...withParent("c5", "confirm_deploy", "a5")], decide: (t) => t.answer("c5", "approved"), calls: ["c5"] },
  ];
  let next = tracker.nextRun(input("r1", chat));
  checkHistory(next.messages, { users });
  clientAccepts(next);
  turns.forEach((turn, n) => {
    const runId = next.runId;
    tracker.pushSse(sse([runStarted(runId), ...turn.events, runFinished(runId)]));
    turn.decide(tracker);
    calls.push(...turn.calls);
    if (n === 0) chat.push({ id: "a1", role: "assistant", content: "Deploy now?" });
    const u = `u${n + 2}`;
    chat.push(user(u));
    users.push(u);
    next = tracker.nextRun(input(`r${n + 2}`, chat));
    checkHistory(next.messages, { calls, users });
    clientAccepts(next);
    assert.deepEqual(next.forwardedProps, { keep: true });
    assert.deepEqual(tracker.toolMessages(), [], "the declared run carried every answer");
  });
  const byCall = new Map(next.messages.filter((m) => m.role === "tool").map((m) => [m.toolCallId, m]));
  assert.equal(byCall.get("c1").content, "approved");
  assert.equal(byCall.get("c2").error, "declined");
  assert.equal(byCall.get("c3").error, "the deploy tool crashed");
  assert.deepEqual(byCall.get("b4"), { id: "m-b4", role: "tool", toolCallId: "b4", content: "3 documents" });
  assert.deepEqual(byCall.get("c4").content, [{ type: "text", text: "approved" }]);
  // Feeding the last input back adds nothing (made-up messages included).
  tracker.push(runStarted(next.runId));
  tracker.push(runFinished(next.runId));
  assert.deepEqual(tracker.nextRun(next), next);
  // The app's own a1 got its call; a2 was made up from the parent id, where it happened.
  const ids = next.messages.map((m) => m.id);
  assert.equal(next.messages[1].content, "Deploy now?");
  assert.deepEqual(ids.slice(0, 6), ["u1", "a1", byCall.get("c1").id, "u2", "a2", byCall.get("c2").id]);
});

test("f6_feeding_the_next_run_input_back_adds_nothing", () => {
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const first = tracker.nextRun(input("r1", [user("u1")]));
  for (const e of [runStarted("r1"), ...withParent("c1", "confirm_deploy", "a1"), runFinished("r1")]) tracker.push(e);
  tracker.answer("c1", "approved");
  const next = tracker.nextRun(input("r2", [...first.messages, user("u2")]));
  for (const e of [runStarted("r2"), runFinished("r2")]) tracker.push(e);
  assert.deepEqual(tracker.nextRun(next), next);
  assert.deepEqual(next.messages.map((m) => m.role), ["user", "assistant", "tool", "user"]);
});

test("f6_next_run_refuses_naming_each_unanswered_call", () => {
  const tracker = new ToolCallTracker({ tools: TOOLS });
  for (const e of [runStarted("r1"), ...call("c1", "confirm_deploy", ["{}"]), ...call("c2", "confirm_deploy", ["{}"]), runFinished("r1")]) tracker.push(e);
  const before = tracker.snapshot();
  assert.throws(() => tracker.nextRun(input("r2", [user("u1")])), /c1 \(confirm_deploy\), c2 \(confirm_deploy\)/);
  assert.throws(
    () => tracker.nextRun(input("r2", [user("u1")])),
    (e) => e instanceof ToolCallRefusedError && e.kind === "unanswered" && e.toolCallIds.join() === "c1,c2",
  );
  assert.equal(tracker.snapshot(), before, "nothing changed");
});

test("l5_abort_run_mid_call_then_a_new_run", () => {
  const tracker = new ToolCallTracker({ tools: TOOLS });
  tracker.nextRun(input("r1", [user("u1")]));
  tracker.pushSse(sse([runStarted("r1"), start("c1", "confirm_deploy", { parentMessageId: "a1" }), args("c1", '{"serv')]));
  const seen = [];
  tracker.subscribe((s) => seen.push(s));
  const aborted = tracker.abortRun("the user pressed stop");
  assert.equal(aborted.run.status, "aborted");
  assert.equal(aborted.run.error, "the user pressed stop");
  assert.equal(aborted.calls[0].status, "abandoned");
  assert.deepEqual(seen, [aborted]);
  assert.equal(tracker.abortRun(), aborted, "a second stop changes nothing");
  const next = tracker.nextRun(input("r2", [user("u1"), user("u2")]));
  checkHistory(next.messages, { users: ["u1", "u2"] });
  const s = tracker.push(runStarted("r2"));
  assert.equal(s.run.status, "running");
  tracker.push(start("c2", "confirm_deploy"));
  tracker.push(end("c2"));
  assert.deepEqual(tracker.push(runFinished("r2")).pendingCalls.map((c) => c.id), ["c2"]);
});

test("e1_on_event_gets_every_event_over_sse_split_every_7_bytes", () => {
  const events = [
    runStarted("r1"),
    ...text("a1", ["Héllo ", "wörld 🌍"]),
    { type: "STATE_SNAPSHOT", snapshot: { step: 1 } },
    ...withParent("c1", "search_docs", "a1"),
    result("c1", "found"),
    { type: "CUSTOM", name: "progress", value: 0.5 },
    runFinished("r1"),
  ];
  const seen = [];
  const tracker = new ToolCallTracker({ onEvent: (e) => seen.push(e) });
  const bytes = new TextEncoder().encode(sse(events, "\r\n"));
  for (let at = 0; at < bytes.length; at += 7) tracker.pushSse(bytes.subarray(at, at + 7));
  assert.deepEqual(seen, events);
  assert.equal(tracker.snapshot().calls[0].result.content, "found");
  // Strings too, and push and pushJson: each event once, in order.
  const again = [];
  const other = new ToolCallTracker({ onEvent: (e) => again.push(e) });
  const body = sse(events);
  for (let at = 0; at < body.length; at += 7) other.pushSse(body.slice(at, at + 7));
  assert.deepEqual(again, events);
  const pushed = [];
  const third = new ToolCallTracker({ onEvent: (e) => pushed.push(e) });
  third.push(events[0]);
  third.pushJson(JSON.stringify(events[1]));
  assert.deepEqual(pushed, events.slice(0, 2));
  assert.equal(pushed[0], events[0], "push hands over the event object itself");
});

test("e1_on_event_is_not_told_of_the_event_a_fatal_rule_refused", () => {
  const seen = [];
  const tracker = new ToolCallTracker({ onEvent: (e) => seen.push(e.type) });
  assert.throws(() => tracker.pushSse(sse([runStarted(), end("nope"), runFinished()])), /T2/);
  assert.deepEqual(seen, ["RUN_STARTED"]);
  assert.throws(() => tracker.push(runFinished()), /T2/);
  assert.deepEqual(seen, ["RUN_STARTED"]);
  assert.throws(() => new ToolCallTracker({ onEvent: "log" }), /onEvent must be a function/);
});

test("f6_the_parent_message_in_the_input_gets_its_call_and_stray_answers_move_after_it", () => {
  const tracker = new ToolCallTracker({ tools: TOOLS });
  for (const e of [runStarted("r1"), ...text("a1", ["hi"]), ...withParent("c1", "confirm_deploy", "a1"), runFinished("r1")]) tracker.push(e);
  tracker.answer("c1", "approved");
  const [answer] = tracker.toolMessages();
  const again = { id: "m9", role: "tool", toolCallId: "c1", content: "again" };
  // The answer before its message, and a second one after: one is kept, right after a1.
  const next = tracker.nextRun(input("r2", [user("u1"), answer, { id: "a1", role: "assistant", content: "hi" }, again, user("u2")]));
  assert.deepEqual(next.messages.map((m) => m.id), ["u1", "a1", answer.id, "u2"]);
  assert.equal(next.messages[1].content, "hi");
  assert.deepEqual(next.messages[1].toolCalls, [{ id: "c1", type: "function", function: { name: "confirm_deploy", arguments: '{"service":"checkout"}' } }]);
});

test("l5_an_abandoned_call_the_input_holds_is_closed_one_it_does_not_is_left_out", () => {
  const tracker = new ToolCallTracker({ tools: TOOLS });
  tracker.nextRun(input("r1", [user("u1")]));
  for (const e of [runStarted("r1"), start("c1", "confirm_deploy", { parentMessageId: "a1" }), args("c1", "{")]) tracker.push(e);
  tracker.abortRun();
  assert.deepEqual(tracker.nextRun(input("r2", [user("u1"), user("u2")])).messages.map((m) => m.id), ["u1", "u2"]);
  tracker.push(runStarted("r2"));
  tracker.abortRun();
  // As `agent.messages` holds it: the half-streamed call, no answer.
  const a1 = { id: "a1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "confirm_deploy", arguments: "{" } }] };
  const next = tracker.nextRun(input("r3", [user("u1"), a1, user("u2")]));
  checkHistory(next.messages, { calls: ["c1"], users: ["u1", "u2"] });
  assert.deepEqual(next.messages[2], { id: "c1:closed", role: "tool", toolCallId: "c1", content: ABANDONED, error: "abandoned" });
});

test("f6_calls_without_parent_of_one_run_share_one_made_up_message_where_they_happened", () => {
  const tracker = new ToolCallTracker({ tools: TOOLS });
  tracker.nextRun(input("r1", [user("u1")]));
  tracker.pushSse(sse([runStarted("r1"), ...call("c1", "confirm_deploy", ["{}"]), ...call("c2", "confirm_deploy", ["{}"]), runFinished("r1")]));
  tracker.answer("c1", "a");
  tracker.answer("c2", "b");
  const next = tracker.nextRun(input("r2", [user("u1"), user("u2")]));
  const [m1, m2] = tracker.snapshot().calls.map((c) => c.result.messageId);
  assert.deepEqual(next.messages.map((m) => m.id), ["u1", "c1:assistant", m1, m2, "u2"]);
});

test("f6_next_run_refuses_a_malformed_input_naming_the_field", () => {
  const tracker = new ToolCallTracker();
  assert.throws(() => tracker.nextRun({ threadId: "t", runId: "r", messages: [{ id: "x" }] }), /messages\[0\]\.role/);
  assert.throws(() => tracker.nextRun({ messages: 3 }), /"messages" must be an array/);
  assert.throws(() => tracker.nextRun(null), TypeError);
});

test("l8_a_cancelled_run_waits_for_nothing_and_next_run_answers_its_calls_as_cancelled", () => {
  const tracker = new ToolCallTracker({ tools: TOOLS });
  let next = tracker.nextRun(input("r1", [user("u1")]));
  for (const event of [runStarted("r1"), ...withParent("c1", "confirm_deploy", "a1"), ...call("b1", "search_docs", ["{}"]), result("b1", "found")]) tracker.push(event);
  const snapshot = tracker.push(runFinished("r1", { outcome: { type: "cancelled" } }));
  assert.equal(snapshot.run.status, "cancelled");
  assert.deepEqual(snapshot.run.outcome, { type: "cancelled" });
  // Everything delivered stays; nothing is pending; the left call is marked.
  assert.deepEqual(snapshot.completedCalls.map((c) => [c.id, c.cancelled, c.pending]), [["c1", true, false], ["b1", false, false]]);
  assert.deepEqual(snapshot.pendingCalls, []);
  assert.deepEqual(snapshot.calls[0].args, { service: "checkout" });
  // The next history answers the cancelled call, so no dangling call reaches the producer.
  next = tracker.nextRun(input("r2", [user("u1"), user("u2")]));
  checkHistory(next.messages, { users: ["u1", "u2"] });
  clientAccepts(next);
  const closing = next.messages.find((m) => m.role === "tool" && m.toolCallId === "c1");
  assert.deepEqual([closing.content, closing.error], [CANCELLED, "cancelled"]);
  assert.equal(next.messages.filter((m) => m.role === "tool" && m.toolCallId === "b1").length, 1);
});

test("l8_an_answer_the_application_gives_a_cancelled_call_is_what_next_run_sends", () => {
  const tracker = new ToolCallTracker({ tools: TOOLS });
  for (const event of [runStarted("r1"), ...withParent("c1", "confirm_deploy", "a1"), runFinished("r1", { outcome: { type: "cancelled" } })]) tracker.push(event);
  tracker.answer("c1", "deployed anyway");
  const next = tracker.nextRun(input("r2", [user("u1")]));
  clientAccepts(next);
  const answers = next.messages.filter((m) => m.role === "tool");
  assert.deepEqual(answers.map((m) => [m.toolCallId, m.content]), [["c1", "deployed anyway"]]);
});

test("l9_abort_run_is_aborted_never_finished_or_cancelled", () => {
  const tracker = new ToolCallTracker({ tools: TOOLS });
  for (const event of [runStarted("r1"), ...withParent("c1", "confirm_deploy", "a1"), start("c2", "confirm_deploy"), args("c2", '{"serv')]) tracker.push(event);
  const snapshot = tracker.abortRun("the user pressed stop");
  assert.equal(snapshot.run.status, "aborted");
  assert.equal(snapshot.run.outcome, undefined, "no outcome is made up for a run whose end never came");
  assert.deepEqual(snapshot.calls.map((c) => [c.id, c.status, c.cancelled, c.pending]), [["c1", "complete", false, false], ["c2", "abandoned", false, false]]);
  // The producer's own RUN_FINISHED for the stopped run is refused, not read as finished or cancelled.
  assert.throws(() => tracker.push(runFinished("r1", { outcome: { type: "cancelled" } })), /L3/);
  assert.equal(tracker.snapshot().run.status, "aborted");
});

test("p2_on_event_hands_over_only_what_1_0_describes", () => {
  for (const how of ["push", "pushJson", "pushSse"]) {
    const seen = [];
    const tracker = new ToolCallTracker({ onEvent: (e) => seen.push(e) });
    const events = [
      runStarted("r1", { priority: "high" }),
      { type: "HOLOGRAM_STARTED" },
      start("c1", "search_docs", { parentMessageId: null, tag: 1 }),
      end("c1"),
      result("c1", [{ type: "text", text: "a", cite: 1 }, { type: "hologram" }, { type: "image", source: { type: "ipfs", value: "Qm" } }]),
      runFinished("r1", { outcome: { type: "handoff" }, result: null }),
    ];
    for (const event of events) {
      if (how === "push") tracker.push(event);
      else if (how === "pushJson") tracker.pushJson(JSON.stringify(event));
      else tracker.pushSse(sse([event]));
    }
    assert.deepEqual(
      seen,
      [
        runStarted("r1"),
        start("c1", "search_docs"),
        end("c1"),
        result("c1", [{ type: "text", text: "a" }]),
        runFinished("r1"),
      ],
      how,
    );
    // An event with nothing to strip is the object the application pushed.
    const plain = end("c2");
    const kept = [];
    const t2 = new ToolCallTracker({ onEvent: (e) => kept.push(e), fragment: true });
    t2.push(start("c2", "f"));
    t2.push(plain);
    assert.equal(kept[1], plain);
    tracker.free();
    t2.free();
  }
});

// The history a page saved before it reloaded: c0 answered, the last
// assistant message's frontend call c1 not.
const saved = () => [
  user("u1"),
  { id: "a1", role: "assistant", toolCalls: [{ id: "c0", type: "function", function: { name: "confirm_deploy", arguments: "{}" } }] },
  { id: "m0", role: "tool", toolCallId: "c0", content: "yes" },
  user("u2"),
  { id: "a2", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "confirm_deploy", arguments: '{"service":"checkout"}' } }] },
];

test("f8_a_reloaded_thread_shows_its_unanswered_frontend_call_pending_until_the_user_answers", () => {
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const restored = tracker.restore({ messages: saved() });
  assert.deepEqual(restored.pendingCalls.map((c) => [c.id, c.args.service]), [["c1", "checkout"]]);
  // Nothing answers it on the user's behalf: the next run must.
  assert.throws(
    () => tracker.nextRun(input("r3", [...saved(), user("u3")])),
    (e) => e instanceof ToolCallRefusedError && e.kind === "unanswered" && e.toolCallIds.join() === "c1",
  );
  tracker.answer("c1", "approved");
  const next = tracker.nextRun(input("r3", [...saved(), user("u3")]));
  checkHistory(next.messages, { calls: ["c0", "c1"], users: ["u1", "u2", "u3"] });
  assert.equal(next.messages.find((m) => m.toolCallId === "c1").content, "approved");
  assert.deepEqual(tracker.snapshot().pendingCalls, []);
});

test("f8_next_run_never_closes_a_restored_frontend_call_as_abandoned", () => {
  // A fresh tracker given the saved history straight away: refused, naming
  // the call, rather than answered "abandoned" behind the user's back.
  const tracker = new ToolCallTracker({ tools: TOOLS });
  assert.throws(() => tracker.nextRun(input("r3", saved())), /c1 \(confirm_deploy\)/);
  // A call to a tool the run does not advertise is still closed, as before.
  const other = new ToolCallTracker();
  const next = other.nextRun({ ...input("r3", saved()), tools: [] });
  assert.deepEqual(next.messages.at(-1), { id: "c1:closed", role: "tool", toolCallId: "c1", content: ABANDONED, error: "abandoned" });
  assert.throws(() => tracker.restore({ messages: [{ id: "x" }] }), /messages\[0\]\.role/);
});

test("f11_tool_messages_close_a_call_the_user_stopped_mid_stream", () => {
  const tracker = new ToolCallTracker({ tools: TOOLS });
  tracker.nextRun(input("r1", [user("u1")]));
  for (const e of [runStarted("r1"), start("c1", "confirm_deploy", { parentMessageId: "a1" }), args("c1", '{"serv')]) tracker.push(e);
  tracker.abortRun("the user pressed stop");
  const closing = { id: "c1:closed", role: "tool", toolCallId: "c1", content: ABANDONED, error: "abandoned" };
  assert.deepEqual(tracker.toolMessages(), [closing]);
  // The app's history holds the half-streamed call: with toolMessages() added, no dangling call.
  const a1 = { id: "a1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "confirm_deploy", arguments: '{"serv' } }] };
  assert.throws(() => tracker.startRun(input("r2", [user("u1"), a1, user("u2")])), (e) => e.kind === "unanswered" && e.unanswered[0].answerLeftOut);
  const history = [user("u1"), a1, ...tracker.toolMessages(), user("u2")];
  const next = tracker.nextRun(input("r2", history));
  checkHistory(next.messages, { calls: ["c1"], users: ["u1", "u2"] });
  assert.deepEqual(next.messages[2], closing);
  assert.deepEqual(tracker.toolMessages(), [], "carried by a run input: no longer listed");
});

test("f6_next_run_is_linear_in_the_tool_messages_of_one_call", async () => {
  // 200,000 tool messages for one call (a history from a MESSAGES_SNAPSHOT
  // may hold them): about a second when linear, minutes when each message
  // copies the list before it. The bound: a minute, on a worker the test
  // stops when it is exceeded.
  const worker = new Worker(new URL("./support/many-answers-worker.mjs", import.meta.url), { workerData: { count: 200_000 } });
  let timer;
  const bound = new Promise((resolve) => (timer = setTimeout(() => resolve("over a minute"), 60_000)));
  const done = new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  const messages = await Promise.race([done, bound]);
  clearTimeout(timer);
  await worker.terminate();
  assert.notEqual(messages, "over a minute", "nextRun took over a minute: quadratic in the tool messages of one call");
  checkHistory(messages, { calls: ["c1"], users: ["u1"] });
  assert.equal(messages.length, 3, "one answer for the call; the others are left out");
});
