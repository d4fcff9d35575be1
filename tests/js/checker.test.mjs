// The stream checker, `agui-tool-calls check`, run as users run it: a child
// process on the built package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { root, pkgDir, fixturesDir } from "./support/paths.mjs";
import { check, checkJson, cli } from "./support/checker-cli.mjs";

const streamsDir = path.join(root, "examples", "streams");
const fixtures = path.join(fixturesDir, "checker");
const expected = JSON.parse(readFileSync(path.join(streamsDir, "expected.json"), "utf8"));
const streamFiles = readdirSync(streamsDir).filter((f) => f.endsWith(".jsonl") || f.endsWith(".sse"));
// The rules RULES.md gives the severity "warning"; every other non-fatal one is a violation.
const WARNINGS = new Set(["T10", "T12", "F7", "E3"]);

const tmp = mkdtempSync(path.join(tmpdir(), "agui-check-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));

const examplePaths = streamFiles.map((f) => path.join(streamsDir, f));
const exampleReport = checkJson(examplePaths);
const streamOf = (name) => exampleReport.report.streams.find((s) => path.basename(s.file) === name);

// expected.json holds the core's verdicts; the checker's own findings about
// the recording and the arguments (`source: "checker"`) are tested below.
function verdictOf(stream) {
  const core = stream.violations.filter((v) => v.source !== "checker");
  const fatal = core.find((v) => v.severity === "fatal") ?? null;
  return {
    fatal: fatal?.code ?? null,
    fatalEventIndex: fatal?.eventIndex ?? null,
    violations: core.filter((v) => v.severity !== "fatal").map((v) => v.code),
    pending: stream.pending,
  };
}

// Where the tracker and the hand-written verdicts of expected.json part ways
// (none at present): file name -> why, to keep the gap visible as a todo.
const KNOWN_GAPS = {};

for (const name of streamFiles) {
  test(`example ${name} gets the verdict of expected.json`, { todo: KNOWN_GAPS[name] }, () => {
    const stream = streamOf(name);
    assert.ok(stream, `${name} is in the report`);
    assert.deepEqual(verdictOf(stream), expected[name]);
  });
}

test("every example stream exits with the status its verdict calls for", () => {
  for (const name of streamFiles) {
    const want = expected[name];
    const status = want.fatal ? 2 : want.violations.some((code) => !WARNINGS.has(code)) ? 1 : 0;
    assert.equal(check([path.join(streamsDir, name)]).status, status, name);
  }
  assert.equal(exampleReport.status, 2, "a fatal stream among many makes the run exit 2");
});

test("every violation names the line its event began on", () => {
  for (const stream of exampleReport.report.streams) {
    for (const v of stream.violations) {
      if (stream.format === "jsonl") {
        // The examples have no blank lines: event i is on line i + 1.
        assert.equal(v.line, v.eventIndex + 1, `${stream.file} ${v.code}`);
      } else {
        const lines = readFileSync(stream.file, "utf8").split(/\r\n|\r|\n/);
        assert.match(lines[v.line - 1], /^data:/, `${stream.file} ${v.code}`);
      }
    }
  }
});

test("the text report shows compiler-style diagnostics, a call table and a summary line", () => {
  const file = path.join(streamsDir, "broken-t1-args-before-start.jsonl");
  const { stdout, status } = check([file, path.join(streamsDir, "warnings-results.jsonl")]);
  assert.equal(status, 2);
  assert.ok(stdout.includes(`${file}:5: fatal[T1]: TOOL_CALL_ARGS for call "call_1", which is not open (event 4, toolCallId "call_1")`), stdout);
  assert.match(stdout, /warnings-results\.jsonl:10: warning\[T12\]: .*\(event 9, toolCallId "call_search_1", messageId "msg_tool_2"\)/);
  assert.match(stdout, /^ {2}id +tool +status +args +validation +consent +result$/m);
  assert.match(stdout, /^ {2}call_email_1 +send_email\* +complete +46 B .*pending \(unadvertised tool\)$/m);
  assert.match(stdout, /^2 streams: 0 clean, 0 with warnings, 1 with violations, 1 fatal$/m);
  assert.doesNotMatch(stdout, /\x1b\[/, "no colour when stdout is not a terminal");
});

test("violations only (no fatal error) exit 1; warnings only exit 0", () => {
  assert.equal(check([path.join(streamsDir, "warnings-frontend.jsonl")]).status, 1);
  const warningsOnly = path.join(tmp, "warnings-only.jsonl");
  writeFileSync(
    warningsOnly,
    [
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "TOOL_CALL_RESULT", messageId: "m1", toolCallId: "call_never_seen", content: "ok" },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
    ]
      .map((e) => JSON.stringify(e))
      .join("\n") + "\n",
  );
  const { report, status } = checkJson([warningsOnly]);
  assert.deepEqual(report.streams[0].violations.map((v) => v.code), ["T10"]);
  assert.equal(report.streams[0].verdict, "warnings");
  assert.equal(status, 0);
});

test("the JSON report carries per-stream summaries and the totals", () => {
  const { report } = exampleReport;
  assert.equal(report.streams.length, streamFiles.length);
  const byVerdict = (v) => report.streams.filter((s) => s.verdict === v).length;
  assert.deepEqual(report.totals, {
    streams: streamFiles.length,
    clean: byVerdict("clean"),
    warnings: byVerdict("warnings"),
    violations: byVerdict("violations"),
    fatal: Object.values(expected).filter((v) => v.fatal).length,
    unreadable: 0,
  });
  assert.equal(report.exitCode, 2);
  const round = streamOf("frontend-round-trip.sse");
  assert.equal(round.format, "sse");
  assert.equal(round.summary.eventsSeen, 34);
  assert.equal(round.summary.calls[0].id, "call_deploy_1");
});

test("the JUnit report is well-formed XML with a suite per stream and the right failure counts", () => {
  const files = ["broken-t2-end-twice.jsonl", "warnings-results.jsonl", "reopen.jsonl"].map((f) => path.join(streamsDir, f));
  const { stdout, status } = check(["--format", "junit", ...files, path.join(fixtures, "notes.txt")]);
  assert.equal(status, 2);
  assertWellFormedXml(stdout);
  const suites = [...stdout.matchAll(/<testsuite name="([^"]*)" tests="(\d+)" failures="(\d+)" errors="(\d+)"/g)];
  assert.deepEqual(
    suites.map((m) => [path.basename(m[1]), +m[2], +m[3], +m[4]]),
    [
      ["broken-t2-end-twice.jsonl", 1, 1, 0],
      ["warnings-results.jsonl", 2, 1, 0], // T11 is a violation; T12, T10, F7 are warnings
      ["reopen.jsonl", 1, 0, 0],
      ["notes.txt", 1, 0, 1],
    ],
  );
  assert.match(stdout, /<testsuites name="agui-tool-calls check" tests="5" failures="2" errors="1">/);
  assert.match(stdout, /<failure type="T2" /);
  assert.match(stdout, /<system-out>[^<]*warning\[T12\]/);
});

test("the SARIF report is SARIF 2.1.0 with a rule per id seen and located results", () => {
  const files = ["broken-l4-run-finished-with-open-call.jsonl", "warnings-results.jsonl", "subagent-chunks.sse"];
  const { stdout, status } = check(["--format", "sarif", ...files], { cwd: streamsDir });
  assert.equal(status, 2);
  const log = JSON.parse(stdout);
  assert.equal(log.version, "2.1.0");
  assert.equal(log.runs.length, 1);
  const [run] = log.runs;
  assert.equal(run.tool.driver.name, "agui-tool-calls");
  assert.deepEqual(run.tool.driver.rules.map((r) => r.id), ["F7", "L4", "T10", "T11", "T12"]);
  for (const rule of run.tool.driver.rules) assert.ok(rule.shortDescription.text.length > 0);
  assert.deepEqual(
    run.results.map((r) => [r.ruleId, r.level, r.locations[0].physicalLocation.artifactLocation.uri, r.locations[0].physicalLocation.region.startLine]),
    [
      ["L4", "error", "broken-l4-run-finished-with-open-call.jsonl", 10],
      ["T12", "warning", "warnings-results.jsonl", 10],
      ["T10", "warning", "warnings-results.jsonl", 11],
      ["T11", "error", "warnings-results.jsonl", 19],
      ["F7", "warning", "warnings-results.jsonl", 30],
    ],
  );
  for (const r of run.results) assert.equal(run.tool.driver.rules[r.ruleIndex].id, r.ruleId);
});

test("'-' reads the stream from standard input", () => {
  const input = readFileSync(path.join(streamsDir, "subagent-chunks.sse"));
  const { report, status } = checkJson(["-"], { input });
  assert.equal(status, 0);
  assert.equal(report.streams[0].file, "<stdin>");
  assert.equal(report.streams[0].format, "sse");
  assert.deepEqual(report.streams[0].pending, ["call_deploy_1"]);
});

test("a file that is not a stream gets one error line and exit 2", () => {
  const notes = path.join(fixtures, "notes.txt");
  const { stderr, status } = check([notes]);
  assert.equal(status, 2);
  assert.equal(stderr, `error: ${notes}: not an AG-UI stream (expected JSON Lines, text/event-stream, a curl capture or a HAR file)\n`);
  const empty = path.join(tmp, "empty.jsonl");
  writeFileSync(empty, "\n\n");
  assert.equal(check([empty]).stderr, `error: ${empty}: not an AG-UI stream (expected JSON Lines, text/event-stream, a curl capture or a HAR file)\n`);
});

test("a missing file gets one error line and exit 2, and the other files are still checked", () => {
  const missing = path.join(tmp, "no-such-stream.jsonl");
  const { stderr, stdout, status } = check([missing, path.join(streamsDir, "reopen.jsonl")]);
  assert.equal(status, 2);
  assert.equal(stderr, `error: ${missing}: no such file\n`);
  assert.match(stdout, /^2 streams: 1 clean, 0 with warnings, 0 with violations, 0 fatal, 1 unreadable$/m);
});

test("usage errors exit 2 with one error line", () => {
  for (const args of [[], ["--format", "yaml", "x.jsonl"], ["--bogus", "x.jsonl"]]) {
    const { stderr, status } = check(args);
    assert.equal(status, 2, args.join(" "));
    assert.match(stderr, /^error: .+\nRun "agui-tool-calls --help" for usage\.\n$/, args.join(" "));
  }
  const help = spawnSync(process.execPath, [cli, "--help"], { encoding: "utf8" });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Usage: agui-tool-calls check/);
});

test("f1_tools_given_with_tools_mark_the_call_advertised", () => {
  const stream = path.join(fixtures, "no-input-tools.jsonl");
  const without = checkJson([stream]).report.streams[0];
  assert.equal(without.summary.calls[0].advertised, false);
  assert.deepEqual(without.violations.map((v) => v.code), ["F7"]);
  const withTools = checkJson(["--tools", path.join(fixtures, "weather-tools.json"), stream]).report.streams[0];
  assert.equal(withTools.summary.calls[0].advertised, true);
  assert.deepEqual(withTools.violations, [], "an advertised call left for the application is no F7");
  assert.deepEqual(withTools.pending, ["call_weather_1"]);
  const bad = check(["--tools", path.join(fixtures, "notes.txt"), stream]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^error: --tools .*notes\.txt: /);
});

test("l1_fragment_lets_a_stream_start_mid_run", () => {
  const fragment = path.join(tmp, "fragment.jsonl");
  writeFileSync(fragment, '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}\n{"type":"TEXT_MESSAGE_END","messageId":"m"}\n');
  assert.equal(checkJson([fragment]).report.streams[0].violations[0].code, "L1");
  assert.deepEqual(checkJson(["--fragment", fragment]).report.streams[0].violations, []);
});

test("lines are counted across CRLF, blank lines, comments, lone CR and multi-line data", () => {
  const jsonl = path.join(tmp, "crlf.jsonl");
  writeFileSync(
    jsonl,
    '\uFEFF{"type":"RUN_STARTED","threadId":"t","runId":"r"}\r\n\r\n   \n' +
      '{"type":"TOOL_CALL_ARGS","toolCallId":"c9","delta":"{}"}\r\n',
  );
  const j = checkJson([jsonl]).report.streams[0];
  assert.deepEqual([j.violations[0].code, j.violations[0].eventIndex, j.violations[0].line], ["T1", 1, 4]);

  const sse = path.join(tmp, "framing.sse");
  writeFileSync(
    sse,
    ": comment\r\nretry: 1000\r\n" + // lines 1-2
      'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\r\n\r\n' + // 3-4
      'event: message\ndata: {"type":"TOOL_CALL_START",\ndata: "toolCallId":"c1","toolCallName":"x"}\n\n' + // 5-8
      'data: {"type":"TOOL_CALL_END","toolCallId":"c1"}\r\r' + // 9-10, lone CRs
      ": keep-alive\n\nid: 5\n" + // 11-13
      'data:{"type":"TOOL_CALL_END","toolCallId":"c1"}\n\n', // 14-15
  );
  const s = checkJson([sse]).report.streams[0];
  assert.equal(s.format, "sse");
  const t2 = s.violations.find((v) => v.code === "T2");
  assert.deepEqual([t2.code, t2.eventIndex, t2.line], ["T2", 3, 14]);
  // The call's empty argument text reads as {} (rule F9): nothing to say about it.
  assert.equal(s.violations.some((v) => v.code === "T6"), false);
});

test("e1_the_core_decoder_gives_the_same_event_lines_however_the_bytes_are_split", async () => {
  const { init } = await import(pathToFileURL(path.join(pkgDir, "index.js")).href);
  const { WasmTracker } = await import(pathToFileURL(path.join(pkgDir, "tracker.js")).href);
  await init();
  const bytes = readFileSync(path.join(streamsDir, "subagent-chunks.sse"));
  // What the checker reads: `takeLines` after each chunk (log 2: lines only).
  const linesOf = (chunks) => {
    const core = new WasmTracker("{}", 2);
    const lines = [];
    try {
      for (const chunk of chunks) {
        core.feedSse(chunk);
        const [, ...entries] = JSON.parse(core.text(5, 0, 0));
        lines.push(...entries);
      }
    } finally {
      core.free();
    }
    return lines;
  };
  const whole = linesOf([bytes]);
  assert.equal(whole.length, 31, "one line per event of the capture");
  const text = bytes.toString("utf8").split(/\r\n|\r|\n/);
  for (const line of whole) assert.match(text[line - 1], /^data:/);
  const oneByOne = [...bytes].map((b) => Buffer.from([b]));
  assert.deepEqual(linesOf(oneByOne), whole);
  for (let cut = 1; cut < bytes.length; cut += 7) {
    assert.deepEqual(linesOf([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `split at ${cut}`);
  }
});

test("the line map answers for regular and irregular line steps", async () => {
  const { LineMap } = await import(pathToFileURL(path.join(pkgDir, "check", "line-map.js")).href);
  const map = new LineMap();
  const lines = [];
  let line = 1;
  for (let i = 0; i < 1000; i++) {
    line += i % 97 === 0 ? 3 : i < 500 ? 1 : 2;
    lines.push(line);
    map.record(line);
  }
  lines.forEach((l, i) => assert.equal(map.lineOf(i), l, `event ${i}`));
  assert.equal(map.lineOf(1000), null);
});

/** A well-formedness check: tags nest and close, attributes are quoted, entities are known. */
function assertWellFormedXml(xml) {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, "");
  const stack = [];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/gy;
  let m;
  while ((m = token.exec(body)) !== null) {
    if (m[6]) assert.fail(`stray "<" at ${m.index}`);
    if (m[5] !== undefined) {
      assert.doesNotMatch(m[5], /&(?!(amp|lt|gt|quot|apos|#\d+);)/, "unescaped &");
      if (stack.length === 0) assert.match(m[5], /^\s*$/, "text outside the root");
      continue;
    }
    for (const [, value] of m[3].matchAll(/="([^"]*)"/g)) assert.doesNotMatch(value, /&(?!(amp|lt|gt|quot|apos|#\d+);)/);
    if (m[1]) assert.equal(stack.pop(), m[2], `</${m[2]}> closes what is open`);
    else if (!m[4]) stack.push(m[2]);
  }
  assert.equal(token.lastIndex === 0 ? body.length : token.lastIndex, body.length, "the whole document was read");
  assert.deepEqual(stack, [], "every element is closed");
}

/** Writes a realistic recording of `bytes` or more: many runs of text and answered tool calls. */
async function writeLargeStream(file, bytes) {
  const out = createWriteStream(file);
  const words = "the deploy of checkout-api finished; replicas are healthy and latency is within budget ".repeat(3);
  let written = 0;
  let run = 0;
  const write = async (event) => {
    const line = JSON.stringify(event) + "\n";
    written += line.length;
    if (!out.write(line)) await once(out, "drain");
  };
  while (written < bytes) {
    run++;
    const runId = `run_${run}`;
    await write({ type: "RUN_STARTED", threadId: "thread_big", runId, input: { threadId: "thread_big", runId, messages: [], tools: [] } });
    for (let m = 0; m < 2; m++) {
      const messageId = `msg_${run}_${m}`;
      await write({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" });
      for (let d = 0; d < 40; d++) await write({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: words.slice(d % 40, 200 + (d % 40)) });
      await write({ type: "TEXT_MESSAGE_END", messageId });
      const toolCallId = `call_${run}_${m}`;
      await write({ type: "TOOL_CALL_START", toolCallId, toolCallName: "search_docs", parentMessageId: messageId });
      for (const delta of ['{"query":"deploy ', `run ${run}`, '","limit":', "5}"]) await write({ type: "TOOL_CALL_ARGS", toolCallId, delta });
      await write({ type: "TOOL_CALL_END", toolCallId });
      await write({ type: "TOOL_CALL_RESULT", messageId: `tool_${run}_${m}`, toolCallId, content: "3 documents found", role: "tool" });
    }
    await write({ type: "RUN_FINISHED", threadId: "thread_big", runId, outcome: { type: "success" } });
  }
  out.end();
  await once(out, "finish");
  return run;
}

test("a 50 MB stream streams through in under 100 MB of resident memory", async () => {
  const file = path.join(tmp, "large.jsonl");
  const runs = await writeLargeStream(file, 50 * 1024 * 1024);
  assert.ok(statSync(file).size >= 50 * 1024 * 1024);
  const child = spawn(process.execPath, [cli, "check", "--format", "json", file], {
    env: { ...process.env, AGUI_CHECK_REPORT_RSS: "1" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const [status] = await once(child, "close");
  assert.equal(status, 0, stderr);
  const stream = JSON.parse(stdout).streams[0];
  assert.equal(stream.verdict, "clean");
  assert.equal(stream.summary.calls.length, runs * 2);
  const peak = Number(stderr.match(/^rss-peak-bytes: (\d+)$/m)?.[1]);
  assert.ok(peak > 0, stderr);
  assert.ok(peak < 100 * 1024 * 1024, `peak RSS ${(peak / 1024 / 1024).toFixed(1)} MB`);
});

test("p1_the_checker_reads_the_python_streams_and_names_what_it_strips", () => {
  const python = path.join(root, "tests", "fixtures", "python");
  const { report } = checkJson([path.join(python, "cancelled.sse"), path.join(python, "content-parts.jsonl")]);
  // Accepted whole: nothing fatal; the checker notes the cut-off argument text
  // of the call the user stopped (T6), nothing else.
  const serious = (s) => s.violations.filter((v) => v.severity === "fatal" || v.severity === "violation").map((v) => v.code);
  assert.deepEqual(report.streams.map(serious), [["T6"], []]);
  const stripped = path.join(tmp, "stripped.jsonl");
  writeFileSync(
    stripped,
    [
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f" },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "TOOL_CALL_RESULT", messageId: "m", toolCallId: "c1", content: [{ type: "hologram" }] },
      { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "handoff" }, timestamp: 1 },
      { type: "RUN_STARTED", threadId: "t", runId: "r2", timestamp: 1712.5 },
    ]
      .map((e) => JSON.stringify(e))
      .join("\n"),
  );
  const s = checkJson([stripped]).report.streams[0];
  assert.deepEqual(s.violations.map((v) => [v.code, v.line]), [["P1", 4], ["P1", 5], ["E2", 6]]);
  assert.match(s.violations[0].message, /content\[0\]\.type "hologram"/);
  assert.match(s.violations[2].message, /field "timestamp" must be a safe integer/);
});

test("f10_the_json_report_shows_a_calls_metadata_and_leaves_its_encrypted_value_out", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "agui-f10-"));
  try {
    const file = path.join(dir, "reasoning.jsonl");
    const events = [
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search", metadata: { provider: "p" } },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: "c1", encryptedValue: "secret-sig", encryptedValueType: "t" },
      { type: "TOOL_CALL_RESULT", messageId: "m1", toolCallId: "c1", content: "ok" },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
    ];
    writeFileSync(file, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const { report, stdout } = checkJson([file]);
    const [call] = report.streams[0].summary.calls;
    assert.deepEqual(call.metadata, { provider: "p" });
    assert.equal(report.streams[0].verdict, "clean");
    assert.doesNotMatch(stdout, /secret-sig/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
