// @ts-check
// The line each text/event-stream event starts on. The wasm core decodes the
// stream; this mirrors only its framing (line ends, blank lines, `data`
// fields) to know where each event it dispatches began, so a diagnostic can
// name the line. Lines end with LF, CRLF or a lone CR, as the standard says.
// It also notices what the core's decoder ignores silently: lines that are
// no field at all (a JSON Lines event in an event-stream file), and lines
// over the line limit. When asked (`collect`), it gives each event's data
// too, for reports that show the events themselves.
import { concat, hasBom, utf8 } from "./bytes.js";

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const HEAD = 40; // enough of a line to tell its field, and to quote it

/** Calls `onEvent(line, data)` for every event the decoder will dispatch, in order (`data` only when collecting). */
export class SseLines {
  #on;
  #max;
  #collect;
  #line;
  #head = []; // the first bytes of the current line
  #parts = []; // the whole current line, when collecting
  #length = 0; // bytes in the current line so far
  #afterCr = false;
  #started = false;
  #dataLine = 0; // line of the event's first data field; 0 when none yet
  #data = []; // the event's data lines, when collecting
  #dataBytes = 0; // bytes in #data: an event's data is bounded like a line
  #stopped = false;

  /**
   * `onEvent(line, data)`; options: `onForeign(line, start)` for a line that
   * is no field, `onOversized(line, bytes)` for a line over `maxLineBytes`,
   * or when collecting an event's data over it (the reading stops),
   * `collect` to get each event's data, `firstLine`.
   */
  constructor(onEvent, { onForeign = () => {}, onOversized = () => {}, maxLineBytes = Infinity, collect = false, firstLine = 1 } = {}) {
    this.#on = { event: onEvent, foreign: onForeign, oversized: onOversized };
    this.#max = maxLineBytes;
    this.#collect = collect;
    this.#line = firstLine;
  }

  /** The line of an event's first data field that no blank line ended yet, or 0. */
  get unfinished() {
    if (this.#dataLine !== 0) return this.#dataLine;
    // A data line the input ended in, with no line end even.
    return this.#length > 0 && fieldOf(this.#head, this.#length) === "data" ? this.#line : 0;
  }

  /** Reads a chunk of raw bytes; false once a line was over the limit. */
  push(chunk) {
    if (this.#stopped) return false;
    let pos = this.#start(chunk);
    if (this.#afterCr && pos < chunk.length) {
      this.#afterCr = false;
      if (chunk[pos] === LF) pos++;
    }
    let nextLf = chunk.indexOf(LF, pos);
    let nextCr = chunk.indexOf(CR, pos);
    while (nextLf !== -1 || nextCr !== -1) {
      const end = nextCr === -1 || (nextLf !== -1 && nextLf < nextCr) ? nextLf : nextCr;
      if (!this.#take(chunk, pos, end)) return false;
      pos = end + 1;
      if (chunk[end] === CR) {
        if (pos === chunk.length) this.#afterCr = true;
        else if (chunk[pos] === LF) pos++;
      }
      this.#endLine();
      if (nextLf !== -1 && nextLf < pos) nextLf = chunk.indexOf(LF, pos);
      if (nextCr !== -1 && nextCr < pos) nextCr = chunk.indexOf(CR, pos);
    }
    return this.#take(chunk, pos, chunk.length);
  }

  #start(chunk) {
    if (this.#started || chunk.length === 0) return 0;
    this.#started = true;
    return hasBom(chunk) ? 3 : 0;
  }

  #take(chunk, from, to) {
    for (let i = from; i < to && this.#head.length < HEAD; i++) this.#head.push(chunk[i]);
    this.#length += to - from;
    if (this.#length > this.#max) {
      this.#stopped = true;
      this.#on.oversized(this.#line, this.#length);
      return false;
    }
    if (this.#collect && to > from) this.#parts.push(chunk.slice(from, to));
    return true;
  }

  /** Keeps the current data line; false (the reading stops) once the event's data is over the limit. */
  #collectData() {
    this.#dataBytes += this.#length + 1;
    if (this.#dataBytes > this.#max) {
      this.#stopped = true;
      this.#on.oversized(this.#dataLine, this.#dataBytes);
      return false;
    }
    this.#data.push(dataValue(concat(this.#parts)));
    return true;
  }

  #endLine() {
    if (this.#length === 0) {
      // A blank line dispatches the event when it has data.
      if (this.#dataLine !== 0) this.#on.event(this.#dataLine, this.#collect ? this.#data.join("\n") : undefined);
      this.#dataLine = 0;
      this.#data = [];
      this.#dataBytes = 0;
    } else {
      const field = fieldOf(this.#head, this.#length);
      if (field === "data") {
        if (this.#dataLine === 0) this.#dataLine = this.#line;
        if (this.#collect && !this.#collectData()) return;
      } else if (field === null) {
        this.#on.foreign(this.#line, utf8(Uint8Array.from(this.#head)));
      }
    }
    this.#line++;
    this.#head.length = 0;
    this.#parts = [];
    this.#length = 0;
  }
}

const FIELDS = ["data", "event", "id", "retry"];

/** The field a line sets: a name, "" for a comment or a field the standard ignores, null for no field at all. */
function fieldOf(head, length) {
  if (head[0] === COLON) return "";
  const colon = head.indexOf(COLON);
  const nameEnd = colon === -1 ? (length <= HEAD ? length : -1) : colon;
  if (nameEnd === -1) return null;
  const name = String.fromCharCode(...head.slice(0, nameEnd));
  return FIELDS.includes(name) ? name : null;
}

/** A data line's value: after "data:" and one optional space. */
function dataValue(line) {
  let at = 4;
  if (line[at] === COLON) at++;
  if (line[at] === 0x20) at++;
  return utf8(line.subarray(at));
}
