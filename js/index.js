// The public face of the package: the ToolCallTracker class over the wasm core.
import { initSync, WasmTracker } from "./agui_tool_calls.js";
import { wasmGzipBase64 } from "./wasm-bytes.js";
import { SnapshotBuilder } from "./snapshot.js";

// The module is embedded, so importing this file is all it takes in Node, a
// browser page, a worker or a bundler: by the time `import` resolves, the
// wasm is instantiated (top-level await, no fetch).
initSync({ module: await WebAssembly.compile(await gunzip(wasmGzipBase64)) });

async function gunzip(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}

/** Thrown by `push`, `pushJson` and `pushSse` when the stream breaks a fatal rule. */
export class ToolCallStreamError extends Error {
  constructor(violation) {
    super(`${violation.code} at event ${violation.eventIndex}: ${violation.message}`);
    this.name = "ToolCallStreamError";
    this.violation = violation;
  }
}

/**
 * Thrown by the application's operations (`approve`, `decline`, `answer`,
 * `fail`, `startRun`) when the tracker refuses one; nothing changed.
 */
export class ToolCallRefusedError extends Error {
  constructor({ kind, message, toolCallIds, unanswered = [] }) {
    super(message);
    this.name = "ToolCallRefusedError";
    this.kind = kind;
    this.toolCallIds = Object.freeze(toolCallIds);
    this.unanswered = Object.freeze(unanswered.map((u) => Object.freeze(u)));
  }
}

/**
 * The tool-call state of one AG-UI thread: feed it the events an agent
 * streams, read immutable snapshots back.
 */
export class ToolCallTracker {
  #core;
  #builder = new SnapshotBuilder();
  #listeners = new Set();
  /** A high surrogate that ended the last string chunk, waiting for its pair. */
  #carry = "";

  constructor(options = {}) {
    this.#core = new WasmTracker(JSON.stringify(options));
  }

  /** Reads one AG-UI event object. */
  push(event) {
    // What is not an object (even `undefined`, which JSON cannot spell) still
    // reaches the core, which reports it (rule E2) with the event's index.
    return this.#pushed(this.#core.pushJson(JSON.stringify(event) ?? "null"));
  }

  /** Reads one event given as JSON text. */
  pushJson(text) {
    return this.#pushed(this.#core.pushJson(String(text)));
  }

  /** Reads raw `text/event-stream` input, split anywhere. */
  pushSse(chunk) {
    if (typeof chunk !== "string") return this.#pushed(this.#core.pushSseBytes(toBytes(chunk)));
    // A string split inside a surrogate pair: crossing into wasm as UTF-8
    // would turn each half into U+FFFD, so the high half waits.
    let text = this.#carry + chunk;
    const last = text.charCodeAt(text.length - 1);
    this.#carry = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : "";
    if (this.#carry) text = text.slice(0, -1);
    return this.#pushed(this.#core.pushSseText(text));
  }

  /** The current snapshot (the identical object while nothing changes). */
  snapshot() {
    return this.#builder.snapshot;
  }

  /** Calls `listener` with every new snapshot; returns the unsubscribe function. */
  subscribe(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Declares the input of the next run: its tools are advertised, and it must answer every pending call. */
  startRun(input) {
    this.#applied(() => this.#core.startRun(JSON.stringify(input)));
  }

  /** Records the user's approval of a completed call. */
  approve(toolCallId) {
    return this.#applied(() => this.#core.approve(String(toolCallId)));
  }

  /** Declines a completed call: it is answered with a tool message saying so. */
  decline(toolCallId, reason) {
    return this.#applied(() => this.#core.decline(String(toolCallId), reason ?? undefined, newMessageId()));
  }

  /** Answers a completed call with the tool's output: a string or content parts. */
  answer(toolCallId, content) {
    return this.#applied(() => this.#core.answer(String(toolCallId), JSON.stringify(content ?? null), newMessageId()));
  }

  /** Answers a completed call with a failure. */
  fail(toolCallId, error, content) {
    return this.#applied(() => this.#core.fail(String(toolCallId), String(error), content ?? undefined, newMessageId()));
  }

  /** The tool messages the application produced, for the next run's `messages`. */
  toolMessages() {
    return JSON.parse(this.#core.toolMessages());
  }

  /** Releases the wasm memory; the tracker is unusable afterwards. */
  free() {
    this.#listeners.clear();
    this.#core.free();
  }

  #pushed(record) {
    const snapshot = this.#apply(record);
    if (snapshot.fatal) throw new ToolCallStreamError(snapshot.fatal);
    return snapshot;
  }

  #applied(operation) {
    let record;
    try {
      record = operation();
    } catch (thrown) {
      // The binding throws a refusal as JSON text, anything else as an Error.
      throw typeof thrown === "string" ? new ToolCallRefusedError(JSON.parse(thrown)) : thrown;
    }
    return this.#apply(record);
  }

  #apply(record) {
    const before = this.#builder.snapshot;
    const snapshot = this.#builder.apply(JSON.parse(record));
    if (snapshot !== before && this.#listeners.size) for (const listener of [...this.#listeners]) listener(snapshot);
    return snapshot;
  }
}

/** A fresh tool message id (a v4 UUID, also where `randomUUID` is missing: insecure contexts). */
function newMessageId() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function toBytes(chunk) {
  if (chunk instanceof Uint8Array) return chunk;
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError("pushSse takes a string or a Uint8Array");
}
