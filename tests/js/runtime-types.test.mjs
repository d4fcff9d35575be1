// The declarations describe what the package really hands out: snapshots,
// calls (as `toJSON` gives them), tool messages, violations and the next
// run's input, taken from real streams, are written out as TypeScript
// literals annotated with the declared types and checked by `tsc --strict`.
// A field the runtime has and the types lack (excess property), a field the
// types require and the runtime lacks, or a value outside a declared union
// fails the check.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ToolCallTracker } from "../../pkg/index.js";
import { root } from "./support/paths.mjs";

const tsc = path.join(root, "node_modules", ".bin", "tsc");
const streams = path.join(root, "examples", "streams");

const events = (name) =>
  readFileSync(path.join(streams, name), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));

/** A value as a TypeScript expression; own keys holding `undefined` are kept. */
function literal(value) {
  if (value === undefined) return "undefined";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  const entries = Object.keys(value).map((k) => `${JSON.stringify(k)}: ${literal(value[k])}`);
  return `{ ${entries.join(", ")} }`;
}

/** What the runtime gave, as typed declarations to check. */
class Samples {
  lines = [];
  #n = 0;
  add(type, value) {
    this.lines.push(`export const v${this.#n++}: ${type} = ${literal(value)};`);
  }
  snapshot(s) {
    const { calls, openCalls, completedCalls, pendingCalls, ...rest } = s;
    this.add(`Omit<Snapshot, "calls" | "openCalls" | "completedCalls" | "pendingCalls">`, rest);
    for (const call of calls) this.add("ToolCallJSON", call.toJSON());
    // The derived lists hold the same objects as `calls`, so each must fit its narrower type.
    for (const call of openCalls) this.add(`Extract<ToolCallJSON, { status: "open" }>`, call.toJSON());
    for (const call of [...completedCalls, ...pendingCalls]) this.add(`Extract<ToolCallJSON, { status: "complete" }>`, call.toJSON());
  }
  /** Pushes every event, sampling each new snapshot; a fatal stops the stream. */
  replay(tracker, list) {
    for (const event of list) {
      try {
        this.snapshot(tracker.push(event));
      } catch (error) {
        this.add("Violation", error.violation);
        this.snapshot(tracker.snapshot());
        return;
      }
    }
  }
}

function collect() {
  const samples = new Samples();
  const confirm = events("frontend-round-trip.jsonl")[0].input.tools[0];

  // A frontend round trip: pending calls answered and declined, then the next run.
  const roundTrip = new ToolCallTracker();
  const [first, ...rest] = events("frontend-round-trip.jsonl");
  samples.replay(roundTrip, [first, ...rest.slice(0, rest.findIndex((e) => e.type === "RUN_FINISHED") + 1)]);
  for (const call of roundTrip.snapshot().pendingCalls) {
    roundTrip.approve(call.id);
    roundTrip.answer(call.id, "Deployed.");
  }
  samples.snapshot(roundTrip.snapshot());
  samples.add("ToolMessage[]", roundTrip.toolMessages());
  const next = roundTrip.nextRun({ threadId: first.threadId, runId: "run_next", messages: first.input.messages, tools: [confirm], context: [], state: {}, forwardedProps: {} });
  samples.add("RunAgentInput", next);

  // Subagents and chunks, results and warnings, reopening, parallel calls.
  for (const name of ["subagent-chunks.jsonl", "warnings-results.jsonl", "warnings-frontend.jsonl", "reopen.jsonl", "parallel-calls.jsonl", "backend-tools.jsonl"]) {
    samples.replay(new ToolCallTracker(), events(name));
  }
  // Fatal streams: the violation and the snapshot it leaves.
  for (const name of ["broken-t8-reopen-other-name.jsonl", "broken-l4-run-finished-with-open-call.jsonl"]) {
    samples.replay(new ToolCallTracker(), events(name));
  }

  // Arguments invalid for their schema and text that does not parse; an
  // interrupted run; a run that errors mid-call; one the user stops.
  const tools = [{ name: "confirm_deploy", description: "Deploy", parameters: confirm.parameters }];
  const run = (runId) => ({ type: "RUN_STARTED", threadId: "t", runId });
  const call = (id, delta) => [
    { type: "TOOL_CALL_START", toolCallId: id, toolCallName: "confirm_deploy" },
    { type: "TOOL_CALL_ARGS", toolCallId: id, delta },
    { type: "TOOL_CALL_END", toolCallId: id },
  ];
  const checked = new ToolCallTracker({ tools });
  samples.replay(checked, [
    run("r1"),
    ...call("bad", '{"service":1}'),
    ...call("broken", '{"service":'),
    { type: "RUN_FINISHED", threadId: "t", runId: "r1", outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "confirm" }] } },
  ]);
  checked.decline("bad", "invalid");
  checked.decline("broken", "invalid");
  samples.snapshot(checked.snapshot());
  const errored = new ToolCallTracker({ tools });
  samples.replay(errored, [run("r1"), call("c", "{")[0], call("c", '{"serv')[1], { type: "RUN_ERROR", message: "boom", code: "E" }]);
  const aborted = new ToolCallTracker({ tools });
  samples.replay(aborted, [run("r1"), call("c", "{")[0], call("c", '{"serv')[1]]);
  samples.snapshot(aborted.abortRun("stopped"));
  const fragment = new ToolCallTracker({ fragment: true });
  samples.replay(fragment, [call("f", "{}")[0]]);
  return samples.lines;
}

test("n2_runtime_snapshots_calls_and_messages_match_the_declarations", () => {
  const lines = collect();
  assert.ok(lines.length > 100, `only ${lines.length} samples`);
  const dir = path.join(root, "target", "runtime-types");
  mkdirSync(dir, { recursive: true });
  const header = 'import type { Snapshot, ToolCallJSON, ToolMessage, RunAgentInput, Violation } from "agui-tool-calls";\n';
  writeFileSync(path.join(dir, "runtime.ts"), header + lines.join("\n") + "\n");
  const config = { extends: path.join(root, "tests", "js", "types", "tsconfig.json"), files: ["runtime.ts"] };
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(config));
  const result = spawnSync(tsc, ["-p", dir], { encoding: "utf8" });
  assert.equal(result.status, 0, (result.stdout + result.stderr).slice(0, 4000));
});
