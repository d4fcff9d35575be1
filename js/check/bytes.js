// @ts-check
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

/**
 * Reads all of `chunks` (an async iterable), refusing more than `max`
 * bytes (null); `sizeHint` is how many bytes are expected, when known. Copied into one buffer that doubles as it fills, so the
 * chunks are garbage as soon as they are copied: a capture read whole
 * peaks at less than twice its size, never at its chunks plus their copy.
 */
export async function readAll(chunks, max, sizeHint = null) {
  // The file's size, when known, is the buffer's: no copy at all.
  let out = new Uint8Array(Math.min(sizeHint ?? 64 * 1024, max));
  let size = 0;
  const add = (chunk) => {
    if (size + chunk.length > max) return false;
    if (size + chunk.length > out.length) {
      const bigger = new Uint8Array(Math.min(Math.max(out.length * 2, size + chunk.length), max));
      bigger.set(out.subarray(0, size));
      out = bigger;
    }
    out.set(chunk, size);
    size += chunk.length;
    return true;
  };
  for await (const chunk of chunks) if (!add(chunk)) return null;
  return out.subarray(0, size);
}

/** Input over one of the checker's limits: the message names the limit and its option. */
export class LimitError extends Error {}

/**
 * Gunzips an async iterable of chunks (DecompressionStream: Node 18+ and
 * browsers), refusing more than `max` decompressed bytes: 255 KB of gzip
 * can hold 256 MiB of blank lines.
 */
export async function* gunzip(chunks, max = Infinity) {
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
  let size = 0;
  try {
    for await (const chunk of chunksOf(stream.readable)) {
      size += chunk.length;
      if (size > max) throw new LimitError(`gzip that decompresses to more than ${max} bytes, over the limit of --max-decompressed-bytes; raise it to read the input`);
      yield chunk;
    }
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
