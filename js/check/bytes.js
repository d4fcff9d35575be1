// Byte helpers shared by the readers, on plain Uint8Array so the same code
// runs in Node and in a browser page (the inspector).

const decoder = new TextDecoder("utf-8");

/** The UTF-8 text of `bytes` (invalid sequences become U+FFFD). */
export function utf8(bytes) {
  return decoder.decode(bytes);
}

/** The bytes of `text` as UTF-8. */
export function encode(text) {
  return new TextEncoder().encode(text);
}

/** One array holding `chunks` one after the other. */
export function concat(chunks) {
  if (chunks.length === 1) return chunks[0];
  let length = 0;
  for (const c of chunks) length += c.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Space, tab, CR or LF. */
export function isSpace(b) {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/** Whether `bytes` starts with a UTF-8 byte-order mark. */
export function hasBom(bytes) {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** Whether `bytes`, from `at`, starts with the ASCII `prefix`; undefined when the bytes stop first. */
export function startsWith(bytes, prefix, at = 0) {
  for (let k = 0; k < prefix.length; k++) {
    if (at + k >= bytes.length) return undefined;
    if (bytes[at + k] !== prefix.charCodeAt(k)) return false;
  }
  return true;
}

/** Reads all of `chunks` (an async iterable), refusing more than `max` bytes. */
export async function readAll(chunks, max, prefix = []) {
  const parts = [...prefix];
  let size = parts.reduce((n, c) => n + c.length, 0);
  if (size > max) return null;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > max) return null;
    parts.push(chunk);
  }
  return concat(parts);
}

/** Gunzips an async iterable of chunks (DecompressionStream: Node 18+ and browsers). */
export async function* gunzip(chunks) {
  const stream = new DecompressionStream("gzip");
  const writer = stream.writable.getWriter();
  const feeding = (async () => {
    try {
      for await (const chunk of chunks) await writer.write(chunk);
      await writer.close();
    } catch (error) {
      await writer.abort(error).catch(() => {});
    }
  })();
  try {
    yield* chunksOf(stream.readable);
  } finally {
    await feeding;
  }
}

/** The chunks of a ReadableStream, as an async iterable. */
export async function* chunksOf(readable) {
  const reader = readable.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield value;
    }
  } finally {
    // A reader that stopped early (a fatal error) must not leave the
    // writer feeding the stream waiting on backpressure.
    await reader.cancel().catch(() => {});
  }
}
