// A `curl -i` or `curl -v` capture: the response's status line and headers
// (for -v, prefixed "< ", among "* " notes and "> " request lines), then the
// body as the server sent it. A chunked body (`curl --raw`, or a proxy's
// dump) is decoded. The body's lines are mapped back to the capture's, so a
// diagnostic names the line of the file.
import { utf8 } from "./bytes.js";

const LF = 0x0a;
const CR = 0x0d;

/** A capture that is not one: says why. */
export class CaptureError extends Error {}

/**
 * Splits a capture: `{ status, headers, body, lineOf }`, where `headers` is
 * a Map of lower-case names and `lineOf(bodyLine)` gives the capture's line
 * of a 1-based line of the (decoded) body.
 */
export function parseHttpCapture(bytes) {
  const lines = lineStarts(bytes);
  let i = 0;
  let response = null;
  // Header blocks: 1xx and redirects (`curl -iL`) come before the last one.
  for (;;) {
    const block = headerBlock(bytes, lines, i);
    if (block === null) break;
    response = block;
    i = block.next;
    if (!(block.status >= 100 && block.status < 200) && !(block.status >= 300 && block.status < 400 && startsHttp(bytes, lines, i))) break;
  }
  if (response === null) throw new CaptureError("no HTTP status line (expected `curl -i` or `curl -v` output)");
  const bodyStart = i < lines.length ? lines[i] : bytes.length;
  const raw = bytes.slice(bodyStart);
  if (response.verbose) blankCurlNotes(raw);
  const chunked = /\bchunked\b/i.test(response.headers.get("transfer-encoding") ?? "") && looksChunked(raw);
  if (!chunked) {
    return { status: response.status, headers: response.headers, body: raw, chunked, lineOf: (line) => line + i };
  }
  const { body, segments } = dechunk(raw);
  const bodyLines = lineStarts(body);
  return {
    status: response.status,
    headers: response.headers,
    body,
    chunked,
    lineOf(line) {
      const offset = bodyLines[line - 1] ?? 0;
      return lineAt(lines, bodyStart + originalOffset(segments, offset)) + 1;
    },
  };
}

/** Offsets where each line starts (LF, CRLF or CR end a line). */
function lineStarts(bytes) {
  const starts = [0];
  for (let k = 0; k < bytes.length; k++) {
    if (bytes[k] === LF || (bytes[k] === CR && bytes[k + 1] !== LF)) starts.push(k + 1);
  }
  if (starts[starts.length - 1] === bytes.length && bytes.length > 0) starts.pop();
  return starts;
}

function lineText(bytes, lines, n) {
  const end = n + 1 < lines.length ? lines[n + 1] : bytes.length;
  return utf8(bytes.subarray(lines[n], end)).replace(/\r?\n$|\r$/, "");
}

function startsHttp(bytes, lines, n) {
  return n < lines.length && /^(< )?HTTP\/\d/.test(lineText(bytes, lines, n));
}

/** One response head from line `n` on: curl's notes and the request are skipped. */
function headerBlock(bytes, lines, n) {
  let status = null;
  const headers = new Map();
  let verbose = false;
  for (; n < lines.length; n++) {
    const text = lineText(bytes, lines, n);
    if (status === null) {
      if (/^[*>}{] ?/.test(text) || text === "" || text.startsWith("* ")) continue;
      const m = /^(< )?HTTP\/[\d.]+ (\d{3})/.exec(text);
      if (!m) return null;
      verbose = m[1] !== undefined;
      if (verbose) headers.verbose = true;
      status = Number(m[2]);
      continue;
    }
    if (verbose) {
      if (/^[*>}{] ?/.test(text) && !text.startsWith("< ")) continue;
      if (text === "<" || text === "< ") return { status, headers, next: n + 1, verbose };
      if (!text.startsWith("< ")) return { status, headers, next: n, verbose };
      addHeader(headers, text.slice(2));
    } else {
      if (text === "") return { status, headers, next: n + 1 };
      addHeader(headers, text);
    }
  }
  return status === null ? null : { status, headers, next: n, verbose };
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

/** The body without its chunk framing, and where each piece came from. */
function dechunk(raw) {
  const pieces = [];
  const segments = []; // [decoded offset, raw offset]
  let at = 0;
  let size = 0;
  while (at < raw.length) {
    const lf = raw.indexOf(LF, at);
    if (lf === -1) break;
    const sizeLine = utf8(raw.subarray(at, lf)).trim();
    const n = parseInt(sizeLine.split(";")[0], 16);
    if (!Number.isFinite(n) || !/^[0-9a-fA-F]/.test(sizeLine)) throw new CaptureError(`bad chunk size line at byte ${at} of the body`);
    if (n === 0) break;
    const start = lf + 1;
    const end = Math.min(start + n, raw.length);
    segments.push([size, start]);
    pieces.push(raw.subarray(start, end));
    size += end - start;
    at = end;
    if (raw[at] === CR) at++;
    if (raw[at] === LF) at++;
  }
  const body = new Uint8Array(size);
  let k = 0;
  for (const p of pieces) {
    body.set(p, k);
    k += p.length;
  }
  return { body, segments };
}

function originalOffset(segments, offset) {
  let lo = 0;
  let hi = segments.length - 1;
  if (hi < 0) return offset;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segments[mid][0] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return segments[lo][1] + (offset - segments[lo][0]);
}

/** The 0-based line holding byte `offset`. */
function lineAt(lines, offset) {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The body's format from the Content-Type header, when it says. */
export function formatFromContentType(type) {
  if (/text\/event-stream/i.test(type ?? "")) return "sse";
  if (/(json-?lines|jsonl|ndjson|x-ndjson)/i.test(type ?? "")) return "jsonl";
  return null;
}
