// Calls survive copying: `{...call}`, `JSON.stringify(call)` and
// `structuredClone(call.toJSON())` carry `args` and `partialArgs`, which
// stay lazy (computed on first read, incrementally while streaming).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ToolCallTracker } from "../../pkg/index.js";
import { runStarted, start, args, end } from "./support/events.mjs";

function streaming() {
  const t = new ToolCallTracker();
  t.push(runStarted());
  t.push(start("c1", "search"));
  t.push(args("c1", '{"q":"was'));
  return t;
}

test("spreading an open call carries its partial arguments", () => {
  const call = streaming().snapshot().calls[0];
  const copy = { ...call };
  assert.deepEqual(copy.partialArgs, { q: "was" });
  assert.equal(copy.args, undefined);
  assert.equal(copy.argsText, '{"q":"was');
  assert.equal(copy.status, "open");
});

test("spreading a complete call carries its arguments", () => {
  const t = streaming();
  t.push(args("c1", 'm"}'));
  const call = t.push(end("c1")).calls[0];
  const copy = { ...call };
  assert.deepEqual(copy.args, { q: "wasm" });
  assert.equal(copy.args, call.args, "the same frozen value, parsed once");
  assert.ok(Object.keys(call).includes("args") && Object.keys(call).includes("partialArgs"));
});

test("JSON.stringify carries args and partialArgs", () => {
  const t = streaming();
  assert.deepEqual(JSON.parse(JSON.stringify(t.snapshot().calls[0])).partialArgs, { q: "was" });
  t.push(args("c1", 'm"}'));
  const done = t.push(end("c1")).calls[0];
  const json = JSON.parse(JSON.stringify(done));
  assert.deepEqual(json.args, { q: "wasm" });
  assert.equal(json.id, "c1");
  assert.equal(json.validation, "unvalidated");
  // A whole snapshot too.
  assert.deepEqual(JSON.parse(JSON.stringify(t.snapshot())).calls[0].args, { q: "wasm" });
});

test("structuredClone(call.toJSON()) is a plain copy with the values", () => {
  const t = streaming();
  const open = t.snapshot().calls[0];
  // The call itself clones too: its own enumerable accessors are read.
  assert.deepEqual(structuredClone(open).partialArgs, { q: "was" });
  const clone = structuredClone(open.toJSON());
  assert.deepEqual(clone.partialArgs, { q: "was" });
  assert.equal(Object.getPrototypeOf(clone), Object.prototype);
  t.push(args("c1", 'm"}'));
  const done = t.push(end("c1")).calls[0];
  const cloned = structuredClone(done.toJSON());
  assert.deepEqual(cloned.args, { q: "wasm" });
  assert.deepEqual(cloned.results, []);
  assert.equal(cloned.status, "complete");
});

test("copies leave the values lazy: nothing is parsed before something reads", () => {
  // A call whose text never becomes a value until read: the getters are
  // still there on the frozen call, and a copy taken later still reads them.
  const t = streaming();
  let s;
  for (const d of ["m", '", "n":', "1", "2", "}"]) s = t.push(args("c1", d));
  const call = s.calls[0];
  const descriptor = Object.getOwnPropertyDescriptor(call, "partialArgs");
  assert.equal(typeof descriptor.get, "function", "an accessor, not a value computed up front");
  assert.equal(descriptor.enumerable, true);
  assert.deepEqual({ ...call }.partialArgs, { q: "wasm", n: 12 });
  assert.ok(Object.isFrozen(call));
});

test("a reader of every state gets partial arguments made up front, as a plain field; one that reads now and then does not", () => {
  // Two states in a row read before the next was made start a run of 16
  // states made up front; each run ends with two states that wait for a
  // read again (a plain field cannot tell it was read).
  const kind = (call) => ("value" in Object.getOwnPropertyDescriptor(call, "partialArgs") ? "field" : "accessor");
  const letters = (n) => "abcdefghijklmnopqrstuvwxyz".repeat(4).slice(0, n);
  const every = streaming();
  const kinds = [];
  let call = every.snapshot().calls[0];
  for (let i = 1; i <= 40; i++) {
    assert.deepEqual(call.partialArgs, { q: `was${letters(i - 1)}` }, `state ${i - 1}`);
    call = every.push(args("c1", letters(i).slice(-1))).calls[0];
    kinds.push(kind(call));
    assert.ok(Object.isFrozen(call) && Object.isFrozen(call.partialArgs));
    assert.deepEqual(Object.keys(call).slice(-2), ["partialArgs", "args"], "in a lazy state's place");
  }
  const run = Array(16).fill("field");
  assert.deepEqual(kinds, ["accessor", ...run, "accessor", "accessor", ...run, "accessor", "accessor", "field", "field", "field"]);
  assert.deepEqual(call.partialArgs, { q: `was${letters(40)}` });
  assert.deepEqual(JSON.parse(JSON.stringify(call)).partialArgs, { q: `was${letters(40)}` });

  // Read every other state (a frame's last of two): every state waits for its read.
  const often = streaming();
  call = often.snapshot().calls[0];
  for (let i = 1; i <= 20; i++) {
    if (i % 2 === 0) assert.deepEqual(call.partialArgs, { q: `was${letters(i - 1)}` });
    call = often.push(args("c1", letters(i).slice(-1))).calls[0];
    assert.equal(kind(call), "accessor", `state ${i}`);
  }

  // A reader that stops: the run goes on to its end, then the states wait.
  const stops = streaming();
  call = stops.snapshot().calls[0];
  for (let i = 1; i <= 3; i++) {
    void call.partialArgs;
    call = stops.push(args("c1", letters(i).slice(-1))).calls[0];
  }
  assert.equal(kind(call), "field");
  const after = [];
  for (let i = 4; i <= 24; i++) after.push(kind((call = stops.push(args("c1", letters(i).slice(-1))).calls[0])));
  assert.deepEqual(after, [...Array(14).fill("field"), ...Array(7).fill("accessor")]);
  assert.deepEqual({ ...call }.partialArgs, { q: `was${letters(24)}` });
});
