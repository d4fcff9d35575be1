// The application's refused operations throw a typed ToolCallRefusedError
// (rules F5, F6, S3, T5): its kind and the calls concerned, nothing changed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ToolCallTracker, ToolCallRefusedError, ToolCallStreamError } from "../../pkg/index.js";
import { runStarted, runFinished, start, args, call } from "./support/events.mjs";

const confirm = { name: "confirm", description: "Ask first", parameters: { type: "object" } };

/** A finished run leaving frontend calls c1 and c2 pending, and c3 open in a second tracker. */
function pending() {
  const tracker = new ToolCallTracker({ tools: [confirm], requireApproval: ["confirm"] });
  tracker.push(runStarted("r1"));
  for (const e of call("c1", "confirm", ["{}"])) tracker.push(e);
  for (const e of call("c2", "confirm", ["{}"])) tracker.push(e);
  tracker.push(runFinished("r1"));
  return tracker;
}

function refusal(operation) {
  try {
    operation();
  } catch (error) {
    return error;
  }
  assert.fail("the operation was not refused");
}

test("f6_a_refused_next_run_names_each_unanswered_call_in_a_typed_error", () => {
  const tracker = pending();
  tracker.approve("c1");
  tracker.answer("c1", "yes");
  const before = tracker.snapshot();
  const e = refusal(() => tracker.startRun({ threadId: "t", runId: "r2", messages: [], tools: [] }));
  assert.ok(e instanceof ToolCallRefusedError && e instanceof Error && !(e instanceof ToolCallStreamError));
  assert.equal(e.name, "ToolCallRefusedError");
  assert.equal(e.kind, "unanswered");
  assert.deepEqual(e.toolCallIds, ["c1", "c2"]);
  assert.deepEqual(
    e.unanswered.map((u) => [u.toolCallId, u.toolName, u.answerLeftOut]),
    [
      ["c1", "confirm", true],
      ["c2", "confirm", false],
    ],
  );
  assert.match(e.message, /c2/);
  assert.equal(tracker.snapshot(), before);
});

test("f5_each_refusal_has_its_kind_and_the_call_it_concerns", () => {
  const tracker = pending();
  const cases = [
    [() => tracker.answer("nope", "x"), "unknownCall", ["nope"]],
    [() => tracker.answer("c1", "x"), "approvalRequired", ["c1"]],
    [() => tracker.answer("c2", 42), "invalidContent", ["c2"]],
  ];
  for (const [operation, kind, ids] of cases) {
    const before = tracker.snapshot();
    const e = refusal(operation);
    assert.ok(e instanceof ToolCallRefusedError, `${kind}: ${e}`);
    assert.equal(e.kind, kind);
    assert.deepEqual(e.toolCallIds, ids);
    assert.deepEqual(e.unanswered, []);
    assert.equal(tracker.snapshot(), before);
  }
  tracker.decline("c1", "no");
  const e = refusal(() => tracker.approve("c1"));
  assert.equal(e.kind, "declined");
  assert.equal(refusal(() => tracker.decline("c1")).kind, "answered");
});

test("t5_acting_on_an_open_call_is_refused_with_kind_open", () => {
  const tracker = new ToolCallTracker({ tools: [confirm] });
  tracker.push(runStarted("r1"));
  tracker.push(start("c1", "confirm"));
  tracker.push(args("c1", "{"));
  const e = refusal(() => tracker.answer("c1", "x"));
  assert.equal(e.kind, "open");
  assert.deepEqual(e.toolCallIds, ["c1"]);
  assert.equal(refusal(() => tracker.startRun({ threadId: "t", runId: "r2", messages: [] })).kind, "runActive");
});
