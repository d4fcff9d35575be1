// The stream checker on recordings as people make them: curl captures, HAR
// files, gzip; recordings cut off or mixing formats; inputs that are too
// large or unreadable; many warnings; the argument diagnostics; SARIF
// against its schema. Run as users run it: a child process on the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { root, pkgDir, fixturesDir } from "./support/paths.mjs";
import { check, checkJson, checkMeasured, cli, ev, finished, scratch, started } from "./support/checker-cli.mjs";

const streamsDir = path.join(root, "examples", "streams");
const captures = path.join(streamsDir, "captures");
const { dir: tmp, write } = scratch("agui-inputs-");

const MB = 1024 * 1024;

test("blank lines before the first event are counted, not kept (24 MB of them in constant memory)", { timeout: 120_000 }, async () => {
  const file = write("blank-start.jsonl", "\n".repeat(24 * MB) + started + ev({ type: "TOOL_CALL_ARGS", toolCallId: "c9", delta: "{}" }));
  const { status, stdout, peak } = await checkMeasured(["--format", "json", file]);
  assert.equal(status, 2);
  const [stream] = JSON.parse(stdout).streams;
  const t1 = stream.violations.find((v) => v.code === "T1");
  assert.equal(t1.line, 24 * MB + 2, "lines are still counted");
  assert.ok(peak < 100 * MB, `peak RSS ${(peak / MB).toFixed(1)} MB`);
});

test("blank lines, CR line ends and spaces before the first event keep the lines of text/event-stream", () => {
  const file = write("blank-start.sse", "\r\n\r\r\n  \n" + 'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n' + 'data: {"type":"TOOL_CALL_END","toolCallId":"x"}\n\n');
  const [stream] = checkJson([file]).report.streams;
  assert.equal(stream.format, "sse");
  // "\r\n", "\r", "\r\n", "  \n": four blank lines before the first event.
  assert.deepEqual(stream.violations.map((v) => [v.code, v.line]), [["T2", 7]]);
});

test("a hundred-thousand-fold warning is counted by rule, and kept once with its count", () => {
  const n = 100_000;
  const file = write("many-warnings.jsonl", started + ev({ type: "NOT_AN_EVENT" }).repeat(n) + finished);
  const { report, status } = checkJson([file]);
  const [stream] = report.streams;
  assert.equal(status, 0);
  assert.equal(stream.verdict, "warnings");
  assert.deepEqual(stream.counts, { E3: n });
  assert.equal(stream.severities.warning, n);
  // The tracker keeps repeats of one warning as one entry with a count.
  assert.deepEqual(stream.violations.map((v) => [v.code, v.count]), [["E3", n]]);
  assert.equal(stream.summary.violations, undefined, "no second, empty list in the summary");
  assert.equal(stream.omitted?.E3, undefined, "a counted repeat is shown, not omitted");
  const text = check([file]).stdout;
  const lines = text.split("\n").filter((l) => l.includes("warning[E3]"));
  assert.equal(lines.length, 1);
  assert.match(lines[0], /100000 times/);
});

test("a missing, a too-large, a corrupt and a directory input are each reported, and the others still checked", () => {
  const good = path.join(streamsDir, "reopen.jsonl");
  const missing = path.join(tmp, "no-such.jsonl");
  const long = write("long-line.jsonl", started + ev({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "x".repeat(5000) }) + finished);
  const corrupt = write("corrupt.jsonl.gz", gzipSync(started).subarray(0, 12));
  const dir = path.join(tmp, "a-directory");
  mkdirSync(dir, { recursive: true });
  const har = write("big.har", JSON.stringify({ log: { entries: [{ request: {}, response: { content: { mimeType: "text/event-stream", text: "x".repeat(4000) } } }] } }));
  const { report, status, stderr } = checkJson(["--max-line-bytes", "1000", "--max-capture-bytes", "3000", missing, long, corrupt, dir, har, good]);
  assert.equal(status, 2);
  const byFile = Object.fromEntries(report.streams.map((s) => [path.basename(s.file), s]));
  assert.equal(byFile["reopen.jsonl"].verdict, "clean");
  assert.equal(byFile["no-such.jsonl"].verdict, "unreadable");
  assert.equal(byFile["a-directory"].verdict, "unreadable");
  assert.equal(byFile["corrupt.jsonl.gz"].verdict, "unreadable");
  assert.match(byFile["big.har"].error, /over the limit of 3000 bytes \(--max-capture-bytes\)/);
  const r3 = byFile["long-line.jsonl"].violations.find((v) => v.code === "R3");
  assert.deepEqual([r3.severity, r3.line], ["fatal", 2]);
  assert.equal(byFile["long-line.jsonl"].verdict, "fatal");
  assert.equal(stderr.split("\n").filter((l) => l.startsWith("error: ")).length, 4, stderr);
});

test("r2_a_text_event_stream_file_with_json_lines_in_it_is_reported_not_trimmed", () => {
  const file = write(
    "mixed.sse",
    'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"x"}\n{"type":"TOOL_CALL_END","toolCallId":"c1"}\ndata: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n',
  );
  const { report, status, stdout } = { ...checkJson([file]), stdout: check([file]).stdout };
  assert.equal(status, 1);
  assert.deepEqual(report.streams[0].violations.map((v) => [v.code, v.severity, v.line]), [["R2", "violation", 3], ["R2", "violation", 4]]);
  assert.match(stdout, /mixed\.sse:3: violation\[R2\]: a JSON Lines event in a text\/event-stream file/);
});

test("r2_a_json_lines_file_with_event_stream_lines_in_it_is_reported", () => {
  const file = write("mixed.jsonl", started + 'data: {"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"x"}\n' + finished);
  const { report, status } = checkJson([file]);
  assert.equal(status, 1);
  assert.deepEqual(report.streams[0].violations.map((v) => [v.code, v.line]), [["R2", 2]]);
  assert.equal(report.streams[0].summary.eventsSeen, 2, "the foreign line is not fed as an event");
});

test("r1_a_recording_cut_off_mid_call_is_a_violation_naming_the_open_call", () => {
  const file = write("cut.jsonl", started + ev({ type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" }) + ev({ type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"q":"dep' }));
  const { stdout, status } = check([file]);
  assert.equal(status, 1);
  assert.ok(stdout.includes(`${file}:3: violation[R1]: the recording ends inside run "r", with call "c1" still open (cut off?) (event 2)`), stdout);
  const run = write("cut-run.jsonl", started);
  const [s] = checkJson([run]).report.streams;
  assert.deepEqual(s.violations.map((v) => [v.code, v.openCalls]), [["R1", []]]);
  const [fragment] = checkJson(["--fragment", file]).report.streams;
  assert.equal(fragment.violations[0].severity, "violation", "a fragment too: the calls are left open");
  // An event-stream capture cut inside an event: the event is never dispatched, and R1 says so.
  const sse = write("cut.sse", 'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\ndata: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n');
  const [cutSse] = checkJson([sse]).report.streams;
  assert.deepEqual(cutSse.violations.map((v) => [v.code, v.line]), [["R1", 1], ["R1", 3]]);
  assert.match(cutSse.violations[1].message, /^the recording ends inside an event that no blank line ends/);
  const whole = checkJson([path.join(streamsDir, "reopen.jsonl")]).report.streams[0];
  assert.equal(whole.violations.length, 0, "a finished recording has no R1");
});

test("s1_every_schema_failure_is_a_diagnostic_line_with_path_and_keyword", () => {
  const tools = write("tools.json", JSON.stringify([{ name: "deploy", parameters: { type: "object", required: ["service"], properties: { replicas: { type: "integer", maximum: 10 } } } }]));
  const file = write("schema.jsonl", started + ev({ type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "deploy" }) + ev({ type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"replicas":50}' }) + ev({ type: "TOOL_CALL_END", toolCallId: "c1" }) + finished);
  const { stdout, status } = check(["--tools", tools, file]);
  assert.equal(status, 1, "a frontend call's broken arguments are a violation");
  assert.match(stdout, new RegExp(`schema\\.jsonl:4: violation\\[S1\\]: arguments of "deploy" fail the schema at "": required: .*service.* \\(event 3, toolCallId "c1"\\)`));
  assert.match(stdout, /schema\.jsonl:4: violation\[S1\]: arguments of "deploy" fail the schema at "\/replicas": maximum: /);
  const [s] = checkJson(["--tools", tools, file]).report.streams;
  assert.deepEqual(s.violations.map((v) => [v.code, v.schemaPath, v.keyword]), [["S1", "", "required"], ["S1", "/replicas", "maximum"]]);
  assert.equal(s.summary.calls[0].append, undefined, "no change-record plumbing in the report");
});

test("s5_schema_failures_past_the_first_100_are_one_finding_with_their_count", () => {
  const tools = write("list-tools.json", JSON.stringify([{ name: "list", parameters: { type: "array", items: { type: "string" } } }]));
  const file = write("many-failures.jsonl", started + ev({ type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "list" }) + ev({ type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: JSON.stringify(Array(250).fill(0)) }) + ev({ type: "TOOL_CALL_END", toolCallId: "c1" }) + finished);
  const [s] = checkJson(["--tools", tools, file]).report.streams;
  assert.equal(s.counts.S1, 250, "the 100 kept and the 150 counted");
  const { stdout } = check(["--tools", tools, file]);
  assert.match(stdout, /fail the schema at "\/0": type: /);
});

test("t6_arguments_that_do_not_parse_are_a_warning_for_backend_calls_and_a_violation_for_frontend_calls", () => {
  const file = path.join(streamsDir, "broken-t8-reopen-other-name.jsonl");
  const [s] = checkJson([file]).report.streams;
  const t6 = s.violations.find((v) => v.code === "T6");
  assert.deepEqual([t6.severity, t6.eventIndex, t6.line, t6.toolCallId], ["warning", 6, 7, "call_1"]);
  const tools = write("search-tool.json", JSON.stringify([{ name: "search_docs" }]));
  const [front] = checkJson(["--tools", tools, file]).report.streams;
  assert.equal(front.violations.find((v) => v.code === "T6").severity, "violation");
});

test("a curl --raw -i capture with a chunked body is decoded, its lines mapped to the capture's", () => {
  const { report, status } = checkJson([path.join(captures, "curl-raw-chunked.txt")]);
  assert.equal(status, 0);
  const [s] = report.streams;
  assert.deepEqual([s.format, s.containers, s.summary.eventsSeen, s.verdict], ["sse", ["http"], 34, "clean"]);
  assert.match(s.notes[0], /chunked transfer coding decoded/);
  // A broken stream, chunked mid-line: each diagnostic names the capture line its data: line starts on.
  const body = 'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\ndata: {"type":"TOOL_CALL_END","toolCallId":"a"}\n\n';
  const chunks = [body.slice(0, 30), body.slice(30, 70), body.slice(70)].map((p) => `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n`).join("") + "0\r\n\r\n";
  const capture = write("chunked.txt", "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks);
  const [b] = checkJson([capture]).report.streams;
  const t2 = b.violations.find((v) => v.code === "T2");
  const lines = readFileSync(capture, "utf8").split(/\r\n|\r|\n/);
  assert.ok(lines[t2.line - 1].startsWith('data: {"type"') && !lines[t2.line - 1].includes("RUN_STARTED"), `line ${t2.line}: ${lines[t2.line - 1]}`);
});

test("r1_a_curl_v_capture_cut_off_mid_call_is_read_past_curl_s_notes", () => {
  const file = path.join(captures, "curl-v-cut-off.txt");
  const { report, status } = checkJson([file]);
  assert.equal(status, 1);
  const [s] = report.streams;
  assert.deepEqual([s.format, s.containers, s.summary.eventsSeen], ["jsonl", ["http"], 6]);
  assert.deepEqual(s.violations.map((v) => [v.code, v.line, v.openCalls]), [["R1", 20, ["call_1"]]]);
  assert.match(readFileSync(file, "utf8").split("\n")[19], /"TOOL_CALL_ARGS"/);
});

test("a HAR file: each event-stream entry is a stream named by method, URL and index; the others are noted", () => {
  const file = path.join(captures, "devtools.har");
  const { report, status } = checkJson([file]);
  assert.equal(status, 2);
  assert.deepEqual(
    report.streams.map((s) => [path.basename(s.file), s.name, s.format, s.verdict]),
    [
      ["devtools.har#2", "POST http://127.0.0.1:8787/agent #2", "sse", "fatal"],
      ["devtools.har#3", "POST http://127.0.0.1:8787/agent?run=2 #3", "jsonl", "clean"],
    ],
  );
  assert.deepEqual(report.streams[0].violations.map((v) => [v.code, v.line]), [["T6", 13], ["T8", 15]]);
  assert.equal(report.streams[0].notes.length, 2);
  assert.match(report.streams[0].notes[0], /^skipped entry 0 \(GET http:\/\/127\.0\.0\.1:5173\/ #0\): text\/html/);
  const none = write("none.har", JSON.stringify({ log: { version: "1.2", entries: [{ request: { method: "GET", url: "http://x/" }, response: { content: { mimeType: "text/html", text: "<p>" } } }] } }));
  const r = check([none]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /no AG-UI stream among the 1 entries.*\nnote: skipped entry 0 \(GET http:\/\/x\/ #0\)/);
});

test("gzip files are read through, whatever they hold", () => {
  for (const name of ["warnings-results.jsonl", "subagent-chunks.sse", "captures/devtools.har"]) {
    const plain = checkJson([path.join(streamsDir, name)]).report.streams;
    const gz = write(path.basename(name) + ".gz", gzipSync(readFileSync(path.join(streamsDir, name))));
    const zipped = checkJson([gz]).report.streams;
    assert.deepEqual(zipped.map((s) => s.violations), plain.map((s) => s.violations), name);
    assert.deepEqual(zipped.map((s) => s.containers[0]), plain.map(() => "gzip"), name);
  }
});

test("the SARIF log names files relative to the working directory and is valid against the SARIF 2.1.0 schema", async () => {
  const files = [path.join(streamsDir, "warnings-results.jsonl"), "broken-l4-run-finished-with-open-call.jsonl", path.join(captures, "devtools.har"), path.join(tmp, "missing.jsonl")];
  const { stdout } = check(["--format", "sarif", ...files], { cwd: streamsDir });
  const log = JSON.parse(stdout);
  const [run] = log.runs;
  assert.equal(run.originalUriBaseIds.CWD.uri, pathToFileURL(streamsDir + path.sep).href);
  const uris = run.results.map((r) => r.locations[0].physicalLocation.artifactLocation);
  for (const a of uris) assert.equal(a.uriBaseId, "CWD");
  assert.deepEqual([...new Set(uris.map((a) => a.uri))], ["warnings-results.jsonl", "broken-l4-run-finished-with-open-call.jsonl", "captures/devtools.har"]);
  const missing = run.invocations[0].toolExecutionNotifications[0].locations[0].physicalLocation.artifactLocation;
  assert.equal(missing.uri, path.relative(streamsDir, path.join(tmp, "missing.jsonl")).split(path.sep).join("/"));
  const harResult = run.results.find((r) => r.ruleId === "T8");
  assert.equal(harResult.locations[0].physicalLocation.region, undefined, "a HAR body's line is no line of the file");
  assert.equal(harResult.properties.bodyLine, 15);

  const errors = await sarifSchemaErrors(log);
  assert.deepEqual(errors, []);
  const broken = structuredClone(log);
  delete broken.runs[0].tool.driver.name;
  broken.runs[0].results[0].level = "fatal";
  assert.deepEqual((await sarifSchemaErrors(broken)).map((e) => e.path).sort(), ["/runs/0/results/0/level", "/runs/0/tool/driver"], "the schema check bites");
});

/** The SARIF schema's errors for `log`, by the package's own validator (a tool whose parameters are the schema). */
async function sarifSchemaErrors(log) {
  const { ToolCallTracker } = await import(pathToFileURL(path.join(pkgDir, "index.js")).href);
  const text = readFileSync(path.join(fixturesDir, "sarif", "sarif-2.1.0-rtm.5.json"), "utf8");
  // The schema's one pattern that ECMA-262 refuses under the u flag (see fixtures/sarif/README.md).
  const schema = JSON.parse(text.replaceAll("^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$", "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$"));
  const tracker = new ToolCallTracker({ tools: [{ name: "sarif_log", description: "", parameters: schema }] });
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  tracker.push({ type: "TOOL_CALL_START", toolCallId: "log", toolCallName: "sarif_log" });
  tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "log", delta: JSON.stringify(log) });
  const [call] = tracker.push({ type: "TOOL_CALL_END", toolCallId: "log" }).calls;
  assert.notEqual(call.validation, "unvalidated", "the schema compiled");
  return call.validation === "valid" ? [] : call.argsError.errors;
}

test("a curl --raw capture of a gzip-coded body is decoded", () => {
  const body = gzipSync(readFileSync(path.join(streamsDir, "warnings-results.jsonl")));
  const file = write("raw-gzip.txt", Buffer.concat([Buffer.from("HTTP/1.1 200 OK\r\ncontent-type: application/x-ndjson\r\ncontent-encoding: gzip\r\n\r\n"), body]));
  const [s] = checkJson([file]).report.streams;
  const plain = checkJson([path.join(streamsDir, "warnings-results.jsonl")]).report.streams[0];
  assert.deepEqual(s.violations, plain.violations, "lines are the decoded body's");
  assert.match(s.notes[0], /gzip content coding decoded/);
});

test("a violation the core already aggregated counts as its count (either way, the verdict and totals agree)", async () => {
  const { Diagnostics } = await import(pathToFileURL(path.join(pkgDir, "check", "diagnostics.js")).href);
  const { textReport } = await import(pathToFileURL(path.join(pkgDir, "check", "report", "text.js")).href);
  const found = new Diagnostics();
  found.add({ code: "E3", severity: "warning", message: 'unknown event type "X" passed over', eventIndex: 4, line: 5, count: 5000 });
  for (let i = 0; i < 30; i++) found.add({ code: "T10", severity: "warning", message: "m", eventIndex: 10 + i, line: 11 + i });
  assert.deepEqual(found.totals, { fatal: 0, violation: 0, warning: 5030 });
  assert.deepEqual(found.counts(), { E3: 5000, T10: 30 });
  assert.deepEqual(found.omitted(), { T10: { count: 30, shown: 20 } }, "the aggregated E3 is shown whole");
  assert.equal(found.verdict, "warnings");
  const result = { label: "x.jsonl", format: "jsonl", containers: [], summary: { run: { status: "finished" }, eventsSeen: 50, calls: [] }, pending: [], violations: found.list(), omitted: found.omitted(), verdict: found.verdict, notes: [] };
  const text = textReport([result], { streams: 1, clean: 0, warnings: 1, violations: 0, fatal: 0, unreadable: 0 }, false);
  assert.match(text, /^x\.jsonl:5: warning\[E3\]: unknown event type "X" passed over \(event 4, 5000 times\)$/m);
});

test("a gzipped 50 MB stream is decompressed as it is read, in under 100 MB of resident memory", async () => {
  const lines = [];
  for (let r = 0; r < 40; r++) {
    lines.push(started.replace('"r"', `"r${r}"`), ev({ type: "TEXT_MESSAGE_START", messageId: `m${r}`, role: "assistant" }));
    for (let d = 0; d < 200; d++) lines.push(ev({ type: "TEXT_MESSAGE_CONTENT", messageId: `m${r}`, delta: "word ".repeat(40) }));
    lines.push(ev({ type: "TEXT_MESSAGE_END", messageId: `m${r}` }), finished.replace('"r"', `"r${r}"`));
  }
  const block = Buffer.from(lines.join("")); // 40 runs, about 1.8 MB
  const copies = Math.ceil((50 * MB) / block.length);
  const file = write("large.jsonl.gz", gzipSync(Buffer.concat(Array(copies).fill(block))));
  const { status, stdout, peak } = await checkMeasured(["--format", "json", file]);
  assert.equal(status, 0, stdout);
  const [s] = JSON.parse(stdout).streams;
  assert.deepEqual([s.containers, s.summary.eventsSeen, s.verdict], [["gzip"], copies * 40 * 204, "clean"]);
  assert.ok(peak < 100 * MB, `peak RSS ${(peak / MB).toFixed(1)} MB`);
});

test("s5_an_event_of_many_data_lines_is_bounded_like_a_line_when_collected", () => {
  // Each data line is short; together, with no blank line, they pass the line limit.
  const file = write("many-data-lines.sse", `data: ${started.trim()}\n\n` + "data: 0123456789\n".repeat(50));
  const [s] = checkJson(["--format", "json", "--fragment", "--max-line-bytes", "100", file]).report.streams;
  const r3 = s.violations.filter((v) => v.code === "R3");
  assert.equal(r3.length, 1);
  assert.equal(r3[0].line, 3, "the line of the event's first data field");
  assert.match(r3[0].message, /over the limit of 100 \(--max-line-bytes\)/);
  assert.equal(s.violations.some((v) => v.code === "S5"), false, "reported once, as R3");
});

test("s5_the_checker_lowers_the_event_limit_only_below_the_trackers_default", async () => {
  // stream.js keeps a copy of the core's default maxEventBytes (4 MiB) to
  // tell whether --max-line-bytes is the lower limit: a line just over the
  // default is the tracker's S5 under a higher line limit, R3 under a lower.
  const { checkChunks } = await import("../../pkg/check/stream.js");
  const line = new TextEncoder().encode(`data: ${started.trim()}\n\ndata: ${"x".repeat(4 * MB)}\n\n`);
  const codes = async (maxLineBytes) => {
    async function* chunks() {
      yield line;
    }
    const [s] = await checkChunks("long.sse", chunks(), { fragment: true }, { limits: { maxLineBytes } });
    return s.violations.filter((v) => v.severity === "fatal").map((v) => [v.code, v.line]);
  };
  assert.deepEqual(await codes(4 * MB + 100), [["S5", 3]]);
  assert.deepEqual(await codes(4 * MB - 100), [["R3", 3]]);
});

test("s5_the_trackers_own_event_limit_in_an_event_stream_is_named_at_its_line", async () => {
  // maxEventBytes below --max-line-bytes: the tracker's S5, at the line of the event it cut.
  const { checkChunks } = await import("../../pkg/check/stream.js");
  const text = `: hello\n\ndata: ${started.trim()}\n\n` + "data: " + "x".repeat(3000) + "\n\n";
  async function* chunks() {
    yield new TextEncoder().encode(text);
  }
  const [s] = await checkChunks("long-event.sse", chunks(), { fragment: true, limits: { maxEventBytes: 1000 } });
  const s5 = s.violations.find((v) => v.code === "S5");
  assert.deepEqual([s5.severity, s5.line], ["fatal", 5]);
  assert.equal(s.violations.some((v) => v.code === "R3"), false);
});
