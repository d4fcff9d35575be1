// @ts-check
// A `curl -i` or `curl -v` capture: the response's status line and headers
// (for -v, prefixed "< ", among "* " notes and "> " request lines), then the
// body as the server sent it. A chunked body (`curl --raw`, or a proxy's
// dump) is decoded. The body's lines are mapped back to the capture's, so a
// diagnostic names the line of the file. A `curl --trace` capture is read
// back to the bytes it records first (trace.js).
import { utf8 } from "./bytes.js";
import { LineIndex, nextLineStart } from "./line-index.js";
import { isTrace, traceStreams } from "./trace.js";

const LF = 0x0a;
const CR = 0x0d;

/** A capture that is not one: says why. */
export class CaptureError extends Error {}

/**
 * Splits a capture: `{ status, headers, body, chunked, request, lineOf }`,
 * where `headers` is a Map of lower-case names, `request` the request body
 * the capture shows (a trace's sent data, or `> ` lines after the request
 * head; else null) and
 * `lineOf(bodyLine)` gives the capture's line of a 1-based line of the
 * (decoded) body. Works on offsets, never on a list of every line: a
 * capture of a hundred million blank lines costs its bytes, no more.
 */
export function parseHttpCapture(bytes) {
  if (isTrace(bytes)) return parseTrace(bytes);
  let at = 0;
  let line = 0;
  let response = null;
  let request = null;
  // Header blocks: 1xx and redirects (`curl -iL`) come before the last one.
  for (;;) {
    const block = headerBlock(bytes, at, line);
    if (block === null) break;
    response = block;
    request = block.request ?? request;
    at = block.next;
    line = block.nextLine;
    if (!(block.status >= 100 && block.status < 200) && !(block.status >= 300 && block.status < 400 && startsHttp(bytes, at))) break;
  }
  if (response === null) throw new CaptureError("no HTTP status line (expected `curl -i` or `curl -v` output)");
  const bodyStart = at;
  const headLines = line;
  const raw = bytes.subarray(bodyStart);
  if (response.verbose) blankCurlNotes(raw);
  const chunked = /\bchunked\b/i.test(response.headers.get("transfer-encoding") ?? "") && looksChunked(raw);
  const base = { status: response.status, headers: response.headers, chunked, request };
  if (!chunked) return { ...base, body: raw, lineOf: (n) => n + headLines };
  const { body, toRaw } = dechunk(raw);
  let lines = null;
  let bodyLines = null;
  return {
    ...base,
    body,
    lineOf(n) {
      // Built on the first diagnostic only: most captures have none.
      lines ??= new LineIndex(bytes);
      bodyLines ??= new LineIndex(body);
      return lines.lineAt(bodyStart + toRaw(bodyLines.start(n - 1))) + 1;
    },
  };
}

/**
 * A `curl --trace` capture: the received head and body read as a `curl -i`
 * capture of them (lines are lines of the received data), the sent data as
 * the request body.
 */
function parseTrace(bytes) {
  const trace = traceStreams(bytes);
  if (trace.receivedHeaders.length === 0) throw new CaptureError("a curl trace with no response received");
  if (trace.asciiBody) {
    throw new CaptureError("a curl --trace-ascii capture writes the line feeds of a body as \".\", so its stream cannot be read back: capture with --trace (hex) instead");
  }
  const received = new Uint8Array(trace.receivedHeaders.length + trace.receivedBody.length);
  received.set(trace.receivedHeaders);
  received.set(trace.receivedBody, trace.receivedHeaders.length);
  const capture = parseHttpCapture(received);
  return { ...capture, request: trace.sentBody.length > 0 ? utf8(trace.sentBody) : null, trace: true };
}

/** The text of the line at `at` (without its line end) and where the next one starts. */
function lineAtOffset(bytes, at) {
  const next = nextLineStart(bytes, at);
  let end = next;
  if (end > at && bytes[end - 1] === LF) end--;
  if (end > at && bytes[end - 1] === CR) end--;
  return { text: utf8(bytes.subarray(at, end)), next };
}

function startsHttp(bytes, at) {
  return at < bytes.length && /^(< )?HTTP\/\d/.test(lineAtOffset(bytes, at).text);
}

/**
 * One response head from offset `at` (line `line`) on: curl's notes and the
 * request are skipped (the request body, when `> ` lines show one, is
 * kept). Blank lines before the head are skipped without being decoded.
 */
function headerBlock(bytes, at, line) {
  let status = null;
  const headers = new Map();
  let verbose = false;
  let requestBody = null;
  let inRequestBody = false;
  while (at < bytes.length) {
    if (status === null && (bytes[at] === LF || bytes[at] === CR)) {
      at = nextLineStart(bytes, at);
      line++;
      continue;
    }
    const { text, next } = lineAtOffset(bytes, at);
    const here = { next: at, nextLine: line };
    at = next;
    line++;
    if (status === null) {
      if (text === ">" || text === "> ") inRequestBody = true;
      else if (inRequestBody && text.startsWith("> ")) requestBody = (requestBody === null ? "" : requestBody + "\n") + text.slice(2);
      else if (!text.startsWith("> ")) inRequestBody = false;
      if (/^[*>}{] ?/.test(text) || text === "") continue;
      const m = /^(< )?HTTP\/[\d.]+ (\d{3})/.exec(text);
      if (!m) return null;
      verbose = m[1] !== undefined;
      status = Number(m[2]);
      continue;
    }
    const done = { status, headers, verbose, request: requestBody };
    if (verbose) {
      if (/^[*>}{] ?/.test(text) && !text.startsWith("< ")) continue;
      if (text === "<" || text === "< ") return { ...done, next: at, nextLine: line };
      if (!text.startsWith("< ")) return { ...done, ...here };
      addHeader(headers, text.slice(2));
    } else {
      if (text === "") return { ...done, next: at, nextLine: line };
      addHeader(headers, text);
    }
  }
  return status === null ? null : { status, headers, verbose, request: requestBody, next: at, nextLine: line };
}

const CURL_NOTE = /^([{}] \[\d+ bytes data\]|\* .*)\r?$/;

/**
 * `curl -v` writes its own lines into the body (`{ [1033 bytes data]`,
 * `* Connection #0 left intact`): each becomes a comment line (":" then
 * spaces), which JSON Lines and event-stream readers both skip, so the
 * lines of the body keep their numbers.
 */
function blankCurlNotes(body) {
  let start = 0;
  while (start < body.length) {
    let end = body.indexOf(LF, start);
    if (end === -1) end = body.length;
    if ((body[start] === 0x7b || body[start] === 0x7d || body[start] === 0x2a) && CURL_NOTE.test(utf8(body.subarray(start, end)))) {
      body.fill(0x20, start, end);
      body[start] = NOTE_MARK;
    }
    start = end + 1;
  }
}

/** The first byte of a blanked curl note: a comment in text/event-stream; JSON Lines skips the line too. */
const NOTE_MARK = 0x3a;

function addHeader(headers, text) {
  const colon = text.indexOf(":");
  if (colon > 0) headers.set(text.slice(0, colon).trim().toLowerCase(), text.slice(colon + 1).trim());
}

function looksChunked(raw) {
  return /^[0-9a-fA-F]+(;[^\r\n]*)?\r?\n/.test(utf8(raw.subarray(0, 80)));
}

/** Chunks between two kept positions: mapping an offset back re-reads at most this many size lines. */
const CHUNK_STRIDE = 64;

/**
 * Reads the size line of the chunk at `at` into `chunk` (`size`, and
 * `start`, where its data begins): false at the end of the bytes, a
 * CaptureError for a line that is no size. Parsed by hand into an object
 * the caller reuses: a capture of one-byte chunks holds millions of them.
 */
function readChunk(raw, at, chunk) {
  let size = 0;
  let digits = 0;
  let k = at;
  for (; k < raw.length; k++) {
    const d = hexDigit(raw[k]);
    if (d < 0) break;
    // Past 2^48 no chunk can be whole anyway: the size only has to stay large enough to say so.
    if (digits < 12) size = size * 16 + d;
    digits++;
  }
  while (k < raw.length && raw[k] !== LF) k++;
  if (k === raw.length) return false;
  if (digits === 0) throw new CaptureError(`bad chunk size line at byte ${at} of the body`);
  chunk.size = size;
  chunk.start = k + 1;
  return true;
}

function hexDigit(b) {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  return -1;
}

/** Where the chunk read into `chunk` ends, its CRLF included. */
function afterChunk(raw, chunk) {
  let at = Math.min(chunk.start + chunk.size, raw.length);
  if (raw[at] === CR) at++;
  if (raw[at] === LF) at++;
  return at;
}

/**
 * The body without its chunk framing, decoded into one buffer, and
 * `toRaw(offset)`: where a byte of the decoded body was in `raw`. Every
 * 64th chunk's position is kept (in typed arrays); the chunks between are
 * read again when a diagnostic needs a line.
 */
function dechunk(raw) {
  const body = new Uint8Array(raw.length);
  let decoded = new Float64Array(16); // decoded offset of every 64th chunk
  let framed = new Float64Array(16); // its size line's offset in raw
  let kept = 0;
  let size = 0;
  let chunks = 0;
  const chunk = { size: 0, start: 0 };
  for (let at = 0; at < raw.length; ) {
    if (!readChunk(raw, at, chunk) || chunk.size === 0) break;
    if (chunks % CHUNK_STRIDE === 0) {
      if (kept === decoded.length) [decoded, framed] = [grow(decoded), grow(framed)];
      decoded[kept] = size;
      framed[kept++] = at;
    }
    chunks++;
    const end = Math.min(chunk.start + chunk.size, raw.length);
    // A small chunk is copied by hand: a sub-array and a set() per byte of a one-byte chunk cost more than the bytes.
    if (end - chunk.start < 64) for (let k = chunk.start; k < end; k++) body[size++] = raw[k];
    else {
      body.set(raw.subarray(chunk.start, end), size);
      size += end - chunk.start;
    }
    at = afterChunk(raw, chunk);
  }
  decoded = decoded.subarray(0, kept);
  framed = framed.subarray(0, kept);
  return { body: body.subarray(0, size), toRaw: (offset) => rawOffset(raw, decoded, framed, offset) };
}

function rawOffset(raw, decoded, framed, offset) {
  if (decoded.length === 0) return offset;
  let lo = 0;
  let hi = decoded.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (decoded[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  let at = framed[lo];
  let from = decoded[lo];
  const chunk = { size: 0, start: 0 };
  const following = { size: 0, start: 0 };
  for (;;) {
    readChunk(raw, at, chunk);
    const length = Math.min(chunk.start + chunk.size, raw.length) - chunk.start;
    if (offset < from + length) return chunk.start + (offset - from);
    from += length;
    const next = afterChunk(raw, chunk);
    if (next >= raw.length || !readChunk(raw, next, following) || following.size === 0) return chunk.start + length;
    at = next;
  }
}

function grow(array) {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** The body's format from the Content-Type header, when it says. */
export function formatFromContentType(type) {
  if (/application\/vnd\.ag-ui\.event\+proto/i.test(type ?? "")) return "proto";
  if (/text\/event-stream/i.test(type ?? "")) return "sse";
  if (/(json-?lines|jsonl|ndjson|x-ndjson)/i.test(type ?? "")) return "jsonl";
  return null;
}
