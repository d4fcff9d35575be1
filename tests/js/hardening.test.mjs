// Listeners that throw (the tracker goes on, operations stay whole), the
// application's own run input (clear refusals), and bounded violations
// (repeats counted, distinct ones capped).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ToolCallTracker, ToolCallStreamError, ToolCallRefusedError, TrackerFreedError } from "../../pkg/full.js";
import { runStarted, call, args, end, sse } from "./support/events.mjs";
import { pendingTracker } from "./support/trackers.mjs";
import { readFileSync } from "node:fs";
import { root } from "./support/paths.mjs";


/** A tracker in a running run, where unknown events are only warnings. */
function running() {
  const t = new ToolCallTracker();
  t.push(runStarted());
  return t;
}

/** Runs `fn` with `globalThis.reportError` recording what it is given. */
function withReportError(fn) {
  const reported = [];
  const saved = Object.getOwnPropertyDescriptor(globalThis, "reportError");
  globalThis.reportError = (e) => reported.push(e);
  try {
    fn(reported);
  } finally {
    if (saved) Object.defineProperty(globalThis, "reportError", saved);
    else delete globalThis.reportError;
  }
  return reported;
}

test("n1_a_throwing_listener_is_reported_and_later_listeners_still_hear", () => {
  const t = running();
  const heard = [];
  const oops = new Error("listener bug");
  t.subscribe(() => {
    throw oops;
  });
  t.subscribe((s) => heard.push(s));
  const reported = withReportError(() => {
    const s = t.push({ type: "UNKNOWN_EVENT" });
    assert.equal(heard.at(-1), s);
  });
  assert.deepEqual(reported, [oops]);
  t.free();
});

test("n1_answer_is_whole_when_a_listener_throws: recorded and reported done, a retry is refused as answered", () => {
  const t = pendingTracker();
  t.subscribe(() => {
    throw new Error("listener bug");
  });
  withReportError((reported) => {
    const s = t.answer("c1", "done");
    assert.equal(s.pendingCalls.length, 0);
    assert.equal(s.calls[0].result.content, "done");
    assert.equal(reported.length, 1);
  });
  assert.equal(t.toolMessages().length, 1);
  assert.throws(() => t.answer("c1", "again"), (e) => e instanceof ToolCallRefusedError && e.kind === "answered");
  t.free();
});

test("n1_a_throwing_listener_does_not_replace_the_tool_call_stream_error", () => {
  const t = pendingTracker();
  t.subscribe(() => {
    throw new Error("listener bug");
  });
  withReportError((reported) => {
    assert.throws(() => t.push(args("nope", "x")), (e) => e instanceof ToolCallStreamError && e.violation.severity === "fatal");
    assert.equal(reported.length, 1);
  });
  t.free();
});

test("without reportError, a listener's error goes to console.error", () => {
  const t = running();
  const oops = new Error("listener bug");
  t.subscribe(() => {
    throw oops;
  });
  const saved = Object.getOwnPropertyDescriptor(globalThis, "reportError");
  delete globalThis.reportError;
  const logged = [];
  const original = console.error;
  console.error = (...a) => logged.push(a);
  try {
    t.push({ type: "UNKNOWN_EVENT" });
  } finally {
    console.error = original;
    if (saved) Object.defineProperty(globalThis, "reportError", saved);
  }
  assert.equal(logged.length, 1);
  assert.equal(logged[0][0], oops);
  t.free();
});

test("a listener's error whose stack getter throws: reporting it does not throw, and later listeners still hear", () => {
  const t = running();
  const nasty = new Error("listener bug");
  Object.defineProperty(nasty, "stack", {
    get() {
      throw new Error("stack getter");
    },
  });
  t.subscribe(() => {
    throw nasty;
  });
  const heard = [];
  t.subscribe((s) => heard.push(s));
  // Node has no reportError: the error goes to the real console.error,
  // which reads `stack`.
  const saved = Object.getOwnPropertyDescriptor(globalThis, "reportError");
  delete globalThis.reportError;
  let s;
  try {
    s = t.push({ type: "UNKNOWN_EVENT" });
  } finally {
    if (saved) Object.defineProperty(globalThis, "reportError", saved);
  }
  assert.deepEqual(heard, [s]);
  // A reportError that throws is survived alike.
  globalThis.reportError = () => {
    throw new Error("reportError bug");
  };
  try {
    s = t.push({ type: "OTHER_UNKNOWN_EVENT" });
  } finally {
    if (saved) Object.defineProperty(globalThis, "reportError", saved);
    else delete globalThis.reportError;
  }
  assert.deepEqual(heard.at(-1), s);
  assert.equal(heard.length, 2);
  t.free();
});

test("onEvent that pushes: every snapshot is told once, the newest last", () => {
  const seen = [];
  const t = new ToolCallTracker({
    onEvent: (e) => {
      if (e.type === "CUSTOM") t.push({ type: "SECOND_UNKNOWN" });
    },
  });
  t.push(runStarted());
  t.subscribe((s) => seen.push(s));
  // Unknown events change the snapshot (a warning each); onEvent never sees
  // them (rule P1), so a known one pushes the second.
  const last = t.pushSse('data: {"type":"FIRST_UNKNOWN"}\n\ndata: {"type":"CUSTOM","name":"n","value":1}\n\n');
  assert.equal(last.violations.length, 2);
  assert.deepEqual(seen, [last], "told once");
  t.free();
});

test("onEvent that frees the tracker is not called again, and the push ends cleanly", () => {
  const seen = [];
  const t = new ToolCallTracker({
    onEvent: (e) => {
      seen.push(e.type);
      if (e.type === "CUSTOM") t.free();
    },
  });
  const two = sse([runStarted(), { type: "CUSTOM", name: "n", value: 1 }, { type: "STEP_STARTED", stepName: "s" }]);
  const reported = withReportError(() => t.pushSse(two));
  assert.deepEqual(seen, ["RUN_STARTED", "CUSTOM"]);
  assert.deepEqual(reported, []);
  assert.throws(() => t.push(runStarted()), (e) => e instanceof TrackerFreedError);
});

test("an onEvent callback that throws is reported like a listener, and the push completes", () => {
  const t = new ToolCallTracker({ onEvent: () => {
    throw new Error("onEvent bug");
  } });
  const reported = withReportError(() => {
    const s = t.push(runStarted());
    assert.equal(s.run.status, "running");
  });
  assert.deepEqual(reported.map((e) => e.message), ["onEvent bug"]);
  t.free();
});

test("a listener that changes the tracker: everyone hears the newest snapshot, never an older one after it", () => {
  const t = running();
  const seen = [];
  t.subscribe((s) => {
    if (s.violations.length === 1) t.push({ type: "SECOND_UNKNOWN" });
  });
  t.subscribe((s) => seen.push(s.version));
  t.push({ type: "FIRST_UNKNOWN" });
  assert.deepEqual(seen, [t.snapshot().version]);
  t.free();
});

test("unsubscribing one of two subscriptions of one function keeps the other", () => {
  const t = running();
  let n = 0;
  const listener = () => n++;
  const off = t.subscribe(listener);
  t.subscribe(listener);
  off();
  t.push({ type: "UNKNOWN_EVENT" });
  assert.equal(n, 1);
  t.free();
});

test("f6_start_run_refuses_what_is_not_a_run_agent_input_naming_the_field", () => {
  const t = pendingTracker();
  t.answer("c1", "done");
  const good = { threadId: "t1", runId: "r2", messages: t.toolMessages() };
  // What cannot cross into wasm is a TypeError, here.
  const unreadable = [
    [undefined, /startRun\(input\) must be an object \(got undefined\)/],
    [null, /startRun\(input\) must be an object \(got null\)/],
    ["input", /must be an object \(got string\)/],
    [[], /must be an object \(got an array\)/],
    [{ ...good, state: 10n }, /startRun\(input\) cannot be read as JSON/],
  ];
  unreadable.forEach(([input, message], i) => {
    assert.throws(() => t.startRun(input), { name: "TypeError", message }, `refusal ${i}`);
  });
  // What does not fit RunAgentInput is the core's to judge: one error class,
  // the field's path as data and in the message.
  const malformed = [
    [{}, "threadId", 'missing field "threadId"'],
    [{ ...good, threadId: 1 }, "threadId", 'field "threadId" must be a string'],
    [{ ...good, runId: undefined }, "runId", 'missing field "runId"'],
    [{ ...good, runId: null }, "runId", 'missing field "runId"'],
    [{ threadId: "t1", runId: "r2" }, "messages", 'missing field "messages"'],
    [{ ...good, messages: {} }, "messages", 'field "messages" must be an array'],
    [{ ...good, messages: [{ role: "user" }] }, "messages[0].id", 'missing field "messages[0].id"'],
    [{ ...good, messages: [{ id: "m", role: 3 }] }, "messages[0].role", 'field "messages[0].role" must be a string'],
    [{ ...good, tools: {} }, "tools", 'field "tools" must be an array'],
    [{ ...good, tools: [{ description: "x" }] }, "tools[0].name", 'missing field "tools[0].name"'],
    [{ ...good, context: "x" }, "context", 'field "context" must be an array'],
    [{ ...good, context: [1] }, "context[0]", 'field "context[0]" must be an object'],
    [{ ...good, parentRunId: 5 }, "parentRunId", 'field "parentRunId" must be a string'],
  ];
  malformed.forEach(([input, path, message], i) => {
    assert.throws(
      () => t.startRun(input),
      (e) => {
        assert.ok(e instanceof ToolCallRefusedError, `refusal ${i}: ${e}`);
        assert.equal(e.kind, "malformedInput", `refusal ${i}`);
        assert.equal(e.path, path, `refusal ${i}`);
        assert.equal(e.message, `the run input is malformed: ${message}`, `refusal ${i}`);
        return true;
      },
    );
  });
  const before = t.snapshot();
  assert.equal(before.run.status, "finished");
  t.startRun(good);
  t.push(runStarted("r2"));
  assert.equal(t.snapshot().run.runId, "r2");
  t.free();
});

test("e3_repeats_of_one_warning_are_one_entry_with_a_count", () => {
  const t = new ToolCallTracker();
  t.push(runStarted());
  for (let i = 0; i < 2000; i++) t.push({ type: "NOT_A_TYPE" });
  t.push({ type: "OTHER_TYPE" });
  const s = t.push({ type: "NOT_A_TYPE" });
  assert.equal(s.violations.length, 2);
  assert.deepEqual(
    s.violations.map((v) => [v.code, v.count, v.eventIndex]),
    [
      ["E3", 2001, 1],
      ["E3", 1, 2001],
    ],
  );
  assert.ok(Object.isFrozen(s.violations[0]));
  assert.equal(s.violations[1], t.snapshot().violations[1], "an entry whose count did not change keeps its identity");
  t.free();
});

test("s5_distinct_violations_are_capped_and_the_rest_counted", () => {
  const t = new ToolCallTracker();
  t.push(runStarted());
  for (let i = 0; i < 1200; i++) t.push({ type: `NOT_A_TYPE_${i}` });
  const s = t.snapshot();
  assert.equal(s.violations.length, 1001);
  const last = s.violations.at(-1);
  assert.equal(last.code, "S5");
  assert.equal(last.count, 200);
  assert.equal(last.eventIndex, 1001);
  // A fatal error is kept whatever the cap.
  assert.throws(() => t.push(end("nope")), ToolCallStreamError);
  assert.equal(t.snapshot().violations.at(-1).severity, "fatal");
  t.free();
});

test("violations of other events keep the list's identity when only calls change", () => {
  const t = new ToolCallTracker();
  t.push(runStarted());
  t.push({ type: "NOT_A_TYPE" });
  const before = t.snapshot().violations;
  for (const e of call("c1", "f", ['{"a":1}'])) t.push(e);
  assert.equal(t.snapshot().violations, before);
  t.free();
});

test("e2_errors_carry_the_event_index_as_data_and_the_docs_example_is_what_js_prints", async () => {
  // docs/limits.md quotes the message of an over-long line at event 1.
  const docs = readFileSync(`${root}/docs/limits.md`, "utf8").replace(/\s+/g, " ");
  const quoted = /`(S5 at event 1: an event-stream line [^`]*)`/.exec(docs)?.[1];
  assert.ok(quoted, "docs/limits.md quotes the error");
  const t = running();
  let thrown;
  try {
    t.pushSse(`data: ${"x".repeat(4 * 1024 * 1024 + 1)}`);
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof ToolCallStreamError, String(thrown));
  assert.equal(thrown.message, quoted);
  assert.equal(thrown.violation.eventIndex, 1);
  // The index is data: the message of the violation does not repeat it.
  assert.ok(!thrown.violation.message.includes("event 1"), thrown.violation.message);
  // A malformed event: the field named in the message, the index beside it.
  const u = running();
  assert.throws(() => u.pushJson('{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":5}'), (e) => {
    assert.equal(e.message, 'E2 at event 1: TOOL_CALL_ARGS: field "delta" must be a string');
    assert.equal(e.violation.eventIndex, 1);
    assert.equal(e.violation.path, "delta");
    return true;
  });
  assert.equal(u.snapshot().fatal.path, "delta");
  // A nested field, a warning's field, and an event out of place (no field).
  const w = running();
  assert.throws(() => w.push({ type: "RUN_STARTED", threadId: "t", runId: "r9", input: { messages: [{ id: "m", role: 1 }] } }));
  assert.equal(w.snapshot().fatal.path, "input.messages[0].role");
  const x = running();
  const warned = x.push({ type: "MYSTERY" }).violations;
  assert.deepEqual(warned.map((v) => [v.code, v.path]), [["E3", "type"]]);
  assert.throws(() => x.push(runStarted("r2")), (e) => e.violation.code === "L2" && !("path" in e.violation));
});

test("e2_refusals_of_the_applications_input_and_saved_thread_carry_the_path", () => {
  const t = new ToolCallTracker();
  assert.throws(
    () => t.restore({ messages: [{ id: "m", role: "assistant", toolCalls: [{ id: "c", function: { name: "f" } }] }] }),
    (e) => e instanceof ToolCallRefusedError && e.kind === "malformedInput" && e.path === "messages[0].toolCalls[0].function.arguments",
  );
  assert.throws(
    () => t.load({ version: 1, interrupts: "x" }),
    (e) => e instanceof ToolCallRefusedError && e.kind === "invalidSaved" && e.path === "saved.interrupts",
  );
  // Not JSON at all: the value as a whole, no path.
  assert.throws(
    () => t.load("{"),
    (e) => e instanceof ToolCallRefusedError && e.kind === "invalidSaved" && !("path" in e),
  );
  t.free();
});
