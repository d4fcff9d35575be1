// The line each text/event-stream event starts on. The wasm core decodes the
// stream; this mirrors only its framing (line ends, blank lines, `data`
// fields) to know where each event it dispatches began, so a diagnostic can
// name the line. Lines end with LF, CRLF or a lone CR, as the standard says.

const LF = 0x0a;
const CR = 0x0d;
const PREFIX = 5; // enough of a line to tell "data:" / "data" apart

/** Calls `onEvent(line)` for every event the decoder will dispatch, in order. */
export class SseLines {
  #onEvent;
  #line = 1;
  #head = []; // the first bytes of the current line
  #length = 0; // bytes in the current line so far
  #afterCr = false;
  #started = false;
  #dataLine = 0; // line of the event's first data field; 0 when none yet

  constructor(onEvent) {
    this.#onEvent = onEvent;
  }

  /** Reads a chunk of raw bytes. */
  push(chunk) {
    let pos = this.#start(chunk);
    if (this.#afterCr && pos < chunk.length) {
      this.#afterCr = false;
      if (chunk[pos] === LF) pos++;
    }
    let nextLf = chunk.indexOf(LF, pos);
    let nextCr = chunk.indexOf(CR, pos);
    while (nextLf !== -1 || nextCr !== -1) {
      const end = nextCr === -1 || (nextLf !== -1 && nextLf < nextCr) ? nextLf : nextCr;
      this.#take(chunk, pos, end);
      pos = end + 1;
      if (chunk[end] === CR) {
        if (pos === chunk.length) this.#afterCr = true;
        else if (chunk[pos] === LF) pos++;
      }
      this.#endLine();
      if (nextLf !== -1 && nextLf < pos) nextLf = chunk.indexOf(LF, pos);
      if (nextCr !== -1 && nextCr < pos) nextCr = chunk.indexOf(CR, pos);
    }
    this.#take(chunk, pos, chunk.length);
  }

  #start(chunk) {
    if (this.#started || chunk.length === 0) return 0;
    this.#started = true;
    return chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
  }

  #take(chunk, from, to) {
    for (let i = from; i < to && this.#head.length < PREFIX; i++) this.#head.push(chunk[i]);
    this.#length += to - from;
  }

  #endLine() {
    if (this.#length === 0) {
      // A blank line dispatches the event when it has data.
      if (this.#dataLine !== 0) this.#onEvent(this.#dataLine);
      this.#dataLine = 0;
    } else if (this.#dataLine === 0 && isDataField(this.#head, this.#length)) {
      this.#dataLine = this.#line;
    }
    this.#line++;
    this.#head.length = 0;
    this.#length = 0;
  }
}

const DATA = [0x64, 0x61, 0x74, 0x61]; // "data"

function isDataField(head, length) {
  for (let i = 0; i < 4; i++) if (head[i] !== DATA[i]) return false;
  return length === 4 || head[4] === 0x3a; // "data" alone, or "data:..."
}
