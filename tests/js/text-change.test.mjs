// The hot path of a delta: text appended to one open call crosses from wasm
// as a header of numbers and the delta's own bytes, read from wasm memory
// (no JSON record). What the snapshot shows must be exactly what a record
// would have said, whatever the text and however the memory moved.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ToolCallTracker } from "../../pkg/index.js";
import { runStarted, start, args, end, call, sse } from "./support/events.mjs";

function streaming(id = "c") {
  const t = new ToolCallTracker();
  t.push(runStarted());
  t.push(start(id, "write"));
  return t;
}

test("t4_appended_text_crosses_byte_exact_bom_non_ascii_long_and_escapes", () => {
  const deltas = ['{"text":"', "\uFEFF", "é", "😀 ok", "x".repeat(40), "\u2028\\n\\\"", "ü".repeat(33), "\ufeffz", '"}'];
  for (const via of ["push", "pushSse"]) {
    const t = streaming();
    let text = "";
    for (const delta of deltas) {
      const event = args("c", delta);
      const s = via === "push" ? t.push(event) : t.pushSse(sse([event]));
      text += delta;
      assert.equal(s.calls[0].argsText, text, `${via}: argsText after ${JSON.stringify(delta)}`);
    }
    const value = JSON.parse(text);
    assert.deepEqual(t.snapshot().calls[0].partialArgs, value, via);
    assert.equal(t.push(end("c")).calls[0].args.text, value.text, via);
    t.free();
  }
});

test("t5_partial_value_follows_each_appended_delta_through_the_header", () => {
  const t = streaming();
  assert.equal(t.push(args("c", '{"a":[1,')).calls[0].partialArgs.a.length, 1);
  assert.deepEqual(t.push(args("c", '2,"b')).calls[0].partialArgs, { a: [1, 2, "b"] });
  assert.deepEqual(t.push(args("c", '",')).calls[0].partialArgs, { a: [1, 2, "b"] });
  // A number is usable once it ends.
  assert.deepEqual(t.push(args("c", "3")).calls[0].partialArgs, { a: [1, 2, "b"] });
  assert.deepEqual(t.push(args("c", " ")).calls[0].partialArgs, { a: [1, 2, "b", 3] });
  t.free();
  // No partial value at all: only whitespace so far.
  const u = streaming();
  const s = u.push(args("c", "  "));
  assert.equal(s.calls[0].argsText, "  ");
  assert.equal(s.calls[0].partialArgs, undefined);
  u.free();
});

test("n1_a_delta_replaces_its_call_in_calls_and_open_calls_only", () => {
  const t = streaming("a");
  t.push(start("b", "write"));
  t.push(args("a", "["));
  const before = t.push(args("b", "["));
  const after = t.push(args("a", "1,"));
  assert.notEqual(after, before);
  assert.equal(after.calls[1], before.calls[1], "the other call keeps its object");
  assert.notEqual(after.calls[0], before.calls[0]);
  assert.deepEqual(after.openCalls, [after.calls[0], after.calls[1]]);
  assert.equal(after.completedCalls, before.completedCalls);
  assert.equal(after.pendingCalls, before.pendingCalls);
  assert.equal(after.run, before.run);
  assert.ok(Object.isFrozen(after) && Object.isFrozen(after.calls) && Object.isFrozen(after.openCalls) && Object.isFrozen(after.calls[0]));
  assert.deepEqual(before.calls[0].partialArgs, [], "an older snapshot keeps its value");
  assert.deepEqual(after.calls[0].partialArgs, [1]);
  t.free();
});

test("s5_appended_text_is_read_right_after_the_wasm_memory_grew", () => {
  // Each 4 MB delta makes the module's memory grow, which detaches every
  // view of the old buffer: the header and the text must still read right.
  const t = new ToolCallTracker({ limits: { maxArgsBytes: 64 << 20, maxEventBytes: 8 << 20 } });
  t.push(runStarted());
  t.push(start("c", "write"));
  t.push(args("c", '{"big":"'));
  let length = 8;
  for (let i = 0; i < 6; i++) {
    const delta = String.fromCharCode(97 + i).repeat(4_000_000 - 64);
    const s = t.pushSse(sse([args("c", delta)]));
    length += delta.length;
    assert.equal(s.calls[0].argsText.length, length);
    assert.equal(s.calls[0].argsText.at(-1), String.fromCharCode(97 + i));
    const small = t.push(args("c", "é"));
    length += 1;
    assert.equal(small.calls[0].argsText.at(-1), "é");
  }
  assert.equal(t.snapshot().calls[0].partialArgs.big.length, length - 8);
  t.free();
});

/** Calls of `Object[name]` while `fn` runs (the engine's own calls included, none expected here). */
function counting(name, fn) {
  const original = Object[name];
  let count = 0;
  Object[name] = function (...rest) {
    count++;
    return original.apply(this, rest);
  };
  try {
    fn();
  } finally {
    Object[name] = original;
  }
  return count;
}

test("n1_a_delta_builds_only_its_call_and_the_lists_it_is_in", () => {
  // The per-delta work of the snapshot layer: the call's next state (one
  // accessor defined, one freeze), `calls`, `openCalls` unless it is
  // `calls` itself (every call open), and the snapshot. Nothing else is
  // copied or frozen again.
  const t = streaming("a");
  t.push(args("a", "["));
  let s;
  assert.equal(counting("freeze", () => (s = t.push(args("a", "1,")))), 3, "call, calls (= openCalls), snapshot");
  assert.equal(s.openCalls, s.calls);
  assert.equal(counting("defineProperty", () => t.push(args("a", "2,"))), 1, "the call's partialArgs");
  t.push(end("a"));
  t.push(start("b", "write"));
  t.push(args("b", "["));
  assert.equal(counting("freeze", () => (s = t.push(args("b", "1,")))), 4, "call, calls, openCalls, snapshot");
  assert.deepEqual(s.openCalls, [s.calls[1]]);
  assert.deepEqual(s.calls[1].partialArgs, [1]);
  t.free();
});

test("t4_short_deltas_of_every_utf8_length_are_read_without_the_decoder", () => {
  // Up to 32 bytes, the appended text is decoded from wasm memory here,
  // not by a TextDecoder call (which costs more than the whole delta).
  const deltas = ['{"t":"', "a", "é", "€", "😀", "aé€😀", "😀".repeat(8), "é".repeat(16), "😀".repeat(8) + "a", '"}'];
  const t = streaming();
  const decode = TextDecoder.prototype.decode;
  let decoded = 0;
  TextDecoder.prototype.decode = function (...rest) {
    decoded += rest[0]?.length ?? 0;
    return decode.apply(this, rest);
  };
  try {
    let text = "";
    for (const delta of deltas) {
      text += delta;
      assert.equal(t.pushSse(sse([args("c", delta)])).calls[0].argsText, text, `after ${JSON.stringify(delta)}`);
    }
    assert.deepEqual(t.snapshot().calls[0].partialArgs, JSON.parse(text));
    t.free();
  } finally {
    TextDecoder.prototype.decode = decode;
  }
  assert.equal(decoded, 33, "only the one delta over 32 bytes went through the decoder");
});

/** A tracker whose thread already holds `count` complete calls, then open calls `ids`. */
function longThread(count, ids) {
  const t = new ToolCallTracker();
  t.push(runStarted());
  for (let i = 0; i < count; i++) for (const event of call(`p${i}`, "write", ["{}"])) t.push(event);
  for (const id of ids) t.push(start(id, "write"));
  return t;
}

test("n1_a_delta_in_a_long_thread_copies_no_list_of_every_call", () => {
  // With hundreds of calls in the thread, copying `calls` was the cost of
  // a delta that grew with the thread: the snapshot after a delta makes
  // `calls` when it is first read, and only then.
  const t = longThread(300, ["c"]);
  t.push(args("c", "["));
  let s;
  assert.equal(counting("freeze", () => (s = t.push(args("c", "1,")))), 3, "call, openCalls, snapshot: no copy of calls");
  const calls = Object.getOwnPropertyDescriptor(s, "calls");
  assert.equal(typeof calls?.get, "function", "calls is made when read");
  assert.equal(calls.enumerable, true);
  assert.equal(counting("freeze", () => s.calls), 1, "made once, on first read");
  assert.equal(counting("freeze", () => s.calls), 0, "and kept");
  assert.equal(s.calls.length, 301);
  assert.equal(s.calls[300], s.openCalls[0]);
  assert.deepEqual(s.calls[300].partialArgs, [1]);
  t.free();
});

test("n1_a_long_threads_delta_snapshots_read_as_plain_ones_in_any_order", () => {
  // Two calls streaming in turn over a long thread, then more calls open
  // than one list patches, and a call started midway (a record between
  // patched snapshots): every snapshot kept shows the calls as they were
  // then, whenever it is read, copies included.
  const ids = Array.from({ length: 20 }, (_, i) => `c${i}`);
  const t = longThread(260, ids);
  const texts = new Map(ids.map((id) => [id, ""]));
  const kept = [];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let step = 0; step < 400; step++) {
    if (step === 200) {
      t.push(start("late", "write"));
      ids.push("late");
      texts.set("late", "");
    }
    // Mostly the first two calls, sometimes any of the others.
    const id = ids[next() < 0.8 ? step % 2 : Math.floor(next() * ids.length)];
    const delta = texts.get(id) === "" ? "[" : `${step},`;
    texts.set(id, texts.get(id) + delta);
    const s = t.push(args(id, delta));
    kept.push({ s, texts: new Map(texts) });
    if (next() < 0.05) assert.equal(s.calls.length, 260 + texts.size, "read now and then while streaming");
  }
  const before = kept[0].s.calls[0];
  for (const { s, texts: then } of kept.reverse()) {
    assert.ok(Object.isFrozen(s) && Object.isFrozen(s.calls));
    assert.equal(s.calls, s.calls, "the same list each read");
    assert.equal(s.calls[0], before, "an earlier call keeps its object");
    assert.equal(s.calls.length, 260 + then.size);
    for (const [i, id] of [...then.keys()].entries()) assert.equal(s.calls[260 + i].argsText, then.get(id));
    assert.deepEqual(s.openCalls, s.calls.slice(260));
    assert.deepEqual(Object.keys(s), Object.keys(t.snapshot()), "the fields in a plain snapshot's order");
  }
  const last = kept[0].s;
  assert.equal({ ...last }.calls, last.calls, "a spread carries calls");
  assert.equal(JSON.parse(JSON.stringify(last)).calls[261].argsText, texts.get("c1"));
  assert.equal(structuredClone(last).calls.length, 281);
  // A record after patched snapshots edits the same lists: every call in place.
  const ended = t.push(end("c0"));
  assert.equal(typeof Object.getOwnPropertyDescriptor(ended, "calls")?.get, "function");
  assert.equal(ended.calls[260].status, "complete");
  assert.equal(ended.completedCalls.at(-1), ended.calls[260]);
  assert.equal(ended.calls[261].argsText, texts.get("c1"));
  assert.deepEqual(ended.openCalls.map((c) => c.id), ids.slice(1));
  assert.equal(ended.calls[280].argsText, texts.get("late"));
  t.free();
});
