// The recorded example streams in examples/streams/ and their expected verdicts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { EventSchema } from "@ag-ui/core/schemas";
import { root } from "./support/paths.mjs";

const dir = path.join(root, "examples", "streams");
const streamFiles = readdirSync(dir).filter((f) => f.endsWith(".jsonl") || f.endsWith(".sse"));
const expected = JSON.parse(readFileSync(path.join(dir, "expected.json"), "utf8"));
const RULE_ID = /^[LTCAFSEN]\d+$/;

function readJsonl(name) {
  const text = readFileSync(path.join(dir, name), "utf8");
  assert.ok(text.endsWith("\n"), `${name} ends with a newline`);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line, i) => {
      const event = JSON.parse(line);
      assert.ok(event !== null && typeof event === "object" && !Array.isArray(event), `${name}:${i + 1} is an object`);
      assert.equal(typeof event.type, "string", `${name}:${i + 1} has a string type`);
      return event;
    });
}

// A deliberately small text/event-stream decoder: blank lines end a frame,
// `data:` lines are joined with "\n", comments and other fields are ignored.
function decodeSse(text) {
  const events = [];
  for (const frame of text.replace(/\r\n?/g, "\n").split("\n\n")) {
    const data = frame
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5));
    if (data.length > 0) events.push(JSON.parse(data.join("\n")));
  }
  return events;
}

const twinOf = (sse) => sse.replace(/\.sse$/, ".jsonl");

test("every .jsonl line is a JSON object with a string type", () => {
  const jsonl = streamFiles.filter((f) => f.endsWith(".jsonl"));
  assert.ok(jsonl.length >= 20, "the broken and good streams are all there");
  for (const name of jsonl) assert.ok(readJsonl(name).length > 0, `${name} is not empty`);
});

test("expected.json lists exactly the stream files", () => {
  assert.deepEqual(Object.keys(expected).sort(), [...streamFiles].sort());
});

test("every verdict is well formed and points at an event of its stream", () => {
  for (const [name, verdict] of Object.entries(expected)) {
    assert.deepEqual(Object.keys(verdict).sort(), ["fatal", "fatalEventIndex", "pending", "violations"], name);
    const events = name.endsWith(".sse") ? decodeSse(readFileSync(path.join(dir, name), "utf8")) : readJsonl(name);
    if (verdict.fatal === null) {
      assert.equal(verdict.fatalEventIndex, null, name);
    } else {
      assert.match(verdict.fatal, RULE_ID, name);
      assert.ok(Number.isInteger(verdict.fatalEventIndex) && verdict.fatalEventIndex < events.length, name);
    }
    for (const code of verdict.violations) assert.match(code, RULE_ID, name);
    for (const id of verdict.pending) assert.equal(typeof id, "string", name);
  }
});

test("every broken stream is named after its fatal rule, and every fatal rule has one", () => {
  const fatalRules = ["L1", "L2", "L3", "L4", "T1", "T2", "T3", "T8", "C1", "C2", "C4", "C6", "A2", "A3", "A4", "A6", "A9", "E2"];
  const covered = new Set();
  for (const [name, verdict] of Object.entries(expected)) {
    const broken = /^broken-([a-z]\d+)-/.exec(name);
    assert.equal(verdict.fatal !== null, broken !== null, `${name}: only broken-* streams are fatal`);
    if (broken) {
      assert.equal(verdict.fatal, broken[1].toUpperCase(), name);
      covered.add(verdict.fatal);
    }
  }
  assert.deepEqual([...covered].sort(), [...fatalRules].sort());
});

test("events up to the fatal one have the @ag-ui/core shapes, except E2/A6 at the fatal event", () => {
  for (const [name, verdict] of Object.entries(expected)) {
    if (!name.endsWith(".jsonl")) continue;
    const events = readJsonl(name);
    const last = verdict.fatal === null ? events.length : verdict.fatalEventIndex;
    for (let i = 0; i < last; i += 1) {
      const parsed = EventSchema.safeParse(events[i]);
      assert.ok(parsed.success, `${name} event ${i}: ${parsed.error?.message}`);
    }
    if (verdict.fatal === "E2" || verdict.fatal === "A6") {
      assert.equal(EventSchema.safeParse(events[last]).success, false, `${name} event ${last} is malformed`);
    } else if (verdict.fatal !== null) {
      assert.ok(EventSchema.safeParse(events[last]).success, `${name}: the fatal event is well formed`);
    }
  }
});

test("the .sse captures decode to the same events as their .jsonl twins", () => {
  const captures = streamFiles.filter((f) => f.endsWith(".sse"));
  assert.ok(captures.length >= 2);
  let sawCrlf = false;
  let sawComment = false;
  for (const name of captures) {
    const text = readFileSync(path.join(dir, name), "utf8");
    sawCrlf ||= text.includes("\r\n");
    sawComment ||= /(^|\n): keep-alive\r?\n/.test(text);
    assert.deepEqual(decodeSse(text), readJsonl(twinOf(name)), name);
    assert.deepEqual(expected[name], expected[twinOf(name)], `${name} has its twin's verdict`);
  }
  assert.ok(sawCrlf && sawComment, "one capture uses CRLF and keep-alive comments");
});

test("the round trip's second run answers the call the first run left open, with its exact arguments", () => {
  const events = readJsonl("frontend-round-trip.jsonl");
  const starts = events.filter((e) => e.type === "RUN_STARTED");
  assert.equal(starts.length, 2);
  const deltas = events.filter((e) => e.type === "TOOL_CALL_ARGS").map((e) => e.delta);
  assert.ok(deltas.length >= 10 && deltas.every((d) => d.length <= 16), "many small deltas");
  const args = deltas.join("");
  const parsed = JSON.parse(args);
  assert.equal(parsed.replicas, 12);
  for (const whole of ['"replicas":12', "v2.14.0", '\\u2014', '\\"go']) {
    assert.ok(!deltas.some((d) => d.includes(whole)), `${whole} is split across deltas`);
  }
  const tool = starts[0].input.tools.find((t) => t.name === "confirm_deploy");
  assert.deepEqual(tool.parameters.required, ["service", "version", "replicas"]);
  const history = starts[1].input.messages;
  const call = history.flatMap((m) => m.toolCalls ?? []).find((c) => c.id === "call_deploy_1");
  assert.equal(call.function.arguments, args);
  assert.ok(history.some((m) => m.role === "tool" && m.toolCallId === "call_deploy_1"));
});
