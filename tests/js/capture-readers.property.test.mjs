// The checker's capture readers on random and mutated input: curl captures
// (chunked or not, -i or -v), HAR files, protobuf frames, gzip. The readers
// are JavaScript, so this stands where a cargo-fuzz target would: a seeded
// generator (the seed is in every failure message; AGUI_PROPERTY_SEED
// replays one), properties that must hold for every input, and a bound on
// the memory the whole run may take.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { root, pkgDir, fixturesDir } from "./support/paths.mjs";
const fromPkg = (name) => import(pathToFileURL(path.join(pkgDir, "check", name)).href);
const { CaptureError, parseHttpCapture } = await fromPkg("http.js");
const { HarError, harStreams } = await fromPkg("har.js");
const { framesAsJsonLines } = await fromPkg("proto.js");
const { LineIndex } = await fromPkg("line-index.js");
const { checkChunks } = await fromPkg("stream.js");

const seed = Number(process.env.AGUI_PROPERTY_SEED ?? Date.now() % 1_000_000);
const MB = 1024 * 1024;

/** mulberry32: small, seedable, good enough to spread inputs. */
function generator(s) {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(seed);
const int = (n) => Math.floor(random() * n);
const pick = (list) => list[int(list.length)];

const captures = path.join(root, "examples", "streams", "captures");
const seeds = [
  ...readdirSync(captures).map((f) => readFileSync(path.join(captures, f))),
  ...readdirSync(path.join(fixturesDir, "proto")).filter((f) => f.endsWith(".curl")).map((f) => readFileSync(path.join(fixturesDir, "proto", f))),
  ...readdirSync(path.join(fixturesDir, "curl-trace")).filter((f) => f.endsWith(".txt")).map((f) => readFileSync(path.join(fixturesDir, "curl-trace", f))),
];

/** Bytes that matter to the readers, more often than others. */
const TOKENS = ["\r\n", "\n", "\r", "0\r\n\r\n", "HTTP/1.1 200 OK\r\n", "< ", "> ", "* ", "{ [12 bytes data]", '"', "\\", "[", "]", "{", "}", ",", ":", "data: ", "Transfer-Encoding: chunked\r\n", "\x1f\x8b", "ff\r\n", "\x00\x00\x00\x05"];

function randomBytes(max) {
  const parts = [];
  for (let n = int(max); n > 0; n--) parts.push(random() < 0.5 ? Buffer.from(pick(TOKENS), "latin1") : Buffer.from([int(256)]));
  return Buffer.concat(parts);
}

/** A seed capture with a few bytes flipped, cut, repeated or inserted. */
function mutate(bytes) {
  let out = Buffer.from(bytes);
  for (let n = 1 + int(4); n > 0; n--) {
    const at = int(out.length + 1);
    switch (int(5)) {
      case 0:
        if (out.length > 0) out[Math.min(at, out.length - 1)] = int(256);
        break;
      case 1:
        out = out.subarray(0, at);
        break;
      case 2:
        out = Buffer.concat([out.subarray(0, at), randomBytes(16), out.subarray(at)]);
        break;
      case 3:
        out = Buffer.concat([out.subarray(0, at), out.subarray(at, at + int(64)), out.subarray(at)]);
        break;
      default:
        out = Buffer.concat([out.subarray(0, at), Buffer.from(pick(TOKENS), "latin1"), out.subarray(at)]);
    }
  }
  return out;
}

/** A valid chunked capture of `body` in random chunk sizes. */
function chunked(body) {
  const parts = [Buffer.from("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")];
  for (let at = 0; at < body.length; ) {
    const n = Math.min(body.length - at, 1 + int(40));
    parts.push(Buffer.from(`${n.toString(16)}\r\n`), body.subarray(at, at + n), Buffer.from("\r\n"));
    at += n;
  }
  parts.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(parts);
}

/** A HAR file of a few entries with random methods, types, encodings, statuses and bodies. */
function randomHar() {
  const text = () => pick(["", "data: {}\n\n", '{"type":"RUN_STARTED"}\n', randomBytes(40).toString("latin1"), "%%%", "ZGF0YTogeAoK", "<p>"]);
  const entry = () => ({
    request: { method: pick(["GET", "POST", 7, null]), url: pick(["http://x/", "", null]), ...(random() < 0.5 && { postData: { text: pick([text(), JSON.stringify({ threadId: "t", runId: "r", messages: [], tools: [{ name: "f" }] })]) } }) },
    response: {
      status: pick([200, 400, 500, "x", undefined]),
      headers: pick([[], [{ name: "Content-Type", value: "text/event-stream" }], null]),
      content: { mimeType: pick(["text/event-stream", "application/x-ndjson", "application/vnd.ag-ui.event+proto", "text/html", undefined]), encoding: pick(["base64", undefined]), text: pick([text(), 5, null]) },
    },
  });
  return Buffer.from(JSON.stringify({ log: { entries: Array.from({ length: int(4) }, entry) } }));
}

function naiveLineStarts(bytes) {
  const starts = [0];
  for (let k = 0; k < bytes.length; k++) if (bytes[k] === 0x0a || (bytes[k] === 0x0d && bytes[k + 1] !== 0x0a)) starts.push(k + 1);
  if (starts.at(-1) === bytes.length && bytes.length > 0) starts.pop();
  return starts;
}

test(`the line index agrees with a list of every line start (seed ${seed})`, () => {
  for (let i = 0; i < 300; i++) {
    const bytes = Buffer.from(Array.from({ length: int(400) }, () => pick([0x0a, 0x0d, 0x61, 0x61])));
    const starts = naiveLineStarts(bytes);
    const index = new LineIndex(bytes);
    assert.equal(index.count, bytes.length === 0 ? 0 : starts.length, `seed ${seed}, case ${i}`);
    for (let n = 0; n < starts.length; n++) assert.equal(index.start(n), starts[n], `seed ${seed}, case ${i}, line ${n}`);
    for (let offset = 0; offset < bytes.length; offset++) {
      const line = starts.findLastIndex((s) => s <= offset);
      assert.equal(index.lineAt(offset), line, `seed ${seed}, case ${i}, offset ${offset}`);
    }
  }
});

test(`a chunked body in random chunk sizes decodes to the body, each line mapped into the capture (seed ${seed})`, () => {
  for (let i = 0; i < 200; i++) {
    const lines = Array.from({ length: 1 + int(12) }, () => (random() < 0.3 ? "" : `data: ${"x".repeat(int(30))}`));
    const body = Buffer.from(lines.join(pick(["\n", "\r\n"])) + "\n");
    const capture = chunked(body);
    const parsed = parseHttpCapture(capture);
    assert.ok(parsed.chunked, `seed ${seed}, case ${i}`);
    assert.deepEqual(Buffer.from(parsed.body), body, `seed ${seed}, case ${i}`);
    const captureLines = new LineIndex(capture).count;
    for (let n = 1; n <= lines.length; n++) {
      const line = parsed.lineOf(n);
      assert.ok(Number.isInteger(line) && line >= 5 && line <= captureLines, `seed ${seed}, case ${i}: body line ${n} -> ${line}`);
    }
  }
});

test(`random and mutated captures: the readers throw nothing but their own errors (seed ${seed})`, () => {
  for (let i = 0; i < 3000; i++) {
    const bytes = i % 3 === 0 ? randomBytes(300) : i % 3 === 1 ? randomHar() : mutate(pick(seeds));
    const where = `seed ${seed}, case ${i}`;
    try {
      const capture = parseHttpCapture(bytes);
      for (const n of [1, 2, 1 + int(50)]) {
        const line = capture.lineOf(n);
        assert.ok(Number.isInteger(line) && line >= 1, `${where}: lineOf(${n}) = ${line}`);
      }
    } catch (error) {
      if (!(error instanceof CaptureError)) assert.fail(`${where}: parseHttpCapture threw ${error?.stack}`);
    }
    try {
      harStreams(bytes);
    } catch (error) {
      if (!(error instanceof HarError)) assert.fail(`${where}: harStreams threw ${error?.stack}`);
    }
    const text = [...framesAsJsonLines(bytes, [])].map((chunk) => Buffer.from(chunk).toString()).join("");
    for (const line of text.split("\n").filter((l) => l !== "")) {
      if (!line.startsWith("malformed protobuf frame: ")) assert.equal(typeof JSON.parse(line).type, "string", where);
    }
  }
});

test(`random, mutated and gzipped captures through the whole checker: a result for each, never a throw, memory bounded (seed ${seed})`, { timeout: 120_000 }, async () => {
  const before = process.memoryUsage.rss();
  let peak = before;
  const limits = { maxCaptureBytes: 256 * 1024, maxDecompressedBytes: 256 * 1024, maxLineBytes: 64 * 1024 };
  for (let i = 0; i < 400; i++) {
    let bytes = i % 4 === 0 ? randomBytes(300) : i % 4 === 1 ? randomHar() : mutate(pick(seeds));
    if (i % 5 === 0) bytes = gzipSync(bytes);
    if (i % 7 === 0) bytes = Buffer.concat([bytes.subarray(0, 20), Buffer.alloc(200_000, 0x0a), bytes.subarray(20)]);
    const pieces = [];
    for (let at = 0; at < bytes.length; ) {
      const n = 1 + int(4096);
      pieces.push(bytes.subarray(at, at + n));
      at += n;
    }
    async function* chunks() {
      yield* pieces;
    }
    const results = await checkChunks(`case-${i}`, chunks(), {}, { limits });
    assert.ok(Array.isArray(results) && results.length > 0, `seed ${seed}, case ${i}`);
    for (const r of results) assert.match(r.verdict, /^(clean|warnings|violations|fatal|unreadable)$/, `seed ${seed}, case ${i}`);
    peak = Math.max(peak, process.memoryUsage.rss());
  }
  assert.ok(peak - before < 256 * MB, `seed ${seed}: resident memory grew by ${((peak - before) / MB).toFixed(0)} MB`);
});
