// Interrupts and resume in JS (rules I1-I6): the snapshot's open interrupts,
// approvals awaiting them, resolve and cancel, and the resume list nextRun
// and trackAgent send.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { HttpAgent, enforceOutgoingInput } from "@ag-ui/client";
import { ToolCallRefusedError, ToolCallTracker } from "../../pkg/index.js";
import { trackAgent } from "../../pkg/ag-ui.js";
import { runStarted, runFinished, start, args, end } from "./support/events.mjs";
import { startScriptedAgent } from "./support/scripted-agent.mjs";

const interrupted = (runId, interrupts) => runFinished(runId, { outcome: { type: "interrupt", interrupts } });
const APPROVAL = { id: "i1", reason: "tool_approval", toolCallId: "c1", message: "Send 5 EUR?" };
const QUESTION = {
  id: "i2",
  reason: "input_required",
  responseSchema: { type: "object", required: ["region"], properties: { region: { type: "string" } } },
};
const TRANSFER = { name: "transfer", parameters: { type: "object", properties: { amount: { type: "integer", maximum: 10 } } } };

/** Run r1 called the backend tool `transfer` (c1) and stopped for its approval and a question. */
function interruptedThread(options) {
  const tracker = new ToolCallTracker(options);
  for (const e of [runStarted("r1"), start("c1", "transfer", { parentMessageId: "a1" }), args("c1", '{"amount":5}'), end("c1"), interrupted("r1", [APPROVAL, QUESTION])]) tracker.push(e);
  return tracker;
}

const input = (runId, extra = {}) => ({ threadId: "t1", runId, messages: [{ id: "u1", role: "user", content: "send 5" }], ...extra });

/** Asserts a refusal of `kind` that leaves the snapshot as it was. */
function refused(tracker, kind, op) {
  const before = tracker.snapshot();
  const error = assert.throws(op, ToolCallRefusedError) ?? captured(op);
  assert.equal(tracker.snapshot(), before, "the snapshot stays the same object");
  assert.equal(error.kind, kind);
  return error;
}
function captured(op) {
  try {
    op();
  } catch (error) {
    return error;
  }
}

test("i1_snapshot_lists_open_interrupts_typed_and_in_order", () => {
  const tracker = interruptedThread();
  const s = tracker.snapshot();
  assert.equal(s.run.status, "interrupted");
  assert.deepEqual(s.interrupts.map((i) => [i.interrupt.id, i.status]), [["i1", "open"], ["i2", "open"]]);
  assert.deepEqual(s.interrupts[0].interrupt, APPROVAL);
  assert.deepEqual(s.interrupts[1].interrupt, QUESTION);
  assert.deepEqual(s.run.outcome.interrupts, [APPROVAL, QUESTION]);
  assert.ok(Object.isFrozen(s.interrupts[1].interrupt.responseSchema));
  // Unchanged until something about them changes.
  tracker.push(runStarted("r2")); // L3 allows only a new run: it resumes them
  assert.deepEqual(tracker.snapshot().interrupts, []);
});

test("p2_an_interrupts_undescribed_properties_never_reach_the_snapshot_or_on_event", () => {
  const handed = [];
  const tracker = new ToolCallTracker({ onEvent: (e) => handed.push(e) });
  const odd = { ...QUESTION, vendor: { kept: false }, priority: 1 };
  tracker.push(runStarted("r1"));
  tracker.push(interrupted("r1", [APPROVAL, odd]));
  const s = tracker.snapshot();
  // Stripped as @ag-ui/client 1.0 strips them, each path named in a warning.
  assert.deepEqual(s.interrupts[1].interrupt, QUESTION);
  assert.deepEqual(s.run.outcome.interrupts, [APPROVAL, QUESTION]);
  assert.deepEqual(
    s.violations.filter((v) => v.code === "P2").map((v) => [v.severity, v.message]),
    ["vendor", "priority"].map((key) => ["warning", `outcome.interrupts[1].${key} is not a property 1.0 describes: removed`]),
  );
  assert.equal(s.run.status, "interrupted");
  assert.deepEqual(handed[1].outcome.interrupts, [APPROVAL, QUESTION]);
  // An interrupt with nothing to strip is handed over as it came.
  const plain = [];
  const quiet = new ToolCallTracker({ onEvent: (e) => plain.push(e) });
  const finished = interrupted("r1", [APPROVAL]);
  quiet.push(runStarted("r1"));
  quiet.push(finished);
  assert.equal(plain[1], finished);
});

test("i3_an_approval_is_not_a_pending_call_and_next_run_leaves_it_unanswered", () => {
  const tracker = interruptedThread();
  const s = tracker.snapshot();
  assert.equal(s.calls[0].awaitingInterrupt, "i1");
  assert.deepEqual(s.pendingCalls, []);
  assert.deepEqual(s.violations.map((v) => v.code), []);
  refused(tracker, "awaitingInterrupt", () => tracker.answer("c1", "sent"));
  tracker.resolveInterrupt("i1", { approved: true });
  tracker.cancelInterrupt("i2");
  const next = tracker.nextRun(input("r2"));
  // The call is in the history, without a tool message: the resume entry answers it.
  assert.deepEqual(next.messages.map((m) => m.role), ["user", "assistant"]);
  assert.deepEqual(next.messages[1].toolCalls.map((c) => c.id), ["c1"]);
});

test("i4_resolve_and_cancel_refusals_are_typed_and_change_nothing", () => {
  const tracker = interruptedThread({ tools: [TRANSFER] });
  assert.equal(refused(tracker, "unknownInterrupt", () => tracker.resolveInterrupt("nope", 1)).interruptIds[0], "nope");
  const payload = refused(tracker, "invalidPayload", () => tracker.resolveInterrupt("i2", { region: 7 }));
  assert.deepEqual(payload.errors.map((e) => [e.path, e.keyword]), [["/region", "type"]]);
  assert.deepEqual(payload.interruptIds, ["i2"]);
  const edited = refused(tracker, "invalidEditedArgs", () => tracker.resolveInterrupt("i1", { approved: true }, { editedArgs: { amount: 50 } }));
  assert.deepEqual(edited.errors.map((e) => [e.path, e.keyword]), [["/amount", "maximum"]]);
  assert.deepEqual(edited.toolCallIds, ["c1"]);
  assert.throws(() => tracker.resolveInterrupt("i2", null), TypeError);
  assert.throws(() => tracker.resolveInterrupt("i1", {}, { editedArgs: [1] }), TypeError);
  // Accepted: consent is recorded for the approval, the version grows.
  const v = tracker.snapshot().version;
  const s = tracker.resolveInterrupt("i1", { approved: true }, { editedArgs: { amount: 7 } });
  assert.ok(s.version > v);
  assert.equal(s.calls[0].consent, "approved");
  assert.deepEqual(s.interrupts[0].payload, { approved: true, editedArgs: { amount: 7 } });
  assert.equal(s.interrupts[0].status, "resolved");
  refused(tracker, "interruptCovered", () => tracker.resolveInterrupt("i1", true));
  refused(tracker, "interruptCovered", () => tracker.cancelInterrupt("i1"));
  tracker.cancelInterrupt("i2");
  assert.equal(tracker.snapshot().interrupts[1].status, "cancelled");
});

test("i5_next_run_writes_the_resume_list_and_refuses_an_uncovered_interrupt", () => {
  const tracker = interruptedThread();
  tracker.resolveInterrupt("i2", { region: "eu" });
  const before = tracker.snapshot();
  const error = refused(tracker, "uncovered", () => tracker.nextRun(input("r2")));
  assert.deepEqual(error.uncovered, [{ interruptId: "i1", expired: false }]);
  assert.match(error.message, /leaves 1 interrupt uncovered: "i1"/);
  assert.equal(tracker.snapshot(), before);
  tracker.resolveInterrupt("i1", { approved: true });
  assert.deepEqual(tracker.resumeEntries(), [
    { interruptId: "i1", status: "resolved", payload: { approved: true } },
    { interruptId: "i2", status: "resolved", payload: { region: "eu" } },
  ]);
  const next = tracker.nextRun(input("r2"));
  assert.deepEqual(next.resume, tracker.resumeEntries());
  // @ag-ui/client sends it as it is.
  const sent = enforceOutgoingInput(structuredClone(next));
  assert.deepEqual([sent.resume, sent.messages], [next.resume, next.messages]);
  // The input's own entries win over the decisions.
  const own = tracker.nextRun(input("r2", { resume: [{ interruptId: "i1", status: "cancelled" }] }));
  assert.deepEqual(own.resume.map((e) => [e.interruptId, e.status]), [["i1", "cancelled"], ["i2", "resolved"]]);
  // An expired interrupt can only be cancelled.
  const late = new ToolCallTracker();
  late.push(runStarted("r1"));
  late.push(interrupted("r1", [{ id: "i9", reason: "r", expiresAt: "2000-01-01T00:00:00Z" }]));
  refused(late, "interruptExpired", () => late.resolveInterrupt("i9", 1));
  const expired = refused(late, "uncovered", () => late.startRun(input("r2", { resume: [{ interruptId: "i9", status: "resolved", payload: 1 }] })));
  assert.deepEqual(expired.uncovered, [{ interruptId: "i9", expired: true }]);
  late.cancelInterrupt("i9");
  assert.deepEqual(late.nextRun(input("r2")).resume, [{ interruptId: "i9", status: "cancelled" }]);
  // I6: a resume list on a run that continues nothing is named, not refused.
  late.push(runStarted("r2"));
  late.push(runFinished("r2"));
  late.startRun(input("r3", { resume: [{ interruptId: "i9", status: "cancelled" }] }));
  assert.deepEqual(late.snapshot().violations.map((v) => v.code), ["I6"]);
});

// A loopback agent for trackAgent: each POST gets the next scripted events.
let agentServer;
let url;
let requests;
let script;
before(async () => {
  agentServer = await startScriptedAgent();
  ({ url, inputs: requests, script } = agentServer);
});
after(() => agentServer.close());

test("i5_track_agent_stops_an_uncovered_resume_before_the_request_leaves", async () => {
  const tracker = new ToolCallTracker();
  const agent = new HttpAgent({ url, threadId: "t1" });
  const refusals = [];
  trackAgent(agent, tracker, { onRefused: (e) => refusals.push(e) });
  script.push((i) => [
    runStarted(i.runId),
    start("c1", "transfer", { parentMessageId: "a1" }),
    args("c1", '{"amount":5}'),
    end("c1"),
    interrupted(i.runId, [APPROVAL]),
  ]);
  agent.addMessages([{ id: "u1", role: "user", content: "send 5" }]);
  await agent.runAgent({});
  assert.equal(tracker.snapshot().calls[0].awaitingInterrupt, "i1");
  // The client's own record forgotten: the tracker still stops the uncovered input.
  agent.pendingInterrupts = [];
  await agent.runAgent({ resume: [] }).catch(() => {});
  assert.equal(requests.length, 1, "nothing was sent");
  assert.equal(refusals[0]?.kind, "uncovered");
  // Resolved, the resume list passes through to the agent.
  tracker.resolveInterrupt("i1", { approved: true });
  script.push((i) => [runStarted(i.runId), { type: "TOOL_CALL_RESULT", messageId: "m1", toolCallId: "c1", content: "sent" }, runFinished(i.runId)]);
  await agent.runAgent({ resume: tracker.resumeEntries() });
  assert.equal(requests.length, 2);
  assert.deepEqual(requests[1].resume, [{ interruptId: "i1", status: "resolved", payload: { approved: true } }]);
  const s = tracker.snapshot();
  assert.equal(s.fatal, null);
  assert.deepEqual(s.interrupts, []);
  assert.equal(s.calls[0].result.content, "sent");
});
