// npm run fuzz -- [seconds per target] [target...] [-- libFuzzer flags...]
//
// Runs the cargo-fuzz targets of fuzz/ one after the other (one process, one
// job each), for the given time (default 60 s), and prints for each target
// the executions, the time and the crashes found. Installs nightly Rust and
// cargo-fuzz first, idempotently. Seeds each corpus from examples/streams/
// the first time. Corpora, crash artifacts and logs stay under fuzz/
// (gitignored). docs/fuzzing.md says more.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { capture, main, root, run } from "./lib.mjs";

const TARGETS = ["tracker_events", "sse_split", "args_reader", "schema", "json_syntax", "plain_args", "saved_load"];
const fuzzDir = path.join(root, "fuzz");

// Every run uses the same build flags, so `build` once means no rebuild:
// cargo-fuzz's default (release, debug assertions, overflow checks, ASan).
const FLAGS = [];

// Long enough for any single input of a healthy target; a `pattern` that
// backtracks for longer is a hang worth reporting.
// One job in one worker process: the machine's cores are shared.
const DEFAULT_LIBFUZZER = ["-jobs=1", "-workers=1", "-timeout=10", "-rss_limit_mb=4096", "-max_len=16384"];

function parseArgs(argv) {
  const split = argv.indexOf("--");
  const own = split < 0 ? argv : argv.slice(0, split);
  const extra = split < 0 ? [] : argv.slice(split + 1);
  let seconds = 60;
  const targets = [];
  for (const arg of own) {
    if (/^\d+$/.test(arg)) seconds = Number(arg);
    else if (TARGETS.includes(arg)) targets.push(arg);
    else throw new Error(`unknown argument ${arg} (targets: ${TARGETS.join(", ")})`);
  }
  return { seconds, targets: targets.length ? targets : TARGETS, extra };
}

function ensureTools() {
  const toolchains = capture("rustup", ["toolchain", "list"]) ?? "";
  if (!/^nightly/m.test(toolchains)) {
    run("rustup", ["toolchain", "install", "nightly", "--profile", "minimal"]);
  }
  if (capture("cargo", ["fuzz", "--version"]) === null) {
    run("cargo", ["install", "cargo-fuzz"]);
  }
}

/** Events of the example streams, one JSON text each. */
function exampleEvents() {
  const dir = path.join(root, "examples", "streams");
  const streams = [];
  for (const name of fs.readdirSync(dir).sort()) {
    if (!/\.(jsonl|sse)$/.test(name)) continue;
    const text = fs.readFileSync(path.join(dir, name), "utf8");
    if (name.endsWith(".jsonl")) {
      streams.push({ name, events: text.split("\n").filter((l) => l.trim()) });
    } else if (name.endsWith(".sse")) {
      streams.push({ name, sse: text });
    }
  }
  return streams;
}

/** Seed inputs per target, in each target's input format (see its header). */
function seeds() {
  const out = { sse_split: [], args_reader: [], schema: [], tracker_events: [], json_syntax: [], plain_args: [], saved_load: [] };
  const zero = Buffer.from([0]);
  for (const stream of exampleEvents()) {
    if (stream.sse) {
      out.sse_split.push(Buffer.concat([zero, Buffer.from(stream.sse)]));
      continue;
    }
    const sse = stream.events.map((e) => `data: ${e}\n\n`).join("");
    const head = '{"type":"TOOL_CALL_ARGS",';
    for (const line of stream.events) {
      out.json_syntax.push(Buffer.from(line));
      if (line.startsWith(head)) out.plain_args.push(Buffer.from(line.slice(head.length)));
    }
    out.sse_split.push(Buffer.concat([zero, Buffer.from(sse)]));
    const args = new Map();
    for (const line of stream.events) {
      let event;
      try {
        event = JSON.parse(line);
      } catch {
        continue;
      }
      if ((event.type === "TOOL_CALL_ARGS" || event.type === "TOOL_CALL_CHUNK") && typeof event.delta === "string") {
        const id = event.toolCallId ?? "lane";
        args.set(id, (args.get(id) ?? "") + event.delta);
      }
      for (const tool of event.input?.tools ?? []) {
        if (tool.parameters) out.schema.push(Buffer.from(JSON.stringify(tool.parameters)));
      }
    }
    for (const text of args.values()) out.args_reader.push(Buffer.concat([zero, Buffer.from(text)]));
  }
  const schemas = [
    [{ type: "object", required: ["service"], properties: { service: { type: "string", pattern: "^[a-z]+$" } } }, { service: "checkout" }],
    [{ $defs: { n: { type: "integer", minimum: 0 } }, type: "array", items: { $ref: "#/$defs/n" }, uniqueItems: true }, [1, 2, 2]],
    [{ $schema: "http://json-schema.org/draft-07/schema#", definitions: { a: { type: "string" } }, items: [{ $ref: "#/definitions/a" }], additionalItems: false }, ["x", 1]],
    [{ anyOf: [{ const: 1 }, { enum: [null, "a"] }], not: { type: "boolean" }, if: { type: "string" }, then: { minLength: 2 }, else: { multipleOf: 0.5 } }, "a"],
    [{ type: "object", patternProperties: { "^x-": { type: "number" } }, propertyNames: { maxLength: 5 }, dependentRequired: { a: ["b"] }, minProperties: 1 }, { "x-1": 2, a: 1 }],
  ];
  for (const [schema, instance] of schemas) {
    out.schema.push(Buffer.concat([Buffer.from(JSON.stringify(schema)), zero, Buffer.from(JSON.stringify(instance))]));
  }
  // Large instances: the instance, a zero byte, then `k` (two bytes, little-endian) copies of it in an array.
  const large = [
    [{ type: "array", items: { type: "string" } }, 0, 65535],
    [{ type: "array", items: { required: ["n".repeat(1000)] } }, {}, 65535],
    [{ items: { enum: Array.from({ length: 500 }, (_, i) => `v${i}`) }, uniqueItems: true }, "w", 40000],
    [{ items: { anyOf: [{ maximum: 1, exclusiveMaximum: true }, { $ref: "#" }] }, unevaluatedItems: false }, [1], 20000],
  ];
  for (const [schema, instance, copies] of large) {
    const k = Buffer.from([copies & 255, copies >> 8]);
    out.schema.push(Buffer.concat([Buffer.from(JSON.stringify(schema)), zero, Buffer.from(JSON.stringify(instance)), zero, k]));
  }
  // Saved threads for the history of `saved_load`, a flag byte first (1: tiny limits).
  const interrupt = { id: "i1", reason: "tool_call", toolCallId: "d2", responseSchema: { type: "object" } };
  const saved = [
    { version: 1 },
    {
      version: 1,
      interrupts: [{ interrupt, status: "resolved", payload: { ok: true } }, { interrupt: { id: "i2", reason: "input_required" }, status: "open" }],
      calls: [
        { id: "d1", consent: "approved", answer: { messageId: "m1", content: "done" } },
        { id: "d2", consent: "approved", consentFrom: "d1" },
      ],
      standingApprovals: [{ tool: "deploy", toolCallId: "d1" }],
      violations: [{ code: "T2", severity: "warning", eventIndex: 3, message: "m", count: 2 }],
    },
    { version: 1, calls: [{ id: "d1", consent: "declined" }, { id: "p1", answer: { messageId: "m2", content: [{ type: "text", text: "x" }], error: "e" } }] },
  ];
  for (const value of saved) {
    for (const flag of [0, 1]) out.saved_load.push(Buffer.concat([Buffer.from([flag]), Buffer.from(JSON.stringify(value))]));
  }
  return out;
}

/** Writes the seeds of a corpus that does not exist yet. */
function seedCorpus(target, inputs) {
  const dir = path.join(fuzzDir, "corpus", target);
  if (fs.existsSync(dir)) return dir;
  fs.mkdirSync(dir, { recursive: true });
  inputs.forEach((input, i) => fs.writeFileSync(path.join(dir, `seed-${String(i).padStart(3, "0")}`), input));
  return dir;
}

function artifacts(target) {
  const dir = path.join(fuzzDir, "artifacts", target);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => /^(crash|timeout|oom|leak|slow-unit)-/.test(f));
}

/** The figures of libFuzzer's final stats (`-print_final_stats=1`). */
function stats(log) {
  const stat = (name) => Number(log.match(new RegExp(`stat::${name}:\\s+(\\d+)`))?.[1] ?? NaN);
  const done = log.match(/Done (\d+) runs in (\d+) second/);
  return {
    executions: stat("number_of_executed_units"),
    perSecond: stat("average_exec_per_sec"),
    peakRssMb: stat("peak_rss_mb"),
    doneLine: done ? done[0] : null,
  };
}

function fuzz(target, seconds, extra, corpus) {
  const started = Date.now();
  const stamp = new Date(started).toISOString().replace(/[:.]/g, "-");
  // With -jobs, libFuzzer writes the job's output to fuzz-0.log in its
  // working directory: one directory per run keeps them apart.
  const runDir = path.join(fuzzDir, "logs", `${target}-${stamp}`);
  fs.mkdirSync(runDir, { recursive: true });
  const before = new Set(artifacts(target));
  const args = ["+nightly", "fuzz", "run", "--fuzz-dir", fuzzDir, ...FLAGS, target, corpus, "--",
    `-max_total_time=${seconds}`, "-print_final_stats=1", ...DEFAULT_LIBFUZZER, ...extra];
  console.log(`\n$ cargo ${args.join(" ")}`);
  const result = spawnSync("cargo", args, { cwd: runDir, encoding: "utf8", maxBuffer: 1 << 30 });
  const minutes = (Date.now() - started) / 60000;
  const jobLog = path.join(runDir, "fuzz-0.log");
  const log = `${result.stdout ?? ""}${result.stderr ?? ""}${fs.existsSync(jobLog) ? fs.readFileSync(jobLog, "utf8") : ""}`;
  const logFile = path.join(runDir, "run.log");
  fs.writeFileSync(logFile, log);
  const found = artifacts(target).filter((f) => !before.has(f));
  return { target, minutes, status: result.status, logFile, found, ...stats(log) };
}

main(async () => {
  const { seconds, targets, extra } = parseArgs(process.argv.slice(2));
  ensureTools();
  const all = seeds();
  run("cargo", ["+nightly", "fuzz", "build", ...FLAGS]);
  const results = [];
  for (const target of targets) {
    const corpus = seedCorpus(target, all[target]);
    const r = fuzz(target, seconds, extra, corpus);
    results.push(r);
    console.log(
      `${target}: ${r.executions} executions in ${r.minutes.toFixed(1)} min` +
        ` (${r.perSecond}/s, peak ${r.peakRssMb} MB), ${r.found.length} crash(es)` +
        `${r.found.length ? `: ${r.found.join(", ")}` : ""}; log ${path.relative(root, r.logFile)}`,
    );
  }
  console.log("\ntarget          executions   minutes  crashes");
  for (const r of results) {
    console.log(`${r.target.padEnd(15)} ${String(r.executions).padStart(10)}  ${r.minutes.toFixed(1).padStart(8)}  ${String(r.found.length).padStart(7)}`);
  }
  if (results.some((r) => r.found.length || r.status !== 0)) {
    throw new Error("a target crashed or failed; see the artifacts under fuzz/artifacts/ and the logs");
  }
});
