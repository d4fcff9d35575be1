// @ts-check
// A `curl --trace` or `curl --trace-ascii` capture: curl's own record of
// what it sent and received, block by block (`=> Send header`, `=> Send
// data`, `<= Recv header`, `<= Recv data`, `== Info: ...`), each block's
// bytes on lines that start with their offset. Unlike `curl -v`, it holds
// the request body: the run input a client POSTed, with its tools.
//
// --trace writes each byte in hex (16 a line): the bytes come back exactly.
// --trace-ascii writes the text, 64 bytes a line or up to a CR LF (which
// it leaves out: the gap between a line's offset plus its length and the
// next line's), and every other byte that is no printable ASCII, a lone LF
// included, as "." : its request body (JSON on one line) comes back, a
// body of LF-ended lines does not.
import { nextLineStart } from "./line-index.js";
import { utf8 } from "./bytes.js";

// `--trace-time` and `--trace-ids` put a time and ids before the arrow.
const BLOCK = /^(?:[\d:.]+ )?(?:\[[^\]]*\] )?(=>|<=) (Send|Recv) (header|data|SSL data), (\d+) bytes/;
const DATA_LINE = /^([0-9a-f]{4,}): ?/;

/** Whether `bytes` start as a trace: its first line is a block or an Info line. */
export function isTrace(bytes) {
  const text = utf8(bytes.subarray(0, 40));
  return /^(?:[\d:.]+ )?(?:\[[^\]]*\] )?(== Info: |=> Send |<= Recv )/.test(text);
}

/**
 * The blocks of a trace joined by kind: `{ sentHeaders, sentBody,
 * receivedHeaders, receivedBody, asciiBody }`, each a Uint8Array (SSL
 * blocks and Info lines left out), and whether a received body came as
 * `--trace-ascii` text. A trace cut inside a block keeps what it has.
 */
export function traceStreams(bytes) {
  const parts = { "Send header": [], "Send data": [], "Recv header": [], "Recv data": [], asciiBody: false };
  let block = null;
  for (let at = 0; at < bytes.length; ) {
    const next = nextLineStart(bytes, at);
    const line = lineText(bytes, at, next);
    at = next;
    const head = BLOCK.exec(line);
    if (head !== null) {
      if (block !== null) finish(block, parts);
      // A block's bytes each take a character of the trace at least: a larger size is not curl's.
      block = head[3] === "SSL data" ? null : { kind: `${head[2]} ${head[3]}`, out: new Uint8Array(Math.min(Number(head[4]), bytes.length - at)), size: Number(head[4]), k: 0, hex: null };
      continue;
    }
    const data = DATA_LINE.exec(line);
    if (block !== null && data !== null) addLine(block, parseInt(data[1], 16), line.slice(data[0].length));
    else if (!/== Info:/.test(line) && block !== null) {
      finish(block, parts);
      block = null;
    }
  }
  if (block !== null) finish(block, parts);
  const join = (list) => {
    const out = new Uint8Array(list.reduce((n, p) => n + p.length, 0));
    let k = 0;
    for (const p of list) {
      out.set(p, k);
      k += p.length;
    }
    return out;
  };
  return { sentHeaders: join(parts["Send header"]), sentBody: join(parts["Send data"]), receivedHeaders: join(parts["Recv header"]), receivedBody: join(parts["Recv data"]), asciiBody: parts.asciiBody };
}

/**
 * One data line into its block, as it is read (a trace of millions of
 * lines keeps none of them): hex bytes, or text whose left-out CR LF shows
 * as the gap to this line's offset.
 */
function addLine(block, offset, text) {
  const out = block.out;
  block.hex ??= isHexLine(text, Math.min(16, block.size - offset));
  if (!block.hex && offset - block.k === 2 && block.k + 2 <= out.length) {
    out[block.k++] = 0x0d;
    out[block.k++] = 0x0a;
  }
  if (offset !== block.k) return; // out of order, or past the size: not curl's
  if (block.hex) {
    const n = Math.min(16, out.length - offset);
    for (let j = 0; j < n; j++) {
      const b = parseInt(text.slice(j * 3, j * 3 + 2), 16);
      if (Number.isNaN(b)) return;
      out[block.k++] = b;
    }
    return;
  }
  for (let j = 0; j < text.length && block.k < out.length; j++) out[block.k++] = text.charCodeAt(j) < 0x80 ? text.charCodeAt(j) : 0x2e;
}

function finish(block, parts) {
  // The CR LF that ended the block's last line, which --trace-ascii leaves out.
  if (!block.hex && block.size - block.k === 2 && block.k + 2 <= block.out.length) {
    block.out[block.k++] = 0x0d;
    block.out[block.k++] = 0x0a;
  }
  parts[block.kind]?.push(block.out.subarray(0, block.k));
  if (block.hex === false && block.kind === "Recv data" && block.k > 0) parts.asciiBody = true;
}

function lineText(bytes, at, next) {
  let end = next;
  if (end > at && bytes[end - 1] === 0x0a) end--;
  if (end > at && bytes[end - 1] === 0x0d) end--;
  return utf8(bytes.subarray(at, end));
}

/** `--trace`'s hex line: `n` two-digit bytes, each followed by a space (16 a line, fewer on the last). */
function isHexLine(text, n) {
  if (n <= 0) return false;
  for (let j = 0; j < n; j++) if (!/^[0-9a-f]{2} $/.test(text.slice(j * 3, j * 3 + 3))) return false;
  return true;
}
