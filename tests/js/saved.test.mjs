// Saving a thread in JS: tracker.save() is plain JSON that, after a page
// reload, ToolCallTracker.restore(saved, { messages }) (or restore then
// load) brings back: open interrupts, consent and standing approvals,
// answers no run carried yet, violations. A hostile or corrupted value is
// refused naming the field, never traps, and leaves the tracker usable.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
// The full entry: the main entry's module leaves `load` out (the last
// tests, each in a process of its own, since a page loads one module).
import { ToolCallRefusedError, ToolCallTracker } from "../../pkg/full.js";
import { runStarted, runFinished, start, args, end, result } from "./support/events.mjs";

const DEPLOY = {
  name: "deploy",
  description: "Deploy a service",
  parameters: { type: "object", properties: { service: { type: "string" } }, required: ["service"] },
};
const PICK = { name: "pick", description: "Pick", parameters: { type: "object" } };
const options = { tools: [DEPLOY, PICK], requireApproval: ["deploy"] };
const VALID = '{"service":"a"}';

/** What the application keeps of the thread: the user's message and the assistant message with its calls. */
const history = [
  { id: "u1", role: "user", content: "deploy" },
  {
    id: "a1",
    role: "assistant",
    toolCalls: [
      ["d1", "deploy", VALID],
      ["d2", "deploy", VALID],
      ["p1", "pick", "{}"],
      ["b1", "transfer", "{}"],
    ].map(([id, name, a]) => ({ id, type: "function", function: { name, arguments: a } })),
  },
];

/** Run r1 streamed those calls and stopped for b1's approval; the user remembered d1's approval, answered p1, resolved the interrupt. */
function lived() {
  const tracker = new ToolCallTracker(options);
  tracker.push(runStarted("r1"));
  for (const c of history[1].toolCalls) for (const e of [start(c.id, c.function.name, { parentMessageId: "a1" }), args(c.id, c.function.arguments), end(c.id)]) tracker.push(e);
  tracker.push(result("nobody", "stray"));
  tracker.push(runFinished("r1", { outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "tool_call", toolCallId: "b1" }] } }));
  tracker.approve("d1", { remember: "tool" });
  tracker.answer("p1", "blue");
  tracker.resolveInterrupt("i1", { approved: true });
  return tracker;
}

test("f8_save_then_restore_after_a_reload_brings_back_what_history_alone_cannot", () => {
  const before = lived();
  const saved = before.save();
  assert.equal(saved.version, 1);
  // Plain JSON: it survives storage as text.
  const stored = JSON.stringify(saved);
  const after = ToolCallTracker.restore(JSON.parse(stored), { ...options, messages: history });
  const [a, b] = [after.snapshot(), before.snapshot()];
  assert.deepEqual(a.interrupts, b.interrupts);
  assert.deepEqual(a.standingApprovals, [{ tool: "deploy", toolCallId: "d1" }]);
  assert.deepEqual(a.violations, b.violations);
  const decided = (s) => s.calls.map(({ id, consent, consentFrom, awaitingInterrupt, pending }) => ({ id, consent, consentFrom, awaitingInterrupt, pending }));
  assert.deepEqual(decided(a), decided(b));
  assert.equal(a.calls.find((c) => c.id === "d2").consentFrom, "d1");
  assert.deepEqual(after.toolMessages(), before.toolMessages());
  assert.deepEqual(after.save(), saved, "nothing lost, nothing added");
  // The text form loads too, into a tracker that restored the history itself.
  const other = new ToolCallTracker(options);
  other.restore({ messages: history });
  other.load(stored);
  assert.deepEqual(other.save(), saved);
  // The conversation goes on: answer what is left, resume, next run.
  after.answer("d1", "deployed");
  after.answer("d2", "deployed");
  const next = after.nextRun({ threadId: "t1", runId: "r2", messages: history });
  assert.deepEqual(next.resume, [{ interruptId: "i1", status: "resolved", payload: { approved: true } }]);
  after.push(runStarted("r2"));
  for (const e of [start("d3", "deploy"), args("d3", VALID), end("d3")]) after.push(e);
  assert.equal(after.snapshot().calls.find((c) => c.id === "d3").consentFrom, "d1");
});

function refusedLoad(tracker, saved, pattern) {
  const before = tracker.snapshot();
  const error = assert.throws(() => tracker.load(saved), ToolCallRefusedError) ?? capture(() => tracker.load(saved));
  assert.equal(error.kind, "invalidSaved");
  assert.match(error.message, pattern);
  assert.equal(tracker.snapshot(), before, "refused whole: the snapshot is the same object");
}
function capture(op) {
  try {
    op();
  } catch (error) {
    return error;
  }
}

test("s5_a_hostile_saved_value_is_refused_naming_the_field_never_traps_and_the_tracker_stays_usable", () => {
  const good = lived().save();
  const tracker = new ToolCallTracker(options);
  tracker.restore({ messages: history });
  const edit = (f) => {
    const v = structuredClone(good);
    f(v);
    return v;
  };
  let deep = [];
  for (let i = 0; i < 100_000; i++) deep = [deep];
  const cases = [
    [edit((v) => (v.version = 99)), /"saved\.version" is above 1: saved by a newer version/],
    [edit((v) => delete v.version), /missing field "saved\.version"/],
    [edit((v) => (v.calls[0].id = 5)), /"saved\.calls\[0\]\.id" must be a string/],
    [edit((v) => (v.calls[0].id = "x".repeat(5000))), /"saved\.calls\[0\]\.id" exceeds the limit of 1024 \(limits\.maxIdBytes\)/],
    [edit((v) => v.calls.push(v.calls[0])), /"saved\.calls\[\d\]\.id" repeats an earlier id/],
    // Deep nesting as text: the core reads it without recursion.
    [`{"version":1,"calls":${"[".repeat(100_000)}${"]".repeat(100_000)}}`, /"saved\.calls\[0\]" must be an object/],
    [edit((v) => (v.violations = new Array(5000).fill(v.violations[0]))), /"saved\.violations" must hold at most 1002 entries/],
    [edit((v) => (v.interrupts[0].status = 1)), /"saved\.interrupts\[0\]\.status" must be a string/],
    [edit((v) => (v.standingApprovals[0].toolCallId = "p1")), /"saved\.standingApprovals\[0\]\.toolCallId" names no call to its tool/],
    ["{", /not JSON/],
    [edit((v) => (v.calls[0].answer = { messageId: "u1", content: "x" })), /"saved\.calls\[0\]\.answer\.messageId" is already used/],
  ];
  for (const [saved, pattern] of cases) refusedLoad(tracker, saved, pattern);
  // What JSON cannot spell, or the engine cannot walk, is a TypeError naming the argument; nothing crosses.
  const cyclic = edit(() => {});
  cyclic.self = cyclic;
  for (const bad of [cyclic, edit((v) => (v.calls = deep)), { version: 1n }, 7, null, [good]]) {
    const before = tracker.snapshot();
    assert.throws(() => tracker.load(bad), (e) => e instanceof TypeError && /load\(saved\)/.test(e.message));
    assert.equal(tracker.snapshot(), before);
  }
  assert.throws(() => ToolCallTracker.restore(good, 5), TypeError);
  assert.throws(() => ToolCallTracker.restore({ version: 2 }, { ...options, messages: history }), ToolCallRefusedError);
  // Usable: the good value loads and the thread goes on.
  tracker.load(good);
  assert.equal(tracker.snapshot().interrupts[0].status, "resolved");
  tracker.push(runStarted("r2"));
});

test("f8_save_is_refused_nowhere_and_a_running_tracker_refuses_load", () => {
  const tracker = new ToolCallTracker(options);
  tracker.push(runStarted("r1"));
  const saved = tracker.save();
  assert.deepEqual(saved, { version: 1, interrupts: [], calls: [], standingApprovals: [], violations: [] });
  assert.throws(() => tracker.load(saved), (e) => e instanceof ToolCallRefusedError && e.kind === "runActive");
});

/**
 * Runs `body` in a fresh Node process that has imported the package's
 * `entries` in turn (`index.js`, `full.js`), each in scope as `entry0`,
 * `entry1`...; `delayed` entries are imported after `init()` resolved.
 * What `body` prints, parsed, and what the process wrote to stderr.
 */
function page(entries, body, delayed = []) {
  const url = (name) => JSON.stringify(new URL(`../../pkg/${name}`, import.meta.url).href);
  const source = [
    ...entries.map((name, i) => `const entry${i} = await import(${url(name)});`),
    "await entry0.init();",
    ...delayed.map((name) => `await import(${url(name)});`),
    `const options = ${JSON.stringify(options)}, messages = ${JSON.stringify(history)};`,
    body,
  ].join("\n");
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", source], { encoding: "utf8", timeout: 30_000 });
  assert.equal(child.status, 0, child.stderr);
  return { ...JSON.parse(child.stdout), stderr: child.stderr };
}

/** In `page`: a reloaded page's tracker loads what a first one saved, and prints the outcome. */
const reload = `
  const { ToolCallTracker } = entry0;
  const first = new ToolCallTracker(options);
  first.restore({ messages });
  first.approve("d1", { remember: "tool" });
  const saved = first.save();
  const reloaded = new ToolCallTracker(options);
  reloaded.restore({ messages });
  const before = JSON.stringify(reloaded.snapshot());
  let refused = null;
  try {
    reloaded.load(saved);
  } catch (e) {
    refused = { name: e.name, kind: e.kind, message: e.message, path: "path" in e };
  }
  let restoreRefused = null;
  try {
    ToolCallTracker.restore(saved, { ...options, messages }).free();
  } catch (e) {
    restoreRefused = e.kind;
  }
  const consent = reloaded.snapshot().calls.find((c) => c.id === "d1").consent;
  console.log(JSON.stringify({ saved, refused, restoreRefused, unchanged: JSON.stringify(reloaded.snapshot()) === before, consent }));
`;

test("f8_the_main_entrys_module_refuses_a_saved_thread_naming_the_full_entry_and_changes_nothing", () => {
  const out = page(["index.js"], reload);
  assert.deepEqual(out.refused, {
    name: "ToolCallRefusedError",
    kind: "invalidSaved",
    message: "the saved thread cannot be restored: this module leaves them out (import the tracker from agui-tool-calls/full)",
    path: false,
  });
  assert.equal(out.restoreRefused, "invalidSaved");
  assert.equal(out.unchanged, true);
  // The main entry saves: what it saved loads through the full entry.
  assert.deepEqual(out.saved.standingApprovals, [{ tool: "deploy", toolCallId: "d1" }]);
  const reloaded = ToolCallTracker.restore(out.saved, { ...options, messages: history });
  assert.deepEqual(reloaded.snapshot().standingApprovals, [{ tool: "deploy", toolCallId: "d1" }]);
  reloaded.free();
});

test("f8_a_page_with_both_entries_runs_the_full_module_whichever_it_imports_first_and_a_late_import_warns", () => {
  for (const entries of [["index.js", "full.js"], ["full.js", "index.js"]]) {
    const out = page(entries, reload);
    assert.equal(out.refused, null, entries.join(" then "));
    assert.equal(out.restoreRefused, null, entries.join(" then "));
    assert.equal(out.consent, "approved", entries.join(" then "));
    assert.equal(out.stderr, "", entries.join(" then "));
  }
  // The module is chosen once: the full entry imported after the main
  // entry's module loaded changes nothing, and says so as it is imported.
  const late = page(["index.js"], reload, ["full.js"]);
  assert.equal(late.refused?.kind, "invalidSaved");
  assert.equal(
    late.stderr,
    "agui-tool-calls: agui-tool-calls/full was imported after init() loaded the main entry's module, which cannot load saved threads: import agui-tool-calls/full before calling init()\n",
  );
});
