// @ts-check
// The public face of the package: the ToolCallTracker class over the wasm
// core, `init`, `warmUp` and the errors its methods throw. The checks every
// argument passes before it crosses are js/arguments.js; the warm-ups,
// js/warm-up.js; the text read straight from wasm memory, js/wasm-text.js.
// Both entries (js/index.js, js/full.js) export it, each naming the wasm
// module it loads. The build bundles the loader and the wasm-bindgen glue
// into it too (one module for a page to download: 0.5 KB gzip less than
// three), so the package's own modules that need either reach them here
// (see the exports at the end); the entries name the public exports.
//
// Importing this module starts nothing and awaits nothing: no top-level
// await, no timer, no worker, so that every bundler's default target
// takes it. `init()` loads the wasm module; in Node, a tracker made before
// that loads it synchronously (`loadNow`).
import { WasmTracker } from "./agui_tool_calls.js";
import { init as load, loadNow, initialized } from "./wasm-load.js";
import { SnapshotBuilder } from "./snapshot.js";

import { completeHistory } from "./next-run.js";
import { recognised } from "./processing.js";
import { resumeList } from "./resume.js";
import { outgoingInput } from "./outgoing.js";
// Imported last, so bundled next to the class that calls them: 38 bytes
// gzip smaller than first.
import {
  checkContent,
  checkOptions,
  checkRunInput,
  crossing,
  fail,
  jsonText,
  kind,
  optionalString,
  plainArgs,
  read,
  requireString,
  spelt,
  toBytes,
  unreadable,
} from "./arguments.js";
import { startWarmUp, streamBegan } from "./warm-up.js";
import { applyTextChange } from "./wasm-text.js";

/**
 * Compiles and instantiates the wasm module, once, and starts the warm-up
 * `options.warmUp` names (none by default; see `warmUp`).
 * @param {{ warmUp?: "idle" | "worker" | "off" } | null} [options]
 * @returns {Promise<void>}
 */
export function init(options) {
  const mode = options?.warmUp ?? "off";
  if (!WARM_UPS.includes(mode) || (options != null && typeof options !== "object")) {
    throw new TypeError('init(options): options must be { warmUp?: "idle" | "worker" | "off" }');
  }
  const loaded = load();
  if (mode !== "off") startWarmUp(mode, ToolCallTracker);
  return loaded;
}

/**
 * Loads the module (as `init`) and warms the stream's code up, once per
 * page or process (a later call returns the first one's promise):
 * `"idle"` (the default) on this thread once it is idle (js/warm-up.js),
 * `"worker"` on a module worker in a browser page (js/warm.js). Resolves
 * whether the warm-up ran to its end.
 * @param {"idle" | "worker"} [mode]
 * @returns {Promise<boolean>}
 */
export function warmUp(mode = "idle") {
  if (mode !== "idle" && mode !== "worker") throw new TypeError('warmUp(mode): mode must be "idle" or "worker"');
  return startWarmUp(mode, ToolCallTracker);
}

const WARM_UPS = ["idle", "worker", "off"];

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
  /** @param {import("./wire").RefusalRecord} record the binding's refusal record (or one made here alike) */
  constructor({ kind, message, toolCallIds, unanswered = [], interruptIds = [], uncovered = [], errors = [], path }) {
    super(message);
    this.name = "ToolCallRefusedError";
    this.kind = kind;
    if (path !== undefined) this.path = path;
    this.toolCallIds = Object.freeze(toolCallIds);
    this.unanswered = Object.freeze(unanswered.map((u) => Object.freeze(u)));
    this.interruptIds = Object.freeze(interruptIds);
    this.uncovered = Object.freeze(uncovered.map((u) => Object.freeze(u)));
    this.errors = Object.freeze(errors.map((e) => Object.freeze(e)));
  }
}

/**
 * The tool-call state of one AG-UI thread: feed it the events an agent
 * streams, read immutable snapshots back.
 */
export class ToolCallTracker {
  /** The wasm tracker; `null` once freed or trapped. */
  #core;
  /** The trap that killed the core, if one did. */
  #trap = null;
  #builder = new SnapshotBuilder();
  #listeners = new Set();
  /** A high surrogate that ended the last string chunk, waiting for its pair. */
  #carry = "";
  /** The `onEvent` option; without it no event is copied or parsed for it. */
  #onEvent;
  /** The last snapshot the listeners were told. */
  #told = null;
  /** The names of the tools the options advertise (for `nextRun`, rule F8). */
  #toolNames;
  /**
   * The `toolCallId` and `subagentRunId` the core holds from the last
   * `feedArgs`: sent again only when either changes (`""` for the same).
   */
  #argsId = "";
  /** @type {string | undefined} */
  #argsOwner;

  constructor(options = {}) {
    // In Node the module loads here if `init()` has not loaded it; a browser compiles it asynchronously only.
    if (!initialized() && !loadNow()) throw new Error("agui-tool-calls: await init() before creating a ToolCallTracker");
    // Read whole first (a throwing getter or Proxy trap is a TypeError
    // there); `onEvent`, a function, is left out of the JSON and stays here.
    const [text, plain] = checkOptions(options);
    const onEvent = options?.onEvent;
    if (onEvent !== undefined && typeof onEvent !== "function") throw new TypeError(`options.onEvent must be a function (got ${kind(onEvent)})`);
    try {
      this.#core = new WasmTracker(text, onEvent ? 1 : 0);
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) throw new TrackerTrappedError("constructor", error);
      throw new TypeError(`ToolCallTracker options: ${error.message}`);
    }
    this.#onEvent = onEvent;
    this.#toolNames = toolNames(plain.tools);
  }

  /** Reads one AG-UI event object. */
  push(event) {
    this.#live("push");
    const events = this.#onEvent && (() => this.#accepted(event));
    // The stream's commonest event crosses as its fields, not as JSON.
    const args = plainArgs(event);
    if (args) return this.#pushed("push", ARGS_FIELDS, args, events);
    // What is not an object (even `undefined`, which JSON cannot spell) still
    // reaches the core, which reports it (rule E2) with the event's index.
    const text = jsonText(event, "push(event)") ?? "null";
    crossing(text, "push(event)");
    return this.#pushed("push", JSON_TEXT, text, events);
  }

  /** Reads one event given as JSON text. */
  pushJson(text) {
    this.#live("pushJson");
    requireString(text, "pushJson(text): text");
    return this.#pushed("pushJson", JSON_TEXT, text, this.#onEvent && (() => this.#accepted(JSON.parse(text))));
  }

  /** Reads raw `text/event-stream` input, split anywhere. */
  pushSse(chunk) {
    this.#live("pushSse");
    const events = this.#onEvent && (() => JSON.parse(this.#call("pushSse", (core) => core.text(0 /* takeEvents */))));
    if (typeof chunk !== "string") {
      const bytes = toBytes(chunk);
      return this.#pushed("pushSse", SSE_BYTES, crossing(bytes, "pushSse(chunk): chunk"), events);
    }
    // A string split inside a surrogate pair: crossing into wasm as UTF-8
    // would turn each half into U+FFFD, so the high half waits.
    let text = this.#carry + chunk;
    const last = text.charCodeAt(text.length - 1);
    this.#carry = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : "";
    if (this.#carry) text = text.slice(0, -1);
    return this.#pushed("pushSse", SSE_BYTES, encoder.encode(crossing(text, "pushSse(chunk): chunk")), events);
  }

  /** The current snapshot (the identical object while nothing changes; still readable after a trap). */
  snapshot() {
    if (!this.#core && !this.#trap) throw new TrackerFreedError("snapshot");
    return this.#builder.snapshot;
  }

  /** Calls `listener` with every new snapshot; returns the unsubscribe function. */
  subscribe(listener) {
    this.#live("subscribe");
    if (typeof listener !== "function") throw new TypeError(`subscribe(listener): listener must be a function (got ${kind(listener)})`);
    // An entry per subscription: one function subscribed twice is two.
    const entry = { listener };
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  /** Declares the input of the next run: its tools are advertised, and it must answer every pending call. */
  startRun(input) {
    this.#live("startRun");
    const text = checkRunInput(input);
    this.#operation("startRun", (core) => core.operate(6 /* startRun */, text));
  }

  /** The next run's input: `input` with its history completed, declared as by `startRun` (README: "The next run"). */
  nextRun(input) {
    this.#live("nextRun");
    if (kind(input) !== "object") throw new TypeError(`nextRun(input): input must be an object (got ${kind(input)})`);
    let messages, ids, next, given;
    try {
      messages = input.messages ?? [];
      if (kind(messages) === "an array") ids = messages.map((m) => String(m?.id)).join("\0");
      next = { ...input };
      given = toolNames(next.tools);
    } catch (error) {
      unreadable("nextRun(input): input", error);
    }
    if (ids === undefined) throw new ToolCallRefusedError({ kind: "malformedInput", message: `nextRun(input): the run input is malformed: field "messages" must be an array (got ${kind(messages)})`, toolCallIds: [], path: "messages" });
    const at = JSON.parse(this.#call("nextRun", (core) => core.operate(9 /* positions */, crossing(ids, "nextRun(input): input.messages ids"))));
    // The run advertises the options' tools and the input's (rule F1).
    const advertised = (name) => this.#toolNames.has(name) || given.has(name);
    // What messages keep (rule F10); a call's is on the call.
    const kept = new Map();
    for (const [id, encryptedValue, encryptedValueType, metadata] of JSON.parse(this.#call("nextRun", (core) => core.text(4 /* keptMessages */)))) {
      kept.set(id, { encryptedValue: encryptedValue ?? undefined, encryptedValueType: encryptedValueType ?? undefined, metadata: metadata ?? undefined });
    }
    next.messages = completeHistory(messages, this.snapshot().calls, at, advertised, kept);
    const resume = resumeList(next.resume, this.snapshot().interrupts);
    if (resume !== undefined) next.resume = resume;
    // Rule P4: nothing unrecognised is sent; a malformed known field is refused, naming it.
    next = outgoingInput(next, (field, message) => new ToolCallRefusedError({ kind: "malformedInput", message: `nextRun(input): ${message}`, toolCallIds: [], path: field }));
    this.startRun(next); // refuses, naming them, calls left unanswered and interrupts left uncovered
    return next;
  }

  /**
   * Restores the thread from saved history (a page reloaded): `input.messages`
   * seed the tracker as a run input's do, `input.tools` (when given) are
   * advertised, and a call to an advertised tool no tool message answers is
   * pending again (rule F8). No run starts.
   */
  restore(input) {
    this.#live("restore");
    const text = checkRunInput(input, "restore(input)");
    return this.#operation("restore", (core) => core.operate(7 /* restore */, text));
  }

  /** Ends the active run locally: status `aborted`, open calls abandoned; with none, the run a run input declared whose request failed before RUN_STARTED. */
  abortRun(reason) {
    this.#live("abortRun");
    const why = optionalString(reason, "abortRun(reason): reason");
    return this.#operation("abortRun", (core) => core.operate(8 /* abortRun */, "", why));
  }

  /**
   * Records the user's approval of a completed call; `{ remember: "tool" }`
   * also approves every later call to its tool in this thread whose
   * arguments pass the tool's schema, until `revokeApproval(tool)`.
   */
  approve(toolCallId, options) {
    const id = this.#callId("approve", toolCallId);
    const name = "approve(toolCallId, options): options";
    if (options != null && kind(options) !== "object") fail(name, "an object", options);
    const remember = read(() => options?.remember, name);
    if (remember !== undefined && remember !== "tool") fail("approve(toolCallId, options): options.remember", '"tool"', remember);
    return this.#operation("approve", (core) => core.operate(0 /* approve */, id, remember));
  }

  /**
   * The thread as plain JSON, to keep across a page reload (`localStorage`,
   * the server): what its history alone cannot bring back (open
   * interrupts and their decisions, consent and standing approvals, answers
   * no run carried yet, violations), with the format's `version`.
   */
  save() {
    return JSON.parse(this.#call("save", (core) => core.operate(10 /* save */, "")));
  }

  /**
   * Loads what `save()` returned (or its JSON text) into this tracker,
   * which holds the thread's history (`restore`) and no interrupts or
   * standing approvals of its own. Refused whole (kind `invalidSaved`,
   * naming the field; `limit`; `runActive`): the tracker is unchanged.
   */
  load(saved) {
    this.#live("load");
    const text = typeof saved === "string" ? crossing(saved, "load(saved)") : spelt(saved, "load(saved)", false)[0];
    return this.#operation("load", (core) => core.operate(11 /* load */, text));
  }

  /**
   * A tracker for a reloaded page: made with `options`, its history
   * `options.messages` restored (`restore`, rule F8), then `saved` loaded.
   * Throws what the constructor, `restore` or `load` throws.
   */
  static restore(saved, options) {
    const name = "ToolCallTracker.restore(saved, options): options";
    if (options != null && kind(options) !== "object") fail(name, "an object", options);
    const { messages, ...rest } = read(() => ({ ...options }), name);
    const tracker = new ToolCallTracker(rest);
    try {
      if (messages !== undefined) tracker.restore({ messages });
      tracker.load(saved);
    } catch (error) {
      tracker.free();
      throw error;
    }
    return tracker;
  }

  /** Withdraws the standing approval of `tool`: its later calls, and those it approved not yet answered, await the user again. */
  revokeApproval(tool) {
    this.#live("revokeApproval");
    const name = requireString(tool, "revokeApproval(tool): tool");
    return this.#operation("revokeApproval", (core) => core.operate(12 /* revokeApproval */, name));
  }

  /** Declines a completed call: it is answered with a tool message saying so. */
  decline(toolCallId, reason) {
    const id = this.#callId("decline", toolCallId);
    const why = optionalString(reason, "decline(toolCallId, reason): reason");
    return this.#operation("decline", (core) => core.operate(1 /* decline */, id, why, undefined, newMessageId()));
  }

  /** Answers a completed call with the tool's output: a string or content parts. */
  answer(toolCallId, content) {
    const id = this.#callId("answer", toolCallId);
    const text = this.#content(id, content, "answer(toolCallId, content): content");
    return this.#operation("answer", (core) => core.operate(2 /* answer */, id, text, undefined, newMessageId()));
  }

  /** Resolves an open interrupt: the next run's resume entry carries `payload` (with `editedArgs`, for a tool-call approval). */
  resolveInterrupt(interruptId, payload, options) {
    const id = this.#interruptId("resolveInterrupt", interruptId);
    const name = "resolveInterrupt(interruptId, payload, options)";
    if (payload === null) fail(`${name}: payload`, "a JSON value other than null", payload);
    const json = payload === undefined ? undefined : jsonText(payload, `${name}: payload`);
    if (payload !== undefined && json === undefined) fail(`${name}: payload`, "a JSON value", payload);
    if (options != null && kind(options) !== "object") fail(`${name}: options`, "an object", options);
    const edited = options?.editedArgs;
    const args = edited === undefined ? undefined : spelt(edited, `${name}: options.editedArgs`, false)[0];
    return this.#operation("resolveInterrupt", (core) => core.operate(4 /* resolveInterrupt */, id, json && crossing(json, `${name}: payload`), args));
  }

  /** The resume entries of the interrupts decided so far, for `runAgent({ resume })` (`nextRun` writes them itself). */
  resumeEntries() {
    this.#live("resumeEntries");
    return resumeList(undefined, this.snapshot().interrupts) ?? [];
  }

  /** Cancels an open interrupt: the next run's resume entry abandons it. */
  cancelInterrupt(interruptId) {
    const id = this.#interruptId("cancelInterrupt", interruptId);
    return this.#operation("cancelInterrupt", (core) => core.operate(5 /* cancelInterrupt */, id));
  }

  /** Answers a completed call with a failure. */
  fail(toolCallId, error, content) {
    const id = this.#callId("fail", toolCallId);
    const message = requireString(error, "fail(toolCallId, error): error");
    const text = content == null ? undefined : this.#content(id, content, "fail(toolCallId, error, content): content");
    return this.#operation("fail", (core) => core.operate(3 /* fail */, id, message, text, newMessageId()));
  }

  /** The tool messages the application produced, for the next run's `messages`. */
  toolMessages() {
    return JSON.parse(this.#call("toolMessages", (core) => core.text(1 /* toolMessages */)));
  }

  /** Releases the wasm memory; the tracker is unusable afterwards. Harmless when repeated. */
  free() {
    this.#listeners.clear();
    const core = this.#core;
    this.#core = null;
    if (core) release(core);
  }

  /** The core, or the error that says why there is none. */
  #live(method) {
    if (this.#core) return this.#core;
    throw this.#trap ? new TrackerTrappedError(method, this.#trap) : new TrackerFreedError(method);
  }

  /** Content as JSON; content that is not a string or content parts is the call's `invalidContent` refusal. */
  #content(id, content, name) {
    try {
      return checkContent(content, name);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      throw new ToolCallRefusedError({ kind: "invalidContent", message: error.message, toolCallIds: [id] });
    }
  }

  #callId(method, toolCallId) {
    this.#live(method);
    return requireString(toolCallId, `${method}(toolCallId): toolCallId`);
  }

  #interruptId(method, interruptId) {
    this.#live(method);
    return requireString(interruptId, `${method}(interruptId): interruptId`);
  }

  /** Runs `fn` on the core. After a trap (out of memory, a bug) the core's state is unknown: it is dropped. */
  #call(method, fn) {
    const core = this.#live(method);
    try {
      return fn(core);
    } catch (error) {
      throw this.#trapped(method, core, error);
    }
  }

  /** What to throw for `error`, thrown by `core`: a trap drops the core first (see `#call`). */
  #trapped(method, core, error) {
    if (!(error instanceof WebAssembly.RuntimeError)) return error;
    this.#trap = error;
    this.#core = null;
    this.#listeners.clear();
    release(core);
    return new TrackerTrappedError(method, error);
  }

  /**
   * Reads `input` into the live core, as `form` says: SSE bytes, one
   * event's JSON text, or the fields `plainArgs` read from a plain
   * `TOOL_CALL_ARGS` event; then folds in what changed. `events()`, when given, lists
   * the events read for `onEvent`. What changed (see the binding): 0,
   * nothing; 1, a record to take; otherwise text appended to one open
   * call, described by the core's change header at that address and read
   * from wasm memory (no JSON record). The per-event path: no closure, no
   * method looked up by name.
   */
  #pushed(method, form, input, events) {
    const before = this.#builder.snapshot;
    streamBegan();
    // Checked again: reading the argument (a getter, a Proxy trap) may have freed the tracker.
    const core = this.#live(method);
    let change;
    try {
      if (form === SSE_BYTES) core.feedSse(input);
      else if (form === ARGS_FIELDS) {
        const same = input[0] === this.#argsId && input[3] === this.#argsOwner;
        core.feedArgs(same ? "" : (this.#argsId = input[0]), input[1], input[2], same ? undefined : (this.#argsOwner = input[3]));
      } else core.feedJson(input);
      change = core.takeChange(false);
    } catch (error) {
      throw this.#trapped(method, core, error);
    }
    if (change > 1) applyTextChange(this.#builder, change);
    else if (change) this.#builder.apply(JSON.parse(this.#call(method, (c) => c.takeRecord())));
    // Each event once; none after `onEvent` freed the tracker. What the
    // processing model drops or strips never reaches onEvent (rules E3, P1, P2).
    for (const raw of events?.() ?? []) {
      if (!this.#core) break;
      const event = recognised(raw);
      if (event !== undefined) this.#report(() => this.#onEvent(event));
    }
    const snapshot = this.#notify(before);
    if (snapshot.fatal) throw new ToolCallStreamError(snapshot.fatal);
    return snapshot;
  }

  /** A pushed event was read unless the stream stopped. */
  #accepted(event) {
    return this.#builder.snapshot.fatal ? [] : [event];
  }

  /** An application operation: refused whole (a `ToolCallRefusedError`) or applied whole. */
  #operation(method, fn) {
    const before = this.#builder.snapshot;
    let record;
    try {
      record = this.#call(method, fn);
    } catch (thrown) {
      // The binding throws a refusal as JSON text, anything else as an Error.
      throw typeof thrown === "string" ? new ToolCallRefusedError(JSON.parse(thrown)) : thrown;
    }
    this.#builder.apply(JSON.parse(record));
    return this.#notify(before);
  }

  /** Runs the application's callback (a listener, `onEvent`): what it throws is reported, the tracker goes on. */
  #report(callback) {
    try {
      callback();
    } catch (error) {
      reportCallbackError(error);
    }
  }

  /**
   * Tells the listeners, after the operation is done: one that throws is
   * reported and the others still hear. One that changes the tracker has
   * the newer snapshot told to all, so the rest of this (stale) round stops.
   */
  #notify(before) {
    const snapshot = this.#builder.snapshot;
    // No listener: no copy of the set (the hot path of a stream nobody
    // subscribed to). A snapshot told already (by an operation `onEvent`
    // or a listener made inside this one) is not told again.
    if (snapshot === before || snapshot === this.#told || this.#listeners.size === 0) return snapshot;
    this.#told = snapshot;
    for (const entry of [...this.#listeners]) {
      if (this.#builder.snapshot !== snapshot) break;
      if (!this.#listeners.has(entry)) continue;
      this.#report(() => entry.listener(snapshot));
    }
    return snapshot;
  }
}

// A string chunk of `pushSse` crosses as UTF-8.
const encoder = new TextEncoder();

/** Frees a wasm tracker; one that trapped mid-call may refuse (the glue has unregistered it already). */
function release(core) {
  try {
    core.free();
  } catch {}
}

/** Reports what a callback threw; reporting never throws (Node's `console.error` reads `stack`, a getter that may throw). */
function reportCallbackError(error) {
  try {
    if (typeof globalThis.reportError === "function") globalThis.reportError(error);
    else console.error(error);
  } catch {}
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

/** Thrown by every method of a tracker after `free()`. */
export class TrackerFreedError extends Error {
  constructor(method) {
    super(`ToolCallTracker.${method}(): the tracker was freed`);
    this.name = "TrackerFreedError";
  }
}

/** The wasm module trapped (`cause`): this tracker is unusable, its last snapshot readable. */
export class TrackerTrappedError extends Error {
  constructor(method, cause) {
    super(`ToolCallTracker.${method}(): the wasm module trapped (${cause.message}); this tracker is unusable`, { cause });
    this.name = "TrackerTrappedError";
  }
}

/** The forms of `#pushed`'s input. */
const JSON_TEXT = 0;
const SSE_BYTES = 1;
const ARGS_FIELDS = 2;

/** The names of a list of tools (anything else: none; `startRun` names what is wrong). */
function toolNames(tools) {
  const names = new Set();
  if (Array.isArray(tools)) for (const t of tools) if (typeof t?.name === "string") names.add(t.name);
  return names;
}

// For the package's own modules, not its users (the entries do not export
// them): the bytes modules hand their module over (`provide`), `/full`
// asks which one loaded (`loadedModule`), and the checker drives the core
// directly (`WasmTracker`, the module loaded through `init`). Tests and
// benchmarks read the loader's state and the instance's exports here too.
// Every export of the loader but `init`, which this module's own `init`
// shadows: the loaders a benchmark swaps in export more or less.
export * from "./wasm-load.js";
export { WasmTracker, initSync } from "./agui_tool_calls.js";
