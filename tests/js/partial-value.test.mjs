// The incremental partial value (js/partial-value.js) against the plain
// definition, `JSON.parse(argsText.slice(0, cut) + suffix)` with the core's
// own cut and suffix, after every delta of random documents split at random
// (rules T5, N1).
import { test } from "node:test";
import assert from "node:assert/strict";
import { init, ToolCallTracker } from "../../pkg/index.js";
import { WasmTracker } from "../../pkg/tracker.js";
import { PartialValueBuilder } from "../../js/partial-value.js";

await init(); // the glue (`WasmTracker`, below) is used directly

/** A small seeded generator, so a failure can be replayed. */
function random(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const STRING_PIECES = ["a", "héllo", " ", "\\n", '\\"', "\\\\", "\\u00e9", "\\ud83d\\ude00", "😀", "/", "\\t", "{", "]", ","];

/** JSON text of a random document, with random whitespace and escapes. */
function documentText(rand, depth = 0) {
  const ws = () => [" ", "", "\n  ", "\t"][Math.floor(rand() * 4)];
  const str = () => `"${Array.from({ length: Math.floor(rand() * 6) }, () => STRING_PIECES[Math.floor(rand() * STRING_PIECES.length)]).join("")}"`;
  const pick = rand();
  if (depth < 4 && pick < 0.3) {
    const keys = ["a", "b", "long key", "__proto__", "é", "a"];
    const members = Array.from({ length: Math.floor(rand() * 5) }, () => `${ws()}${JSON.stringify(keys[Math.floor(rand() * keys.length)])}${ws()}:${ws()}${documentText(rand, depth + 1)}`);
    return `{${members.join(",")}${ws()}}`;
  }
  if (depth < 4 && pick < 0.5) {
    return `[${Array.from({ length: Math.floor(rand() * 5) }, () => ws() + documentText(rand, depth + 1)).join(",")}${ws()}]`;
  }
  if (pick < 0.75) return str();
  if (pick < 0.9) return ["0", "-1", "12.5", "1e3", "-0.25E-2", "123456789"][Math.floor(rand() * 6)];
  return ["true", "false", "null"][Math.floor(rand() * 3)];
}

/** Splits at code-point boundaries into deltas of 0 to `max` code points. */
function split(rand, text, max) {
  const points = Array.from(text);
  const out = [];
  for (let i = 0; i < points.length; ) {
    const n = Math.floor(rand() * (max + 1));
    out.push(points.slice(i, i + n).join(""));
    i += n;
  }
  return out;
}

/** The core's cut and suffix after each delta, read from its change records. */
function oracle(deltas) {
  const core = new WasmTracker("{}");
  core.feedJson('{"type":"RUN_STARTED","threadId":"t","runId":"r"}');
  core.feedJson('{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}');
  core.takeChange(true);
  let text = "";
  let partial;
  const expected = deltas.map((delta) => {
    core.feedJson(JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta }));
    core.takeChange(true);
    const record = JSON.parse(core.takeRecord());
    text += delta;
    if (record.calls.length) partial = record.calls[0].partial;
    return partial === undefined ? undefined : JSON.parse(text.slice(0, partial.cut) + partial.suffix);
  });
  core.free();
  return expected;
}

function tracked(deltas) {
  const tracker = new ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  tracker.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
  return { tracker, states: deltas.map((delta) => tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta }).calls[0]) };
}

test("t5_incremental_partial_values_equal_the_parse_of_the_cut_prefix_after_every_delta", () => {
  for (let seed = 1; seed <= 400; seed++) {
    const rand = random(seed);
    const text = documentText(rand);
    const deltas = split(rand, text, [1, 3, 9][seed % 3]);
    const expected = oracle(deltas);
    const { tracker, states } = tracked(deltas);
    states.forEach((state, i) => assert.deepEqual(state.partialArgs, expected[i], `seed ${seed}, delta ${i}`));
    tracker.free();
  }
});

test("t5_states_read_out_of_order_or_sparsely_give_the_same_values", () => {
  for (let seed = 401; seed <= 520; seed++) {
    const rand = random(seed);
    const deltas = split(rand, documentText(rand), 4);
    const expected = oracle(deltas);
    const { tracker, states } = tracked(deltas);
    // Every third state first, then all of them backwards (older ones after newer).
    for (let i = 0; i < states.length; i += 3) assert.deepEqual(states[i].partialArgs, expected[i], `seed ${seed}, sparse ${i}`);
    for (let i = states.length - 1; i >= 0; i--) assert.deepEqual(states[i].partialArgs, expected[i], `seed ${seed}, back ${i}`);
    tracker.free();
  }
});

test("t5_values_read_while_the_call_streams_made_up_front_or_when_read_give_the_same_values", () => {
  // Read as a card reads (after every delta, now and then, rarely), so
  // that states after a read make their value up front and others wait
  // for a read; then every state again, in a random order.
  const plain = (state) => "value" in Object.getOwnPropertyDescriptor(state, "partialArgs");
  let madeUpFront = 0;
  for (let seed = 521; seed <= 700; seed++) {
    const rand = random(seed);
    const deltas = split(rand, documentText(rand), [1, 3, 9][seed % 3]);
    const expected = oracle(deltas);
    const readNow = [1, 0.5, 0.1][Math.floor(seed / 3) % 3];
    const tracker = new ToolCallTracker();
    tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
    tracker.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
    const states = deltas.map((delta, i) => {
      const state = tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta }).calls[0];
      if (plain(state)) madeUpFront++;
      if (rand() < readNow) assert.deepEqual(state.partialArgs, expected[i], `seed ${seed}, delta ${i}, read now`);
      return state;
    });
    const order = states.map((_, i) => i).sort(() => rand() - 0.5);
    for (const i of order) {
      assert.deepEqual(states[i].partialArgs, expected[i], `seed ${seed}, delta ${i}, read later`);
      assert.ok(Object.isFrozen(states[i]));
    }
    tracker.free();
  }
  assert.ok(madeUpFront > 1000, `states that made their value up front: ${madeUpFront}`);
});

test("t7_a_reopened_call_starts_its_partial_value_again_on_the_whole_text", () => {
  const tracker = new ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  tracker.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
  tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: '{"a":[1,' });
  tracker.push({ type: "TOOL_CALL_END", toolCallId: "c" });
  tracker.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
  const s = tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: '2],"b":"x' });
  assert.deepEqual(s.calls[0].partialArgs, { a: [1, 2], b: "x" });
});

test("t5_partial_values_share_their_complete_parts_between_states", () => {
  const { states } = tracked(['{"done":{"x":[1,2]},', '"growing":"ab', "cd"]);
  const [, first, second] = states;
  assert.deepEqual(first.partialArgs, { done: { x: [1, 2] }, growing: "ab" });
  assert.deepEqual(second.partialArgs, { done: { x: [1, 2] }, growing: "abcd" });
  assert.equal(second.partialArgs.done, first.partialArgs.done, "a complete member is the same frozen object");
  assert.ok(Object.isFrozen(second.partialArgs) && Object.isFrozen(second.partialArgs.done.x));
});

/**
 * JSON text of a random document built to stress the builder's fast paths:
 * wide and nested arrays (an open array's spare slot), long strings with and
 * without escapes (sliced, or parsed when escaped), keys with escapes, and
 * `__proto__` among the keys of open objects. Keys are distinct within an
 * object, so the member in progress is always the last one.
 */
function wideText(rand, depth = 0) {
  const ws = () => ["", "", " ", "\n\t"][Math.floor(rand() * 4)];
  const piece = () => STRING_PIECES[Math.floor(rand() * STRING_PIECES.length)];
  const str = () => `"${Array.from({ length: Math.floor(rand() * 12) }, () => (rand() < 0.7 ? "plain text " : piece())).join("")}"`;
  const pick = rand();
  if (depth < 3 && pick < 0.35) {
    const keys = ["a", "__proto__", "k\\u00e9y", 'q\\"k', "", "long key with spaces"].filter(() => rand() < 0.6);
    return `{${keys.map((k) => `${ws()}"${k}"${ws()}:${ws()}${wideText(rand, depth + 1)}`).join(",")}${ws()}}`;
  }
  if (depth < 3 && pick < 0.6) {
    return `[${Array.from({ length: Math.floor(rand() * [30, 6, 4][depth]) }, () => ws() + wideText(rand, depth + 1)).join(",")}${ws()}]`;
  }
  if (pick < 0.8) return str();
  return ["0", "-12.5e-3", "true", "false", "null", "[]", "{}"][Math.floor(rand() * 7)];
}

/** Every object and array in `value` is frozen. */
function deepFrozen(value) {
  if (value === null || typeof value !== "object") return true;
  return Object.isFrozen(value) && Object.values(value).every(deepFrozen);
}

/**
 * Complete parts are shared: every element of `before`'s arrays but the
 * last, and every member of its objects but the last, is in `after` as the
 * same object (only the last one can have been in progress).
 */
function assertShared(before, after, where) {
  if (before === null || typeof before !== "object") return;
  const keys = Object.keys(before);
  keys.forEach((key, i) => {
    if (i < keys.length - 1 && before[key] !== null && typeof before[key] === "object") {
      assert.equal(after[key], before[key], `${where}: ${JSON.stringify(key)} is shared`);
    }
  });
  if (keys.length) assertShared(before[keys.at(-1)], after[keys.at(-1)], where);
}

test("t5_builder_reads_agree_with_the_parse_of_the_prefix_key_order_sharing_and_freezing_included", () => {
  for (let seed = 1; seed <= 120; seed++) {
    const rand = random(seed * 7919);
    let text = wideText(rand);
    while (text.length > 2000) text = wideText(rand);
    const deltas = split(rand, text, [1, 4, 16][seed % 3]);
    const core = new WasmTracker("{}");
    core.feedJson('{"type":"RUN_STARTED","threadId":"t","runId":"r"}');
    core.feedJson('{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}');
    core.takeChange(true);
    const builder = new PartialValueBuilder();
    let received = "";
    let partial;
    let before;
    deltas.forEach((delta, i) => {
      core.feedJson(JSON.stringify({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta }));
      core.takeChange(true);
      const record = JSON.parse(core.takeRecord());
      if (record.calls.length) partial = record.calls[0].partial;
      received += delta;
      builder.feed(delta);
      // Read after most deltas, not all: some reads take several deltas' text at once.
      if (partial === undefined || partial.cut === builder.position || rand() < 0.3) return;
      const where = `seed ${seed}, delta ${i}`;
      const value = builder.valueAt(partial.cut);
      const expected = JSON.parse(received.slice(0, partial.cut) + partial.suffix);
      assert.deepEqual(value, expected, where);
      assert.equal(JSON.stringify(value), JSON.stringify(expected), `${where}: the same keys in the same order`);
      assert.ok(deepFrozen(value), `${where}: frozen`);
      assertShared(before, value, where);
      before = value;
    });
    core.free();
  }
});

/**
 * Reads after every delta of `count` elements or members streamed one per
 * delta into `{"items":[` or `{"items":{`: each read's value, and how many
 * distinct values were made (each one a copy of the open containers).
 */
function wideReads(kind, count) {
  const builder = new PartialValueBuilder();
  const element = (i) => (kind === "array" ? `${i ? "," : ""}${i}` : `${i ? "," : ""}"k${i}":${i}`);
  let text = kind === "array" ? '{"items":[' : '{"items":{';
  builder.feed(text);
  const reads = [];
  for (let i = 0; i < count; i++) {
    const delta = element(i);
    builder.feed(delta);
    text += delta;
    reads.push(builder.valueAt(text.length));
  }
  return { builder, text, reads, made: new Set(reads).size };
}

/**
 * Reads share one value until a copy pays for itself, and nothing changes
 * a value between two reads of it: its width, and whether it is an
 * earlier cut, are found once per distinct value (for each of 20,000
 * reads, up to 20,000 wide, that work is quadratic: over a minute, in
 * Node and again in Chromium).
 */
const widths = new WeakMap();
function width(value) {
  if (!widths.has(value)) widths.set(value, Object.keys(value.items).length);
  return widths.get(value);
}

/** `check(value)`, once per distinct value (see `width`). */
function oncePerValue(check) {
  const checked = new Set();
  return (value) => {
    if (checked.has(value)) return;
    check(value);
    checked.add(value);
  };
}

test("t5_reading_a_wide_open_array_after_every_delta_copies_it_a_bounded_number_of_times_and_shows_an_earlier_prefix", () => {
  const count = 20000;
  const { builder, text, reads, made } = wideReads("array", count);
  const isAnEarlierCut = oncePerValue((value) => {
    assert.deepEqual(value, { items: Array.from({ length: width(value) }, (_, k) => k) }, `${width(value)} elements: the value of an earlier cut`);
  });
  // Exact while the array is at most 4,096 wide; past it, a copy only
  // once the text read since the last one pays for it (8 elements a unit).
  reads.forEach((value, i) => {
    if (i < 4096) assert.equal(width(value), i + 1, `read ${i} is exact`);
    const shown = width(value);
    isAnEarlierCut(value);
    assert.ok(i + 1 - shown <= (i + 1) / 8, `read ${i}: ${shown} of ${i + 1} elements shown`);
    if (i > 0) assert.ok(shown >= width(reads[i - 1]), `read ${i} never shrinks`);
    assert.ok(Object.isFrozen(value) && Object.isFrozen(value.items));
  });
  // Read after every delta, each value made anew would copy the array 20,000 times.
  assert.ok(made < 4096 + 200, `${made} values made for ${count} reads`);
  // The value made first is unchanged by everything made since.
  assert.deepEqual(reads[0], { items: [0] });
  // Closed, the value is whole again.
  builder.feed("]}");
  assert.deepEqual(builder.valueAt(text.length + 2), JSON.parse(`${text}]}`));
});

test("t5_reading_a_wide_open_object_after_every_delta_copies_it_a_bounded_number_of_times_and_shows_an_earlier_prefix", () => {
  const count = 8000;
  const { builder, text, reads, made } = wideReads("object", count);
  const isAnEarlierCut = oncePerValue((value) => {
    const next = text.indexOf(`,"k${width(value)}":`);
    assert.deepEqual(value, JSON.parse(`${next < 0 ? text : text.slice(0, next)}}}`), `${width(value)} members: the value of an earlier cut`);
  });
  reads.forEach((value, i) => {
    if (i < 512) assert.equal(width(value), i + 1, `read ${i} is exact`);
    const shown = width(value);
    isAnEarlierCut(value);
    assert.ok(i + 1 - shown <= (i + 1) / 4, `read ${i}: ${shown} of ${i + 1} members shown`);
    if (i > 0) assert.ok(shown >= width(reads[i - 1]), `read ${i} never shrinks`);
  });
  assert.ok(made < 512 + 200, `${made} values made for ${count} reads`);
  builder.feed("}}");
  assert.deepEqual(builder.valueAt(text.length + 2), JSON.parse(`${text}}}`));
});

test("t5_once_a_wide_container_closes_every_read_is_exact_again", () => {
  for (const kind of ["array", "object"]) {
    const { builder, text } = wideReads(kind, kind === "array" ? 6000 : 1200);
    let prefix = `${text}${kind === "array" ? "]" : "}"},"after":[`;
    builder.feed(prefix.slice(text.length));
    // The wide container is complete: what a read copies is narrow again.
    for (let i = 0; i < 50; i++) {
      const delta = `${i ? "," : ""}${i}`;
      builder.feed(delta);
      prefix += delta;
      assert.deepEqual(builder.valueAt(prefix.length).after, Array.from({ length: i + 1 }, (_, k) => k), `${kind}: read ${i} after the wide one closed`);
    }
  }
});

test("t5_a_wide_partial_value_stays_on_the_state_and_its_copies", () => {
  const tracker = new ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  tracker.push({ type: "TOOL_CALL_START", toolCallId: "c", toolCallName: "f" });
  tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: '{"items":[' });
  const states = [];
  for (let i = 0; i < 6000; i++) states.push(tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "c", delta: i ? `,${i}` : "0" }).calls[0]);
  for (const state of states) {
    const value = state.partialArgs;
    assert.equal(state.partialArgs, value, "the same value on every read of a state");
    assert.deepEqual({ ...state }.partialArgs, value);
    assert.deepEqual(JSON.parse(JSON.stringify(state)).partialArgs, value);
  }
  tracker.free();
});
