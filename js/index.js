// The public face of the package: the ToolCallTracker class over the wasm core.
//
// This module starts nothing: it is the `agui-tool-calls/init` entry
// (`await init()` first), and the main entry, `index.js` in the package,
// re-exports it after awaiting `init()` (top-level await), so that
// importing it is all it takes in Node, a browser page, a worker or a
// bundler that supports top-level await.
import { WasmTracker } from "./agui_tool_calls.js";
import { init, initialized } from "./wasm-load.js";
import { SnapshotBuilder } from "./snapshot.js";
import { completeHistory } from "./next-run.js";

export { init };

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
  /** The `onEvent` option; without it no event is copied or parsed for it. */
  #onEvent;

  constructor(options = {}) {
    if (!initialized()) throw new Error("agui-tool-calls: await init() before creating a ToolCallTracker");
    // The core checks every other option, and a non-object.
    const onEvent = options !== null && typeof options === "object" ? options.onEvent : undefined;
    if (onEvent !== undefined && typeof onEvent !== "function") throw new TypeError("option onEvent must be a function");
    this.#core = new WasmTracker(JSON.stringify(onEvent ? { ...options, onEvent: undefined } : options) ?? "null", !!onEvent);
    this.#onEvent = onEvent;
  }

  /** Reads one AG-UI event object. */
  push(event) {
    // What is not an object (even `undefined`, which JSON cannot spell) still
    // reaches the core, which reports it (rule E2) with the event's index.
    return this.#pushed(this.#core.pushJson(JSON.stringify(event) ?? "null"), this.#onEvent && (() => this.#accepted(event)));
  }

  /** Reads one event given as JSON text. */
  pushJson(text) {
    text = String(text);
    return this.#pushed(this.#core.pushJson(text), this.#onEvent && (() => this.#accepted(JSON.parse(text))));
  }

  /** Reads raw `text/event-stream` input, split anywhere. */
  pushSse(chunk) {
    const events = this.#onEvent && (() => JSON.parse(this.#core.takeEvents()));
    if (typeof chunk !== "string") return this.#pushed(this.#core.pushSseBytes(toBytes(chunk)), events);
    // A string split inside a surrogate pair: crossing into wasm as UTF-8
    // would turn each half into U+FFFD, so the high half waits.
    let text = this.#carry + chunk;
    const last = text.charCodeAt(text.length - 1);
    this.#carry = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : "";
    if (this.#carry) text = text.slice(0, -1);
    return this.#pushed(this.#core.pushSseText(text), events);
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

  /** The next run's input: `input` with its history completed, declared as by `startRun` (README: "The next run"). */
  nextRun(input) {
    if (input === null || typeof input !== "object" || Array.isArray(input)) throw new TypeError("nextRun takes a RunAgentInput object");
    const messages = input.messages ?? [];
    if (!Array.isArray(messages)) throw new TypeError('the run input\'s field "messages" must be an array');
    const at = this.#core.positions(messages.map((m) => String(m?.id)).join("\0"));
    const next = { ...input, messages: completeHistory(messages, this.snapshot().calls, at) };
    this.startRun(next); // refuses, naming them, calls left unanswered
    return next;
  }

  /** Ends the active run locally: status `aborted`, open calls abandoned. */
  abortRun(reason) {
    return this.#apply(this.#core.abortRun(reason == null ? undefined : String(reason)));
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

  #pushed(record, events) {
    const snapshot = this.#apply(record, events);
    if (snapshot.fatal) throw new ToolCallStreamError(snapshot.fatal);
    return snapshot;
  }

  /** A pushed event was read unless the stream stopped. */
  #accepted(event) {
    return this.#builder.snapshot.fatal ? [] : [event];
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

  /** Folds a change record in; `events()`, when given, lists the events read for `onEvent`. */
  #apply(record, events) {
    const before = this.#builder.snapshot;
    const snapshot = this.#builder.apply(JSON.parse(record));
    if (events) for (const event of events()) this.#onEvent(event);
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
