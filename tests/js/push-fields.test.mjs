// push(event): a plain TOOL_CALL_ARGS object (the stream's commonest
// event, as @ag-ui/client hands it over, with or without a timestamp, from
// the main agent or a subagent)
// crosses into the core as its fields, without JSON (Tracker::push_args);
// anything else crosses as
// JSON. Either way the tracker reads it as it reads the JSON text
// `JSON.stringify` makes of it: what is read, what is refused, the
// errors, and rule S5's event limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { init, ToolCallTracker } from "../../pkg/index.js";
import { WasmTracker } from "../../pkg/tracker.js";

await init(); // the glue (`WasmTracker`, below) is used directly

const START = [
  { type: "RUN_STARTED", threadId: "t", runId: "r" },
  { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" },
];
const argsOf = (delta, toolCallId = "c1") => ({ type: "TOOL_CALL_ARGS", toolCallId, delta });
/** The same with a timestamp, second as `@ag-ui/core`'s schemas order it. */
const stampedArgsOf = (delta, timestamp, toolCallId = "c1") => ({ type: "TOOL_CALL_ARGS", timestamp, toolCallId, delta });

/** A subagent's, `subagentRunId` after `type`, as the Python encoder writes it. */
const ownedArgsOf = (delta, subagentRunId, toolCallId = "c1") => ({ type: "TOOL_CALL_ARGS", subagentRunId, toolCallId, delta });

/** Counts the core's entry points pushes take, while `fn` runs. */
function crossings(fn) {
  const counts = { feedArgs: 0, feedJson: 0 };
  const saved = {};
  for (const name of Object.keys(counts)) {
    saved[name] = WasmTracker.prototype[name];
    WasmTracker.prototype[name] = function (...args) {
      counts[name]++;
      return saved[name].apply(this, args);
    };
  }
  try {
    fn();
  } finally {
    Object.assign(WasmTracker.prototype, saved);
  }
  return counts;
}

/** What a tracker shows after `events` through `push`, or through `pushJson` of their JSON text, with the error each threw. */
function outcome(events, how, options) {
  const tracker = new ToolCallTracker(options);
  const errors = [];
  for (const event of events) {
    try {
      if (how === "push") tracker.push(event);
      else tracker.pushJson(JSON.stringify(event) ?? "null");
    } catch (error) {
      errors.push(`${error.name}: ${error.message}`);
    }
  }
  const { version, calls, violations, fatal } = tracker.snapshot();
  tracker.free();
  return JSON.stringify({ version, calls, violations, fatal, errors });
}

test("a plain TOOL_CALL_ARGS object crosses as its two strings; other events and shapes as JSON", () => {
  const counts = crossings(() => {
    const tracker = new ToolCallTracker();
    for (const event of START) tracker.push(event);
    tracker.push(argsOf('{"q":'));
    tracker.push(JSON.parse('{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"\\"a"}'));
    tracker.push({ ...argsOf("b"), timestamp: 1 }); // a timestamp, but last
    tracker.push(stampedArgsOf("c", 1764518800198));
    tracker.push(stampedArgsOf("d", -1)); // a safe integer, but negative (rule P3)
    tracker.push(argsOf("\ud83d")); // a lone half: JSON keeps it for its pair (rule T4)
    assert.equal(tracker.push(argsOf('\ude00"}')).calls[0].partialArgs.q, "abcd\u{1F600}");
    // A subagent's, its subagentRunId after the timestamp (the Python encoder's order).
    const sub = new ToolCallTracker();
    sub.push(START[0]);
    sub.push({ type: "TOOL_CALL_START", subagentRunId: "s1", toolCallId: "c2", toolCallName: "search" });
    sub.push(ownedArgsOf('{"q":', "s1", "c2"));
    sub.push({ type: "TOOL_CALL_ARGS", timestamp: 5, subagentRunId: "s1", toolCallId: "c2", delta: '"x"' });
    const last = sub.push({ type: "TOOL_CALL_ARGS", toolCallId: "c2", subagentRunId: "s1", delta: "}" }); // another order
    assert.deepEqual([last.calls[0].partialArgs, last.calls[0].subagentRunId, last.fatal], [{ q: "x" }, "s1", null]);
  });
  assert.deepEqual(counts, { feedArgs: 5, feedJson: 9 });
});

test("push(event) reads every shape as pushJson reads its JSON text", () => {
  class Args {
    constructor(delta) {
      Object.assign(this, argsOf(delta));
    }
  }
  const getter = { type: "TOOL_CALL_ARGS", toolCallId: "c1", get delta() { return "[1"; } };
  const proxy = new Proxy(argsOf("2,"), {});
  const nullProto = Object.assign(Object.create(null), argsOf("3"));
  const withToJSON = { ...argsOf("x"), toJSON: () => argsOf("4") };
  const shapes = [
    argsOf('{"a":"caf\u00e9 \\"q\\" \\\\ \n\t\u0001\u007f\u2028\u{1F600}"'),
    argsOf(""),
    { delta: "5", toolCallId: "c1", type: "TOOL_CALL_ARGS" },
    argsOf("6", "unknown"),
    argsOf(7),
    { type: "TOOL_CALL_ARGS", toolCallId: "c1" },
    { ...argsOf("8"), rawEvent: { any: 1 } },
    new Args("9"),
    getter,
    proxy,
    nullProto,
    withToJSON,
    argsOf("\udc00 lone"),
    stampedArgsOf("10", 0),
    stampedArgsOf("11", 2 ** 53 - 1),
    stampedArgsOf("12", 2 ** 53),
    stampedArgsOf("13", -1),
    stampedArgsOf("14", -0),
    stampedArgsOf("15", NaN),
    stampedArgsOf("16", "1764518800198"),
    stampedArgsOf("17", null),
    { type: "TOOL_CALL_ARGS", toolCallId: "c1", timestamp: 18, delta: "18" },
    { ...argsOf("19"), subagentRunId: "" },
    { ...argsOf("20"), subagentRunId: "s1" },
    { ...argsOf("21"), timestamp: undefined },
    argsOf(',"z":0}'),
    { type: "TOOL_CALL_END", toolCallId: "c1" },
    argsOf("after the end"),
  ];
  const events = [...START, ...shapes];
  assert.equal(outcome(events, "push"), outcome(events, "pushJson"));
  // A subagent's call: its deltas, and every other owner's or spelling.
  const owned = [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "TOOL_CALL_START", subagentRunId: "s1", toolCallId: "c1", toolCallName: "search" },
    ownedArgsOf('{"a":', "s1"),
    { type: "TOOL_CALL_ARGS", timestamp: 9, subagentRunId: "s1", toolCallId: "c1", delta: "1" },
    { type: "TOOL_CALL_ARGS", subagentRunId: "s1", timestamp: 9, toolCallId: "c1", delta: "" },
    ownedArgsOf("\ud83d", "s1"),
    ownedArgsOf("\ude00", "s1"),
    ownedArgsOf("}", "s1"),
  ];
  assert.equal(outcome(owned, "push"), outcome(owned, "pushJson"));
  for (const shape of [ownedArgsOf("x", "s2"), ownedArgsOf("x", ""), ownedArgsOf("x", null), ownedArgsOf("x", "\ud800"), ownedArgsOf("x", 3), argsOf("x")]) {
    const alone = [...owned.slice(0, 3), shape];
    assert.equal(outcome(alone, "push"), outcome(alone, "pushJson"), JSON.stringify(shape));
  }
  // Each shape on its own too: in the sequence, the first fatal one
  // (a delta that is not a string) leaves the later ones nothing to show.
  for (const shape of shapes) {
    const alone = [...START, shape];
    assert.equal(outcome(alone, "push"), outcome(alone, "pushJson"), JSON.stringify(shape) ?? String(shape));
  }
});

test("s5_push_of_a_plain_args_object_meets_the_event_limit_at_its_json_text_s_length", () => {
  const deltas = ["x".repeat(40), "\u0001".repeat(8), "\u00e9\u{1F600}".repeat(5), '"\\'.repeat(10)];
  const events = deltas.flatMap((delta) => [argsOf(delta), stampedArgsOf(delta, 7), stampedArgsOf(delta, 1764518800198), ownedArgsOf(delta, "s\"1")]);
  for (const event of events) {
    const length = new TextEncoder().encode(JSON.stringify(event)).length;
    const counts = crossings(() => {
      for (const maxEventBytes of [length - 1, length, length + 1]) {
        const options = { limits: { maxEventBytes } };
        // The setup's events are shorter than the limit.
        const from = event.subagentRunId === undefined ? {} : { subagentRunId: event.subagentRunId };
        const all = [{ type: "RUN_STARTED", threadId: "t", runId: "r" }, { type: "TOOL_CALL_START", ...from, toolCallId: "c1", toolCallName: "s" }, event];
        const pushed = outcome(all, "push", options);
        assert.equal(pushed, outcome(all, "pushJson", options), `${JSON.stringify(event)} at ${maxEventBytes}`);
        assert.equal(pushed.includes('"code":"S5"'), maxEventBytes < length, `${JSON.stringify(event)} at ${maxEventBytes}`);
      }
    });
    // Each limit's `push` took the path without JSON.
    assert.equal(counts.feedArgs, 3, JSON.stringify(event));
  }
});

test("t1_a_calls_id_crosses_with_its_first_delta_in_a_row_and_interleaved_deltas_reach_their_own_calls", () => {
  const ids = [];
  const feedArgs = WasmTracker.prototype.feedArgs;
  WasmTracker.prototype.feedArgs = function (id, ...rest) {
    ids.push(id);
    return feedArgs.call(this, id, ...rest);
  };
  const events = [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" },
    { type: "TOOL_CALL_START", toolCallId: "c2", toolCallName: "search" },
    { type: "TOOL_CALL_START", toolCallId: "", toolCallName: "search" },
    argsOf('{"a":', "c1"),
    argsOf("1", "c1"),
    argsOf('{"b":', "c2"),
    argsOf(",", "c1"),
    { ...argsOf("2", "c2"), rawEvent: {} }, // as JSON: the id the core holds stays c1's
    argsOf('"c":3}', "c1"),
    argsOf("}", "c2"),
    argsOf("[0]", ""), // an empty id crosses as JSON, and reaches its call
    argsOf("", "c2"),
  ];
  try {
    const tracker = new ToolCallTracker();
    let snapshot;
    for (const event of events) snapshot = tracker.push(event);
    assert.deepEqual(
      snapshot.calls.map((c) => [c.id, c.argsText]),
      [["c1", '{"a":1,"c":3}'], ["c2", '{"b":2}'], ["", "[0]"]],
    );
    // Sent when it changes from the last delta's that crossed as fields; "" for the same.
    assert.deepEqual(ids, ["c1", "", "c2", "c1", "", "c2", ""]);
    tracker.free();
    // A new tracker's core holds no id: its first delta sends one.
    ids.length = 0;
    const next = new ToolCallTracker();
    for (const event of events.slice(0, 2)) next.push(event);
    next.push(argsOf("[", "c1"));
    assert.deepEqual(ids, ["c1"]);
    next.free();
  } finally {
    WasmTracker.prototype.feedArgs = feedArgs;
  }
  assert.equal(outcome(events, "push"), outcome(events, "pushJson"));
});

test("t1_a_subagent_calls_id_and_owner_cross_with_its_first_delta_in_a_row_and_again_when_either_changes", () => {
  // The id and the `subagentRunId` cross together, when either changes:
  // `""` (and no owner) stands for both of the last delta that sent them.
  const sent = [];
  const feedArgs = WasmTracker.prototype.feedArgs;
  WasmTracker.prototype.feedArgs = function (id, delta, timestamp, owner) {
    sent.push([id, owner]);
    return feedArgs.call(this, id, delta, timestamp, owner);
  };
  const events = [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "one" },
    { type: "SUBAGENT_STARTED", subagentRunId: "s2", name: "two" },
    { type: "TOOL_CALL_START", subagentRunId: "s1", toolCallId: "c1", toolCallName: "search" },
    { type: "TOOL_CALL_START", toolCallId: "c2", toolCallName: "search" },
    ownedArgsOf('{"a":', "s1", "c1"),
    ownedArgsOf("1", "s1", "c1"),
    argsOf('{"b":', "c2"),
    ownedArgsOf(",", "s1", "c1"),
    ownedArgsOf('"c":', "s1", "c1"),
    ownedArgsOf("2", "s2", "c1"), // another owner for c1: sent again, and refused as the JSON way refuses it
    argsOf("3}", "c1"), // no owner after one: sent again
    argsOf("}", "c2"),
  ];
  try {
    const tracker = new ToolCallTracker();
    for (const event of events) {
      try {
        tracker.push(event);
      } catch {}
    }
    tracker.free();
  } finally {
    WasmTracker.prototype.feedArgs = feedArgs;
  }
  assert.deepEqual(sent, [
    ["c1", "s1"],
    ["", undefined],
    ["c2", undefined],
    ["c1", "s1"],
    ["", undefined],
    ["c1", "s2"],
    ["c1", undefined],
    ["c2", undefined],
  ]);
  assert.equal(outcome(events, "push"), outcome(events, "pushJson"));
});
