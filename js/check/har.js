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
 * The streams of a HAR file: `{ streams: [{ name, index, format, body }],
 * notes: [text] }`. `body` is the response body's bytes.
 */
export function harStreams(bytes) {
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
    if (typeof content.text !== "string" || content.text.length === 0) {
      notes.push(`skipped entry ${index} (${name}): no response body saved${type ? ` (${type})` : ""}`);
      return;
    }
    const body = content.encoding === "base64" ? base64Bytes(content.text) : encode(content.text);
    const declared = formatFromContentType(type);
    const format = declared ?? (readsAsEvents(body) ? sniffed(body) : null);
    if (format === null) {
      notes.push(`skipped entry ${index} (${name}): ${type || "no content type"}, not an AG-UI event stream`);
      return;
    }
    streams.push({ name, index, format, body });
  });
  return { streams, notes, entries: entries.length };
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
