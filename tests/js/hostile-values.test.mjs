// Every argument of every ToolCallTracker method against hostile JS values:
// each is refused in JS (a TypeError naming the argument, a RangeError for
// what is too long to cross) or read, never a trap in wasm, and the tracker
// works on afterwards. Also: after free(), and after a trap.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { init, ToolCallTracker, ToolCallStreamError, ToolCallRefusedError, TrackerFreedError, TrackerTrappedError } from "../../pkg/full.js";
import { WasmTracker } from "../../pkg/tracker.js";

await init(); // the glue (`WasmTracker`, below) is used directly
import { runStarted, call, sse } from "./support/events.mjs";
import { CONFIRM_TOOLS, pendingTracker } from "./support/trackers.mjs";

const revoked = Proxy.revocable({}, {});
revoked.revoke();
const cyclic = {};
cyclic.self = cyclic;
const boom = () => {
  throw new Error("boom");
};

/** Values an application could pass by mistake (or a hostile page on purpose). */
const hostile = {
  undefined: undefined,
  null: null,
  zero: 0,
  "42": 42,
  "-1": -1,
  NaN: NaN,
  Infinity: Infinity,
  bigint: 10n,
  true: true,
  symbol: Symbol("s"),
  function: () => 1,
  "empty string": "",
  "huge string": "x".repeat(33 * 1024 * 1024),
  "lone surrogate": "\ud83d",
  "empty object": {},
  "empty array": [],
  "array of strings": ["a", "b"],
  "array of numbers": [1, 2],
  "array of parts": [{ type: "text", text: "hi" }],
  error: new Error("x"),
  date: new Date(0),
  map: new Map([[1, 2]]),
  "boxed string": new String("s"),
  "null prototype": Object.create(null),
  "throwing toJSON": { toJSON: boom },
  "toJSON giving undefined": { toJSON: () => undefined },
  "throwing getter": Object.defineProperty({}, "type", { enumerable: true, get: boom }),
  "throwing getter in array": [Object.defineProperty({}, "type", { enumerable: true, get: boom })],
  cyclic,
  "Proxy throwing everywhere": new Proxy({}, { get: boom, ownKeys: boom, getPrototypeOf: boom, has: boom, getOwnPropertyDescriptor: boom }),
  "array Proxy throwing": new Proxy([], { get: boom, ownKeys: boom, getPrototypeOf: boom }),
  "revoked Proxy": revoked.proxy,
  "bytes": new Uint8Array([100, 97, 116, 97]),
  "detached buffer": (() => {
    const b = new ArrayBuffer(8);
    structuredClone(b, { transfer: [b] });
    return b;
  })(),
};


const input = { threadId: "t1", runId: "r2", messages: [], tools: [] };

/** Each method with valid arguments; `at` puts a value at one position. */
const methods = {
  constructor: [[{ tools: CONFIRM_TOOLS, onEvent: () => {} }], (t, a) => new ToolCallTracker(...a).free()],
  push: [[runStarted("r9")], (t, a) => t.push(...a)],
  pushJson: [[JSON.stringify(runStarted("r9"))], (t, a) => t.pushJson(...a)],
  pushSse: [[sse([runStarted("r9")])], (t, a) => t.pushSse(...a)],
  subscribe: [[() => {}], (t, a) => t.subscribe(...a)],
  startRun: [[input], (t, a) => t.startRun(...a)],
  nextRun: [[input], (t, a) => t.nextRun(...a)],
  abortRun: [["stop"], (t, a) => t.abortRun(...a)],
  approve: [["c1", { remember: "tool" }], (t, a) => t.approve(...a)],
  revokeApproval: [["confirm"], (t, a) => t.revokeApproval(...a)],
  load: [[{ version: 1 }], (t, a) => t.load(...a)],
  restore: [[{ version: 1 }, { tools: CONFIRM_TOOLS }], (t, a) => ToolCallTracker.restore(...a).free()],
  decline: [["c1", "no"], (t, a) => t.decline(...a)],
  answer: [["c1", "done"], (t, a) => t.answer(...a)],
  fail: [["c1", "it broke", "details"], (t, a) => t.fail(...a)],
};

/** A refusal the API documents: never a trap, never an error from inside the glue. */
function documented(error) {
  if (error instanceof WebAssembly.RuntimeError || error?.cause instanceof WebAssembly.RuntimeError) return false;
  if (error instanceof TypeError || error instanceof RangeError || error instanceof ToolCallStreamError) return true;
  // The core's refusal of an operation on a call (say, answering one not pending).
  if (error instanceof ToolCallRefusedError) return true;
  return error?.constructor === Error && /not JSON/.test(error.message);
}

/** The tracker still crosses into wasm and answers. */
function stillWorks(t) {
  assert.ok(Object.isFrozen(t.snapshot()));
  assert.doesNotThrow(() => t.pushSse(": probe\n"));
  assert.ok(Array.isArray(t.toolMessages()));
  assert.throws(() => t.approve("no-such-call"), (e) => e instanceof ToolCallRefusedError && e.kind === "unknownCall");
}

test("every argument of every method refuses hostile values cleanly and the tracker works on", () => {
  let cases = 0;
  for (const [method, [valid, invoke]] of Object.entries(methods)) {
    for (let position = 0; position < valid.length; position++) {
      for (const [label, value] of Object.entries(hostile)) {
        const t = pendingTracker();
        const args = valid.slice();
        args[position] = value;
        let error;
        try {
          invoke(t, args);
        } catch (e) {
          error = e;
        }
        cases++;
        const where = `${method} argument ${position} = ${label}`;
        if (error !== undefined) assert.ok(documented(error), `${where}: ${error?.name}: ${error?.message}`);
        if (error instanceof TypeError && method !== "push") assert.match(error.message, /\(|options/, `${where}: the error names the argument`);
        if (error === undefined || !(error instanceof ToolCallStreamError)) stillWorks(t);
        assert.doesNotThrow(() => t.free(), where);
        assert.doesNotThrow(() => t.free(), `${where}: free twice`);
      }
    }
  }
  assert.ok(cases > 300);
});

test("the values of the report: decline(id, Error), decline(id, 42) are TypeErrors, fail(id, e, 42) an invalidContent refusal", () => {
  const t = pendingTracker();
  assert.throws(() => t.decline("c1", new Error("x")), { name: "TypeError", message: /decline\(toolCallId, reason\): reason must be a string \(got object\)/ });
  assert.throws(() => t.decline("c1", 42), { name: "TypeError", message: /reason must be a string \(got number\)/ });
  assert.throws(() => t.fail("c1", "e", 42), (e) => e instanceof ToolCallRefusedError && e.kind === "invalidContent" && /fail\(toolCallId, error, content\): content must be a string or an array of content parts \(got number\)/.test(e.message));
  assert.throws(() => t.answer("c1", [{ toJSON: boom }]), (e) => e instanceof ToolCallRefusedError && e.kind === "invalidContent" && /cannot be read as JSON: boom/.test(e.message));
  assert.throws(() => t.approve(7), { name: "TypeError", message: /approve\(toolCallId\): toolCallId must be a string/ });
  assert.throws(() => t.pushJson(42), { name: "TypeError", message: /pushJson\(text\): text must be a string/ });
  assert.throws(() => t.subscribe("x"), { name: "TypeError", message: /listener must be a function/ });
  assert.throws(() => new ToolCallTracker({ tools: [{ name: 1 }] }), { name: "TypeError", message: /"tools\[0\]\.name" must be a string/ });
  assert.throws(() => new ToolCallTracker({ limits: { maxCalls: NaN } }), { name: "TypeError", message: /options\.maxCalls must be a finite number/ });
  assert.throws(() => new ToolCallTracker({ limits: { maxCalls: -1 } }), { name: "TypeError", message: /"limits\.maxCalls" must be a non-negative integer/ });
  assert.throws(() => new ToolCallTracker({ nope: 1 }), { name: "TypeError", message: /unknown field "nope"/ });
  assert.throws(() => t.push({ toJSON: boom }), { name: "TypeError", message: /push\(event\) cannot be read as JSON: boom/ });
  // Refused whole: the call is still pending and takes a good answer.
  assert.equal(t.snapshot().pendingCalls.length, 1);
  t.decline("c1", "not now");
  assert.equal(t.snapshot().calls[0].consent, "declined");
  t.free();
});

test("fail takes content parts like answer", () => {
  const t = pendingTracker();
  const parts = [{ type: "text", text: "stack trace" }];
  t.fail("c1", "it broke", parts);
  assert.deepEqual(t.toolMessages()[0].content, parts);
  assert.equal(t.toolMessages()[0].error, "it broke");
  t.free();
});

test("strings too long to cross at once are refused whole (RangeError), and the tracker reads on", () => {
  const t = pendingTracker();
  const long = "x".repeat(33 * 1024 * 1024);
  assert.throws(() => t.pushJson(long), { name: "RangeError", message: /pushJson\(text\): text is \d+ long, over the \d+ one call may pass/ });
  assert.throws(() => t.answer("c1", long), RangeError);
  assert.throws(() => t.pushSse(`:${long}\n\n`), { name: "RangeError", message: /pushSse\(chunk\): chunk is/ });
  assert.equal(t.snapshot().pendingCalls.length, 1);
  const s = t.pushSse(sse([runStarted("after-long-comment")]));
  assert.equal(s.run.runId, "after-long-comment");
  t.free();
});

test("after free(), every method throws TrackerFreedError; free() again is harmless", () => {
  const t = pendingTracker();
  t.free();
  t.free();
  const calls = {
    push: () => t.push(runStarted()),
    pushJson: () => t.pushJson("{}"),
    pushSse: () => t.pushSse("data: {}\n\n"),
    pushSseBytes: () => t.pushSse(new Uint8Array(1)),
    snapshot: () => t.snapshot(),
    subscribe: () => t.subscribe(() => {}),
    startRun: () => t.startRun(input),
    approve: () => t.approve("c1"),
    decline: () => t.decline("c1"),
    answer: () => t.answer("c1", "x"),
    fail: () => t.fail("c1", "e"),
    toolMessages: () => t.toolMessages(),
    nextRun: () => t.nextRun(input),
    abortRun: () => t.abortRun(),
  };
  for (const [name, fn] of Object.entries(calls)) {
    assert.throws(fn, (e) => e instanceof TrackerFreedError && /the tracker was freed/.test(e.message), name);
  }
  // Even with a hostile argument, the freed state is what is reported.
  assert.throws(() => t.decline("c1", 42), TrackerFreedError);
});

test("a trap (a real out-of-memory) is reported as TrackerTrappedError; the snapshot stays readable; free() does not throw", () => {
  const t = pendingTracker();
  const before = t.snapshot();
  const original = WasmTracker.prototype.feedJson;
  WasmTracker.prototype.feedJson = () => {
    throw new WebAssembly.RuntimeError("unreachable");
  };
  try {
    assert.throws(
      () => t.pushJson("{}"),
      (e) => e instanceof TrackerTrappedError && e.cause instanceof WebAssembly.RuntimeError && /trapped \(unreachable\)/.test(e.message),
    );
  } finally {
    WasmTracker.prototype.feedJson = original;
  }
  assert.equal(t.snapshot(), before);
  assert.throws(() => t.answer("c1", "x"), TrackerTrappedError);
  assert.throws(() => t.toolMessages(), TrackerTrappedError);
  assert.doesNotThrow(() => t.free());
  assert.doesNotThrow(() => t.free());
  // Other trackers are unaffected.
  const u = pendingTracker();
  u.answer("c1", "fine");
  u.free();
});

/**
 * Runs `body` (ESM, the package's exports in scope as `pkg`) in a fresh
 * Node process, stopped after 30 s: a corrupted wasm memory may loop
 * forever, and a test must fail then, not hang. What `body` prints, parsed.
 */
function isolated(body) {
  const entry = new URL("../../pkg/index.js", import.meta.url).href;
  const source = `const pkg = await import(${JSON.stringify(entry)});\n${body}`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", source], { encoding: "utf8", timeout: 30_000 });
  assert.equal(child.error?.code, undefined, `the process was stopped: ${child.error?.message}`);
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout);
}

// Three trackers with a call open, a hostile chunk pushed to a fourth,
// then the three read on: each must show exactly its own text. Printed:
// the fourth's outcome and the three calls' texts.
const bystanders = (attack) => `
  const { ToolCallTracker } = pkg;
  const events = (id, delta) => [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "TOOL_CALL_START", toolCallId: id, toolCallName: "f" },
    { type: "TOOL_CALL_ARGS", toolCallId: id, delta },
  ];
  const sseOf = (list) => list.map((e) => "data: " + JSON.stringify(e) + "\\n\\n").join("");
  const others = ["a", "b", "c"].map((id) => {
    const t = new ToolCallTracker();
    for (const e of events(id, '{"k":"' + id)) t.push(e);
    return t;
  });
  const bytes = new TextEncoder().encode(sseOf(events("x", '{"k":"' + "y".repeat(3000))));
  const target = new ToolCallTracker();
  let outcome;
  try {
    ${attack}
    outcome = { text: target.snapshot().calls[0]?.argsText.length ?? 0 };
  } catch (error) {
    outcome = { error: error.name + ": " + error.message };
  }
  const texts = others.map((t, i) => {
    t.push({ type: "TOOL_CALL_ARGS", toolCallId: "abc"[i], delta: '!"}' });
    return t.push({ type: "TOOL_CALL_END", toolCallId: "abc"[i] }).calls[0].argsText;
  });
  const fresh = new ToolCallTracker();
  fresh.pushSse(sseOf(events("z", "{}")));
  console.log(JSON.stringify({ outcome, texts, fresh: fresh.snapshot().calls[0].argsText }));
`;

const untouched = { texts: ['{"k":"a!"}', '{"k":"b!"}', '{"k":"c!"}'], fresh: "{}" };

test("a Uint8Array subclass whose length lies is read by its real bytes, and other trackers' memory stays whole", () => {
  const result = isolated(
    bystanders(`
      class Liar extends Uint8Array {
        get length() { return 1; }
        get byteLength() { return 1; }
      }
      target.pushSse(new Liar(bytes));
    `),
  );
  assert.deepEqual(result, { outcome: { text: 3006 }, ...untouched });
});

test("a Uint8Array whose own length or prototype lies is read by its real bytes, and other trackers' memory stays whole", () => {
  for (const attack of [
    `Object.defineProperty(bytes, "length", { value: 1 }); target.pushSse(bytes);`,
    `Object.setPrototypeOf(bytes, Object.create(Uint8Array.prototype, { length: { get: () => 1 } })); target.pushSse(bytes);`,
  ]) {
    assert.deepEqual(isolated(bystanders(attack)), { outcome: { text: 3006 }, ...untouched }, attack);
  }
});

test("a Proxy whose length changes between reads is refused, naming the argument, and other trackers' memory stays whole", () => {
  const result = isolated(
    bystanders(`
      let reads = 0;
      const proxy = new Proxy(bytes, {
        get(real, key) {
          if (key === "length" || key === "byteLength") return reads++ === 0 ? 1 : real.length;
          const value = Reflect.get(real, key);
          return typeof value === "function" ? value.bind(real) : value;
        },
      });
      target.pushSse(proxy);
    `),
  );
  assert.deepEqual(result, { outcome: { error: "TypeError: pushSse(chunk): chunk must be a string or a Uint8Array (got object)" }, ...untouched });
});

test("pushSse of a view whose buffer was transferred is a TypeError naming the argument", () => {
  const t = new ToolCallTracker();
  for (const make of [(b) => new Uint8Array(b, 2, 4), (b) => new DataView(b), (b) => b]) {
    const buffer = new ArrayBuffer(8);
    const chunk = make(buffer);
    structuredClone(buffer, { transfer: [buffer] });
    assert.throws(() => t.pushSse(chunk), { name: "TypeError", message: "pushSse(chunk): chunk's ArrayBuffer was detached (transferred)" });
  }
  // Views of every kind are read by their bytes.
  const text = sse([runStarted()]);
  const bytes = new TextEncoder().encode(text);
  t.pushSse(new DataView(bytes.buffer, 0, 10));
  t.pushSse(new Uint16Array(bytes.buffer.slice(10, 20)));
  t.pushSse(bytes.buffer.slice(20));
  assert.equal(t.snapshot().run.status, "running");
  t.free();
});
