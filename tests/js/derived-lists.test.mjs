// The derived lists (openCalls, completedCalls, pendingCalls) are updated in
// place when calls join or leave them, never filtered again over every call:
// a chunked stream opens and closes a call at every chunk, so a filter per
// change made each event cost grow with the thread (rule N1).
import { test } from "node:test";
import assert from "node:assert/strict";
import { derived } from "../../js/snapshot.js";
import { ToolCallTracker } from "../../pkg/index.js";

const call = (i, status) => Object.freeze({ id: `c${i}`, status });

test("n1_derived_list_change_tests_only_the_changed_calls", () => {
  const before = Object.freeze(Array.from({ length: 4000 }, (_, i) => call(i, i % 10 === 0 ? "open" : "complete")));
  const after = [...before];
  after[10] = call(10, "complete"); // leaves the open list
  after.push(call(4000, "open")); // joins it
  const members = [];
  for (let i = 0; i < before.length; i += 10) members.push(i);
  const list = Object.freeze(members.map((i) => before[i]));
  let tests = 0;
  const isOpen = (c) => (tests++, c.status === "open");
  const changed = [{ index: 10 }, { index: 4000 }];
  const next = derived(list, members, isOpen, before, after, changed);
  assert.ok(tests <= 2 * changed.length, `${tests} calls tested for ${changed.length} changes`);
  assert.deepEqual(
    next.map((c) => c.id),
    after.filter((c) => c.status === "open").map((c) => c.id),
  );
  assert.deepEqual(members, [...list.keys()].filter((k) => k !== 1).map((k) => k * 10).concat(4000));
  assert.ok(Object.isFrozen(next));
  assert.equal(derived(list, [...members], isOpen, before, before, [{ index: 11 }]), list, "no member changed");
});

test("n1_chunk_lanes_keep_derived_lists_in_first_start_order", () => {
  const t = new ToolCallTracker();
  t.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  let s;
  for (let i = 0; i < 300; i++) {
    const subagentRunId = `sub-${i % 7}`;
    s = t.push({ type: "TOOL_CALL_CHUNK", toolCallId: `c${i}`, toolCallName: "f", subagentRunId, delta: "{}" });
    if (i % 3 === 0) s = t.push({ type: "TEXT_MESSAGE_CHUNK", messageId: `m${i}`, subagentRunId, delta: "x" });
    if (i % 5 === 0) s = t.push({ type: "TOOL_CALL_RESULT", messageId: `r${i}`, toolCallId: `c${i - 1 < 0 ? 0 : i - 1}`, content: "ok" });
    for (const [name, keep] of [
      ["openCalls", (c) => c.status === "open"],
      ["completedCalls", (c) => c.status === "complete"],
      ["pendingCalls", (c) => c.pending],
    ]) {
      assert.deepEqual(s[name], s.calls.filter(keep), `${name} after chunk ${i}`);
    }
  }
  assert.ok(s.openCalls.length > 0 && s.completedCalls.length > 0);
});

test("n1_a_derived_list_holding_every_call_is_calls_itself", () => {
  // Members keep the calls' order, so a list with every call is `calls`:
  // one array fewer to copy and freeze per change while all calls are open.
  const t = new ToolCallTracker();
  t.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  t.push({ type: "TOOL_CALL_START", toolCallId: "a", toolCallName: "f" });
  let s = t.push({ type: "TOOL_CALL_START", toolCallId: "b", toolCallName: "f" });
  assert.equal(s.openCalls, s.calls);
  s = t.push({ type: "TOOL_CALL_ARGS", toolCallId: "b", delta: "[1" });
  assert.equal(s.openCalls, s.calls);
  s = t.push({ type: "TOOL_CALL_END", toolCallId: "a" });
  assert.notEqual(s.openCalls, s.calls);
  assert.deepEqual(s.openCalls, [s.calls[1]]);
  assert.deepEqual(s.completedCalls, [s.calls[0]]);
  s = t.push({ type: "TOOL_CALL_ARGS", toolCallId: "b", delta: "]" });
  assert.deepEqual(s.openCalls, [s.calls[1]]);
  assert.equal(s.calls[1].argsText, "[1]");
  s = t.push({ type: "TOOL_CALL_END", toolCallId: "b" });
  assert.equal(s.completedCalls, s.calls);
  assert.equal(s.openCalls.length, 0);
  t.free();
});
