// A randomized walk through the public API: random events (good, bad and
// unknown; through push, pushJson and pushSse) interleaved with random
// application calls (good ids, unknown ids, hostile values). Seeded, so a
// failure names the seed and step that reproduce it. After every step: no
// trap, the derived lists agree with `calls`, and the identity rules of N1
// hold (an unchanged tracker returns the identical snapshot, an unchanged
// call keeps its identical object).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ToolCallTracker, ToolCallStreamError, ToolCallRefusedError, TrackerTrappedError } from "../../pkg/index.js";

/** mulberry32: a small seeded PRNG. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOOLS = [
  { name: "confirm", parameters: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
  { name: "search", parameters: { type: "object", properties: { q: { type: "string" } } } },
];
const NAMES = ["confirm", "search", "backend_tool"];
const IDS = ["c0", "c1", "c2", "c3", "c4"];
const DELTAS = ["true}", "sm\\u00e9", '"}', "2]", "}", "]}}", '"', "null", " ", "\ud83d", "\ude00", "1e5", ","];
const HOSTILE = [undefined, null, 42, NaN, 10n, Symbol("s"), {}, [], new Error("x"), { toJSON() { throw new Error("boom"); } }];

/** What the derived lists must be: `calls` filtered, in order, the same objects. */
function checkDerived(s, where) {
  assert.ok(Object.isFrozen(s) && Object.isFrozen(s.calls) && Object.isFrozen(s.violations), where);
  const filter = (keep) => s.calls.filter(keep);
  const same = (list, expected, name) => {
    assert.equal(list.length, expected.length, `${where}: ${name} length`);
    list.forEach((c, i) => assert.equal(c, expected[i], `${where}: ${name}[${i}]`));
  };
  same(s.openCalls, filter((c) => c.status === "open"), "openCalls");
  same(s.completedCalls, filter((c) => c.status === "complete"), "completedCalls");
  same(s.pendingCalls, filter((c) => c.pending), "pendingCalls");
  for (const c of s.calls) {
    assert.ok(Object.isFrozen(c), `${where}: call frozen`);
    if (c.status === "open") void c.partialArgs;
    else assert.equal(c.partialArgs, undefined, `${where}: no partialArgs once closed`);
    if (c.pending) assert.equal(c.status, "complete", `${where}: pending calls are complete`);
  }
  for (const v of s.violations) assert.ok(Number.isSafeInteger(v.count) && v.count >= 1, `${where}: violation count`);
}

/** What a call shows; a call whose signature did not change must keep its object. */
const signature = (c) =>
  JSON.stringify([c.id, c.name, c.status, c.argsText, c.argsError, c.advertised, c.validation, c.consent, c.pending, c.reopened, c.result, c.results, c.runId, c.subagentRunId, c.parentMessageId]);

function walk(seed, steps) {
  const rand = prng(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  let tracker;
  let runs = 0;
  let notified = [];
  /** What the walk met, so a walk that tests nothing fails. */
  const seen = { fatal: 0, typeErrors: 0, refusedByCore: 0, answered: 0, maxCalls: 0, pending: 0 };
  const fresh = () => {
    tracker?.free();
    tracker = new ToolCallTracker({ tools: TOOLS, requireApproval: rand() < 0.5 ? ["confirm"] : [] });
    notified = [];
    tracker.subscribe((s) => notified.push(s));
  };
  fresh();

  /** Mostly what a producer sends next (a few broken or unknown events), so walks go deep. */
  let nextId = 0;
  const event = () => {
    const s = tracker.snapshot();
    const open = s.openCalls;
    const r = rand();
    if (r < 0.03) return pick([42, "text", null, [], { type: "TOOL_CALL_START", toolCallId: 5 }, { type: "TOOL_CALL_END", toolCallId: "nope" }]);
    if (r < 0.08) return { type: pick(["NOT_A_TYPE", "ALSO_NOT", "CUSTOM"]), name: "x", value: 1 };
    if (s.run.status !== "running") return { type: "RUN_STARTED", threadId: "t", runId: `r${++runs}` };
    if (r < 0.25 || (!open.length && r < 0.5)) {
      return { type: "TOOL_CALL_START", toolCallId: `c${nextId++}`, toolCallName: pick(NAMES) };
    }
    if (open.length && r < 0.7) {
      const c = pick(open);
      const delta = c.argsText === "" ? pick(['{"ok":', '{"q":"wa', "[1,", '{"x":{"y":[']) : pick(DELTAS);
      return rand() < 0.1 ? { type: "TOOL_CALL_CHUNK", toolCallId: c.id, delta } : { type: "TOOL_CALL_ARGS", toolCallId: c.id, delta };
    }
    if (open.length && r < 0.85) return { type: "TOOL_CALL_END", toolCallId: pick(open).id };
    if (s.completedCalls.length && r < 0.9) {
      const c = pick(s.completedCalls);
      return { type: "TOOL_CALL_RESULT", messageId: `m${nextId++}`, toolCallId: c.id, content: "out", role: "tool" };
    }
    return rand() < 0.8 ? { type: "RUN_FINISHED", threadId: "t", runId: `r${runs}` } : { type: "RUN_ERROR", message: "failed" };
  };

  const application = () => {
    const pending = tracker.snapshot().pendingCalls;
    const id = pending.length && rand() < 0.7 ? pick(pending).id : rand() < 0.9 ? pick(IDS) : pick(HOSTILE);
    switch (Math.floor(rand() * 7)) {
      case 0: return tracker.approve(id);
      case 1: return tracker.decline(id, rand() < 0.8 ? "no" : pick(HOSTILE));
      case 2: return tracker.answer(id, rand() < 0.8 ? pick(["done", [{ type: "text", text: "ok" }]]) : pick(HOSTILE));
      case 3: return tracker.fail(id, "broke", rand() < 0.8 ? undefined : pick(HOSTILE));
      case 4: return tracker.startRun({ threadId: "t", runId: `r${runs + 1}`, messages: tracker.toolMessages(), tools: TOOLS });
      case 5: return tracker.startRun(rand() < 0.5 ? pick(HOSTILE) : { threadId: "t", runId: 7, messages: [] });
      default: return tracker.snapshot();
    }
  };

  for (let step = 0; step < steps; step++) {
    let last = "an application call";
    const where = () => `seed ${seed} step ${step} (${typeof last === "object" ? JSON.stringify(last) : String(last)})`;
    const before = tracker.snapshot();
    const heard = notified.length;
    let error;
    try {
      if (rand() < 0.65) {
        const e = event();
        last = e;
        const how = rand();
        if (how < 0.6) tracker.push(e);
        else if (how < 0.8) tracker.pushJson(JSON.stringify(e) ?? "null");
        else tracker.pushSse(`data: ${JSON.stringify(e)}\n\n`);
      } else {
        application();
      }
    } catch (e) {
      error = e;
    }
    assert.ok(!(error instanceof WebAssembly.RuntimeError) && !(error instanceof TrackerTrappedError), `${where()}: ${error}`);
    if (error !== undefined) {
      const known = error instanceof ToolCallStreamError || error instanceof ToolCallRefusedError || error instanceof TypeError || error instanceof RangeError || (error?.constructor === Error && /not JSON/.test(error.message));
      assert.ok(known, `${where()}: unexpected ${error?.name}: ${error?.message}`);
      if (error instanceof ToolCallStreamError) seen.fatal++;
      else if (error instanceof TypeError) seen.typeErrors++;
      else seen.refusedByCore++;
    }
    const after = tracker.snapshot();
    checkDerived(after, where());
    seen.maxCalls = Math.max(seen.maxCalls, after.calls.length);
    seen.pending += after.pendingCalls.length ? 1 : 0;
    seen.answered += after.calls.filter((c) => c.result?.source === "application").length ? 1 : 0;
    assert.ok(after.version >= before.version, `${where()}: version never goes back`);
    if (after.version === before.version) assert.equal(after, before, `${where()}: an unchanged tracker returns the identical snapshot`);
    else assert.equal(notified.at(-1), after, `${where()}: listeners heard the new snapshot`);
    if (after === before) assert.equal(notified.length, heard, `${where()}: no notification without a change`);
    assert.equal(tracker.snapshot(), after, `${where()}: snapshot() is stable`);
    for (let i = 0; i < before.calls.length; i++) {
      if (signature(before.calls[i]) === signature(after.calls[i])) {
        assert.ok(after.calls[i] === before.calls[i], `${where()}: unchanged call ${before.calls[i].id} keeps its object`);
      }
    }
    if (after.fatal) fresh();
  }
  tracker.free();
  for (const [what, n] of Object.entries(seen)) assert.ok(n > 0, `seed ${seed}: the walk met no ${what}: ${JSON.stringify(seen)}`);
  return seen;
}

for (const seed of [1, 2, 3, 20261201]) {
  test(`n1_random_events_and_application_calls_never_trap_and_keep_snapshots_consistent (seed ${seed})`, () => walk(seed, 2500));
}
