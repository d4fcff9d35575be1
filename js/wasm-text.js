// @ts-check
// What the core leaves in wasm memory for the commonest change, text
// appended to one open call, read straight from there: its header and the
// UTF-8 text it points at, with no JSON record to make and parse.
import { initSync } from "./agui_tool_calls.js";

// Views of the wasm memory, kept: making them each event costs more than
// the event's text. Remade when the memory grew (the old buffer is then
// detached, length 0).
let bytesView = new Uint8Array(0);
let floats;

function memory() {
  if (bytesView.byteLength === 0) {
    bytesView = new Uint8Array(initSync().memory.buffer);
    floats = new Float64Array(bytesView.buffer);
  }
  return bytesView;
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Folds into `builder` the text appended to one open call: `[version,
 * index, text address, append bytes, suffix bytes, cut]` at `header`
 * (`TextChange` in the binding).
 * @param {import("./snapshot.js").SnapshotBuilder} builder
 * @param {number} header
 */
export function applyTextChange(builder, header) {
  const h = header / 8;
  const bytes = memory();
  const at = floats[h + 2], appended = floats[h + 3];
  const text = utf8(bytes, at, appended);
  builder.appendText(floats[h], floats[h + 1], text, floats[h + 5], utf8(bytes, at + appended, floats[h + 4]));
}

/**
 * UTF-8 text in wasm memory (valid: the core's own string). A short run,
 * a typical delta, is decoded here: a call into the decoder costs more
 * than the whole of it.
 */
function utf8(bytes, at, length) {
  const end = at + length;
  if (length > 32) return decoder.decode(bytes.subarray(at, end));
  let text = "";
  for (let i = at; i < end; ) {
    let c = bytes[i++];
    if (c < 0x80) {
      text += String.fromCharCode(c);
      continue;
    }
    // A lead byte then 1 to 3 continuation bytes of 6 bits each.
    const more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
    c &= 0x3f >> more;
    for (let k = 0; k < more; k++) c = (c << 6) | (bytes[i++] & 0x3f);
    text += String.fromCodePoint(c);
  }
  return text;
}
