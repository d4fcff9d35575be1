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

test("after a read, the call's next states have their partial arguments as a plain field, with the value a read gives", () => {
  // A streaming card reads after every delta: the states after a read
  // through the accessor have their value made already; a plain field
  // cannot tell it was read, so after eight of them the next is lazy again.
  const t = streaming();
  const kind = (call) => ("value" in Object.getOwnPropertyDescriptor(call, "partialArgs") ? "field" : "accessor");
  let call = t.snapshot().calls[0];
  assert.equal(kind(call), "accessor", "nothing read yet");
  assert.deepEqual(call.partialArgs, { q: "was" });
  const expected = [
    ["m", { q: "wasm" }],
    ['", "n":', { q: "wasm" }],
    ["[1", { q: "wasm", n: [] }],
    [", 2]", { q: "wasm", n: [1, 2] }],
    // A key in progress: the usable prefix does not move.
    [', "r', { q: "wasm", n: [1, 2] }, "same"],
  ];
  for (const [delta, value, same] of expected) {
    const before = call.partialArgs;
    call = t.push(args("c1", delta)).calls[0];
    assert.equal(kind(call), "field", JSON.stringify(delta));
    assert.deepEqual(call.partialArgs, value, JSON.stringify(delta));
    assert.ok(Object.isFrozen(call) && Object.isFrozen(call.partialArgs));
    assert.deepEqual(Object.keys(call).slice(-2), ["partialArgs", "args"], "in a lazy state's place");
    if (same) assert.equal(call.partialArgs, before, "a prefix that does not move keeps the value");
  }
  // Three more plain fields, then a lazy state, which reads what it would have.
  const kinds = ['"', ": [", "1", ",", "2"].map((delta) => kind((call = t.push(args("c1", delta)).calls[0])));
  assert.deepEqual(kinds, ["field", "field", "field", "accessor", "accessor"]);
  assert.deepEqual({ ...call }.partialArgs, { q: "wasm", n: [1, 2], r: [1] });
  call = t.push(args("c1", "]}")).calls[0];
  assert.equal(kind(call), "field", "read again: made up front again");
  assert.deepEqual(JSON.parse(JSON.stringify(call)).partialArgs, { q: "wasm", n: [1, 2], r: [1, 2] });
});
