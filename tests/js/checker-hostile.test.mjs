// The checker on hostile and unusual captures, run as users run it: captures
// that used to kill Node (a line index of an entry per line, one piece per
// chunk, a HAR nesting millions deep), gzip bombs, recordings that carry
// terminal escapes, an HTTP error captured instead of a stream, a server
// whose RUN_STARTED carries no input (its tools are in the request the
// capture recorded), and the protobuf binding. Small sizes and small caps
// exercise the code paths of the heavy cases bench/captures.bench.mjs runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root, fixturesDir } from "./support/paths.mjs";
import { check, checkJson, checkMeasured, cli, ev, finished, scratch, started } from "./support/checker-cli.mjs";

const good = path.join(root, "examples", "streams", "reopen.jsonl");
const { dir: tmp, write } = scratch("agui-hostile-");
const MB = 1024 * 1024;

/** `check --format json` with its peak RSS reported: { status, report, stderr, peak }. */
async function checkJsonMeasured(args) {
  const { stdout, ...rest } = await checkMeasured(["--format", "json", ...args]);
  return { ...rest, report: JSON.parse(stdout) };
}

const byFile = (report) => Object.fromEntries(report.streams.map((s) => [path.basename(s.file), s]));

test("a curl capture of 8 MiB of blank lines is read without an entry per line, and its lines still count", async () => {
  // Before: one array entry per line start, 300 MB for these 8 MiB (128 MiB of them killed Node).
  const head = "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n\r\n";
  const file = write("blank.txt", head + "\n".repeat(8 * MB) + started + ev({ type: "TOOL_CALL_END", toolCallId: "x" }) + finished);
  const { report, peak } = await checkJsonMeasured([file, good]);
  const s = byFile(report)["blank.txt"];
  assert.deepEqual(s.violations.map((v) => [v.code, v.line]), [["T2", 3 + 8 * MB + 2]]);
  assert.equal(byFile(report)["reopen.jsonl"].verdict, "clean");
  assert.ok(peak < 130 * MB, `peak RSS ${(peak / MB).toFixed(1)} MB`);
});

test("a curl --raw capture of a million 1-byte chunks is decoded into one buffer", async () => {
  // Before: a sub-array and a pair per chunk, 340 MB for this 6 MB capture (144 MB of it killed Node).
  const body = started + "\n".repeat(1_000_000) + ev({ type: "TOOL_CALL_END", toolCallId: "x" }) + finished;
  const head = "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n";
  const bytes = Buffer.from(body);
  const framed = Buffer.alloc(bytes.length * 6);
  for (let k = 0; k < bytes.length; k++) framed.write(`1\r\n${String.fromCharCode(bytes[k])}\r\n`, k * 6, "latin1");
  const file = write("one-byte-chunks.txt", Buffer.concat([Buffer.from(head), framed, Buffer.from("0\r\n\r\n")]));
  const { report, peak } = await checkJsonMeasured([file, good]);
  const s = byFile(report)["one-byte-chunks.txt"];
  assert.match(s.notes[0], /chunked transfer coding decoded/);
  // The capture's line of the TOOL_CALL_END's first byte: its chunk's data line.
  const t2 = s.violations.find((v) => v.code === "T2");
  const lines = readFileSync(file, "latin1").split(/\r\n|\r|\n/);
  assert.equal(lines[t2.line - 1], "{", `line ${t2.line}`);
  assert.equal(byFile(report)["reopen.jsonl"].verdict, "clean");
  assert.ok(peak < 130 * MB, `peak RSS ${(peak / MB).toFixed(1)} MB`);
});

test("a HAR file nesting deeper than any HAR is refused before JSON.parse, and the next file is still checked", () => {
  const deep = write("deep.har", `{"log": {"entries": [], "x": ${"[".repeat(2000)}${"]".repeat(2000)}}}`);
  // Brackets inside strings are text, not nesting.
  const strings = write("strings.har", JSON.stringify({ log: { entries: [], note: "[".repeat(5000) + '\\"[' } }));
  const { report, status, stderr } = checkJson([deep, strings, good]);
  assert.equal(status, 2);
  const files = byFile(report);
  assert.match(files["deep.har"].error, /nest over 512 deep at byte \d+: refused before parsing/);
  assert.match(files["strings.har"].error, /no AG-UI stream among the 0 entries/);
  assert.equal(files["reopen.jsonl"].verdict, "clean");
  assert.match(stderr, /^error: .*deep\.har: arrays and objects nest over 512 deep/m);
});

test("a HAR file of millions of tiny values is refused before JSON.parse builds them", () => {
  const values = write("values.har", `{"log": {"entries": [], "x": [${"0,".repeat(8_000_001)}0]}}`);
  const { report } = checkJson([values, good]);
  assert.match(byFile(report)["values.har"].error, /over 8000000 JSON values by byte \d+: refused before parsing/);
  assert.equal(byFile(report)["reopen.jsonl"].verdict, "clean");
});

test("gzip is capped at --max-decompressed-bytes for every format, and the cap is named", () => {
  const blank = "\n".repeat(200_000);
  const jsonl = write("bomb.jsonl.gz", gzipSync(started + blank + finished));
  const sse = write("bomb.sse.gz", gzipSync(`data: ${started}\n` + blank));
  const har = write("bomb.har.gz", gzipSync(JSON.stringify({ log: { entries: [], pad: " ".repeat(200_000) } })));
  const coded = gzipSync(started + blank + finished);
  const head = `HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nContent-Encoding: gzip\r\n\r\n`;
  const curl = write("coded.txt", Buffer.concat([Buffer.from(head), coded]));
  const small = write("small.jsonl.gz", gzipSync(started + finished));
  const { report, status, stderr } = checkJson(["--max-decompressed-bytes", "100000", jsonl, sse, har, curl, small, good]);
  assert.equal(status, 2);
  const files = byFile(report);
  for (const name of ["bomb.jsonl.gz", "bomb.sse.gz", "bomb.har.gz", "coded.txt"]) {
    assert.equal(files[name].verdict, "unreadable", name);
    assert.match(files[name].error, /gzip that decompresses to more than 100000 bytes, over the limit of --max-decompressed-bytes; raise it/, name);
  }
  assert.equal(files["small.jsonl.gz"].verdict, "clean");
  assert.equal(files["reopen.jsonl"].verdict, "clean");
  assert.equal(stderr.split("\n").filter((l) => l.startsWith("error: ")).length, 4, stderr);
  // Raised, the same bomb is read.
  assert.equal(checkJson(["--max-decompressed-bytes", "1000000", jsonl]).report.streams[0].verdict, "clean");
  assert.match(check(["--max-decompressed-bytes", "0", jsonl]).stderr, /--max-decompressed-bytes takes a positive whole number/);
});

/** C0 controls but line feed, DEL, C1 controls: what a terminal obeys. */
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;

test("no escape, BEL or C1 control from a recording reaches the text report or standard error", () => {
  const title = "\x1b]0;OWNED\x07";
  const erase = "\x1b[1A\x1b[2K";
  const csi = "\u009b31m";
  const call = ev({ type: "TOOL_CALL_START", toolCallId: `c${erase}`, toolCallName: `n${title}` }) + ev({ type: "TOOL_CALL_END", toolCallId: `c${erase}` });
  const pending = write("pending.jsonl", started + call + finished);
  const jsonl = write("escapes.jsonl", started + call + `data: ${title}${csi}\n` + ev({ type: "RUN_ERROR", message: `boom${title}${csi}\x7f` }));
  const curl = write("escapes.txt", `HTTP/1.1 200 OK\r\nContent-Type: text/event-stream${title}\r\n\r\ndata: ${started}\n`);
  const har = write(
    "escapes.har",
    JSON.stringify({
      log: {
        entries: [
          { request: { method: `GET${erase}`, url: `http://x/${title}` }, response: { content: { mimeType: `text/html${csi}`, text: "<p>" } } },
          { request: { method: "POST", url: "http://x/agent" }, response: { content: { mimeType: "text/event-stream", text: `data: ${started}\n` } } },
        ],
      },
    }),
  );
  const badHar = write("bad.har", `{"log": {"entries": [${title}]}}`);
  const onlyHtml = write("html.har", JSON.stringify({ log: { entries: [{ request: { method: "GET", url: `http://x/${title}` }, response: { content: { mimeType: "text/html", text: "<p>" } } }] } }));
  const r = check([pending, jsonl, curl, har, badHar, onlyHtml]);
  assert.equal(r.status, 2);
  assert.doesNotMatch(r.stdout, CONTROL, r.stdout);
  assert.doesNotMatch(r.stderr, CONTROL, r.stderr);
  // Shown, escaped: the reader sees what the recording held.
  assert.match(r.stdout, /run errored \(boom\\x1b\]0;OWNED\\x07\\x9b31m\\x7f\)/);
  assert.match(r.stdout, /pending: c\\x1b\[1A\\x1b\[2K\n/);
  assert.match(r.stdout, /a text\/event-stream line in a JSON Lines file, not read: data: \\x1b\]0;OWNED\\x07\\x9b31m\n/);
  assert.match(r.stdout, /text\/event-stream\\x1b\]0;OWNED\\x07/);
  assert.match(r.stdout, /skipped entry 0 \(GET\\x1b\[1A\\x1b\[2K http:\/\/x\/\\x1b\]0;OWNED\\x07 #0\): text\/html\\x9b31m/);
  assert.match(r.stderr, /note: skipped entry 0 \(GET http:\/\/x\/\\x1b\]0;OWNED\\x07 #0\)/);
  // The JSON report keeps the text, with DEL and C1 as \u escapes.
  const json = check(["--format", "json", jsonl]).stdout;
  assert.doesNotMatch(json, CONTROL);
  assert.match(JSON.parse(json).streams[0].summary.run.error, /^boom\x1b\]0;OWNED\x07\u009b31m\x7f$/);
});

test("the HTML report's policy forbids forms and runs only its own script, by hash", () => {
  const out = path.join(tmp, "report.html");
  const r = check(["--format", "html", "-o", out, good]);
  assert.equal(r.status, 0, r.stderr);
  const html = readFileSync(out, "utf8");
  const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)[1];
  assert.match(csp, /form-action 'none'/);
  assert.match(csp, /base-uri 'none'/);
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.equal(scripts.length, 1);
  const hash = createHash("sha256").update(scripts[0]).digest("base64");
  assert.match(csp, new RegExp(`script-src 'sha256-${hash.replace(/[+/=]/g, "\\$&")}'(;|$)`));
  assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
});

test("-o naming a directory is a plain error, said before any checking", () => {
  const r = check(["-o", tmp, good]);
  assert.equal(r.status, 2);
  assert.equal(r.stderr, `error: cannot write the report to ${tmp}: it is a directory (-o takes a file name)\n`);
  const missing = check(["-o", path.join(tmp, "no-such-dir", "report.txt"), good]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^error: cannot write the report to .*no-such-dir.*: no such directory\n$/);
});

test("a captured HTTP error is reported as the server's answer, not as a broken stream", () => {
  const body = '{"detail":"unsupported protocol version","code":"bad_request"}';
  const curl = write("error.txt", `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n\r\n${body}\n`);
  const verbose = write("error-v.txt", `> POST /agent HTTP/1.1\n> Host: x\n>\n< HTTP/1.1 503 Service Unavailable\n< Content-Type: text/plain\n<\nupstream down\n`);
  const har = write(
    "error.har",
    JSON.stringify({ log: { entries: [{ request: { method: "POST", url: "http://x/agent" }, response: { status: 422, content: { mimeType: "application/json", text: body } } }] } }),
  );
  const coded = write("error-gzip.txt", Buffer.concat([Buffer.from("HTTP/1.1 500 Internal Server Error\r\nContent-Encoding: gzip\r\n\r\n"), gzipSync("model crashed")]));
  const { report, stderr } = checkJson([curl, verbose, har, coded]);
  const files = byFile(report);
  assert.equal(files["error-gzip.txt"].error, `${coded}: the server answered 500: model crashed`);
  assert.equal(files["error.txt"].error, `${curl}: the server answered 400: ${body}`);
  assert.equal(files["error-v.txt"].error, `${verbose}: the server answered 503: upstream down`);
  assert.match(files["error.har"].notes[0], /^skipped entry 0 \(POST http:\/\/x\/agent #0\): the server answered 422: \{"detail"/);
  assert.doesNotMatch(stderr, /E2|not an AG-UI stream/);
});

/** A stream whose RUN_STARTED carries no input, calling a frontend tool (the `ag-ui-protocol` encoder's shape). */
const noInputStream = [
  { type: "RUN_STARTED", threadId: "t", runId: "r" },
  { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "confirm_deploy" },
  { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"service":"api"}' },
  { type: "TOOL_CALL_END", toolCallId: "c1" },
  { type: "RUN_FINISHED", threadId: "t", runId: "r" },
];
const runInput = {
  threadId: "t",
  runId: "r",
  messages: [{ id: "u1", role: "user", content: "deploy" }],
  tools: [{ name: "confirm_deploy", description: "ask first", parameters: { type: "object", required: ["service"] } }],
  context: [],
  state: {},
  forwardedProps: {},
};

test("f1_the_tools_of_a_har_entry_s_request_body_are_advertised_when_run_started_carries_no_input", () => {
  const entry = (postData) => ({
    request: { method: "POST", url: "http://x/agent", ...(postData && { postData: { mimeType: "application/json", text: postData } }) },
    response: { status: 200, content: { mimeType: "text/event-stream", text: noInputStream.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") } },
  });
  const har = write("request.har", JSON.stringify({ log: { entries: [entry(JSON.stringify(runInput)), entry(null), entry("not json")] } }));
  const [withInput, without, broken] = checkJson([har]).report.streams;
  assert.equal(withInput.summary.calls[0].advertised, true);
  assert.equal(withInput.summary.calls[0].validation, "valid");
  assert.deepEqual(withInput.violations, []);
  assert.equal(withInput.verdict, "clean");
  assert.match(withInput.notes[0], /^run input read from the captured request: tools confirm_deploy, 1 message of history$/);
  // Without a request body, the call is to a tool no one advertised.
  assert.deepEqual(without.violations.map((v) => v.code), ["F7"]);
  assert.deepEqual(broken.violations.map((v) => v.code), ["F7"]);
  assert.match(broken.notes[0], /the captured request body is not JSON/);
});

test("f1_the_tools_of_a_curl_v_capture_s_request_lines_are_advertised", () => {
  const request = JSON.stringify(runInput, null, 1).split("\n").map((l) => `> ${l}`).join("\n");
  const capture = write(
    "request-v.txt",
    `> POST /agent HTTP/1.1\n> Host: x\n> Content-Type: application/json\n>\n${request}\n< HTTP/1.1 200 OK\n< Content-Type: application/x-ndjson\n<\n${noInputStream.map(ev).join("")}`,
  );
  const [s] = checkJson([capture]).report.streams;
  assert.equal(s.summary.calls[0].advertised, true);
  assert.equal(s.verdict, "clean");
});

const protoDir = path.join(fixturesDir, "proto");
const streamsDir = path.join(root, "examples", "streams");

test("a protobuf capture (application/vnd.ag-ui.event+proto) gets the verdict of its JSON twin", () => {
  for (const name of ["frontend-round-trip", "warnings-results", "broken-t8-reopen-other-name", "subagent-chunks"]) {
    const proto = checkJson([path.join(protoDir, `${name}.curl`)]);
    const json = checkJson([path.join(streamsDir, `${name}.jsonl`)]);
    assert.equal(proto.status, json.status, name);
    const [p] = proto.report.streams;
    const [j] = json.report.streams;
    assert.deepEqual([p.format, p.containers], ["jsonl", ["http"]], name);
    assert.equal(p.verdict, j.verdict, name);
    assert.deepEqual(p.counts, j.counts, name);
    assert.deepEqual(p.pending, j.pending, name);
    // A line is a frame: frame N holds event N - 1, as the JSON twin's line N does.
    assert.deepEqual(p.violations.map((v) => [v.code, v.eventIndex, v.line, v.message]), j.violations.map((v) => [v.code, v.eventIndex, v.line, v.message]), name);
    assert.deepEqual(p.summary.calls, j.summary.calls, name);
    assert.match(p.notes[1], /protobuf frames decoded/);
  }
});

test("a protobuf capture cut mid-frame is a truncated run; a frame that does not decode is fatal", () => {
  const whole = readFileSync(path.join(protoDir, "frontend-round-trip.curl"));
  const cut = write("cut.curl", whole.subarray(0, whole.length - 20));
  const [c] = checkJson([cut]).report.streams;
  assert.ok(c.notes.some((n) => /the body ends inside frame \d+, \d+ of its \d+ bytes sent \(a truncated run\)/.test(n)), c.notes.join("\n"));
  assert.ok(c.violations.some((v) => v.code === "R1"));
  const head = whole.indexOf("\r\n\r\n") + 4;
  const garbage = Buffer.from(whole);
  // The first frame's envelope tag becomes wire type 7, which no protobuf field has.
  garbage[head + 4] = 0x0f;
  const [g] = checkJson([write("garbage.curl", garbage)]).report.streams;
  assert.equal(g.verdict, "fatal");
  assert.ok(g.notes.some((n) => /frame 1 \(at byte 0 of the body\) does not decode as an AG-UI event: wire type 7/.test(n)), g.notes.join("\n"));
});

test("a protobuf capture of 200,000 frames of unknown event types is decoded as it is read, with one note for them all", () => {
  const whole = readFileSync(path.join(protoDir, "frontend-round-trip.curl"));
  const head = whole.indexOf("\r\n\r\n") + 4;
  // Empty frames (an envelope with no known arm), between the real ones.
  const empty = Buffer.alloc(4 * 200_000);
  const file = write("unknown-frames.curl", Buffer.concat([whole.subarray(0, head), empty, whole.subarray(head)]));
  const [s] = checkJson([file]).report.streams;
  const [j] = checkJson([path.join(streamsDir, "frontend-round-trip.jsonl")]).report.streams;
  assert.deepEqual([s.verdict, s.counts], [j.verdict, j.counts]);
  assert.deepEqual(s.notes.slice(1), ["protobuf frames decoded: a line is a frame (frame N on line N)", "200000 frames (the first: frame 1) held an event type this checker does not know: dropped"]);
  assert.equal(s.violations[0]?.line ?? null, j.violations[0] ? j.violations[0].line + 200_000 : null);
});

test("a HAR entry of protobuf frames (base64) is read like its curl capture", () => {
  const curl = readFileSync(path.join(protoDir, "warnings-results.curl"));
  const frames = curl.subarray(curl.indexOf("\r\n\r\n") + 4);
  const har = write(
    "proto.har",
    JSON.stringify({ log: { entries: [{ request: { method: "POST", url: "http://x/agent" }, response: { status: 200, content: { mimeType: "application/vnd.ag-ui.event+proto", encoding: "base64", text: frames.toString("base64") } } }] } }),
  );
  const [h] = checkJson([har]).report.streams;
  const [j] = checkJson([path.join(streamsDir, "warnings-results.jsonl")]).report.streams;
  assert.deepEqual(h.counts, j.counts);
  assert.equal(h.verdict, j.verdict);
});

const traces = path.join(fixturesDir, "curl-trace");

test("f1_a_curl_trace_is_read_its_request_body_the_run_input_and_a_trace_ascii_one_is_refused_saying_why", () => {
  for (const name of ["trace-hex.txt", "trace-time.txt"]) {
    const { report, status } = checkJson([path.join(traces, name)]);
    assert.equal(status, 0, name);
    const [s] = report.streams;
    assert.deepEqual([s.format, s.containers, s.summary.eventsSeen, s.verdict], ["sse", ["http"], 5, "clean"], name);
    assert.match(s.notes[0], /^HTTP 200, text\/event-stream, chunked transfer coding decoded, read from a curl trace/, name);
    assert.equal(s.notes[1], "run input read from the captured request: tools confirm_deploy, 1 message of history", name);
    assert.deepEqual(s.summary.calls.map((c) => [c.id, c.advertised, c.validation]), [["c1", true, "valid"]], name);
  }
  const ascii = check([path.join(traces, "trace-ascii.txt")]);
  assert.equal(ascii.status, 2);
  assert.match(ascii.stderr, /trace-ascii\.txt: a curl --trace-ascii capture writes the line feeds of a body as "\.", so its stream cannot be read back: capture with --trace \(hex\) instead/);
});

