// The subagent tree in snapshots (rule A8): each announced subagent with
// its parent call or subagent, its status and the ids of its calls, built
// incrementally from the change records.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ToolCallTracker } from "../../pkg/index.js";
import { reference } from "./support/reference.mjs";

const start = (id, name, owner) => ({ type: "TOOL_CALL_START", toolCallId: id, toolCallName: name, ...(owner ? { subagentRunId: owner } : {}) });
const end = (id) => ({ type: "TOOL_CALL_END", toolCallId: id });

test("a8_the_snapshot_lists_subagents_with_their_calls", () => {
  const tracker = new ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r1" });
  // A call streamed under s1 before s1 is announced (a producer bug, A10) is found once it is.
  tracker.push(start("early", "f", "s1"));
  tracker.push(end("early"));
  tracker.push(start("c1", "research"));
  tracker.push(end("c1"));
  let s = tracker.push({ type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "researcher", description: "finds", parentToolCallId: "c1", parentMessageId: "m1" });
  assert.deepEqual(s.subagents, [
    { subagentRunId: "s1", name: "researcher", status: "running", description: "finds", parentToolCallId: "c1", parentMessageId: "m1", interruptIds: [], callIds: ["early"] },
  ]);
  const s1 = s.subagents[0];
  assert.ok(Object.isFrozen(s.subagents) && Object.isFrozen(s1) && Object.isFrozen(s1.callIds));
  // A delta to the parent agent's call leaves the subagents alone.
  tracker.push(start("p", "plan"));
  s = tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "p", delta: "{" });
  assert.equal(s.subagents[0], s1, "an unchanged subagent keeps its object");
  s = tracker.push(start("c2", "delegate", "s1"));
  assert.deepEqual(s.subagents[0].callIds, ["early", "c2"]);
  tracker.push(end("c2"));
  tracker.push({ type: "SUBAGENT_STARTED", subagentRunId: "s2", name: "reader", parentToolCallId: "c2", parentSubagentRunId: "s1" });
  tracker.push(start("c3", "confirm", "s2"));
  tracker.push(end("c3"));
  tracker.push(end("p"));
  tracker.push({ type: "SUBAGENT_FINISHED", subagentRunId: "s2", outcome: { type: "suspended", interruptIds: ["i1"] } });
  s = tracker.push({ type: "SUBAGENT_ERROR", subagentRunId: "s1", message: "boom", code: "E1" });
  assert.deepEqual(
    s.subagents.map(({ subagentRunId, status, parentSubagentRunId, interruptIds, error, code, callIds }) => ({ subagentRunId, status, parentSubagentRunId, interruptIds, error, code, callIds })),
    [
      { subagentRunId: "s1", status: "errored", parentSubagentRunId: undefined, interruptIds: [], error: "boom", code: "E1", callIds: ["early", "c2"] },
      { subagentRunId: "s2", status: "suspended", parentSubagentRunId: "s1", interruptIds: ["i1"], error: undefined, code: undefined, callIds: ["c3"] },
    ],
  );
  // A second announcement in the same run is fatal (A9); the snapshot before it stays.
  assert.throws(() => tracker.push({ type: "SUBAGENT_STARTED", subagentRunId: "s2", name: "again" }), (e) => e.violation.code === "A9");
  assert.equal(tracker.snapshot().subagents[1].name, "reader");
});

test("a8_a_subagent_running_when_the_run_errors_is_abandoned", () => {
  const tracker = new ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r1" });
  tracker.push({ type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "a" });
  const s = tracker.push({ type: "RUN_ERROR", message: "down" });
  assert.equal(s.subagents[0].status, "abandoned");
  assert.deepEqual(s.violations, []);
});

test("a9_a_broken_lifecycle_is_fatal_where_the_reference_client_stops", async () => {
  const rs = { type: "RUN_STARTED", threadId: "t", runId: "r" };
  const rf = { type: "RUN_FINISHED", threadId: "t", runId: "r" };
  const st = (id, extra = {}) => ({ type: "SUBAGENT_STARTED", subagentRunId: id, name: "a", ...extra });
  const fin = (id, extra = {}) => ({ type: "SUBAGENT_FINISHED", subagentRunId: id, ...extra });
  const call = (id, owner) => ({ type: "TOOL_CALL_START", toolCallId: id, toolCallName: "f", subagentRunId: owner });
  const cases = {
    "announced twice": [[rs, st("s1"), st("s1")], "A9"],
    "reused after it finished": [[rs, st("s1"), fin("s1"), st("s1")], "A9"],
    "run finished with one running": [[rs, st("s1"), rf], "A9"],
    "parent not announced": [[rs, st("s2", { parentSubagentRunId: "s1" })], "A9"],
    "finished twice": [[rs, st("s1"), fin("s1"), fin("s1")], "A9"],
    "error of one never announced": [[rs, { type: "SUBAGENT_ERROR", subagentRunId: "s9", message: "m" }], "A9"],
    "no name": [[rs, { type: "SUBAGENT_STARTED", subagentRunId: "s1" }], "E2"],
    "error without message": [[rs, st("s1"), { type: "SUBAGENT_ERROR", subagentRunId: "s1" }], "E2"],
    "parent call never seen": [[rs, st("s1", { parentToolCallId: "nope" }), fin("s1"), rf], null],
    "a call under an ended one": [[rs, st("s1"), fin("s1"), call("c", "s1"), { type: "TOOL_CALL_END", toolCallId: "c" }, rf], null],
    "a call of one never announced": [[rs, call("c", "s7"), { type: "TOOL_CALL_END", toolCallId: "c" }, rf], null],
    "suspended, continued next run": [[rs, st("s1"), fin("s1", { outcome: { type: "suspended" } }), rf, { ...rs, runId: "r2" }, st("s1")], null],
  };
  for (const [name, [events, fatal]] of Object.entries(cases)) {
    const tracker = new ToolCallTracker();
    let ours = null;
    try {
      for (const e of events) tracker.push(e);
    } catch (error) {
      ours = error.violation.code;
    }
    const theirs = await reference(events);
    assert.equal(ours, fatal, name);
    assert.equal(theirs.error !== undefined, fatal !== null, `${name}: the reference client ${theirs.error ? "stops" : "goes on"}`);
  }
});

test("a10_a_late_announcement_is_a_warning_and_takes_in_the_calls_before_it", async () => {
  const events = [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    start("early", "f", "s1"),
    end("early"),
    { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "a" },
    start("c2", "f", "s1"),
    end("c2"),
    { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
    { type: "RUN_FINISHED", threadId: "t", runId: "r" },
  ];
  const tracker = new ToolCallTracker();
  let s;
  for (const e of events) s = tracker.push(e);
  // (F7 warns of the two calls left unanswered.)
  const mine = s.violations.filter((v) => v.code !== "F7");
  assert.deepEqual(mine.map((v) => [v.code, v.severity]), [["A10", "warning"]]);
  assert.match(mine[0].message, /"s1" announced after/);
  assert.deepEqual(s.subagents[0].callIds, ["early", "c2"]);
  // The reference client goes on: a warning, not a stop.
  assert.equal((await reference(events)).error, undefined);
});

test("a8_a_finished_subagent_shows_its_result_as_given_and_frozen", () => {
  const tracker = new ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  tracker.push({ type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "a" });
  tracker.push({ type: "SUBAGENT_STARTED", subagentRunId: "s2", name: "b" });
  let s = tracker.push({ type: "SUBAGENT_FINISHED", subagentRunId: "s2" });
  assert.equal("result" in s.subagents[1], false);
  const result = { found: [{ title: "x", score: 0.5 }], note: null };
  s = tracker.pushJson(JSON.stringify({ type: "SUBAGENT_FINISHED", subagentRunId: "s1", result }));
  assert.deepEqual(s.subagents[0].result, result);
  assert.ok(Object.isFrozen(s.subagents[0].result) && Object.isFrozen(s.subagents[0].result.found[0]));
  assert.deepEqual(s.violations, []);
});
