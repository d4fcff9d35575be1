// @ts-check
// Where the lines of a byte array start, found on demand. A capture read
// whole may hold a hundred million lines (128 MiB of blank lines): one
// array entry per line start would take gigabytes, so the index keeps the
// start of every 64th line in a typed array and walks the few lines between.

const LF = 0x0a;
const CR = 0x0d;
/** Lines between two kept starts: the walk from one to a line is at most this many line ends. */
const STRIDE = 64;

/** The offset after the line end that follows `at` (LF, CRLF or a lone CR), or `bytes.length`. */
export function nextLineStart(bytes, at) {
  for (let k = at; k < bytes.length; k++) {
    const b = bytes[k];
    if (b === LF) return k + 1;
    if (b === CR) return bytes[k + 1] === LF ? k + 2 : k + 1;
  }
  return bytes.length;
}

/**
 * The lines of `bytes` (LF, CRLF or CR end a line; a last line without an
 * end is a line): `count`, `start(n)` (the offset of 0-based line `n`) and
 * `lineAt(offset)` (the 0-based line holding a byte).
 *
 * ```js
 * const lines = new LineIndex(new TextEncoder().encode("a\r\nb\rc"));
 * lines.count; // 3
 * lines.lineAt(4); // 1
 * ```
 */
export class LineIndex {
  #bytes;
  #kept; // start of lines 0, STRIDE, 2 * STRIDE, ...
  #count;

  constructor(bytes) {
    this.#bytes = bytes;
    let kept = new Float64Array(16);
    let n = 0;
    let count = 0;
    for (let at = 0; at < bytes.length; at = nextLineStart(bytes, at)) {
      if (count % STRIDE === 0) {
        if (n === kept.length) kept = grow(kept);
        kept[n++] = at;
      }
      count++;
    }
    this.#kept = kept.subarray(0, n);
    this.#count = count;
  }

  /** How many lines. */
  get count() {
    return this.#count;
  }

  /** The offset 0-based line `n` starts at (`bytes.length` past the last line). */
  start(n) {
    if (n >= this.#count) return this.#bytes.length;
    let at = this.#kept[Math.floor(n / STRIDE)];
    for (let k = n % STRIDE; k > 0; k--) at = nextLineStart(this.#bytes, at);
    return at;
  }

  /** The 0-based line holding byte `offset` (the last line for offsets past the end). */
  lineAt(offset) {
    const kept = this.#kept;
    if (kept.length === 0) return 0;
    let lo = 0;
    let hi = kept.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (kept[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    let line = lo * STRIDE;
    let at = kept[lo];
    for (;;) {
      const next = nextLineStart(this.#bytes, at);
      if (next > offset || next >= this.#bytes.length || line + 1 >= this.#count) return line;
      at = next;
      line++;
    }
  }
}

function grow(array) {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
