// @ts-check
// Which format an input is in, told from its first bytes that are not
// blank: JSON Lines, text/event-stream, a curl capture (`curl -i` or
// `curl -v`), a HAR file, or gzip around any of them. The blank bytes before
// the first event are counted, never kept, so a file that starts with
// megabytes of blank lines costs no more than its length.
import { concat, hasBom, isSpace, startsWith } from "./bytes.js";

const LF = 0x0a;
const CR = 0x0d;
/** Bytes after the first non-blank one that are enough to tell any format apart. */
const DECIDE_WITHIN = 64;

/** Human names of the formats. */
export const FORMAT_NAMES = {
  jsonl: "JSON Lines",
  sse: "text/event-stream",
  http: "curl capture",
  har: "HAR",
  gzip: "gzip",
};

/**
 * Reads the start of an input until its format is known. `push` returns
 * undefined while undecided, then `{ format, head, lines }`: `format` is
 * "gzip", "jsonl", "sse", "http", "har" or null (not a stream); `head` the
 * bytes from the first non-blank one on (with the spaces that began its
 * line); `lines` how many lines the skipped blank bytes held, as each format
 * counts them (`jsonl`: LF ends a line; `sse`: CR, LF or CRLF).
 */
export class Sniffer {
  #started = false;
  #lf = 0;
  #sseEnds = 0;
  #afterCr = false;
  #indent = 0; // spaces and tabs since the last line end
  #head = null; // bytes from the first non-blank one, while undecided
  #firstChunk = true;

  push(chunk) {
    if (this.#firstChunk && chunk.length > 0) {
      this.#firstChunk = false;
      if (chunk[0] === 0x1f && chunk[1] === 0x8b) return this.#decided("gzip", chunk);
      if (hasBom(chunk)) chunk = chunk.subarray(3);
    }
    if (this.#head !== null) return this.#decide([...this.#head, chunk], false);
    const i = this.#skipBlank(chunk);
    if (i === chunk.length) return undefined;
    return this.#decide([chunk.subarray(i)], false);
  }

  /** No more bytes come: decide with what there is. */
  end() {
    if (this.#head === null) return this.#decided(null, new Uint8Array(0));
    return this.#decide(this.#head, true);
  }

  /** Counts the blank bytes at the start of `chunk`; returns where they stop. In locals: 128 MiB of them take a blink. */
  #skipBlank(chunk) {
    let lf = this.#lf;
    let sseEnds = this.#sseEnds;
    let afterCr = this.#afterCr;
    let indent = this.#indent;
    let i = 0;
    for (; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === LF) {
        lf++;
        if (!afterCr) sseEnds++;
        afterCr = false;
        indent = 0;
      } else if (b === CR) {
        sseEnds++;
        afterCr = true;
        indent = 0;
      } else if (isSpace(b)) {
        afterCr = false;
        indent++;
      } else {
        break;
      }
    }
    this.#lf = lf;
    this.#sseEnds = sseEnds;
    this.#afterCr = afterCr;
    this.#indent = indent;
    return i;
  }

  #decide(parts, ended) {
    const bytes = concat(parts);
    const format = formatOf(bytes, ended || bytes.length >= DECIDE_WITHIN);
    if (format === undefined) {
      this.#head = [bytes];
      return undefined;
    }
    const indent = new Uint8Array(this.#indent).fill(0x20);
    return this.#decided(format, this.#indent > 0 ? concat([indent, bytes]) : bytes);
  }

  #decided(format, head) {
    this.#head = null;
    return { format, head, lines: { jsonl: this.#lf, sse: this.#sseEnds } };
  }
}

const SSE_FIELDS = ["data", "event", "id", "retry"];
const HAR_START = /^\{\s*"log"\s*:\s*\{/;

/**
 * The format of bytes that start with a non-blank byte: a name, null (not a
 * stream) or undefined (too few bytes to tell; `ended` says no more come).
 */
function formatOf(bytes, ended) {
  const first = bytes[0];
  if (first === 0x7b) {
    // `{"log": {` opens a HAR file; any other object is a JSON Lines event.
    const text = String.fromCharCode(...bytes.subarray(0, DECIDE_WITHIN));
    if (HAR_START.test(text)) return "har";
    if (!ended && /^\{\s*("(l(o(g("\s*(:\s*)?)?)?)?)?)?$/.test(text)) return undefined;
    return "jsonl";
  }
  if (first === 0x3a) return "sse"; // a comment line
  // `curl --trace-time`: a time before each block of the trace.
  if (first >= 0x30 && first <= 0x39 && /^[\d:.]+ (== Info: |=> Send |<= Recv )/.test(String.fromCharCode(...bytes.subarray(0, DECIDE_WITHIN)))) return "http";
  let undecided = false;
  for (const field of SSE_FIELDS) {
    const verdict = fieldAt(bytes, field);
    if (verdict === true) return "sse";
    if (verdict === undefined) undecided = true;
  }
  for (const prefix of ["HTTP/", "* ", "> ", "< ", "== Info: ", "=> Send ", "<= Recv "]) {
    const verdict = startsWith(bytes, prefix);
    if (verdict === true) return "http";
    if (verdict === undefined) undecided = true;
  }
  return undecided && !ended ? undefined : null;
}

/** Whether `field` followed by ":" or a line end starts the bytes; undefined if they stop first. */
function fieldAt(bytes, field) {
  const verdict = startsWith(bytes, field);
  if (verdict !== true) return verdict;
  const next = bytes[field.length];
  if (next === undefined) return undefined;
  return next === 0x3a || next === LF || next === CR;
}

/** Whether a JSON Lines line is a text/event-stream field instead (a file that mixes formats). */
export function looksLikeSseLine(text) {
  return /^(data|event|id|retry)(:|$)/.test(text) || text.startsWith(":");
}
