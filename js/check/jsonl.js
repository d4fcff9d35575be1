// @ts-check
// JSON Lines read incrementally: bytes in, one event's text out per line.
// Only the unfinished last line is kept between chunks, and no longer than
// the line limit.
import { concat, hasBom, isSpace, utf8 } from "./bytes.js";
import { looksLikeSseLine } from "./detect.js";

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits chunks of bytes into lines and hands each non-blank one to
 * `onLine(text, lineNumber)`. A line of text/event-stream (`data: ...`) goes
 * to `onForeign(lineNumber, text)` instead: the file mixes formats. A line
 * over `maxLineBytes` goes to `onOversized(lineNumber, bytes)` and stops the
 * reading.
 */
export class JsonlReader {
  #on;
  #max;
  #pending = []; // pieces of the line that is not finished yet
  #pendingBytes = 0;
  #line;
  #started = false;

  /** `onLine` returns false to stop the reading (the stream is broken). */
  constructor({ onLine, onForeign = () => {}, onOversized = () => {}, maxLineBytes = Infinity, firstLine = 1 }) {
    this.#on = { line: onLine, foreign: onForeign, oversized: onOversized };
    this.#max = maxLineBytes;
    this.#line = firstLine;
  }

  /** Reads a chunk; returns false once the reading stopped. */
  push(chunk) {
    let pos = this.#skipBom(chunk);
    for (;;) {
      // Empty lines are counted in place: a hundred million of them must
      // not cost a hundred million sub-arrays and calls.
      if (this.#pending.length === 0) {
        let blank = 0;
        for (;;) {
          if (chunk[pos] === LF) pos++;
          else if (chunk[pos] === CR && chunk[pos + 1] === LF) pos += 2;
          else break;
          blank++;
        }
        this.#line += blank;
      }
      const lf = chunk.indexOf(LF, pos);
      if (lf === -1) break;
      if (this.#pendingBytes + lf - pos > this.#max) return this.#oversized(this.#pendingBytes + lf - pos);
      const ok = this.#endLine(chunk.subarray(pos, lf));
      pos = lf + 1;
      if (!ok) return false;
    }
    if (pos < chunk.length) {
      this.#pendingBytes += chunk.length - pos;
      if (this.#pendingBytes > this.#max) return this.#oversized(this.#pendingBytes);
      this.#pending.push(chunk.subarray(pos));
    }
    return true;
  }

  /** The input ended: a last line without a newline is still a line. */
  end() {
    if (this.#pending.length === 0) return true;
    return this.#endLine(new Uint8Array(0));
  }

  #oversized(bytes) {
    this.#pending = [];
    this.#on.oversized(this.#line, bytes);
    return false;
  }

  #skipBom(chunk) {
    if (this.#started || chunk.length === 0) return 0;
    this.#started = true;
    return hasBom(chunk) ? 3 : 0;
  }

  #endLine(tail) {
    let bytes = tail;
    if (this.#pending.length > 0) {
      bytes = concat([...this.#pending, tail]);
      this.#pending = [];
      this.#pendingBytes = 0;
    }
    const line = this.#line++;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    let start = 0;
    // No LF inside a line, so isSpace skips exactly spaces, tabs and CRs.
    while (start < end && isSpace(bytes[start])) start++;
    if (start === end) return true;
    // A curl note blanked by http.js: ":" and nothing else.
    if (bytes[start] === 0x3a && isBlankFrom(bytes, start + 1, end)) return true;
    const text = utf8(bytes.subarray(0, end));
    if (bytes[start] !== 0x7b && looksLikeSseLine(text.slice(start))) {
      this.#on.foreign(line, text.slice(start));
      return true;
    }
    return this.#on.line(text, line);
  }
}

function isBlankFrom(bytes, from, end) {
  for (let i = from; i < end; i++) if (bytes[i] !== 0x20) return false;
  return true;
}
