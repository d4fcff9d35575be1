// Checks one recorded stream with the wasm core: bytes in, the core's
// summary of the whole state out, with the line each violation's event
// began on.
import "../index.js"; // initialises the embedded wasm module
import { WasmTracker } from "../agui_tool_calls.js";
import { InputError, detectFormat, openInput } from "./input.js";
import { JsonlReader } from "./jsonl.js";
import { LineMap } from "./line-map.js";
import { SseLines } from "./sse-lines.js";

/**
 * The verdict on one input: `{ label, format, bytes, summary, violations,
 * verdict }`, or `{ label, verdict: "unreadable", error }`. `options` is the
 * core's options object; `progress(label, size)` may return `{ advance(n), done() }`.
 */
export async function checkInput(name, options, progress = () => null) {
  let source;
  try {
    source = await openInput(name);
  } catch (error) {
    if (error instanceof InputError) return unreadable(name, error.message);
    throw error;
  }
  const meter = progress(source.label, source.size);
  try {
    return await checkSource(source, options, meter);
  } catch (error) {
    if (error instanceof InputError) return unreadable(source.label, error.message);
    throw error;
  } finally {
    meter?.done();
  }
}

async function checkSource(source, options, meter) {
  const lines = new LineMap();
  const tracker = new WasmTracker(JSON.stringify(options));
  try {
    const reading = await read(source, tracker, lines, meter);
    if (reading.format === null) {
      return unreadable(source.label, `${source.label}: not an AG-UI stream (expected JSON Lines or text/event-stream)`);
    }
    const summary = JSON.parse(tracker.summary());
    return judge(source.label, reading, summary, lines);
  } finally {
    tracker.free();
  }
}

/** Feeds the whole input (or up to a fatal error) to the tracker. */
async function read(source, tracker, lines, meter) {
  let format;
  let reader;
  let head = [];
  let bytes = 0;
  let stopped = false;
  for await (const chunk of source.chunks) {
    bytes += chunk.length;
    meter?.advance(chunk.length);
    if (reader === undefined) {
      head.push(chunk);
      const start = Buffer.concat(head);
      format = detectFormat(start, false);
      if (format === undefined) continue;
      if (format === null) return { format, bytes };
      reader = makeReader(format, tracker, lines);
      head = [];
      if (!reader.push(start)) {
        stopped = true;
        break;
      }
      continue;
    }
    if (!reader.push(chunk)) {
      stopped = true;
      break;
    }
  }
  if (reader === undefined) {
    format = detectFormat(Buffer.concat(head), true);
    if (format === null || format === undefined) return { format: null, bytes };
    reader = makeReader(format, tracker, lines);
    stopped = !reader.push(Buffer.concat(head));
  }
  if (!stopped) stopped = !reader.end();
  return { format, bytes, stopped };
}

function makeReader(format, tracker, lines) {
  if (format === "jsonl") {
    const jsonl = new JsonlReader((text, line) => {
      lines.record(line);
      return tracker.feedJson(text);
    });
    return jsonl;
  }
  const sse = new SseLines((line) => lines.record(line));
  return {
    push(chunk) {
      sse.push(chunk);
      return tracker.feedSse(chunk);
    },
    end: () => true, // an event no blank line ends is never dispatched
  };
}

function judge(label, reading, summary, lines) {
  const violations = summary.violations.map((v) => ({ ...v, line: lines.lineOf(v.eventIndex) }));
  return {
    label,
    format: reading.format,
    bytes: reading.bytes,
    stopped: reading.stopped,
    summary,
    violations,
    pending: summary.calls.filter((c) => c.pending).map((c) => c.id),
    verdict: verdictOf(violations),
  };
}

/** The worst severity seen: "fatal", "violations", "warnings" or "clean". */
function verdictOf(violations) {
  if (violations.some((v) => v.severity === "fatal")) return "fatal";
  if (violations.some((v) => v.severity === "violation")) return "violations";
  if (violations.length > 0) return "warnings";
  return "clean";
}

/** Throws the core's message when it refuses `options`. */
export function checkOptions(options) {
  new WasmTracker(JSON.stringify(options)).free();
}

function unreadable(label, error) {
  return { label, verdict: "unreadable", error };
}
