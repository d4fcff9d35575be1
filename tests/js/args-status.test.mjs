// Per-field status of an open call's arguments (rule T5): a value the text
// has closed is complete, and never changes again while the call streams,
// whatever the split of the deltas and whichever state is read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ToolCallTracker } from "../../pkg/index.js";

const texts = [
  JSON.stringify({ url: "https://example.com/a?b=c", note: 'hé "quoted" 😀', size: 12.5e3, tags: ["a", { deep: [true, null] }], nested: { x: { y: "z" } } }),
  JSON.stringify({ b: [1, 2, [3, [4]]], a: "", c: {} }, null, 1),
  // An integer-like key last in the text comes first in a JS object: the order is the text's.
  '{"b":[1,2],"a":{"k":"x"},"2":{"last":"member"}}',
  JSON.stringify(["top", { level: "array" }, -0.5]),
];

/** Deterministic splits: every size from 1 to 7, with a seeded jitter. */
function splits(text, seed) {
  const deltas = [];
  let i = 0;
  let r = seed;
  while (i < text.length) {
    r = (r * 1103515245 + 12345) % 2147483648;
    const n = 1 + (r % 7);
    deltas.push(text.slice(i, i + n));
    i += n;
  }
  return deltas;
}

/** Every path of `value` (keys and indices), with the value there. */
function paths(value, prefix = [], out = []) {
  if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) {
      const step = Array.isArray(value) ? Number(key) : key;
      out.push([[...prefix, step], value[key]]);
      paths(value[key], [...prefix, step], out);
    }
  }
  return out;
}

const at = (value, path) => path.reduce((v, step) => v?.[step], value);

test("t5_args_status_says_which_fields_are_complete", () => {
  for (const text of texts) {
    const doc = JSON.parse(text);
    for (let seed = 1; seed <= 40; seed++) {
      const tracker = new ToolCallTracker();
      tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
      tracker.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
      const complete = new Map();
      const states = [];
      for (const delta of splits(text, seed)) {
        const call = tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta }).calls[0];
        // Every other state is read late, after the newer ones (the prefix parsed whole).
        if (states.push(call) % 2 === 0) continue;
        const partial = call.partialArgs;
        for (const [key, value] of complete) assert.deepEqual(at(partial, JSON.parse(key)), value, `${key} changed after it was complete (${text})`);
        for (const [path, value] of paths(partial)) {
          const key = JSON.stringify(path);
          if (call.isComplete(path)) complete.set(key, value);
          else assert.ok(!complete.has(key), `${key} was complete, and is not any more`);
        }
        const status = call.argsStatus();
        for (const field of Object.keys(status)) assert.equal(status[field] === "complete", call.isComplete(field), field);
      }
      // The states read late: what they call complete is complete, with the value it keeps.
      for (const older of states.filter((_, i) => i % 2 === 1)) {
        for (const [path, value] of paths(older.partialArgs)) {
          if (older.isComplete(path)) assert.deepEqual(at(doc, path), value, `${JSON.stringify(path)} in a state read late (${text})`);
        }
      }
      const closed = tracker.push({ type: "TOOL_CALL_END", toolCallId: "c" }).calls[0];
      for (const [key, value] of complete) assert.deepEqual(at(closed.args, JSON.parse(key)), value);
      assert.ok(complete.size > 0);
      assert.ok(closed.isComplete(paths(doc)[0][0]));
    }
  }
  // What is not there yet is not complete; a top-level key spelled as a string is a path of one.
  const tracker = new ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  tracker.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
  const call = tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: '{"url":"https://exa' }).calls[0];
  assert.deepEqual(call.argsStatus(), { url: "streaming" });
  assert.equal(call.isComplete("url"), false);
  assert.equal(call.isComplete("missing"), false);
  assert.ok(Object.isFrozen(call.argsStatus()));
});

test("t5_args_status_asked_after_later_reads_matches_the_status_asked_at_once", () => {
  // Each state's partialArgs read as it comes, its status asked only once
  // newer states were read (the builder has moved on), newest first; then
  // the states after that, asked at once. Each must say what a tracker
  // asked at once, at that prefix, says.
  const statusAtOnce = (deltas) => {
    const t = new ToolCallTracker();
    t.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
    t.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
    let call;
    for (const delta of deltas) call = t.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta }).calls[0];
    void call.partialArgs;
    return { status: call.argsStatus(), fields: Object.keys(call.argsStatus()).map((f) => call.isComplete(f)) };
  };
  for (const text of texts) {
    const deltas = splits(text, 7);
    const half = deltas.length >> 1;
    const tracker = new ToolCallTracker();
    tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
    tracker.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
    const states = [];
    for (const delta of deltas.slice(0, half)) {
      const call = tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta }).calls[0];
      void call.partialArgs;
      states.push(call);
    }
    for (let i = states.length - 1; i >= 0; i--) {
      const late = states[i];
      const expected = statusAtOnce(deltas.slice(0, i + 1));
      assert.deepEqual({ status: late.argsStatus(), fields: Object.keys(late.argsStatus()).map((f) => late.isComplete(f)) }, expected, `state ${i} of ${text}, asked late`);
    }
    for (let i = half; i < deltas.length; i++) {
      const call = tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: deltas[i] }).calls[0];
      void call.partialArgs;
      const expected = statusAtOnce(deltas.slice(0, i + 1));
      assert.deepEqual({ status: call.argsStatus(), fields: Object.keys(call.argsStatus()).map((f) => call.isComplete(f)) }, expected, `state ${i} of ${text}, asked at once`);
    }
  }
});
