// `agui-tool-calls/ag-ui` with a real @ag-ui/client HttpAgent against a
// loopback agent: three turns where `agent.addMessages(tracker.toolMessages())`
// is all the app does, a stream the tracker refuses (rule T8), and a run that
// ends without a terminal event (rule L5).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { HttpAgent } from "@ag-ui/client";
import { ToolCallTracker } from "../../pkg/index.js";
import { trackAgent, UNTERMINATED } from "../../pkg/ag-ui.js";
import { runStarted, runFinished, start, args, end, result, sse as sseOf } from "./support/events.mjs";
import { CANCELLED } from "../../js/next-run.js";
import { startScriptedAgent } from "./support/scripted-agent.mjs";
import { checkHistory } from "./support/history-check.mjs";

const TOOLS = [{ name: "confirm_deploy", description: "Ask the user", parameters: { type: "object" } }];
const text = (id, words) => [
  { type: "TEXT_MESSAGE_START", messageId: id, role: "assistant" },
  ...words.map((delta) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: id, delta })),
  { type: "TEXT_MESSAGE_END", messageId: id },
];
const withParent = (id, name, parent, json = '{"service":"checkout"}') => [start(id, name, { parentMessageId: parent }), args(id, json.slice(0, 5)), args(id, json.slice(5)), end(id)];

// The loopback agent: each POST gets the next scripted body; `open` leaves the response unterminated.
let agentServer;
let server;
let url;
let inputs;
let script;
before(async () => {
  agentServer = await startScriptedAgent();
  ({ url, inputs, script, server } = agentServer);
});
after(() => agentServer.close());

const run = (input, body, extra = {}) => ({ events: [runStarted(input.runId, { threadId: input.threadId }), ...body, runFinished(input.runId, { threadId: input.threadId })], ...extra });
const user = (id) => ({ id, role: "user", content: `message ${id}` });
const answersIn = (messages, id) => messages.filter((m) => m.role === "tool" && m.toolCallId === id).length;

test("f5_track_agent_three_turns_with_http_agent_history_never_holds_an_answer_twice", async () => {
  inputs.length = 0;
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const agent = new HttpAgent({ url, threadId: "t1" });
  const unsubscribe = trackAgent(agent, tracker);
  script.push(
    (i) => run(i, [...text("a1", ["Deploy?"]), ...withParent("c1", "confirm_deploy", "a1")]),
    (i) => run(i, [...withParent("b2", "search_docs", "a2"), result("b2", "3 documents"), ...text("a2b", ["Found."])]),
    (i) => run(i, [...text("a3", ["Again?"]), ...withParent("c3", "confirm_deploy", "a3")]),
  );
  const turns = [
    { user: "u1", decide: () => tracker.answer("c1", "approved") },
    { user: "u2", decide: () => {} },
    { user: "u3", decide: () => tracker.decline("c3", "no") },
  ];
  for (const turn of turns) {
    agent.addMessages([user(turn.user)]);
    await agent.runAgent({ tools: TOOLS });
    turn.decide();
    // All the app does each turn.
    agent.addMessages(tracker.toolMessages());
  }
  assert.equal(inputs.length, 3);
  // Every input the agent sent, and the history it ends with: complete, each answer once.
  checkHistory(inputs[1].messages, { calls: ["c1"], users: ["u1", "u2"] });
  checkHistory(inputs[2].messages, { calls: ["c1", "b2"], users: ["u1", "u2", "u3"] });
  checkHistory(agent.messages, { calls: ["c1", "b2", "c3"], users: ["u1", "u2", "u3"] });
  for (const id of ["c1", "b2", "c3"]) assert.equal(answersIn(agent.messages, id), 1, id);
  assert.equal(answersIn(inputs[2].messages, "c1"), 1);
  // The tracker followed each run, and every run's input was declared to it.
  const s = tracker.snapshot();
  assert.equal(s.fatal, null);
  assert.equal(s.run.status, "finished");
  assert.deepEqual(s.calls.map((c) => [c.id, c.status]), [["c1", "complete"], ["b2", "complete"], ["c3", "complete"]]);
  assert.equal(s.calls[1].result.content, "3 documents");
  // The decline is in the agent's history, not yet carried by a run: listed until one does.
  const [declined] = tracker.toolMessages();
  assert.deepEqual(agent.messages.at(-1), declined);
  script.push((i) => run(i, text("a4", ["Not deploying."])));
  await agent.runAgent({ tools: TOOLS });
  assert.deepEqual(tracker.toolMessages(), []);
  agent.addMessages(tracker.toolMessages());
  checkHistory(inputs[3].messages, { calls: ["c1", "b2", "c3"], users: ["u1", "u2", "u3"] });
  for (const id of ["c1", "b2", "c3"]) assert.equal(answersIn(inputs[3].messages, id), 1, id);
  unsubscribe();
  assert.equal(agent.subscribers.length, 0);
});

test("t8_track_agent_stops_the_run_the_refused_event_never_reaches_the_agent", async () => {
  inputs.length = 0;
  const tracker = new ToolCallTracker();
  const agent = new HttpAgent({ url, threadId: "t8" });
  trackAgent(agent, tracker);
  let closed;
  const requestClosed = new Promise((resolve) => (closed = resolve));
  script.push((i) => ({
    // A reopen under another name (T8), then more, and the response never ends.
    events: [
      runStarted(i.runId, { threadId: "t8" }),
      ...withParent("call_1", "search_docs", "msg_1", '{"query":"x"}'),
      start("call_1", "delete_docs", { parentMessageId: "msg_1" }),
      args("call_1", "}"),
    ],
    open: true,
  }));
  server.once("request", (req, res) => res.on("close", closed));
  agent.addMessages([user("u1")]);
  await agent.runAgent({});
  await requestClosed; // the agent stopped reading: its request was aborted
  const s = tracker.snapshot();
  assert.equal(s.fatal.code, "T8");
  assert.equal(s.run.status, "aborted");
  const calls = agent.messages.flatMap((m) => m.toolCalls ?? []);
  assert.deepEqual(calls.map((c) => [c.id, c.function.name, c.function.arguments]), [["call_1", "search_docs", '{"query":"x"}']]);
});

test("l5_a_run_without_terminal_event_aborts_the_trackers_run_and_the_thread_goes_on", async () => {
  inputs.length = 0;
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const agent = new HttpAgent({ url, threadId: "t-open" });
  trackAgent(agent, tracker);
  script.push(
    (i) => ({ events: [runStarted(i.runId, { threadId: "t-open" }), start("c1", "confirm_deploy"), args("c1", '{"serv')] }),
    (i) => run(i, text("a2", ["Hello again."])),
  );
  agent.addMessages([user("u1")]);
  await agent.runAgent({ tools: TOOLS });
  let s = tracker.snapshot();
  assert.equal(s.run.status, "aborted");
  assert.equal(s.run.error, UNTERMINATED);
  assert.equal(s.calls[0].status, "abandoned");
  agent.addMessages([user("u2")]);
  await agent.runAgent({ tools: TOOLS });
  s = tracker.snapshot();
  assert.equal(s.fatal, null);
  assert.equal(s.run.status, "finished");
});

test("l5_the_user_stops_the_run_the_trackers_run_is_aborted_and_the_thread_goes_on", async () => {
  inputs.length = 0;
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const agent = new HttpAgent({ url, threadId: "t-stop" });
  trackAgent(agent, tracker);
  script.push(
    (i) => ({ events: [runStarted(i.runId, { threadId: "t-stop" }), start("c1", "confirm_deploy"), args("c1", '{"serv')], open: true }),
    (i) => run(i, text("a2", ["Stopped, as you asked."])),
  );
  const stopped = tracker.subscribe((s) => {
    if (s.calls[0]?.argsText === '{"serv') agent.abortRun(); // the stop button
  });
  agent.addMessages([user("u1")]);
  await agent.runAgent({ tools: TOOLS });
  stopped();
  let s = tracker.snapshot();
  assert.equal(s.run.status, "aborted");
  assert.equal(s.calls[0].status, "abandoned");
  agent.addMessages([user("u2")]);
  await agent.runAgent({ tools: TOOLS });
  s = tracker.snapshot();
  assert.equal(s.run.status, "finished");
  assert.equal(s.fatal, null);
});

test("f6_track_agent_refuses_an_input_that_leaves_a_call_unanswered_and_sends_nothing", async () => {
  inputs.length = 0;
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const agent = new HttpAgent({ url, threadId: "t-refused" });
  const refusals = [];
  trackAgent(agent, tracker, { onRefused: (e) => refusals.push(e.message) });
  script.push((i) => run(i, withParent("c1", "confirm_deploy", "a1")));
  agent.addMessages([user("u1")]);
  await agent.runAgent({ tools: TOOLS });
  const before = agent.messages.length;
  agent.addMessages([user("u2")]); // c1 left unanswered
  await agent.runAgent({ tools: TOOLS });
  assert.equal(inputs.length, 1, "the refused input never left");
  assert.match(refusals[0], /c1 \(confirm_deploy\)/);
  assert.equal(agent.messages.length, before + 1);
});

test("l8_track_agent_accepts_a_cancelled_run_and_the_thread_goes_on", async () => {
  inputs.length = 0;
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const agent = new HttpAgent({ url, threadId: "t-cancel" });
  const refused = [];
  trackAgent(agent, tracker, { onRefused: (e) => refused.push(e) });
  script.push(
    (i) => ({
      events: [runStarted(i.runId, { threadId: "t-cancel" }), ...text("a1", ["Deploying"]), runFinished(i.runId, { threadId: "t-cancel", outcome: { type: "cancelled" } })],
    }),
    (i) => run(i, text("a2", ["Hello again."])),
  );
  agent.addMessages([user("u1")]);
  await agent.runAgent({ tools: TOOLS });
  let s = tracker.snapshot();
  assert.equal(s.fatal, null, "the cancelled outcome is not refused");
  assert.equal(s.run.status, "cancelled");
  assert.deepEqual(agent.messages.map((m) => m.id), ["u1", "a1"], "the agent applied what the run delivered");
  agent.addMessages([user("u2")]);
  await agent.runAgent({ tools: TOOLS });
  s = tracker.snapshot();
  assert.equal(s.run.status, "finished");
  assert.deepEqual(refused, []);
});

test("l8_track_agent_closes_a_call_its_cancelled_run_left_unanswered", async () => {
  inputs.length = 0;
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const agent = new HttpAgent({ url, threadId: "t-cancelled-call" });
  const refused = [];
  trackAgent(agent, tracker, { onRefused: (e) => refused.push(e) });
  script.push(
    (i) => ({
      events: [
        runStarted(i.runId, { threadId: "t-cancelled-call" }),
        ...withParent("c1", "confirm_deploy", "a1"),
        runFinished(i.runId, { threadId: "t-cancelled-call", outcome: { type: "cancelled" } }),
      ],
    }),
    (i) => run(i, text("a2", ["Hello again."])),
  );
  agent.addMessages([user("u1")]);
  await agent.runAgent({ tools: TOOLS });
  assert.equal(tracker.snapshot().calls[0].cancelled, true);
  // The app answers nothing and adds nothing: the agent's history holds c1
  // unanswered. The next request closes it, as nextRun would.
  agent.addMessages([user("u2")]);
  await agent.runAgent({ tools: TOOLS });
  assert.equal(inputs.length, 2);
  checkHistory(inputs[1].messages, { calls: ["c1"], users: ["u1", "u2"] });
  const closing = inputs[1].messages.find((m) => m.toolCallId === "c1");
  assert.deepEqual(closing, { id: "c1:closed", role: "tool", toolCallId: "c1", content: CANCELLED, error: "cancelled" });
  assert.deepEqual(refused, []);
  const s = tracker.snapshot();
  assert.equal(s.run.status, "finished");
  assert.deepEqual(tracker.toolMessages(), []);
});

test("f6_track_agent_places_an_answer_right_after_its_call_when_the_run_said_more_after_it", async () => {
  inputs.length = 0;
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const agent = new HttpAgent({ url, threadId: "t-said-more" });
  const refused = [];
  trackAgent(agent, tracker, { onRefused: (e) => refused.push(e) });
  // The run asks, then says more in a message of its own; the user then
  // types before the answer is added (the app adds answers when it likes).
  script.push(
    (i) => run(i, [...text("a1", ["Deploy?"]), ...withParent("c1", "confirm_deploy", "a1"), ...text("a1b", ["Waiting for you."])]),
    (i) => run(i, text("a2", ["Deployed."])),
    (i) => run(i, text("a3", ["Anything else?"])),
  );
  agent.addMessages([user("u1")]);
  await agent.runAgent({ tools: TOOLS });
  tracker.answer("c1", "approved");
  agent.addMessages([user("u2")]);
  agent.addMessages(tracker.toolMessages());
  // The answer is last in the agent's history, after the run's second message and the user's.
  assert.deepEqual(agent.messages.slice(-3).map((m) => m.id === "a1b" || m.id === "u2" ? m.id : m.role), ["a1b", "u2", "tool"]);
  await agent.runAgent({ tools: TOOLS });
  // The input carries the answer right after its call's message, as strict
  // servers require, and the agent's history is the same from then on.
  checkHistory(inputs[1].messages, { calls: ["c1"], users: ["u1", "u2"] });
  assert.deepEqual(
    inputs[1].messages.map((m) => m.role),
    ["user", "assistant", "tool", "assistant", "user"],
  );
  checkHistory(agent.messages, { calls: ["c1"], users: ["u1", "u2"] });
  assert.equal(answersIn(agent.messages, "c1"), 1);
  // The next turn sends the same history again, unchanged.
  agent.addMessages([user("u3")]);
  await agent.runAgent({ tools: TOOLS });
  checkHistory(inputs[2].messages, { calls: ["c1"], users: ["u1", "u2", "u3"] });
  assert.deepEqual(inputs[2].messages.slice(0, inputs[1].messages.length), inputs[1].messages);
  assert.deepEqual(refused, []);
  assert.deepEqual(tracker.toolMessages(), []);
});

test("l5_a_request_that_fails_before_run_started_aborts_the_declared_run_with_its_reason", async () => {
  inputs.length = 0;
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const failing = [
    // The agent answers HTTP 500 (or 400: a malformed input).
    ["HTTP 500", async () => new Response(JSON.stringify({ error: "overloaded" }), { status: 500, headers: { "content-type": "application/json" } }), /^HTTP 500: \{"error":"overloaded"\}$/],
    // Nothing listens.
    ["a network error", async () => Promise.reject(new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:9") })), /^fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:9\)$/],
    // @ag-ui/client refuses the stream before any RUN_STARTED reached the tracker.
    ["the client's own check", async () => new Response(sseOf([start("c1", "confirm_deploy")]), { headers: { "content-type": "text/event-stream" } }), /RUN_STARTED/],
    // A stream that ends with no event at all.
    ["an empty stream", async () => new Response("", { headers: { "content-type": "text/event-stream" } }), new RegExp(`^${UNTERMINATED}$`)],
  ];
  // A run that finished first: its ids and outcome are not the failed run's.
  script.push((i) => run(i, text("a1", ["Hi."])));
  const agent = new HttpAgent({ url, threadId: "t-fail" });
  trackAgent(agent, tracker);
  agent.addMessages([user("u1")]);
  await agent.runAgent({ tools: TOOLS });
  const error = console.error;
  console.error = () => {};
  try {
    for (const [what, fetch, reason] of failing) {
      agent.fetch = fetch;
      agent.addMessages([user(`u-${what}`)]);
      await agent.runAgent({ tools: TOOLS }).catch(() => {});
      const s = tracker.snapshot();
      assert.equal(s.run.status, "aborted", what);
      assert.match(s.run.error, reason, what);
      assert.equal(s.run.runId, undefined, what);
      assert.equal(s.run.outcome, undefined, what);
      assert.equal(s.fatal, null, `${what}: the tracker refused nothing`);
    }
  } finally {
    console.error = error;
  }
  // The thread goes on once the agent answers again.
  agent.fetch = (input, init) => fetch(input, init);
  script.push((i) => run(i, text("a2", ["Back."])));
  await agent.runAgent({ tools: TOOLS });
  assert.equal(tracker.snapshot().run.status, "finished");
  assert.equal(tracker.snapshot().run.error, undefined);
});

test("l5_an_event_the_client_rejects_aborts_the_run_with_the_clients_reason", async () => {
  inputs.length = 0;
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const agent = new HttpAgent({ url, threadId: "t-client" });
  trackAgent(agent, tracker);
  // @ag-ui/client refuses the args of a call never started before the tracker sees them.
  script.push((i) => ({ events: [runStarted(i.runId, { threadId: "t-client" }), start("c1", "confirm_deploy", { parentMessageId: "a1" }), args("c1", '{"s'), args("c9", "{}")] }));
  agent.addMessages([user("u1")]);
  const error = console.error;
  console.error = () => {};
  try {
    await assert.rejects(agent.runAgent({ tools: TOOLS }), /No active tool call found with ID 'c9'/);
  } finally {
    console.error = error;
  }
  const s = tracker.snapshot();
  assert.equal(s.fatal, null, "the tracker refused nothing");
  assert.equal(s.run.status, "aborted");
  assert.match(s.run.error, /No active tool call found with ID 'c9'/);
  // What the client had let through before it failed is closed, not left dangling.
  assert.ok(s.calls.every((c) => c.status === "abandoned"));
});

test("f8_track_agent_restores_a_reloaded_agents_history_its_frontend_call_pending", async () => {
  inputs.length = 0;
  const saved = [
    user("u1"),
    { id: "a1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "confirm_deploy", arguments: '{"service":"checkout"}' } }] },
  ];
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const agent = new HttpAgent({ url, threadId: "t-reload", initialMessages: saved });
  const refusals = [];
  trackAgent(agent, tracker, { onRefused: (e) => refusals.push(e) });
  assert.deepEqual(tracker.snapshot().pendingCalls.map((c) => c.id), ["c1"]);
  // Sent as it stands, the run is refused before its request leaves.
  agent.addMessages([user("u2")]);
  await agent.runAgent({ tools: TOOLS });
  assert.equal(inputs.length, 0);
  assert.match(refusals[0].message, /c1 \(confirm_deploy\)/);
  tracker.answer("c1", "approved");
  agent.addMessages(tracker.toolMessages());
  script.push((i) => run(i, text("a2", ["Deployed."])));
  await agent.runAgent({ tools: TOOLS });
  assert.equal(inputs.length, 1);
  assert.equal(inputs[0].messages.find((m) => m.toolCallId === "c1").content, "approved");
  assert.equal(tracker.snapshot().run.status, "finished");
});
