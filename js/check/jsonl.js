// JSON Lines read incrementally: bytes in, one event's text out per line.
// Only the unfinished last line is kept between chunks.

const LF = 0x0a;
const CR = 0x0d;

/** Splits chunks of bytes into lines and hands each non-blank one to `onLine(text, lineNumber)`. */
export class JsonlReader {
  #onLine;
  #pending = []; // pieces of the line that is not finished yet
  #line = 1;
  #started = false;

  /** `onLine` returns false to stop the reading (the stream is broken). */
  constructor(onLine) {
    this.#onLine = onLine;
  }

  /** Reads a chunk; returns false once `onLine` asked to stop. */
  push(chunk) {
    let pos = this.#skipBom(chunk);
    for (let lf = chunk.indexOf(LF, pos); lf !== -1; lf = chunk.indexOf(LF, pos)) {
      const ok = this.#endLine(chunk.subarray(pos, lf));
      pos = lf + 1;
      if (!ok) return false;
    }
    if (pos < chunk.length) this.#pending.push(chunk.subarray(pos));
    return true;
  }

  /** The input ended: a last line without a newline is still a line. */
  end() {
    if (this.#pending.length === 0) return true;
    return this.#endLine(Buffer.alloc(0));
  }

  #skipBom(chunk) {
    if (this.#started || chunk.length === 0) return 0;
    this.#started = true;
    return chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
  }

  #endLine(tail) {
    let bytes = tail;
    if (this.#pending.length > 0) {
      bytes = Buffer.concat([...this.#pending, tail]);
      this.#pending = [];
    }
    const line = this.#line++;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    if (isBlank(bytes, end)) return true;
    return this.#onLine(bytes.toString("utf8", 0, end), line);
  }
}

function isBlank(bytes, end) {
  for (let i = 0; i < end; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== CR) return false;
  }
  return true;
}
