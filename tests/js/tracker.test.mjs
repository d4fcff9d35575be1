// The ToolCallTracker class in Node: every input path, snapshot identity
// (rule N1), the error paths, and SSE splitting (rule E1).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ToolCallTracker, ToolCallStreamError } from "../../pkg/index.js";
import { runStarted, runFinished, start, args, end, result, call, sse } from "./support/events.mjs";

function tracker(options) {
  const t = new ToolCallTracker(options);
  t.push(runStarted());
  return t;
}

test("push, pushJson and pushSse read the same events the same way", () => {
  const events = [runStarted(), ...call("c1", "search", ['{"q":', '"wasm"}']), runFinished()];
  const a = new ToolCallTracker();
  const b = new ToolCallTracker();
  const c = new ToolCallTracker();
  for (const e of events) a.push(e);
  for (const e of events) b.pushJson(JSON.stringify(e));
  c.pushSse(sse(events));
  for (const t of [a, b, c]) {
    const s = t.snapshot();
    assert.equal(s.run.status, "finished");
    assert.deepEqual(s.calls[0].args, { q: "wasm" });
    assert.equal(s.calls[0].argsText, '{"q":"wasm"}');
  }
});

test("n2_snapshot_shows_run_open_completed_pending_and_results", () => {
  const t = tracker();
  for (const e of call("done", "lookup", ['{"id":1}'])) t.push(e);
  t.push(result("done", "found"));
  for (const e of call("asked", "confirm", ["{}"])) t.push(e);
  t.push(start("streaming", "write"));
  let s = t.push(args("streaming", '{"text":"hel'));
  assert.equal(s.run.status, "running");
  assert.deepEqual(s.openCalls.map((c) => c.id), ["streaming"]);
  assert.deepEqual(s.completedCalls.map((c) => c.id), ["done", "asked"]);
  assert.deepEqual(s.calls[0].result, { messageId: "m-done", content: "found", source: "stream" });
  t.push(end("streaming"));
  s = t.push(runFinished());
  assert.equal(s.run.status, "finished");
  assert.deepEqual(s.pendingCalls.map((c) => c.id), ["asked", "streaming"]);
  assert.equal(s.fatal, null);
});

test("n3_calls_are_listed_in_first_start_order", () => {
  const t = tracker();
  t.push(start("b", "f"));
  t.push(start("a", "f"));
  t.push(end("a"));
  const s = t.push(end("b"));
  assert.deepEqual(s.calls.map((c) => c.id), ["b", "a"]);
});

test("n1_unchanged_tracker_returns_the_identical_snapshot", () => {
  const t = tracker();
  t.push(start("c1", "f"));
  const s1 = t.snapshot();
  assert.equal(t.snapshot(), s1);
  // An empty delta changes nothing (rule T4), so not even the version moves.
  assert.equal(t.push(args("c1", "")), s1);
  assert.ok(Object.isFrozen(s1) && Object.isFrozen(s1.calls) && Object.isFrozen(s1.run));
});

test("n1_unchanged_calls_keep_their_identical_objects", () => {
  const t = tracker();
  for (const e of call("old", "f", ['{"a":1}'])) t.push(e);
  t.push(start("new", "g"));
  const before = t.snapshot();
  const after = t.push(args("new", '{"b":'));
  assert.notEqual(after, before);
  assert.equal(after.calls[0], before.calls[0], "the completed call is the same object");
  assert.equal(after.completedCalls, before.completedCalls, "a list no changed call is in is reused");
  assert.notEqual(after.calls[1], before.calls[1]);
  assert.equal(after.violations, before.violations);
  assert.equal(after.run, before.run);
});

test("t5_partial_args_are_best_effort_while_open_and_gone_once_complete", () => {
  const t = tracker();
  t.push(start("c1", "f"));
  let s = t.push(args("c1", '{"city":"Par'));
  assert.deepEqual(s.calls[0].partialArgs, { city: "Par" });
  assert.equal(s.calls[0].args, undefined);
  s = t.push(args("c1", 'is","n":-'));
  assert.deepEqual(s.calls[0].partialArgs, { city: "Paris" }, "a lone minus is withheld");
  s = t.push(args("c1", "12}"));
  assert.deepEqual(s.calls[0].partialArgs, { city: "Paris", n: -12 });
  assert.ok(Object.isFrozen(s.calls[0].partialArgs));
  s = t.push(end("c1"));
  assert.equal(s.calls[0].partialArgs, undefined);
  assert.deepEqual(s.calls[0].args, { city: "Paris", n: -12 });
});

test("t5_partial_args_of_an_old_snapshot_stay_what_they_were", () => {
  const t = tracker();
  t.push(start("c1", "f"));
  const early = t.push(args("c1", '{"a":"x'));
  t.push(args("c1", 'yz"}'));
  assert.deepEqual(early.calls[0].partialArgs, { a: "x" });
  assert.equal(early.calls[0].argsText, '{"a":"x');
});

test("t6_unparseable_arguments_are_recorded_on_the_call", () => {
  const t = tracker();
  for (const e of call("c1", "f", ['{"a":'])) t.push(e);
  const c = t.snapshot().calls[0];
  assert.equal(c.status, "complete");
  assert.equal(c.argsError.kind, "parse");
  assert.equal(typeof c.argsError.position, "number");
  assert.equal(t.snapshot().fatal, null);
});

test("t3_fatal_error_throws_keeps_state_and_repeats", () => {
  const t = tracker();
  t.push(start("c1", "f"));
  t.push(args("c1", '{"a":1'));
  const before = t.snapshot();
  let thrown;
  assert.throws(
    () => t.push(start("c1", "f")),
    (e) => {
      thrown = e;
      return e instanceof ToolCallStreamError && e instanceof Error;
    },
  );
  assert.equal(thrown.violation.code, "T3");
  assert.equal(thrown.violation.severity, "fatal");
  assert.equal(thrown.violation.eventIndex, 3);
  assert.equal(thrown.violation.toolCallId, "c1");
  const s = t.snapshot();
  assert.deepEqual(s.fatal, thrown.violation);
  assert.equal(s.calls[0], before.calls[0], "the call recorded before the bad event is intact");
  assert.equal(s.calls[0].argsText, '{"a":1');
  assert.throws(() => t.push(args("c1", "}")), (e) => e.violation.code === "T3" && e.violation.eventIndex === 3);
  assert.throws(() => t.pushSse(sse([end("c1")])), (e) => e.violation.code === "T3");
});

test("e2_malformed_events_name_the_index_and_the_field", () => {
  const t = tracker();
  assert.throws(
    () => t.push({ type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: 7 }),
    (e) => e.violation.code === "E2" && e.violation.eventIndex === 1 && /toolCallName/.test(e.violation.message),
  );
  for (const bad of [null, undefined, 5, "text", [], () => {}]) {
    const u = tracker();
    assert.throws(() => u.push(bad), (e) => e.violation.code === "E2" && e.violation.eventIndex === 1);
  }
  const v = tracker();
  assert.throws(() => v.pushJson("{not json"), (e) => e.violation.code === "E2");
});

test("e3_unknown_event_types_and_fields_are_tolerated", () => {
  const t = tracker();
  const s = t.push({ type: "SOMETHING_NEW", extra: 1 });
  assert.equal(s.fatal, null);
  assert.equal(s.violations.at(-1).code, "E3");
  assert.equal(s.violations.at(-1).severity, "warning");
  t.push({ ...start("c1", "f"), unknownField: { deep: true } });
  assert.equal(t.snapshot().calls.length, 1);
});

test("e1_sse_split_at_every_byte_gives_the_same_snapshot", () => {
  const events = [
    runStarted(),
    start("c1", "say"),
    args("c1", '{"text":"héllo 😀 \\u00e9'),
    args("c1", '"}'),
    end("c1"),
    runFinished(),
  ];
  const body = ": comment\r\n" + sse(events, "\r\n");
  const bytes = new TextEncoder().encode(body);
  const whole = new ToolCallTracker();
  whole.pushSse(bytes);
  const expected = whole.snapshot();
  assert.deepEqual(expected.calls[0].args, { text: "héllo 😀 é" });
  for (let i = 0; i <= bytes.length; i++) {
    const t = new ToolCallTracker();
    t.pushSse(bytes.subarray(0, i));
    const s = t.pushSse(bytes.subarray(i));
    assert.equal(s.calls[0].argsText, expected.calls[0].argsText, `split at byte ${i}`);
    assert.equal(s.run.status, "finished");
    t.free();
  }
  // Strings split anywhere, too (between CR and LF, inside a field name).
  for (let i = 0; i <= body.length; i++) {
    const t = new ToolCallTracker();
    t.pushSse(body.slice(0, i));
    assert.equal(t.pushSse(body.slice(i)).calls[0].argsText, expected.calls[0].argsText);
    t.free();
  }
});

test("e1_sse_multi_line_data_is_joined_with_lf", () => {
  const t = new ToolCallTracker();
  const s = t.pushSse('data: {"type":"RUN_STARTED",\ndata: "threadId":"t","runId":"r"}\n\n');
  assert.equal(s.run.status, "running");
});

test("subscribe_calls_listeners_with_each_new_snapshot_until_unsubscribed", () => {
  const t = new ToolCallTracker();
  const seen = [];
  const unsubscribe = t.subscribe((s) => seen.push(s));
  const s1 = t.push(runStarted());
  t.push(start("c1", "f"));
  t.push(args("c1", "")); // no change, no call
  unsubscribe();
  t.push(end("c1"));
  assert.equal(seen.length, 2);
  assert.equal(seen[0], s1);
});

test("s5_limits_from_options_mark_the_call_and_keep_going", () => {
  const t = tracker({ limits: { maxArgsBytes: 8 } });
  t.push(start("c1", "f"));
  t.push(args("c1", '{"a":"12'));
  const s = t.push(args("c1", '345"}'));
  assert.equal(s.calls[0].argsError.kind, "limit");
  assert.equal(s.fatal, null);
  assert.equal(s.calls[0].argsText, '{"a":"12');
});

test("s5_a_tool_name_in_the_run_input_longer_than_max_id_bytes_is_fatal_naming_the_field", () => {
  const t = new ToolCallTracker();
  const input = { threadId: "t1", runId: "r1", messages: [], tools: [{ name: "n".repeat(2000), parameters: {} }] };
  assert.throws(
    () => t.push(runStarted("r1", { input })),
    (e) => e.name === "ToolCallStreamError" && e.violation.code === "S5" && /input\.tools\[\]\.name of 2000 bytes exceeds the limit of 1024 \(limits\.maxIdBytes\)/.test(e.message),
  );
  t.free();
});

test("options_with_unknown_keys_are_refused", () => {
  assert.throws(() => new ToolCallTracker({ tool: [] }), /unknown field/);
});

test("t6_complete_args_keep_the_key_order_the_producer_sent", () => {
  const t = tracker();
  t.push(start("c1", "f"));
  const open = t.push(args("c1", '{"zeta":1,"alpha":{"y":2,"b":3},'));
  assert.deepEqual(Object.keys(open.calls[0].partialArgs), ["zeta", "alpha"]);
  t.push(args("c1", '"mid":true}'));
  const done = t.push(end("c1"));
  assert.deepEqual(Object.keys(done.calls[0].args), ["zeta", "alpha", "mid"]);
  assert.deepEqual(Object.keys(done.calls[0].args.alpha), ["y", "b"]);
  assert.ok(Object.isFrozen(done.calls[0].args.alpha));
  assert.equal(done.calls[0].args, done.calls[0].args, "parsed once");
});

test("n1_partial_args_keep_their_identity_while_the_visible_prefix_does_not_move", () => {
  const t = tracker();
  t.push(start("c1", "f"));
  const a = t.push(args("c1", '{"n":1,"m":12'));
  const b = t.push(args("c1", "34")); // still inside the number: nothing new to show
  assert.notEqual(a.calls[0], b.calls[0]);
  assert.deepEqual(a.calls[0].partialArgs, { n: 1 });
  assert.equal(b.calls[0].partialArgs, a.calls[0].partialArgs, "the same frozen value");
  const c = t.push(args("c1", ","));
  assert.deepEqual(c.calls[0].partialArgs, { n: 1, m: 1234 });
  assert.notEqual(c.calls[0].partialArgs, a.calls[0].partialArgs);
});

test("t10_unmatched_results_reach_the_snapshot_and_no_later_call_claims_them", () => {
  const t = tracker();
  const before = t.snapshot();
  assert.deepEqual(before.unmatchedResults, []);
  let s = t.push(result("ghost", "orphan"));
  assert.deepEqual(s.unmatchedResults, [{ toolCallId: "ghost", result: { messageId: "m-ghost", content: "orphan", source: "stream" } }]);
  assert.ok(Object.isFrozen(s.unmatchedResults) && Object.isFrozen(s.unmatchedResults[0].result));
  assert.equal(s.violations.at(-1).code, "T10");
  // Kept as they were, identical, while other things change.
  const first = s.unmatchedResults;
  for (const e of call("ghost", "lookup", ["{}"])) s = t.push(e);
  assert.equal(s.unmatchedResults, first);
  assert.equal(s.calls[0].result, undefined);
  s = t.push(result("other", [{ type: "text", text: "late" }], "m-2"));
  assert.deepEqual(
    s.unmatchedResults.map((u) => [u.toolCallId, u.result.content]),
    [["ghost", "orphan"], ["other", [{ type: "text", text: "late" }]]],
  );
  assert.equal(s.unmatchedResults[0], first[0]);
});

test("f9_a_zero_argument_call_reads_as_an_empty_object", () => {
  const tracker = new ToolCallTracker({ tools: [{ name: "now", parameters: { type: "object", additionalProperties: false } }] });
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  tracker.push({ type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "now" });
  const call = tracker.push({ type: "TOOL_CALL_END", toolCallId: "c1" }).calls[0];
  assert.equal(call.argsText, "");
  assert.deepEqual(call.args, {});
  assert.equal(call.validation, "valid");
  assert.equal(call.argsError, undefined);
  tracker.free();
});
