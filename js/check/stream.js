// @ts-check
// Checks one input with the wasm core: bytes in, one result per stream out
// (a HAR file holds several). Runs in Node (the CLI) and in a browser page
// (the inspector) alike: no Node API here, only Uint8Array and web streams.
import { init } from "../index.js";
import { WasmTracker } from "../tracker.js";
import { LimitError, gunzip, readAll, utf8 } from "./bytes.js";
import { Sniffer, FORMAT_NAMES } from "./detect.js";
import { Diagnostics, findingsOf } from "./diagnostics.js";
import { harStreams, HarError } from "./har.js";
import { CaptureError, formatFromContentType, parseHttpCapture } from "./http.js";
import { JsonlReader } from "./jsonl.js";
import { LineMap } from "./line-map.js";

/** The checker's reading limits, with their defaults. */
export const READ_LIMITS = {
  /** One line of JSON Lines or text/event-stream (bytes). */
  maxLineBytes: 64 * 1024 * 1024,
  /** A curl capture or HAR file, which is read whole (bytes, after gunzip). */
  maxCaptureBytes: 256 * 1024 * 1024,
  /** What gzip may decompress to, whatever it holds (bytes). */
  maxDecompressedBytes: 128 * 1024 * 1024,
};

const VIOLATION_PAGE = 10_000;
/** The core's default `limits.maxEventBytes` (docs/limits.md). */
const DEFAULT_EVENT_BYTES = 4 * 1024 * 1024;
/** Event text kept per stream when collecting (characters), whatever the event count. */
const COLLECT_BYTES = 32 * 1024 * 1024;

/**
 * Checks the bytes of one input, `chunks` (an async iterable of
 * Uint8Array). `options` is the core's options object; `read` holds
 * `limits` (READ_LIMITS), `collect` (keep each event's text, up to
 * `collect.maxEvents` events and `collect.maxBytes` characters, for the
 * HTML report and the inspector), `size` (the input's, when known),
 * `onBytes(n)` and `protoFrames(body)`
 * (proto.js's `framesAsJsonLines`: the command line reads protobuf
 * captures; the page, which does not load that decoder, reports them). Returns a list of results: `{ label, verdict, ... }`, or
 * `{ label, verdict: "unreadable", error }`; never throws for bad input.
 */
export async function checkChunks(label, chunks, options, read = {}) {
  await init(); // the wasm module: loaded once, by the first check
  const limits = { ...READ_LIMITS, ...read.limits };
  const ctx = { label, options, limits, collect: read.collect ?? null, protoFrames: read.protoFrames ?? null, size: read.size ?? null, bytes: 0 };
  const counted = countBytes(chunks, ctx, read.onBytes);
  try {
    return await checkSniffed(ctx, counted, []);
  } catch (error) {
    return [unreadable(label, `${label}: ${describeError(error)}`)];
  }
}

async function* countBytes(chunks, ctx, onBytes) {
  for await (const chunk of chunks) {
    ctx.bytes += chunk.length;
    onBytes?.(chunk.length);
    yield chunk;
  }
}

async function checkSniffed(ctx, chunks, containers) {
  const { decided, rest } = await sniff(chunks);
  const { format, head, lines } = decided;
  switch (format) {
    case null:
      return [unreadable(ctx.label, `${ctx.label}: not an AG-UI stream (expected JSON Lines, text/event-stream, a curl capture or a HAR file)`)];
    case "gzip":
      if (containers.includes("gzip")) return [unreadable(ctx.label, `${ctx.label}: gzip inside gzip`)];
      return checkSniffed(ctx, gunzip(prepend(head, rest), ctx.limits.maxDecompressedBytes), [...containers, "gzip"]);
    case "http":
      return checkCapture(ctx, prepend(head, rest), containers);
    case "har":
      return checkHar(ctx, prepend(head, rest), containers);
    default:
      return [await checkStream(ctx, { label: ctx.label, format, containers, firstLine: 1 + lines[format], lineOf: (l) => l }, prepend(head, rest))];
  }
}

/** Reads until the format is known; the chunks after the deciding one are left in `rest`. */
async function sniff(chunks) {
  const sniffer = new Sniffer();
  const iterator = chunks[Symbol.asyncIterator]();
  for (;;) {
    const { done, value } = await iterator.next();
    if (done) return { decided: sniffer.end(), rest: iterator };
    const decided = sniffer.push(value);
    if (decided !== undefined) return { decided, rest: iterator };
  }
}

async function* prepend(head, iterator) {
  if (head.length > 0) yield head;
  for (;;) {
    const { done, value } = await iterator.next();
    if (done) return;
    yield value;
  }
}

async function checkCapture(ctx, chunks, containers) {
  const bytes = await readAll(chunks, ctx.limits.maxCaptureBytes, sizeHint(ctx, containers));
  if (bytes === null) return [oversized(ctx, "curl capture")];
  let capture;
  try {
    capture = parseHttpCapture(bytes);
  } catch (error) {
    if (error instanceof CaptureError) return [unreadable(ctx.label, `${ctx.label}: ${error.message}`)];
    throw error;
  }
  const declared = formatFromContentType(capture.headers.get("content-type"));
  let body = capture.body;
  let lineOf = capture.lineOf;
  let sniffed = (await sniff(oneChunk(body))).decided.format;
  let gzipped = false;
  if (sniffed === "gzip") {
    // `curl --raw` keeps a gzip content coding: its lines are the decoded body's.
    body = await readAll(gunzip(oneChunk(body), ctx.limits.maxDecompressedBytes), ctx.limits.maxCaptureBytes);
    if (body === null) return [oversized(ctx, "curl capture")];
    sniffed = (await sniff(oneChunk(body))).decided.format;
    lineOf = (line) => line;
    gzipped = true;
  }
  // An error answer is the server's word, not a broken stream (its body, decoded, says why).
  if (capture.status >= 400) return [unreadable(ctx.label, `${ctx.label}: the server answered ${capture.status}: ${excerpt(body)}`)];
  let format = declared ?? sniffed;
  const type = capture.headers.has("content-type") ? `, ${capture.headers.get("content-type")}` : "";
  const trace = capture.trace ? ", read from a curl trace (lines are lines of the received data)" : "";
  const notes = [`HTTP ${capture.status}${type}${capture.chunked ? ", chunked transfer coding decoded" : ""}${gzipped ? ", gzip content coding decoded (lines are lines of the decoded body)" : ""}${trace}`];
  let bodyChunks = oneChunk(body);
  if (format === "proto") {
    const frames = protoFrames(ctx, body, notes);
    if (frames.error) return [unreadable(ctx.label, `${ctx.label}: ${frames.error}`)];
    ({ chunks: bodyChunks, format, lineOf } = frames);
  }
  if (format !== "jsonl" && format !== "sse") {
    return [unreadable(ctx.label, `${ctx.label}: the captured response body is not an AG-UI stream (${notes[0]})`)];
  }
  const stream = { label: ctx.label, format, containers: [...containers, "http"], firstLine: 1, lineOf, notes, request: capture.request };
  return [await checkStream(ctx, stream, bodyChunks)];
}

async function checkHar(ctx, chunks, containers) {
  const bytes = await readAll(chunks, ctx.limits.maxCaptureBytes, sizeHint(ctx, containers));
  if (bytes === null) return [oversized(ctx, "HAR file")];
  let har;
  try {
    har = harStreams(bytes);
  } catch (error) {
    if (error instanceof HarError) return [unreadable(ctx.label, `${ctx.label}: ${error.message}`)];
    throw error;
  }
  if (har.streams.length === 0) {
    const r = unreadable(ctx.label, `${ctx.label}: no AG-UI stream among the ${har.entries} entries of this HAR file`);
    r.notes = har.notes;
    return [r];
  }
  const results = [];
  for (const s of har.streams) {
    let { format } = s;
    let bodyChunks = oneChunk(s.body);
    const frameNotes = [];
    if (format === "proto") {
      const frames = protoFrames(ctx, s.body, frameNotes);
      if (frames.error) {
        results.push(unreadable(`${ctx.label}#${s.index}`, `${ctx.label}#${s.index}: ${frames.error}`));
        continue;
      }
      ({ chunks: bodyChunks, format } = frames);
    }
    const stream = { label: `${ctx.label}#${s.index}`, name: s.name, format, containers: [...containers, "har"], firstLine: 1, lineOf: (l) => l, notes: frameNotes, request: s.request };
    const bodyCtx = { ...ctx, bytes: s.body.length };
    try {
      results.push(await checkStream(bodyCtx, stream, bodyChunks));
    } catch (error) {
      results.push(unreadable(stream.label, `${stream.label}: ${describeError(error)}`));
    }
  }
  // The notes on skipped entries belong to the file; the first stream shows them.
  results[0].notes = [...(results[0].notes ?? []), ...har.notes];
  return results;
}

/**
 * A protobuf body (`application/vnd.ag-ui.event+proto`) as JSON Lines, one
 * event a frame, decoded as it is read: `{ chunks, format, lineOf }`, its
 * notes added to `notes`; or `{ error }` where no decoder was given (the
 * page reads no protobuf; the command line does).
 */
function protoFrames(ctx, body, notes) {
  if (ctx.protoFrames === null) return { error: "a protobuf event stream (application/vnd.ag-ui.event+proto) is read by the command line, agui-tool-calls check" };
  notes.push("protobuf frames decoded: a line is a frame (frame N on line N)");
  return { chunks: ctx.protoFrames(body, notes), format: "jsonl", lineOf: (line) => line };
}

/** The input's size, when it is known and the bytes are the file's own (not gunzipped). */
function sizeHint(ctx, containers) {
  return containers.length === 0 && Number.isSafeInteger(ctx.size) ? ctx.size : null;
}

async function* oneChunk(bytes) {
  yield bytes;
}

/** Feeds one JSON Lines or text/event-stream stream to a tracker of its own. */
async function checkStream(ctx, stream, chunks) {
  const sse = stream.format !== "jsonl";
  const lineLimit = sse ? sseLineLimit(ctx) : null;
  const options = lineLimit === null ? ctx.options : { ...ctx.options, limits: { ...ctx.options.limits, maxEventBytes: lineLimit } };
  // An event stream's tracker logs where each event and each line that is no field is (its decoder frames the stream; rule E1).
  const tracker = new WasmTracker(JSON.stringify(options), sse ? (ctx.collect ? 3 : 2) : 0);
  try {
    declareRequest(tracker, stream);
    const found = new Diagnostics();
    const lines = new LineMap();
    const events = ctx.collect ? [] : null;
    const reader = makeReader(stream, tracker, lines, found, events, ctx);
    let stopped = false;
    for await (const chunk of chunks) {
      if (!reader.push(chunk)) {
        stopped = true;
        break;
      }
    }
    if (!stopped) stopped = !reader.end();
    // The event being read when the reading stopped (rule S5) was never
    // dispatched: its line is where the input was cut.
    const cutAt = reader.unfinished?.() ?? 0;
    const lineOf = (index) => {
      const line = index === lines.size && cutAt !== 0 ? cutAt : lines.lineOf(index);
      return line === null ? null : stream.lineOf(line);
    };
    const summary = JSON.parse(tracker.text(2 /* summaryWithoutViolations */));
    const fatalRead = reader.fatal === true;
    for (let from = 0, n = tracker.violationCount(); from < n; from += VIOLATION_PAGE) {
      for (const v of JSON.parse(tracker.text(3 /* violationsJson */, from, from + VIOLATION_PAGE))) {
        // The decoder stopped at the line limit, not at the tracker's own: R3, as for JSON Lines.
        if (lineLimit !== null && v.code === "S5" && v.severity === "fatal" && v.eventIndex === lines.size) found.add(overLineLimit(lineOf(v.eventIndex), lineLimit));
        else found.add({ ...v, line: lineOf(v.eventIndex) });
      }
    }
    for (const v of findingsOf(summary, lineOf, stopped || fatalRead)) found.add(v);
    if (cutAt !== 0 && !stopped) {
      found.add({ source: "checker", code: "R1", severity: "violation", line: stream.lineOf(cutAt), eventIndex: null, openCalls: [], message: "the recording ends inside an event that no blank line ends: it was never dispatched, so it was not read" });
    }
    return {
      label: stream.label,
      name: stream.name ?? null,
      format: stream.format,
      containers: stream.containers,
      bytes: ctx.bytes,
      stopped: stopped,
      summary: publicSummary(summary),
      violations: found.list(),
      omitted: found.omitted(),
      counts: found.counts(),
      totals: found.totals,
      pending: summary.calls.filter((c) => c.pending).map((c) => c.id),
      verdict: found.verdict,
      notes: stream.notes ?? [],
      ...(events && { events, eventsTruncated: reader.truncated === true }),
    };
  } finally {
    try {
      tracker.free();
    } catch {
      // After a trap the module may refuse even this; the cause is reported.
    }
  }
}

/**
 * The run input the captured request POSTed, declared to the tracker
 * before the stream (`startRun`, rule F6): its tools are advertised and its
 * messages are history, as if `RUN_STARTED` had carried it. A server that
 * sends `RUN_STARTED` without `input` (AG-UI 1.1 allows it) leaves them
 * nowhere else. The notes say what was read, or why not.
 */
function declareRequest(tracker, stream) {
  if (typeof stream.request !== "string" || stream.request.trim() === "") return;
  let input;
  try {
    input = JSON.parse(stream.request);
  } catch {
    stream.notes.push("the captured request body is not JSON: no run input read from it");
    return;
  }
  if (input === null || typeof input !== "object" || Array.isArray(input)) return;
  try {
    tracker.operate(6 /* startRun */, stream.request);
  } catch (error) {
    stream.notes.push(`the captured request's run input was not used: ${coreMessage(error)}`);
    return;
  }
  const tools = Array.isArray(input.tools) ? input.tools.map((t) => t?.name).filter((n) => typeof n === "string") : [];
  const messages = Array.isArray(input.messages) ? input.messages.length : 0;
  stream.notes.push(`run input read from the captured request: ${tools.length === 0 ? "no tools" : `tools ${tools.join(", ")}`}, ${messages} message${messages === 1 ? "" : "s"} of history`);
}

function coreMessage(error) {
  const text = error?.message ?? String(error);
  try {
    return JSON.parse(text).message ?? text;
  } catch {
    return text;
  }
}

/** The start of a response body, on one line, for an error message. */
function excerpt(body) {
  const text = utf8(body.subarray(0, 400)).replace(/\s+/g, " ").trim();
  if (text === "") return "(an empty body)";
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** The summary as reports show it: its violations are the result's (counted, bounded). */
function publicSummary(summary) {
  const { violations, ...rest } = summary;
  return { ...rest, calls: summary.calls.map(publicCall) };
}

/** A call as reports show it: the change-record plumbing (`append`, `partial`) left out. */
/** A call as the JSON report shows it: no transport fields, and no encrypted value, which is for its producer alone (rule F10). */
function publicCall(call) {
  const { append, partial, index, encryptedValue, encryptedValueType, ...rest } = call;
  return rest;
}

function makeReader(stream, tracker, lines, found, events, ctx) {
  const max = ctx.collect?.maxEvents ?? Infinity;
  const maxBytes = ctx.collect?.maxBytes ?? COLLECT_BYTES;
  const state = { fatal: false, truncated: false };
  let kept = 0;
  const keep = (line, text) => {
    if (events === null || state.truncated) return;
    kept += text.length;
    if (events.length < max && kept <= maxBytes) events.push({ line: stream.lineOf(line), text });
    else state.truncated = true;
  };
  const oversized = (line, bytes) => {
    state.fatal = true;
    found.add(overLineLimit(stream.lineOf(line), ctx.limits.maxLineBytes, bytes));
  };
  if (stream.format === "jsonl") {
    const jsonl = new JsonlReader({
      firstLine: stream.firstLine,
      maxLineBytes: ctx.limits.maxLineBytes,
      onLine(text, line) {
        lines.record(line);
        keep(line, text);
        return tracker.feedJson(text);
      },
      onForeign(line, text) {
        found.add({ source: "checker", code: "R2", severity: "violation", line: stream.lineOf(line), eventIndex: null, message: `a text/event-stream line in a JSON Lines file, not read: ${clip(text)}` });
      },
      onOversized: oversized,
    });
    return Object.assign(state, { push: (c) => jsonl.push(c), end: () => jsonl.end() });
  }
  const first = stream.firstLine - 1;
  let open = 0; // the line of an event the input cut, or 0
  const take = () => {
    const entries = JSON.parse(tracker.text(5 /* takeLines */, 0, 0));
    open = entries[0] === 0 ? 0 : first + entries[0];
    for (let i = 1; i < entries.length; i++) {
      const n = entries[i];
      if (n < 0) foreign(first - n, entries[++i]);
      else {
        lines.record(first + n);
        if (events !== null) keep(first + n, entries[++i]);
      }
    }
  };
  const foreign = (line, start) => {
    const json = start.startsWith("{") || start.startsWith("[");
    found.add({
      source: "checker",
      code: "R2",
      severity: json ? "violation" : "warning",
      line: stream.lineOf(line),
      eventIndex: null,
      message: json ? `a JSON Lines event in a text/event-stream file, which event-stream readers drop: ${clip(start)}` : `a line that is no event-stream field, which readers ignore: ${clip(start)}`,
    });
  };
  return Object.assign(state, {
    push(chunk) {
      const good = tracker.feedSse(chunk);
      take();
      return good;
    },
    end: () => true, // an event no blank line ends is never dispatched
    unfinished: () => open,
  });
}

/**
 * An event stream's line limit, when `--max-line-bytes` is below the
 * tracker's `maxEventBytes`: the tracker's decoder, which bounds each line
 * and each event's data by `maxEventBytes` (rule S5), is then given it, so
 * that no line is held whole past either. Otherwise null.
 */
function sseLineLimit(ctx) {
  const own = ctx.options.limits?.maxEventBytes ?? DEFAULT_EVENT_BYTES;
  return ctx.limits.maxLineBytes < own ? ctx.limits.maxLineBytes : null;
}

/** Rule R3: a line (or an event-stream event's data) over `--max-line-bytes`, `bytes` long when known. */
function overLineLimit(line, max, bytes) {
  const what = bytes === undefined ? "a line or an event's data over" : `a line of ${bytes} bytes or more, over`;
  return { source: "checker", code: "R3", severity: "fatal", line, eventIndex: null, message: `${what} the limit of ${max} (--max-line-bytes): the rest of the stream is not read` };
}

function clip(text) {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function oversized(ctx, what) {
  return unreadable(ctx.label, `${ctx.label}: a ${what} is read whole, and this one is over the limit of ${ctx.limits.maxCaptureBytes} bytes (--max-capture-bytes)`);
}

function describeError(error) {
  if (error instanceof LimitError) return error.message;
  if (error instanceof WebAssembly.RuntimeError) return `the checker's wasm module failed (${error.message}): the stream is too large or hostile for it`;
  if (error instanceof RangeError) return `out of memory reading the input (${error.message})`;
  return error?.message ?? String(error);
}

function unreadable(label, error) {
  return { label, verdict: "unreadable", error, notes: [] };
}

export { FORMAT_NAMES };
