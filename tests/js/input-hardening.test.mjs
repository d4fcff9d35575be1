// Valid input the tracker must read as the reference client does: lone
// surrogates (rules E2, T4) and opaque payloads kept as given (S4, F5),
// through push, pushJson and pushSse alike.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ToolCallTracker } from "../../pkg/index.js";
import { runStarted, runFinished, start, args, end, result, sse } from "./support/events.mjs";

/** Feeds `events` (objects) through each push path; returns the three trackers. */
function throughEveryPath(events) {
  const viaPush = new ToolCallTracker();
  for (const e of events) viaPush.push(e);
  const viaJson = new ToolCallTracker();
  for (const e of events) viaJson.pushJson(JSON.stringify(e));
  const viaSse = new ToolCallTracker();
  // Split the event stream everywhere, to cross chunk boundaries too.
  const body = sse(events);
  for (let i = 0; i < body.length; i += 7) viaSse.pushSse(body.slice(i, i + 7));
  return { push: viaPush, pushJson: viaJson, pushSse: viaSse };
}

/** Feeds JSON texts through pushJson and pushSse (push cannot spell them). */
function throughTextPaths(texts) {
  const viaJson = new ToolCallTracker();
  for (const text of texts) viaJson.pushJson(text);
  const viaSse = new ToolCallTracker();
  viaSse.pushSse(texts.map((text) => `data: ${text}\n\n`).join(""));
  return { pushJson: viaJson, pushSse: viaSse };
}

test("t4_a_surrogate_pair_cut_between_deltas_is_joined_on_every_push_path", () => {
  const emoji = "\u{1F600}";
  const text = `{"q":"a${emoji}b"}`;
  // Cut by UTF-16 code units, as a JS producer does: between the halves.
  const cut = text.indexOf(emoji) + 1;
  const first = text.slice(0, cut);
  assert.equal(JSON.stringify(first).endsWith('\\ud83d"'), true);
  const events = [runStarted(), start("c1", "f"), args("c1", first), args("c1", text.slice(cut)), end("c1"), runFinished()];
  for (const [path, t] of Object.entries(throughEveryPath(events))) {
    const call = t.snapshot().calls[0];
    assert.equal(call.argsText, text, path);
    assert.deepEqual(call.args, { q: `a${emoji}b` }, path);
    assert.equal(t.snapshot().fatal, null, path);
  }
});

test("t4_partial_args_never_show_half_a_pair", () => {
  const events = [runStarted(), start("c1", "f"), args("c1", '{"q":"a\ud83d')];
  for (const [path, t] of Object.entries(throughEveryPath(events))) {
    const call = t.snapshot().calls[0];
    assert.equal(call.argsText, '{"q":"a', path);
    assert.deepEqual(call.partialArgs, { q: "a" }, path);
    const next = t.push(args("c1", '\ude00"}')).calls[0];
    assert.deepEqual(next.partialArgs, { q: "a\u{1F600}" }, path);
  }
});

test("t4_a_half_left_alone_reads_as_a_replacement_character", () => {
  const events = [runStarted(), start("c1", "f"), args("c1", '["\ud83d'), args("c1", 'x","\ude00"]'), end("c1")];
  for (const [path, t] of Object.entries(throughEveryPath(events))) {
    assert.deepEqual(t.snapshot().calls[0].args, ["\ufffdx", "\ufffd"], path);
  }
});

test("e2_lone_surrogates_in_ids_and_names_are_not_fatal", () => {
  const events = [
    runStarted("r\ud800"),
    start("c\ud83d", "f\udc00"),
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "\ud800" },
    { type: "CUSTOM", name: "n", value: { "\udc00": "\ud800" } },
    end("c\ud83d"),
    result("c\ud83d", "ok"),
  ];
  for (const [path, t] of Object.entries(throughEveryPath(events))) {
    const s = t.snapshot();
    assert.equal(s.fatal, null, path);
    assert.equal(s.calls[0].id, "c\ufffd", path);
    assert.equal(s.calls[0].name, "f\ufffd", path);
    assert.equal(s.calls[0].result.content, "ok", path);
  }
});

// Keys out of order, -0, an integer above 2^53, 1e400 and a lone surrogate (in
// a text part's metadata, which the schema leaves open).
const AWKWARD = '[{"type":"text","text":"x","metadata":{"z":1,"a":-0,"big":9007199254740993,"inf":1e400,"s":"\\ud800"}}]';

test("s4_result_content_comes_back_as_json_parse_reads_the_event", () => {
  const texts = [
    JSON.stringify(runStarted()),
    JSON.stringify(start("c1", "f")),
    JSON.stringify(end("c1")),
    `{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":${AWKWARD}}`,
  ];
  const expected = JSON.parse(AWKWARD);
  for (const [path, t] of Object.entries(throughTextPaths(texts))) {
    const s = t.snapshot();
    assert.equal(s.fatal, null, path);
    const content = s.calls[0].result.content;
    const metadata = content[0].metadata;
    assert.deepEqual(Object.keys(metadata), ["z", "a", "big", "inf", "s"], path);
    assert.ok(Object.is(metadata.a, -0), path);
    assert.equal(metadata.inf, Infinity, path);
    assert.equal(metadata.s, "\ud800", path);
    assert.deepEqual(content, expected, path);
  }
});

test("s4_deep_content_and_run_input_are_read_not_refused", () => {
  let deep = "x";
  for (let i = 0; i < 200; i++) deep = [deep];
  const events = [
    runStarted("r1", { input: { threadId: "t1", runId: "r1", state: { deep }, forwardedProps: deep, messages: [] } }),
    start("c1", "f"),
    end("c1"),
    result("c1", [{ type: "text", text: "x", metadata: deep }]),
    runFinished("r1", { result: deep, outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "r", metadata: { deep } }] } }),
  ];
  for (const [path, t] of Object.entries(throughEveryPath(events))) {
    const s = t.snapshot();
    assert.equal(s.fatal, null, path);
    assert.deepEqual(s.calls[0].result.content, [{ type: "text", text: "x", metadata: deep }], path);
    assert.deepEqual(s.run.outcome.interrupts[0].metadata, { deep }, path);
    assert.deepEqual(s.interrupts[0].interrupt.metadata, { deep }, path);
    assert.deepEqual(s.run.result, deep, path);
  }
});

test("f5_answer_with_deep_content_is_kept_and_sent_back_as_given", () => {
  let deep = "x";
  for (let i = 0; i < 200; i++) deep = [deep];
  const t = new ToolCallTracker({ tools: [{ name: "ask", parameters: {} }] });
  for (const e of [runStarted(), start("c1", "ask"), end("c1"), runFinished()]) t.push(e);
  const content = [{ text: "x", type: "text", metadata: { z: 1, a: { deep } } }];
  t.answer("c1", content);
  const [message] = t.toolMessages();
  assert.deepEqual(message.content, content);
  assert.deepEqual(Object.keys(message.content[0]), ["text", "type", "metadata"]);
  assert.deepEqual(Object.keys(message.content[0].metadata), ["z", "a"]);
  t.startRun({ threadId: "t1", runId: "r2", messages: t.toolMessages(), state: { deep } });
});

test("e2_lone_surrogates_in_options_and_tool_schemas_are_not_refused", () => {
  const tool = { name: "f", description: "cut \ud83d", parameters: { type: "object", description: "\udc00" } };
  const t = new ToolCallTracker({ tools: [tool] });
  const events = [runStarted("r1", { input: { messages: [], tools: [{ ...tool, name: "g" }] } }), start("c1", "f"), args("c1", "{}"), end("c1")];
  for (const e of events) t.push(e);
  const s = t.snapshot();
  assert.equal(s.fatal, null);
  assert.equal(s.calls[0].advertised, true);
  assert.equal(s.calls[0].validation, "valid");
});

/**
 * Pushes '"' and a high surrogate, then `pairs` deltas of a low surrogate
 * and a high one (each completing a 4-byte character, its own text empty),
 * through `path`; the index of the event refused, and the tracker.
 */
function cutPairs(path, pairs, limits) {
  const t = new ToolCallTracker({ limits });
  const deltas = ['"\ud83d', ...Array(pairs).fill("\ude00\ud83d")];
  const events = [runStarted(), start("c1", "f"), ...deltas.map((d) => args("c1", d))];
  const feed = {
    push: (e) => t.push(e),
    pushJson: (e) => t.pushJson(JSON.stringify(e)),
    pushSse: (e) => t.pushSse(sse([e])),
  }[path];
  for (const e of events) {
    try {
      feed(e);
    } catch (error) {
      assert.equal(error.name, "ToolCallStreamError");
      assert.equal(error.violation.code, "S5");
      assert.match(error.violation.message, /limits\.maxThreadBytes/);
      return { refused: error.violation.eventIndex, t };
    }
  }
  return { refused: null, t };
}

test("s5_surrogate_pairs_rejoined_across_deltas_count_towards_the_thread_budget", () => {
  // Unbounded, 5,000 such deltas keep 20,001 bytes.
  const { refused: none, t: whole } = cutPairs("push", 5000, {});
  assert.equal(none, null);
  assert.equal(Buffer.byteLength(whole.snapshot().calls[0].argsText), 20_001);
  whole.free();
  // Within 4 KiB they are stopped where deltas of whole 4-byte characters
  // are, on every push path, with less than 4 KiB kept.
  const plain = new ToolCallTracker({ limits: { maxThreadBytes: 4096 } });
  let plainRefused = null;
  for (const e of [runStarted(), start("c1", "f"), args("c1", '"'), ...Array(5000).fill(args("c1", "\u{1F600}"))]) {
    try {
      plain.push(e);
    } catch (error) {
      plainRefused = error.violation.eventIndex;
      break;
    }
  }
  plain.free();
  assert.ok(plainRefused > 0 && plainRefused < 1100, `${plainRefused}`);
  for (const path of ["push", "pushJson", "pushSse"]) {
    const { refused, t } = cutPairs(path, 5000, { maxThreadBytes: 4096 });
    assert.equal(refused, plainRefused, path);
    const kept = Buffer.byteLength(t.snapshot().calls[0].argsText);
    assert.ok(kept > 3000 && kept < 4096, `${path}: ${kept}`);
    t.free();
  }
});
