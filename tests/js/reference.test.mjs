// The tracker against the reference consumer, @ag-ui/client 1.0.0, on the
// same events: streams the official Python encoder wrote
// (tests/fixtures/python, encode.py), and one event per case of the
// processing model (outcomes, timestamps, content parts, unrecognised
// members, retired shapes). The verdicts agree, or the difference is a
// rule, listed in DIFFERENCES and in docs/rules.md.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ToolCallTracker } from "../../pkg/index.js";
import { root } from "./support/paths.mjs";
import { reference } from "./support/reference.mjs";

const PYTHON = path.join(root, "tests", "fixtures", "python");
const fixture = (name, ext) => readFileSync(path.join(PYTHON, `${name}.${ext}`));

/** The stripping codes of the processing model. */
const STRIPPING = new Set(["P1", "P2", "P3"]);

/** What the tracker makes of `events` (objects, or one SSE body as bytes). */
function tracked(input) {
  const tracker = new ToolCallTracker();
  try {
    if (input instanceof Uint8Array) tracker.pushSse(input);
    else for (const event of input) tracker.push(event);
  } catch {}
  const s = tracker.snapshot();
  tracker.free();
  return {
    fatal: s.fatal,
    stripped: s.violations.filter((v) => STRIPPING.has(v.code)),
    status: s.run.status,
    outcome: s.run.outcome,
    results: s.calls.flatMap((c) => c.results.map((r) => r.content)),
    calls: s.calls,
  };
}

/** The outcome type the reference hands the application, from its last run event. */
function referenceOutcome(events) {
  const last = events.findLast((e) => e.type === "RUN_FINISHED" || e.type === "RUN_ERROR");
  if (last === undefined) return "running";
  if (last.type === "RUN_ERROR") return "errored";
  return last.outcome?.type ?? "success";
}

const STATUS_OF = { running: "running", success: "finished", interrupt: "interrupted", cancelled: "cancelled", errored: "errored" };

const PYTHON_STREAMS = ["success-frontend-calls", "cancelled", "interrupt-tool-call", "chunks", "content-parts", "run-error"];

test("l8_python_streams_read_as_the_reference_reads_them", async () => {
  for (const name of PYTHON_STREAMS) {
    const events = fixture(name, "jsonl").toString("utf8").trim().split("\n").map((line) => JSON.parse(line));
    const ref = await reference(events);
    assert.equal(ref.error, undefined, `the reference accepts ${name}: ${ref.error}`);
    assert.deepEqual(ref.warnings, [], name);
    for (const mine of [tracked(fixture(name, "sse")), tracked(events)]) {
      assert.equal(mine.fatal, null, `${name}: ${JSON.stringify(mine.fatal)}`);
      assert.deepEqual(mine.stripped, [], name);
      assert.equal(mine.status, STATUS_OF[referenceOutcome(ref.events)], name);
      const results = ref.events.filter((e) => e.type === "TOOL_CALL_RESULT").map((e) => e.content);
      assert.deepEqual(mine.results, results, name);
    }
  }
});

test("f9_the_python_zero_argument_call_reads_as_an_empty_object", () => {
  const { calls } = tracked(fixture("success-frontend-calls", "sse"));
  const now = calls.find((c) => c.name === "current_time");
  assert.equal(now.argsText, "");
  assert.deepEqual(now.args, {});
  assert.deepEqual(calls.filter((c) => c.pending).map((c) => c.id), ["call-1", "call-2"]);
});

test("l8_the_python_cancelled_stream_leaves_nothing_pending", () => {
  const { calls, outcome } = tracked(fixture("cancelled", "sse"));
  assert.deepEqual(outcome, { type: "cancelled" });
  assert.deepEqual(calls.map((c) => [c.id, c.status, c.pending, c.cancelled]), [
    ["call-1", "complete", false, true],
    ["call-2", "complete", false, false],
  ]);
});

const rs = { type: "RUN_STARTED", threadId: "t", runId: "r" };
const rf = (extra) => ({ type: "RUN_FINISHED", threadId: "t", runId: "r", ...extra });
const callEvents = [
  { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f" },
  { type: "TOOL_CALL_END", toolCallId: "c1" },
];
const resultOf = (content) => ({ type: "TOOL_CALL_RESULT", messageId: "m1", toolCallId: "c1", content });
const stamped = (timestamp) => [{ ...rs, timestamp }];

/** One case per shape the processing model judges; each is the whole stream. */
const CASES = {
  "outcome cancelled": [rs, rf({ outcome: { type: "cancelled" } })],
  "outcome of an unknown type": [rs, rf({ outcome: { type: "handoff", to: "billing" } })],
  "outcome with an undescribed property": [rs, rf({ outcome: { type: "success", note: 1 } })],
  "outcome success with pending ids": [rs, ...callEvents, rf({ outcome: { type: "success", pendingToolCallIds: ["c1"] } })],
  "outcome with a non-string pending id": [rs, rf({ outcome: { type: "success", pendingToolCallIds: [1] } })],
  "outcome null": [rs, rf({ outcome: null })],
  "an interrupt with an undescribed property": [rs, rf({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "r", vendor: 1 }] } })],
  "an interrupt with a null message": [rs, rf({ outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "r", message: null }] } })],
  "metadata null on an event": [rs, { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f", metadata: null }],
  "metadata that is a string": [rs, { type: "CUSTOM", name: "n", value: 1, metadata: "x" }],
  "metadata on tool-call events": [
    rs,
    { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f", metadata: { a: 1 } },
    { type: "TOOL_CALL_END", toolCallId: "c1", metadata: { a: 2 } },
  ],
  "an encrypted value for a call": [rs, ...callEvents, { type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: "c1", encryptedValue: "E" }],
  "an encrypted value without its value": [rs, ...callEvents, { type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: "c1" }],
  "an encrypted value of an unknown subtype": [rs, ...callEvents, { type: "REASONING_ENCRYPTED_VALUE", subtype: "hologram", entityId: "c1", encryptedValue: "E" }],
  "an encrypted value with its 1.1 type": [
    rs,
    ...callEvents,
    { type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: "c1", encryptedValue: "E", encryptedValueType: "t" },
  ],
  "result null": [rs, rf({ result: null })],
  "timestamp 1712.5": stamped(1712.5),
  "timestamp 2^53": stamped(2 ** 53),
  "timestamp null": stamped(null),
  "timestamp as a string": stamped("1"),
  "timestamp -1": stamped(-1),
  "timestamp 1e3": stamped(1e3),
  "timestamp 2^53 - 1": stamped(2 ** 53 - 1),
  "content: text, image by URL, document inline": [
    rs,
    ...callEvents,
    resultOf([
      { type: "text", text: "a" },
      { type: "image", source: { type: "url", value: "https://x/y.png" } },
      { type: "document", source: { type: "data", value: "AA", mimeType: "application/pdf" }, metadata: { title: "t" } },
    ]),
  ],
  "content: a file source": [rs, ...callEvents, resultOf([{ type: "audio", source: { type: "file", value: "file-1", provider: "openai" } }])],
  "content: a part of an unknown kind": [rs, ...callEvents, resultOf([{ type: "text", text: "a" }, { type: "hologram" }])],
  "content: a retired binary part": [rs, ...callEvents, resultOf([{ type: "binary", mimeType: "image/png", data: "AA" }])],
  "content: a source of an unknown kind": [rs, ...callEvents, resultOf([{ type: "image", source: { type: "ipfs", value: "Qm" } }])],
  "content: undescribed properties on a part and a source": [
    rs,
    ...callEvents,
    resultOf([{ type: "text", text: "a", cite: 1 }, { type: "video", source: { type: "url", value: "u", etag: "e" } }]),
  ],
  "content: text that is not a string": [rs, ...callEvents, resultOf([{ type: "text", text: 5 }])],
  "content: a data source without mimeType": [rs, ...callEvents, resultOf([{ type: "image", source: { type: "data", value: "AA" } }])],
  "content: null metadata on a part": [rs, ...callEvents, resultOf([{ type: "text", text: "a", metadata: null }])],
  "content: a part that is not an object": [rs, ...callEvents, resultOf([null])],
  "content: history tool message with an unknown part": [
    rs,
    {
      type: "MESSAGES_SNAPSHOT",
      messages: [
        { id: "a", role: "assistant", toolCalls: [{ id: "h1", type: "function", function: { name: "f", arguments: "{}" } }] },
        { id: "t", role: "tool", toolCallId: "h1", content: [{ type: "text", text: "ok" }, { type: "hologram" }] },
      ],
    },
  ],
  "parentMessageId null": [rs, { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f", parentMessageId: null }],
  "an unknown event type": [rs, { type: "HOLOGRAM_STARTED" }],
  "an undescribed property on an event": [rs, { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f", priority: "high" }],
};

/**
 * Where the verdicts differ on purpose, by case: the rule that decides it
 * and what differs (each is in docs/rules.md, rule P2).
 */
const DIFFERENCES = {
  // 1.1 (reasoning.mdx): a subtype that is a string the schema does not
  // name is unrecognised material, stripped with a warning, the event
  // removed (rule P1); the 1.0 client fails the run on it.
  "an encrypted value of an unknown subtype": (mine, ref) => {
    assert.match(ref.error, /subtype/);
    assert.equal(mine.fatal, null);
    assert.deepEqual(mine.stripped.map((v) => v.code), ["P1"]);
    assert.equal(mine.calls[0].encryptedValue, undefined);
  },
  // `encryptedValueType` is 1.1's: the tracker keeps it with its value
  // (rule F10), where the 1.0 client strips it with a warning.
  "an encrypted value with its 1.1 type": (mine, ref) => {
    assert.match(ref.warnings.join("\n"), /at '\/encryptedValueType'/);
    assert.deepEqual(mine.stripped, []);
    assert.deepEqual([mine.calls[0].encryptedValue, mine.calls[0].encryptedValueType], ["E", "t"]);
  },
  // The reference strips a property an event does not describe, with a
  // warning; the tracker copies no event property it does not read into a
  // snapshot, and says nothing about it (P2: the property never reaches a
  // snapshot; onEvent hands the event over as it came).
  "an undescribed property on an event": (mine, ref) => {
    assert.deepEqual(mine.stripped, []);
    assert.match(ref.warnings.join("\n"), /at '\/priority'/);
    assert.equal(mine.fatal, null);
    assert.equal("priority" in mine.calls[0], false);
  },
};

/** One case: the verdicts agree, or DIFFERENCES says how they differ. */
async function sameVerdict(name, events) {
  const ref = await reference(events);
  const mine = tracked(events);
  if (DIFFERENCES[name]) return DIFFERENCES[name](mine, ref);
  const refFatal = ref.error !== undefined;
  assert.equal(mine.fatal != null, refFatal, `${name}: fatal: tracker ${JSON.stringify(mine.fatal)}, reference ${ref.error}`);
  if (refFatal) {
    assert.equal(mine.fatal.code, "E2", `${name}: a malformed known value is E2`);
    return;
  }
  // Both warn when something was stripped or translated, and neither when nothing was.
  const refWarned = ref.warnings.some((w) => /\[ag-ui\]\[(enforce|compat)\]/.test(w) && !/unrecognised event/i.test(w));
  assert.equal(mine.stripped.length > 0, refWarned, `${name}: warnings: tracker ${JSON.stringify(mine.stripped)}, reference ${ref.warnings}`);
  assert.equal(mine.status, STATUS_OF[referenceOutcome(ref.events)], name);
  const results = ref.events.filter((e) => e.type === "TOOL_CALL_RESULT").map((e) => e.content);
  if (results.length > 0) assert.deepEqual(mine.results, results, `${name}: the content the application gets`);
}

test("p3_every_case_reads_as_the_reference_reads_it", async () => {
  for (const [name, events] of Object.entries(CASES)) await sameVerdict(name, events);
});

test("p1_the_reference_and_the_tracker_name_the_same_paths", async () => {
  const events = CASES["content: undescribed properties on a part and a source"];
  const ref = await reference(events);
  const paths = ref.warnings.map((w) => w.match(/at '([^']+)'/)?.[1]).filter(Boolean);
  assert.deepEqual(paths, ["/content/0/cite", "/content/1/source/etag"]);
  // The path is data on the violation, and the message names it too.
  const mine = tracked(events).stripped.map((v) => (assert.ok(v.message.startsWith(`${v.path} is not`), v.message), v.path));
  assert.deepEqual(mine, ["content[0].cite", "content[1].source.etag"]);
  // An interrupt's, too (rule P2).
  const interrupt = CASES["an interrupt with an undescribed property"];
  assert.match((await reference(interrupt)).warnings.join("\n"), /at '\/outcome\/interrupts\/0\/vendor'/);
  assert.deepEqual(tracked(interrupt).stripped.map((v) => v.path), ["outcome.interrupts[0].vendor"]);
  assert.equal(Object.keys(DIFFERENCES).length, 3);
});

const INPUT = { threadId: "t", runId: "r", messages: [] };
const userSays = (content) => ({ ...INPUT, messages: [{ id: "u", role: "user", content }] });
/** Outgoing inputs: what nextRun's last stage and the reference's `enforceOutgoingInput` make of each. */
const OUTGOING = {
  "a plain input": { ...INPUT, tools: [{ name: "f", description: "d", parameters: { type: "object" } }], context: [], state: { k: 1 } },
  "an undescribed top-level property": { ...INPUT, extra: 1 },
  "a message of an unknown role": { ...INPUT, messages: [{ id: "m", role: "robot", content: "x" }] },
  "an undescribed message property": { ...INPUT, messages: [{ id: "m", role: "user", content: "x", mood: "ok" }] },
  "a content part of an unknown kind": userSays([{ type: "hologram" }, { type: "text", text: "a" }]),
  "a media source of an unknown kind": userSays([{ type: "image", source: { type: "ipfs", value: "Qm" } }]),
  "an undescribed property of a function call": {
    ...INPUT,
    messages: [{ id: "a", role: "assistant", toolCalls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}", x: 1 } }] }],
  },
  "a null assistant content": { ...INPUT, messages: [{ id: "a", role: "assistant", content: null }] },
  "a null state": { ...INPUT, state: null },
  "a tool without description": { ...INPUT, tools: [{ name: "f", parameters: {} }] },
  "a tool message without content": { ...INPUT, messages: [{ id: "m", role: "tool", toolCallId: "c" }] },
  "a numeric threadId": { ...INPUT, threadId: 1 },
  "a context entry without description": { ...INPUT, context: [{ value: "v" }] },
  "a text part whose text is a number": userSays([{ type: "text", text: 1 }]),
  "a resume entry of an unknown status": { ...INPUT, resume: [{ interruptId: "i", status: "later" }] },
};

test("p4_outgoing_input_is_judged_as_the_reference_judges_it", async () => {
  const { enforceOutgoingInput } = await import("@ag-ui/client");
  const { outgoingInput } = await import("../../js/outgoing.js");
  for (const [name, input] of Object.entries(OUTGOING)) {
    const warn = console.warn;
    console.warn = () => {};
    let theirs;
    try {
      theirs = enforceOutgoingInput(structuredClone(input));
    } catch {
      theirs = "refused";
    } finally {
      console.warn = warn;
    }
    let mine;
    try {
      mine = outgoingInput(structuredClone(input), (field, message) => Object.assign(new Error(message), { field }));
    } catch (error) {
      assert.ok(error.field, `${name}: the refusal names the field`);
      mine = "refused";
    }
    // The reference adds empty `tools` and `context`: absent and empty mean the same.
    if (typeof theirs === "object") for (const key of ["tools", "context"]) if (theirs[key]?.length === 0 && !(key in input)) delete theirs[key];
    assert.deepEqual(mine, theirs, name);
  }
});

test("p4_next_run_sends_nothing_unrecognised_and_refuses_a_malformed_field_before_sending", () => {
  const tracker = new ToolCallTracker();
  const next = tracker.nextRun({ ...INPUT, debug: true, messages: [{ id: "u", role: "user", content: [{ type: "text", text: "hi", cite: 1 }, { type: "hologram" }] }] });
  assert.deepEqual(next, { ...INPUT, messages: [{ id: "u", role: "user", content: [{ type: "text", text: "hi" }] }] });
  assert.throws(
    () => tracker.nextRun({ ...INPUT, runId: "r2", tools: [{ name: "f" }] }),
    (error) => error.name === "ToolCallRefusedError" && error.kind === "malformedInput" && error.path === "tools[0].description" && /field "tools\[0\]\.description" is missing/.test(error.message),
  );
  tracker.free();
});
