// The derived lists (openCalls, completedCalls, pendingCalls) are updated in
// place when calls join or leave them, never filtered again over every call:
// a chunked stream opens and closes a call at every chunk, so a filter per
// change made each event cost grow with the thread (rule N1).
import { test } from "node:test";
import assert from "node:assert/strict";
import { derived } from "../../js/snapshot.js";
import { PatchedList } from "../../js/patched-list.js";
import { ToolCallTracker } from "../../pkg/index.js";
import { runStarted, runFinished, start, args, end, call as callEvents, result } from "./support/events.mjs";

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
  const edited = derived(list, members, isOpen, before, after, changed);
  assert.ok(tests <= 2 * changed.length, `${tests} calls tested for ${changed.length} changes`);
  // A list of 400 is edited, not copied, until it is read.
  assert.ok(edited instanceof PatchedList);
  assert.equal(PatchedList.size(edited), 400);
  const next = PatchedList.items(edited);
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

/** What a snapshot shows of its lists: every call's fields that change, each derived list's ids. */
function lists(s) {
  return {
    keys: Object.keys(s),
    calls: s.calls.map((c) => [c.id, c.status, c.argsText, c.result?.content ?? null, c.pending]),
    openCalls: s.openCalls.map((c) => c.id),
    completedCalls: s.completedCalls.map((c) => c.id),
    pendingCalls: s.pendingCalls.map((c) => c.id),
  };
}

/** A long thread, then a seeded mix of starts, deltas, ends and results over it; the run finishes, and the next answers some. */
function longThreadScript(seed) {
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = (list) => list[Math.floor(next() * list.length)];
  const events = [runStarted()];
  for (let i = 0; i < 200; i++) {
    events.push(...callEvents(`p${i}`, "write", ["{}"]));
    if (i % 3 === 0) events.push(result(`p${i}`, "ok"));
  }
  const open = [];
  const unanswered = [];
  for (let step = 0, made = 0; step < 1200; step++) {
    const roll = next();
    if (roll < 0.15 || open.length === 0) {
      const id = `c${made++}`;
      open.push(id);
      events.push(start(id, "write"), args(id, "["));
    } else if (roll < 0.65) events.push(args(pick(open), `${step},`));
    else if (roll < 0.85) {
      const id = open.splice(Math.floor(next() * open.length), 1)[0];
      events.push(args(id, "0]"), end(id));
      unanswered.push(id);
    } else if (unanswered.length) events.push(result(unanswered.splice(Math.floor(next() * unanswered.length), 1)[0], `r${step}`));
  }
  for (const id of open) events.push(args(id, "0]"), end(id));
  events.push(runFinished(), runStarted("r2"));
  for (let i = 0; i < 200; i += 7) events.push(result(`p${i + 1}`, "late"));
  return events;
}

test("n1_a_long_threads_lists_are_edited_and_read_as_plain_ones_whenever_read", () => {
  // The same events into two trackers over a long thread: one reads every
  // list after every event (each list made at once, the next edits over
  // it), the other keeps its snapshots and reads them only at the end, in
  // a shuffled order (edits past the bound, old bases kept). Both show
  // what a filter over the calls would, with the calls' own objects.
  for (const seed of [1, 2, 3]) {
    const events = longThreadScript(seed);
    const eager = new ToolCallTracker();
    const lazy = new ToolCallTracker();
    const seen = [];
    const kept = [];
    for (const event of events) {
      const s = eager.push(event);
      const shown = lists(s);
      const calls = new Set(s.calls);
      for (const [name, keep] of [
        ["openCalls", (c) => c.status === "open"],
        ["completedCalls", (c) => c.status === "complete"],
        ["pendingCalls", (c) => c.pending],
      ]) {
        assert.deepEqual(shown[name], s.calls.filter(keep).map((c) => c.id), `${name} after event ${seen.length}`);
        assert.ok(s[name].every((c) => calls.has(c)), `${name} holds the calls' own states`);
      }
      seen.push(shown);
      kept.push(lazy.push(event));
    }
    assert.ok(seen.at(-1).pendingCalls.length >= 128 && seen.at(-1).completedCalls.length >= 128, "the lists the test is about are long");
    const order = kept.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = (seed * 7919 * i) % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const i of order) {
      const s = kept[i];
      assert.deepEqual(lists(s), seen[i], `seed ${seed}: snapshot ${i} read late`);
      assert.ok(Object.isFrozen(s) && ["calls", "openCalls", "completedCalls", "pendingCalls"].every((k) => Object.isFrozen(s[k])));
      assert.equal(s.calls, s.calls, "the same list each read");
    }
    const last = kept.at(-1);
    assert.equal(typeof Object.getOwnPropertyDescriptor(last, "completedCalls")?.get, "function", "a long list is made when read");
    assert.deepEqual({ ...last }.completedCalls, last.completedCalls, "a spread carries it");
    assert.deepEqual(JSON.parse(JSON.stringify(last)).pendingCalls.length, last.pendingCalls.length);
    assert.equal(structuredClone(last).calls.length, last.calls.length);
    eager.free();
    lazy.free();
  }
});

/** The lengths of the arrays `Object.freeze` froze while `fn` ran. */
function frozenArrays(fn) {
  const original = Object.freeze;
  const lengths = [];
  Object.freeze = function (value) {
    if (Array.isArray(value)) lengths.push(value.length);
    return original(value);
  };
  try {
    fn();
  } finally {
    Object.freeze = original;
  }
  return lengths;
}

test("n1_a_record_in_a_long_thread_copies_no_list_of_every_call", () => {
  // A call started, then ended, beside 300 completed calls: each event
  // changes `calls` and a derived list, which it edits rather than copies
  // (a copy per record made a chunk's cost grow with the thread). The
  // lists are made when read, once.
  const t = new ToolCallTracker();
  t.push(runStarted());
  for (let i = 0; i < 300; i++) for (const event of callEvents(`p${i}`, "write", ["{}"])) t.push(event);
  let started;
  let ended;
  const long = (lengths) => lengths.filter((n) => n >= 128);
  assert.deepEqual(long(frozenArrays(() => (started = t.push(start("c", "write"))))), [], "calls edited");
  assert.deepEqual(long(frozenArrays(() => (ended = t.push(end("c"))))), [], "calls and completedCalls edited");
  for (const key of ["calls", "completedCalls"]) assert.equal(typeof Object.getOwnPropertyDescriptor(ended, key)?.get, "function", key);
  assert.deepEqual(Object.getOwnPropertyDescriptor(ended, "openCalls")?.value, [], "a short list is a plain one");
  assert.deepEqual(frozenArrays(() => ended.completedCalls), [301], "made when read");
  assert.deepEqual(frozenArrays(() => ended.completedCalls), [], "and kept");
  assert.equal(ended.completedCalls[300], ended.calls[300]);
  assert.equal(ended.calls[300].status, "complete");
  assert.equal(started.calls[300].status, "open", "the earlier snapshot keeps its lists");
  assert.equal(started.completedCalls.length, 300);
  t.free();
});
