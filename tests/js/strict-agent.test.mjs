// A whole conversation through @ag-ui/client's HttpAgent and `trackAgent`
// against a loopback agent that answers any history holding a dangling call,
// or an input leaving an interrupt uncovered, with HTTP 400
// (tests/js/support/strict-agent.mjs): a frontend call answered, a run the
// user stops mid-call, a RUN_ERROR mid-call, a run the producer cancels with
// a frontend call unanswered, a backend call stopped for approval (approved
// with edited arguments, a question beside it expired, so refused and then
// cancelled) and the run that resumes it, a page reload with a frontend
// call still pending (a new agent and tracker from the saved messages), the
// call answered after the reload. The agent never sees a dangling call or
// an uncovered interrupt (rules F8, F11, L8, I3-I5). Turns are data.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { HttpAgent } from "@ag-ui/client";
import { ToolCallRefusedError, ToolCallTracker } from "../../pkg/index.js";
import { trackAgent } from "../../pkg/ag-ui.js";
import { CANCELLED } from "../../js/next-run.js";
import { runStarted, runFinished, start, args, end } from "./support/events.mjs";
import { startStrictAgent } from "./support/strict-agent.mjs";
import { checkHistory } from "./support/history-check.mjs";

const TOOLS = [{ name: "confirm_deploy", description: "Ask the user", parameters: { type: "object" } }];
const THREAD = "t-strict";

let agentServer;
before(async () => {
  agentServer = await startStrictAgent();
});
after(async () => {
  await agentServer?.close();
});

const text = (id, words) => [
  { type: "TEXT_MESSAGE_START", messageId: id, role: "assistant" },
  ...words.map((delta) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: id, delta })),
  { type: "TEXT_MESSAGE_END", messageId: id },
];
const wholeCall = (id, name, parent) => [start(id, name, { parentMessageId: parent }), args(id, '{"service":'), args(id, '"checkout"}'), end(id)];
const open = (i, body) => [runStarted(i.runId, { threadId: THREAD }), ...body];
const finished = (i, body, outcome) => ({ events: [...open(i, body), runFinished(i.runId, { threadId: THREAD, ...(outcome && { outcome }) })] });
/** The approval turn's interrupts: the backend call b5, and an expired question beside it. */
const APPROVAL = { id: "i5", reason: "tool_approval", toolCallId: "b5", message: "Transfer 5 EUR?" };
const QUESTION = { id: "i5q", reason: "input_required", message: "Which account?", expiresAt: "2000-01-01T00:00:00Z" };

/** The app: an agent and a tracker following it; `reload` makes both anew from the saved messages. */
function app(initialMessages) {
  const agent = new HttpAgent({ url: agentServer.url, threadId: THREAD, initialMessages });
  const tracker = new ToolCallTracker({ tools: TOOLS });
  const refusals = [];
  trackAgent(agent, tracker, { onRefused: (e) => refusals.push(e) });
  return { agent, tracker, refusals };
}

/**
 * One entry per turn: the user's message (none with `user: false`), the
 * agent's reply, what the app does while it streams (`during`, given the
 * snapshot) and after it (`after`), and what the request the turn sent
 * must carry (`sent`, given its input); `addToolMessages: false` for an
 * app that forgets `agent.addMessages(tracker.toolMessages())` that turn;
 * `resume: true` for a turn that resumes, passing `tracker.resumeEntries()`.
 */
const turns = [
  {
    name: "a frontend call, answered",
    reply: (i) => finished(i, [...text("a1", ["Deploy?"]), ...wholeCall("c1", "confirm_deploy", "a1")]),
    after: ({ tracker }) => tracker.answer("c1", "approved"),
  },
  {
    name: "the user stops the run mid-call",
    reply: (i) => ({ events: open(i, [...text("a2", ["Once more?"]), start("c2", "confirm_deploy", { parentMessageId: "a2" }), args("c2", '{"serv')]), open: true }),
    during: ({ agent }, s) => s.calls.find((c) => c.id === "c2")?.argsText === '{"serv' && agent.abortRun(),
    after: ({ tracker }) => {
      assert.equal(tracker.snapshot().run.status, "aborted");
      assert.equal(tracker.snapshot().calls.find((c) => c.id === "c2").status, "abandoned");
    },
  },
  {
    name: "RUN_ERROR mid-call, after a call it completed; the app forgets toolMessages()",
    reply: (i) => ({
      events: [...open(i, [...wholeCall("b3a", "search_docs", "a3"), start("b3", "search_docs", { parentMessageId: "a3" }), args("b3", '{"q":')]), { type: "RUN_ERROR", message: "model overloaded" }],
    }),
    after: ({ tracker }) => assert.equal(tracker.snapshot().run.status, "errored"),
    addToolMessages: false,
  },
  {
    name: "the producer cancels the run with a frontend call unanswered; the app forgets toolMessages()",
    reply: (i) => finished(i, [...text("a4c", ["Deploying"]), ...wholeCall("c4c", "confirm_deploy", "a4c")], { type: "cancelled" }),
    after: ({ tracker }) => {
      const s = tracker.snapshot();
      assert.equal(s.run.status, "cancelled");
      assert.deepEqual(s.calls.filter((c) => c.cancelled).map((c) => c.id), ["c4c"]);
      assert.deepEqual(s.pendingCalls, [], "a cancelled run waits for nothing");
    },
    addToolMessages: false,
  },
  {
    name: "a backend call stopped for approval, beside an expired question",
    // The next request carries the cancelled run's call closed as cancelled.
    sent: (input) => {
      const closing = input.messages.find((m) => m.toolCallId === "c4c");
      assert.deepEqual([closing.content, closing.error], [CANCELLED, "cancelled"]);
    },
    reply: (i) => finished(i, [...text("a5", ["Transfer?"]), start("b5", "transfer_funds", { parentMessageId: "a5" }), args("b5", '{"amount":5}'), end("b5")], { type: "interrupt", interrupts: [APPROVAL, QUESTION] }),
    after: ({ tracker }) => {
      const s = tracker.snapshot();
      assert.equal(s.run.status, "interrupted");
      assert.equal(s.calls.find((c) => c.id === "b5").awaitingInterrupt, "i5");
      tracker.resolveInterrupt("i5", { approved: true }, { editedArgs: { amount: 3 } });
      // The question expired: it can only be cancelled.
      assert.throws(() => tracker.resolveInterrupt("i5q", { account: "main" }), (e) => e instanceof ToolCallRefusedError && e.kind === "interruptExpired");
      tracker.cancelInterrupt("i5q");
    },
  },
  {
    name: "the run that resumes the approved call",
    user: false,
    resume: true,
    // The resume list covers both, the edits riding the approval; the call
    // it approves goes without a tool message (its resume entry answers it).
    sent: (input) => {
      assert.deepEqual(input.resume, [
        { interruptId: "i5", status: "resolved", payload: { approved: true, editedArgs: { amount: 3 } } },
        { interruptId: "i5q", status: "cancelled" },
      ]);
      assert.equal(input.messages.some((m) => m.toolCallId === "b5"), false);
    },
    reply: (i) => finished(i, [{ type: "TOOL_CALL_RESULT", messageId: "r5", toolCallId: "b5", content: "transferred 3 EUR" }, ...text("a6", ["Done."])]),
    after: ({ tracker }) => {
      const s = tracker.snapshot();
      assert.deepEqual(s.interrupts, []);
      assert.equal(s.calls.find((c) => c.id === "b5").result.content, "transferred 3 EUR");
    },
  },
  {
    name: "a frontend call left pending when the page reloads",
    reply: (i) => finished(i, [...text("a4", ["Deploy now?"]), ...wholeCall("c4", "confirm_deploy", "a4")]),
    reload: true,
    after: ({ tracker }) => {
      // The restored tracker shows the call pending, as before the reload (F8).
      assert.deepEqual(tracker.snapshot().pendingCalls.map((c) => c.id), ["c4"]);
      tracker.answer("c4", "approved after the reload");
    },
  },
  {
    name: "the thread goes on",
    reply: (i) => finished(i, text("a5", ["Deployed."])),
  },
];

test("f11_http_agent_turns_with_stop_run_error_cancel_approval_and_reload_never_send_a_dangling_call", async () => {
  let current = app();
  for (const [n, turn] of turns.entries()) {
    const { agent, tracker } = current;
    if (turn.user !== false) agent.addMessages([{ id: `u${n + 1}`, role: "user", content: turn.name }]);
    agentServer.script.push((input) => {
      turn.sent?.(input);
      return turn.reply(input);
    });
    const watching = turn.during && tracker.subscribe((s) => turn.during(current, s));
    await agent.runAgent({ tools: TOOLS, ...(turn.resume && { resume: tracker.resumeEntries() }) });
    watching?.();
    if (turn.reload) {
      // What the page saved, and what it makes after reloading.
      current = app(JSON.parse(JSON.stringify(agent.messages)));
    }
    turn.after?.(current);
    if (turn.addToolMessages !== false) current.agent.addMessages(current.tracker.toolMessages());
  }
  assert.deepEqual(agentServer.rejected.map((r) => r.problem), [], "the agent never saw a dangling call or an uncovered interrupt");
  assert.equal(agentServer.inputs.length, turns.length);
  assert.deepEqual(current.refusals, []);
  const last = agentServer.inputs.at(-1).messages;
  const users = turns.flatMap((turn, n) => (turn.user === false ? [] : [`u${n + 1}`]));
  checkHistory(last, { calls: ["c1", "c2", "b3a", "b3", "c4c", "b5", "c4"], users });
  const answerOf = (id) => last.find((m) => m.role === "tool" && m.toolCallId === id);
  assert.equal(answerOf("c1").content, "approved");
  assert.equal(answerOf("c2").error, "abandoned");
  assert.equal(answerOf("b3a").error, "abandoned");
  assert.equal(answerOf("b3").error, "abandoned");
  assert.equal(answerOf("c4c").error, "cancelled");
  assert.equal(answerOf("b5").content, "transferred 3 EUR");
  assert.equal(answerOf("c4").content, "approved after the reload");
  const s = current.tracker.snapshot();
  assert.equal(s.run.status, "finished");
  assert.equal(s.fatal, null);
  assert.deepEqual(s.pendingCalls, []);
});

test("f11_without_the_adapters_closing_the_strict_agent_would_refuse_the_stopped_call", async () => {
  // The same stop, the history sent by hand as it stands: the agent says 400.
  const { agent, tracker } = app();
  agent.addMessages([{ id: "u1", role: "user", content: "stop me" }]);
  agentServer.script.push(turns[1].reply);
  const watching = tracker.subscribe((s) => s.calls[0]?.argsText === '{"serv' && agent.abortRun());
  await agent.runAgent({ tools: TOOLS });
  watching();
  const rejectedBefore = agentServer.rejected.length;
  const response = await fetch(agentServer.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ threadId: THREAD, runId: "by-hand", messages: agent.messages, tools: TOOLS, context: [], state: {}, forwardedProps: {} }),
  });
  assert.equal(response.status, 400);
  assert.equal(agentServer.rejected.length, rejectedBefore + 1);
  agentServer.rejected.pop();
});
