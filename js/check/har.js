// @ts-check
// A HAR 1.2 file (the browser devtools' "Save all as HAR"): each entry whose
// response is `text/event-stream`, or whose body reads as AG-UI events, is a
// stream of its own, named by method, URL and index; the others are skipped
// with a note saying why.
import { encode, utf8 } from "./bytes.js";
import { Sniffer } from "./detect.js";
import { formatFromContentType } from "./http.js";

/** A HAR file that is not one: says why. */
export class HarError extends Error {}

/**
 * The streams of a HAR file: `{ streams: [{ name, index, format, body,
 * request }], notes: [text] }`. `body` is the response body's bytes,
 * `request` the request body's text (the run input a client POSTed), or
 * null. An entry the server answered with an error status is noted with
 * the status and the start of its body.
 */
export function harStreams(bytes) {
  refuseHostileShape(bytes);
  let har;
  try {
    har = JSON.parse(utf8(bytes));
  } catch (error) {
    throw new HarError(`not valid JSON: ${error.message}`);
  }
  const entries = har?.log?.entries;
  if (!Array.isArray(entries)) throw new HarError("no log.entries array (expected a HAR 1.2 file)");
  const streams = [];
  const notes = [];
  entries.forEach((entry, index) => {
    const name = `${entry?.request?.method ?? "?"} ${entry?.request?.url ?? "?"} #${index}`;
    const content = entry?.response?.content ?? {};
    const type = content.mimeType ?? headerOf(entry?.response, "content-type") ?? "";
    const status = Number(entry?.response?.status);
    if (status >= 400) {
      const body = typeof content.text === "string" ? content.text.slice(0, 400).replace(/\s+/g, " ").trim() : "";
      notes.push(`skipped entry ${index} (${name}): the server answered ${status}: ${body === "" ? "(no body saved)" : clip(body, 200)}`);
      return;
    }
    if (typeof content.text !== "string" || content.text.length === 0) {
      notes.push(`skipped entry ${index} (${name}): no response body saved${type ? ` (${type})` : ""}`);
      return;
    }
    let body;
    try {
      body = content.encoding === "base64" ? base64Bytes(content.text) : encode(content.text);
    } catch {
      notes.push(`skipped entry ${index} (${name}): its body is marked base64 but does not decode as base64`);
      return;
    }
    const declared = formatFromContentType(type);
    const format = declared ?? (readsAsEvents(body) ? sniffed(body) : null);
    if (format === null) {
      notes.push(`skipped entry ${index} (${name}): ${type || "no content type"}, not an AG-UI event stream`);
      return;
    }
    const request = entry?.request?.postData?.text;
    streams.push({ name, index, format, body, request: typeof request === "string" ? request : null });
  });
  return { streams, notes, entries: entries.length };
}

/** Nesting a HAR file may have: a real one nests a dozen deep (initiator stacks a few dozen). */
export const HAR_MAX_DEPTH = 512;
/** Values (array items, object members, containers) a HAR file may hold before JSON.parse builds them. */
export const HAR_MAX_VALUES = 8_000_000;

/**
 * Scans the bytes once, outside strings, before JSON.parse sees them: a
 * file of 120 million nested arrays (240 MB, 230 KB gzipped) or of tens of
 * millions of tiny values would exhaust the heap in JSON.parse, which
 * cannot be stopped once started, and kill the process.
 */
function refuseHostileShape(bytes) {
  let depth = 0;
  let values = 0;
  for (let k = 0; k < bytes.length; k++) {
    const b = bytes[k];
    if (b === 0x22) {
      k = stringEnd(bytes, k);
    } else if (b === 0x5b || b === 0x7b) {
      if (++depth > HAR_MAX_DEPTH) throw new HarError(`arrays and objects nest over ${HAR_MAX_DEPTH} deep at byte ${k}: refused before parsing (no HAR file nests so deep)`);
      values++;
    } else if (b === 0x5d || b === 0x7d) {
      depth--;
    } else if (b === 0x2c) {
      values++;
    } else {
      continue;
    }
    if (values > HAR_MAX_VALUES) throw new HarError(`over ${HAR_MAX_VALUES} JSON values by byte ${k}: refused before parsing (a HAR file's bodies are strings)`);
  }
}

/** The offset of the quote that closes the string opened at `k`. */
function stringEnd(bytes, k) {
  for (;;) {
    const quote = bytes.indexOf(0x22, k + 1);
    if (quote === -1) return bytes.length;
    let escapes = 0;
    for (let j = quote - 1; bytes[j] === 0x5c; j--) escapes++;
    if (escapes % 2 === 0) return quote;
    k = quote;
  }
}

function clip(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function headerOf(response, wanted) {
  for (const h of response?.headers ?? []) if (String(h?.name).toLowerCase() === wanted) return String(h.value);
  return null;
}

function base64Bytes(text) {
  const binary = atob(text.replace(/\s+/g, ""));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function sniffed(body) {
  const sniffer = new Sniffer();
  return (sniffer.push(body) ?? sniffer.end()).format;
}

/** A body without a telling content type is a stream when its first event is an AG-UI event. */
function readsAsEvents(body) {
  const format = sniffed(body);
  const text = utf8(body.subarray(0, 64 * 1024));
  let first;
  if (format === "jsonl") first = text.trimStart().split("\n")[0];
  else if (format === "sse") first = /^data: ?(.*)$/m.exec(text)?.[1];
  else return false;
  try {
    const event = JSON.parse(first);
    return typeof event?.type === "string" && /^[A-Z][A-Z_]+$/.test(event.type);
  } catch {
    return false;
  }
}
