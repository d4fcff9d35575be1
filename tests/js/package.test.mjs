// The built package in Node 20 ESM.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ToolCallTracker, ToolCallStreamError } from "../../pkg/index.js";

test("a call streams its arguments into the snapshot", () => {
  const tracker = new ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t1", runId: "r1" });
  tracker.push({ type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" });
  tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"q":' });
  const snap = tracker.pushJson('{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"\\"rust\\"}"}');
  assert.equal(snap.calls.length, 1);
  assert.equal(snap.calls[0].argsText, '{"q":"rust"}');
  assert.ok(Object.isFrozen(snap) && Object.isFrozen(snap.calls[0]));
  tracker.free();
});

test("t1_args_for_a_call_never_started_throws_a_stream_error", () => {
  const tracker = new ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t1", runId: "r1" });
  assert.throws(
    () => tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "ghost", delta: "{}" }),
    (error) => error instanceof ToolCallStreamError && error.violation.code === "T1" && error.violation.eventIndex === 1,
  );
  tracker.free();
});
