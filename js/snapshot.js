// @ts-check
// Immutable snapshots, built from the change records the wasm core reports.
//
// The core says which calls changed and hands over only the argument text
// appended since the last record, so the work here is proportional to what
// an event changed: unchanged calls keep their identical frozen objects, a
// derived list (open, completed, pending) that no changed call enters or
// leaves keeps its other members, and argument text grows by string
// concatenation (a rope in JS engines), never by a copy out of wasm memory.

import { PartialValueBuilder } from "./partial-value.js";
import { INSERT, PatchedList, REMOVE, SET } from "./patched-list.js";

// The records' types are generated from the Rust types (wire.d.ts), and this
// file is type-checked against them (tests/js/wire-types.test.mjs).
/** @typedef {import("./wire").ChangeRecord} ChangeRecord */
/** @typedef {import("./wire").CallRecord} CallRecord */
/** @typedef {import("./wire").Violation} Violation */
/** @typedef {import("./wire").SubagentRecord} SubagentRecord */
/** @typedef {Omit<ChangeRecord, "violations"> & { violations: readonly Violation[] }} Changes */
/**
 * @template T
 * @typedef {import("./patched-list.js").List<T>} List
 */

const EMPTY = Object.freeze([]);

/**
 * How many states of an open call in a row make their value up front once
 * two in a row were read before the next was made (see
 * `ToolCallState#upFront`): a reader of every delta finds 16 in 18 states
 * made so.
 */
const UP_FRONT_RUN = 16;

/**
 * One call, frozen. A class rather than an object literal: every instance
 * has the same shape, which engines create and read fastest (measured ~10x
 * faster than a literal with a per-object accessor).
 *
 * `partialArgs` and `args` are own enumerable properties, not prototype
 * getters, so `{...call}`, `JSON.stringify(call)` and `structuredClone`
 * carry them; the one that can hold a value is an accessor (the same getter
 * on every instance, so the shapes stay shared), computed only when read,
 * and defined last (after the other fields, see `next`).
 * Just one: defining an accessor costs ~4x a whole plain state, the other
 * is plain `undefined`.
 */
export class ToolCallState {
  /**
   * While open: `{ cut, suffix }` (the usable prefix length in UTF-16 units
   * and what closes it) and the value, once read. Shared with the next
   * state of the call while the cut does not move, so the value is parsed
   * once and keeps its identity (a `memo` sees no change).
   */
  #partial;
  /** While open: the call's incremental partial-value builder, shared by its states. */
  #builder;
  /** Complete with text that parses: `args` is that text's value. */
  #parsed;
  #argsValue;
  #argsRead = false;
  /** `argsStatus()`, once asked. @type {Readonly<Record<string, "streaming" | "complete">> | undefined} */
  #fields;

  /**
   * Every public field copied from `meta` (the previous state of the call,
   * or its entry in a change record, see `next`), with `argsText`: the
   * plain stores of one shape, on the engine's fast path.
   * @param {ToolCallState | CallRecord} meta
   * @param {string} argsText
   */
  constructor(meta, argsText) {
    this.id = meta.id;
    this.name = meta.name;
    this.parentMessageId = meta.parentMessageId;
    this.subagentRunId = meta.subagentRunId;
    this.runId = meta.runId;
    this.status = meta.status;
    this.argsText = argsText;
    this.argsError = meta.argsError;
    this.advertised = meta.advertised;
    this.validation = meta.validation;
    this.consent = meta.consent;
    this.consentFrom = meta.consentFrom;
    this.pending = meta.pending;
    this.cancelled = meta.cancelled === true;
    this.awaitingInterrupt = meta.awaitingInterrupt;
    this.reopened = meta.reopened;
    // Rule F10: what the producer gets back in the next history, as delivered.
    this.encryptedValue = meta.encryptedValue;
    this.encryptedValueType = meta.encryptedValueType;
    this.metadata = meta.metadata;
    /** @type {readonly import("./wire").ResultRecord[]} */
    this.results = meta.results;
    this.result = meta.result;
  }

  /**
   * The next state of a call from its entry in a change record, with its
   * values and frozen. Defining the accessor outside the constructor keeps
   * the constructor's plain stores on the engine's fast path.
   * @param {ToolCallState | undefined} previous
   * @param {CallRecord} change
   */
  static next(previous, change) {
    const state = new ToolCallState(change, previous ? previous.argsText + change.append : change.append);
    state.argsError = deepFreeze(change.argsError);
    state.metadata = deepFreeze(change.metadata);
    // Results are only ever added: keep the frozen ones already built.
    state.results = previous && previous.results.length === change.results.length ? previous.results : deepFreeze(change.results);
    const result = change.result;
    state.result = result && sameResult(previous?.result, result) ? previous.result : deepFreeze(result);
    state.#parsed = change.parsed;
    if (state.status === "open") {
      const continues = previous?.status === "open" && previous.#builder !== undefined;
      const partial = change.partial;
      // A call still open continues its builder; a new or reopened one starts one on its whole text.
      state.#openState(continues ? previous : undefined, change.append, partial ? partial.cut : -1, partial?.suffix ?? "");
    }
    state.#values(previous);
    return Object.freeze(state);
  }

  /**
   * The next state of an open call whose text grew by `append` and nothing
   * else: every other field is `previous`'s, already frozen.
   * @param {ToolCallState} previous open
   * @param {string} append
   * @param {number} cut the usable prefix (UTF-16 units), or -1 for none yet
   * @param {string} suffix what closes it
   */
  static appended(previous, append, cut, suffix) {
    const state = new ToolCallState(previous, previous.argsText + append);
    state.#openState(previous, append, cut, suffix);
    state.#values(previous);
    return /** @type {ToolCallState} */ (Object.freeze(state));
  }

  /**
   * The partial value's cell and builder: `previous`'s (an open state of
   * the same call) while they still apply, a new builder of the whole text
   * without one.
   * @param {ToolCallState | undefined} previous
   * @param {string} append
   * @param {number} cut
   * @param {string} suffix
   */
  #openState(previous, append, cut, suffix) {
    const before = previous && previous.#partial;
    this.#partial = cut < 0 ? undefined : before && before.cut === cut && before.suffix === suffix ? before : partialCell(cut, suffix);
    this.#builder = previous ? previous.#builder : new PartialValueBuilder();
    this.#builder.feed(previous ? append : this.argsText);
  }

  /**
   * `partialArgs` and `args`: an own accessor for the one that may hold a
   * value, `undefined` for the other; while the call is open and a reader
   * reads every state (see `#upFront`), `partialArgs` made now, as a
   * plain field: the work the read would do, without the accessor, which
   * costs a delta more than the rest of its state.
   * @param {ToolCallState | undefined} previous the call's state before
   */
  #values(previous) {
    if (this.status === "open") {
      if (!(this.#upFront(previous) && this.#readNow())) Object.defineProperty(this, "partialArgs", ToolCallState.#partialAccessor);
      this.args = undefined;
    } else {
      this.partialArgs = undefined;
      if (this.#parsed) Object.defineProperty(this, "args", ToolCallState.#argsAccessor);
      else this.args = undefined;
    }
  }

  /**
   * Whether this open state makes its value up front: in a run of
   * `UP_FRONT_RUN` states, begun once two states in a row were read
   * through their accessor before the next state was made (a card that
   * reads after every delta). A plain field cannot tell it was read, so
   * each run ends with two such probes again: a reader that stopped costs
   * at most a run of values made for nobody, and one that reads now and
   * then (a frame's last state, every few deltas) reads no two in a row
   * and has every value made only when read.
   * @param {ToolCallState | undefined} previous
   */
  #upFront(previous) {
    const b = this.#builder;
    // `upFront`: the states left in a run; 0, none (or the state before
    // ended one, and counts for nothing); -1 and -2, probing, after 0 and
    // 1 states in a row read.
    const k = b.upFront;
    b.upFront = k > 0 ? k - 1 : k < 0 && b.readState === previous ? (k < -1 ? UP_FRONT_RUN - 1 : -2) : -1;
    return k > 0 || b.upFront === UP_FRONT_RUN - 1;
  }

  /**
   * Sets `partialArgs` to the value now; `false`, nothing set, if reading
   * it failed (the accessor then fails when read, as it would have).
   */
  #readNow() {
    try {
      this.partialArgs = this.#cellValue();
      return true;
    } catch {
      return false;
    }
  }

  static #partialAccessor = {
    enumerable: true,
    get() {
      return this.#partialValue();
    },
  };

  static #argsAccessor = {
    enumerable: true,
    get() {
      return this.#argsOnce();
    },
  };

  /**
   * Once complete and parsed, the arguments (frozen), parsed on first read
   * from `argsText` by the host's `JSON.parse`: native speed, keys in the
   * order they were sent. `undefined` otherwise. (The `args` getter.)
   */
  #argsOnce() {
    if (!this.#argsRead) {
      this.#argsRead = true;
      // Empty text reads as `{}` (rule F9: a zero-argument call that streamed no arguments).
      if (this.#parsed) this.#argsValue = deepFreeze(JSON.parse(this.argsText || "{}"));
    }
    return this.#argsValue;
  }

  /**
   * While the call is open, the best-effort value of its arguments so far
   * (frozen), computed on first read only: the core gives the usable prefix
   * of the text and what closes it, so the value is one native `JSON.parse`
   * away and never parsed when nobody looks. `undefined` once complete.
   * (The `partialArgs` getter.)
   */
  #partialValue() {
    // Read through the accessor: see `#upFront`.
    if (this.#builder) this.#builder.readState = this;
    return this.#cellValue();
  }

  /** The value of the state's prefix, read once (its cell may be shared with the call's next states). */
  #cellValue() {
    const p = this.#partial;
    if (p && !p.read) {
      p.value = this.#readPartial(p);
      p.read = true;
    }
    return p?.value;
  }

  /**
   * Whether the value at `path` (a top-level key, or a list of keys and
   * indices) of the arguments is complete: closed by the text, so it never
   * changes again while the call streams. Every value of a complete call
   * is; none of an abandoned one.
   * @param {string | readonly (string | number)[]} path
   */
  isComplete(path) {
    const steps = typeof path === "string" ? [path] : path;
    const value = this.status === "open" ? this.partialArgs : this.args;
    if (valueAt(value, steps) === undefined) return false;
    if (this.status !== "open") return true;
    const spine = this.#spine();
    return spine === null || steps.length > spine.length || steps.some((step, i) => String(step) !== String(spine[i]));
  }

  /**
   * Each top-level field of the arguments so far, `"streaming"` or
   * `"complete"` (see `isComplete`); `{}` while the arguments are not an
   * object. Frozen, computed once per state.
   */
  argsStatus() {
    if (this.#fields === undefined) {
      const value = this.status === "open" ? this.partialArgs : this.args;
      const spine = this.status === "open" && value !== undefined ? this.#spine() : null;
      const open = spine !== null && spine.length > 0 ? String(spine[0]) : undefined;
      const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
      const entries = isObject ? Object.keys(value).map((key) => [key, key === open ? "streaming" : "complete"]) : [];
      this.#fields = Object.freeze(Object.fromEntries(entries));
    }
    return this.#fields;
  }

  /**
   * The open spine of the partial value read (see `PartialValueBuilder.spine`):
   * the builder's, worked out when it made the value or when asked before
   * any later read; else that of a builder run over the prefix, once;
   * else (a prefix the builder does not expect) the last members, as
   * `JSON.parse` ordered them, as deep as the suffix closes.
   */
  #spine() {
    const p = this.#partial;
    const live = this.#builder;
    // Its value the builder's last, and no read since: the builder's spine is still this value's.
    if (p.spine === undefined && live?.reader === p && !live.broken) p.spine = live.openSpine();
    if (p.spine === undefined) {
      // Asked after later reads: the states to come work theirs out as they are read.
      if (live) live.wantsSpine = true;
      try {
        const builder = new PartialValueBuilder();
        builder.wantsSpine = true;
        builder.feed(this.argsText.slice(0, p.cut));
        builder.valueAt(p.cut);
        p.spine = builder.spine;
      } catch {
        p.spine = lastMembers(p.value, p.suffix.length);
      }
    }
    return p.spine;
  }

  /** A plain object with every field, `args` and `partialArgs` as values: for `structuredClone`, storage, `postMessage`. */
  toJSON() {
    return { ...this };
  }

  /**
   * Incrementally when this is the newest state read so far (the usual
   * case); by one `JSON.parse` of the prefix for an older state read late,
   * or if the builder ever meets what it does not expect.
   */
  #readPartial(p) {
    const builder = this.#builder;
    if (builder && !builder.broken && builder.position <= p.cut) {
      try {
        const value = builder.valueAt(p.cut);
        p.spine = builder.spine;
        builder.reader = p;
        return value;
      } catch {
        builder.broken = true;
      }
    }
    return deepFreeze(JSON.parse(this.argsText.slice(0, p.cut) + p.suffix));
  }
}

/** A partial value's prefix, closing text, (once read) value and (once known) open spine. */
const partialCell = (cut, suffix) => ({ cut, suffix, read: false, value: undefined, spine: undefined });

/**
 * The value at `steps` of `value`, or `undefined`.
 * @param {any} value
 * @param {readonly (string | number)[]} steps
 */
function valueAt(value, steps) {
  for (const step of steps) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, step)) return undefined;
    value = value[step];
  }
  return value;
}

/**
 * The spine of `value` followed by last members, `open` values deep (the
 * suffix's length); `null` when nothing is open.
 * @param {any} value
 * @param {number} open
 */
function lastMembers(value, open) {
  if (open === 0) return null;
  const spine = [];
  while (spine.length < open - 1 && value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    const step = Array.isArray(value) ? value.length - 1 : keys[keys.length - 1];
    spine.push(step);
    value = value[step];
  }
  return spine;
}

const sameResult = (a, b) => a !== undefined && a.messageId === b.messageId && a.source === b.source;

/** `value`, frozen all the way down; by a loop, so no nesting (opaque payloads, metadata) overflows the stack. */
function deepFreeze(value) {
  const todo = [value];
  while (todo.length > 0) {
    const v = todo.pop();
    if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
      Object.freeze(v);
      for (const key of Object.keys(v)) todo.push(v[key]);
    }
  }
  return value;
}

const isOpen = (c) => c.status === "open";
const isCompleted = (c) => c.status === "complete";
const isPending = (c) => c.pending;

/**
 * A snapshot's fields, as the builder reads them.
 * @typedef {Readonly<{ version: number, run: any, calls: readonly ToolCallState[], openCalls: readonly ToolCallState[], completedCalls: readonly ToolCallState[], pendingCalls: readonly ToolCallState[], violations: readonly Violation[], fatal: any, unmatchedResults: readonly any[], interrupts: readonly any[], standingApprovals: readonly any[], subagents: readonly any[] }>} Snapshot
 */
/**
 * A snapshot's fields other than its version and lists.
 * @typedef {Omit<Snapshot, "version" | "calls" | "openCalls" | "completedCalls" | "pendingCalls">} Rest
 */

/** Keeps the current snapshot and folds change records into new ones. */
export class SnapshotBuilder {
  /** @type {Snapshot} */
  #snapshot = Object.freeze({
    version: 0,
    run: Object.freeze({ status: "idle" }),
    calls: EMPTY,
    openCalls: EMPTY,
    completedCalls: EMPTY,
    pendingCalls: EMPTY,
    violations: EMPTY,
    fatal: null,
    unmatchedResults: EMPTY,
    interrupts: EMPTY,
    standingApprovals: EMPTY,
    subagents: EMPTY,
  });

  // The current snapshot's lists: in a long thread, patched ones (see
  // `PatchedList`), which the snapshot makes when read and the builder
  // edits without making them.
  /** @type {List<ToolCallState>} */
  #calls = EMPTY;
  /** @type {List<ToolCallState>} */
  #openCalls = EMPTY;
  /** @type {List<ToolCallState>} */
  #completedCalls = EMPTY;
  /** @type {List<ToolCallState>} */
  #pendingCalls = EMPTY;

  /** Each subagent's place in `subagents`, by id. @type {Map<string, number>} */
  #subagentIndex = new Map();

  /**
   * The call indices of each derived list's members, ascending: the
   * position of a call in a list is found by binary search, so a call
   * joining or leaving a list costs no pass over the thread (rule N1).
   * @type {{ open: number[], completed: number[], pending: number[] }}
   */
  #members = { open: [], completed: [], pending: [] };

  get snapshot() {
    return this.#snapshot;
  }

  /**
   * Folds one change record in; returns the snapshot (the same object when nothing changed).
   * @param {Changes} changes
   */
  apply(changes) {
    const prev = this.#snapshot;
    if (changes.version === prev.version) return prev;
    const changed = changes.calls;
    const before = this.#calls;
    const calls = changed.length ? nextCalls(before, changed) : before;
    const { open, completed, pending } = this.#members;
    return this.#settle(
      changes.version,
      calls,
      derived(this.#openCalls, open, isOpen, before, calls, changed),
      derived(this.#completedCalls, completed, isCompleted, before, calls, changed),
      derived(this.#pendingCalls, pending, isPending, before, calls, changed),
      {
        run: changes.run ? deepFreeze(changes.run) : prev.run,
        violations: changes.violations.length || changes.counted ? violationsAfter(prev.violations, changes) : prev.violations,
        fatal: changes.fatal ? deepFreeze(changes.fatal) : prev.fatal,
        unmatchedResults: changes.unmatchedResults ? appended(prev.unmatchedResults, changes.unmatchedResults) : prev.unmatchedResults,
        interrupts: changes.interrupts ? (changes.interrupts.length ? deepFreeze(changes.interrupts) : EMPTY) : prev.interrupts,
        standingApprovals: changes.standingApprovals ? sameList(prev.standingApprovals, changes.standingApprovals) : prev.standingApprovals,
        subagents: changed.length || changes.subagents ? this.#subagents(prev.subagents, before, calls, changes) : prev.subagents,
      },
    );
  }

  /**
   * The subagents after a record (rule A8): each changed one rebuilt, and
   * each new call of a subagent appended to its `callIds` (calls never
   * change owner); a subagent announced after some of its calls finds them
   * by one pass over the calls, once.
   * @param {readonly any[]} subagents
   * @param {List<ToolCallState>} before
   * @param {List<ToolCallState>} calls
   * @param {Changes} changes
   */
  #subagents(subagents, before, calls, changes) {
    /** @type {any[] | null} */
    let next = null;
    const at = this.#subagentIndex;
    for (const change of changes.calls) {
      const index = change.subagentRunId === undefined ? undefined : at.get(change.subagentRunId);
      if (index === undefined || PatchedList.at(before, change.index) !== undefined) continue;
      next ??= copy(subagents);
      next[index] = Object.freeze({ ...next[index], callIds: Object.freeze([...next[index].callIds, change.id]) });
    }
    for (const record of changes.subagents ?? EMPTY) {
      next ??= copy(subagents);
      const known = next[record.index];
      if (known === undefined) at.set(record.subagentRunId, record.index);
      next[record.index] = subagentState(record, known ? known.callIds : ownedBy(PatchedList.items(calls), record.subagentRunId));
    }
    return next ? Object.freeze(next) : subagents;
  }

  /**
   * Folds in text appended to one open call and nothing else (the core's
   * commonest change, which it reports without a record): the call's next
   * state replaces it in `calls` and in `openCalls` (an open call is in no
   * other list), found directly; everything else is the previous
   * snapshot's.
   * @param {number} version
   * @param {number} index
   * @param {string} append
   * @param {number} cut the usable prefix (UTF-16 units), or -1 for none yet
   * @param {string} suffix
   */
  appendText(version, index, append, cut, suffix) {
    // The core reports text alone only for a call open in the last
    // snapshot (its status did not change) and with a new version.
    const prev = this.#snapshot;
    const before = this.#calls;
    const call = ToolCallState.appended(PatchedList.at(before, index), append, cut, suffix);
    const calls = PatchedList.replaced(before, index, call);
    // Every call open: `openCalls` is `calls` itself (see `derived`).
    const open = this.#openCalls;
    const openCalls = open === before ? calls : PatchedList.replaced(open, position(this.#members.open, index), call);
    // The lists a delta does not change are made at its first: each
    // accessor costs a delta about as much as the rest of its snapshot,
    // and a call streams many deltas between two records.
    const completedCalls = PatchedList.items(this.#completedCalls);
    const pendingCalls = PatchedList.items(this.#pendingCalls);
    return this.#settle(version, calls, openCalls, completedCalls, pendingCalls, prev);
  }

  /**
   * Makes the current snapshot from its version, its lists and the other
   * fields (`rest`: after a delta, the previous snapshot), in a plain
   * snapshot's order: a plain frozen object when every list is an array
   * (a short thread's), a `LazySnapshot` otherwise.
   * @param {number} version
   * @param {List<ToolCallState>} calls
   * @param {List<ToolCallState>} openCalls
   * @param {List<ToolCallState>} completedCalls
   * @param {List<ToolCallState>} pendingCalls
   * @param {Rest} rest
   */
  #settle(version, calls, openCalls, completedCalls, pendingCalls, rest) {
    this.#calls = calls;
    this.#openCalls = openCalls;
    this.#completedCalls = completedCalls;
    this.#pendingCalls = pendingCalls;
    if (calls instanceof PatchedList || openCalls instanceof PatchedList || completedCalls instanceof PatchedList || pendingCalls instanceof PatchedList) {
      // `LazySnapshot` has the fields of a plain snapshot, which the class declares no type for.
      return (this.#snapshot = /** @type {any} */ (new LazySnapshot(version, calls, openCalls, completedCalls, pendingCalls, rest)));
    }
    return (this.#snapshot = Object.freeze({
      version,
      run: rest.run,
      calls,
      openCalls,
      completedCalls,
      pendingCalls,
      violations: rest.violations,
      fatal: rest.fatal,
      unmatchedResults: rest.unmatchedResults,
      interrupts: rest.interrupts,
      standingApprovals: rest.standingApprovals,
      subagents: rest.subagents,
    }));
  }
}

/**
 * `calls` after a record: each changed call's next state in its place
 * (a new call's is the list's length).
 * @param {List<ToolCallState>} calls
 * @param {CallRecord[]} changed
 * @returns {List<ToolCallState>}
 */
function nextCalls(calls, changed) {
  const edits = [];
  for (const change of changed) edits.push(SET, change.index, ToolCallState.next(PatchedList.at(calls, change.index), change));
  return PatchedList.edited(calls, edits);
}

/**
 * A snapshot whose patched lists are made when first read (see
 * `PatchedList`), so an event in a long thread costs no copy of a list
 * while nobody reads it. Each such list is an own enumerable accessor in
 * its place among the fields, so `{...snapshot}`, `JSON.stringify` and
 * `structuredClone` carry it, in a plain snapshot's order; the other
 * fields are plain. Frozen like any snapshot: the lists it makes are kept
 * by the patched lists themselves.
 */
class LazySnapshot {
  /** @type {PatchedList<ToolCallState> | undefined} */
  #calls;
  /** @type {PatchedList<ToolCallState> | undefined} */
  #openCalls;
  /** @type {PatchedList<ToolCallState> | undefined} */
  #completedCalls;
  /** @type {PatchedList<ToolCallState> | undefined} */
  #pendingCalls;

  /**
   * The fields of a plain snapshot, in its order (a test compares the
   * keys): the version and the lists given, the others from `rest` (the
   * previous snapshot, after a delta). A field added to the snapshot is
   * added here.
   * @param {number} version
   * @param {List<ToolCallState>} calls
   * @param {List<ToolCallState>} openCalls
   * @param {List<ToolCallState>} completedCalls
   * @param {List<ToolCallState>} pendingCalls
   * @param {Rest} rest
   */
  constructor(version, calls, openCalls, completedCalls, pendingCalls, rest) {
    // A patched list is kept in its private field for its accessor; a
    // plain one is the public field alone, no private store.
    const lists = LazySnapshot.#lists;
    this.version = version;
    this.run = rest.run;
    if (calls instanceof PatchedList) {
      this.#calls = calls;
      Object.defineProperty(this, "calls", lists.calls);
    } else this.calls = calls;
    if (openCalls instanceof PatchedList) {
      this.#openCalls = openCalls;
      Object.defineProperty(this, "openCalls", lists.openCalls);
    } else this.openCalls = openCalls;
    if (completedCalls instanceof PatchedList) {
      this.#completedCalls = completedCalls;
      Object.defineProperty(this, "completedCalls", lists.completedCalls);
    } else this.completedCalls = completedCalls;
    if (pendingCalls instanceof PatchedList) {
      this.#pendingCalls = pendingCalls;
      Object.defineProperty(this, "pendingCalls", lists.pendingCalls);
    } else this.pendingCalls = pendingCalls;
    this.violations = rest.violations;
    this.fatal = rest.fatal;
    this.unmatchedResults = rest.unmatchedResults;
    this.interrupts = rest.interrupts;
    this.standingApprovals = rest.standingApprovals;
    this.subagents = rest.subagents;
    Object.freeze(this);
  }

  /** The accessors of the lists, each making its list when first read; shared by every instance. */
  static #lists = {
    calls: {
      enumerable: true,
      /** @this {LazySnapshot} */
      get() {
        return /** @type {PatchedList<ToolCallState>} */ (this.#calls).items();
      },
    },
    openCalls: {
      enumerable: true,
      /** @this {LazySnapshot} */
      get() {
        return /** @type {PatchedList<ToolCallState>} */ (this.#openCalls).items();
      },
    },
    completedCalls: {
      enumerable: true,
      /** @this {LazySnapshot} */
      get() {
        return /** @type {PatchedList<ToolCallState>} */ (this.#completedCalls).items();
      },
    },
    pendingCalls: {
      enumerable: true,
      /** @this {LazySnapshot} */
      get() {
        return /** @type {PatchedList<ToolCallState>} */ (this.#pendingCalls).items();
      },
    },
  };
}

/**
 * The standing approvals a record lists, as the previous frozen list when
 * they are the same (the record sends them whenever the run changed).
 * @param {readonly import("./wire").StandingApproval[]} prev
 * @param {import("./wire").StandingApproval[]} next
 */
function sameList(prev, next) {
  if (next.length === prev.length && next.every((s, i) => s.tool === prev[i].tool && s.toolCallId === prev[i].toolCallId)) return prev;
  return next.length ? deepFreeze(next) : EMPTY;
}

/**
 * A subagent as the snapshot shows it: the record's fields but its place,
 * with its calls' ids in start order; deep-frozen, its opaque `result`
 * included.
 * @param {SubagentRecord} record
 * @param {readonly string[]} callIds
 */
function subagentState({ index, interruptIds, ...fields }, callIds) {
  return deepFreeze({ ...fields, interruptIds: interruptIds ? Object.freeze(interruptIds) : EMPTY, callIds });
}

/**
 * The ids of the calls `owner` streams, in start order.
 * @param {readonly ToolCallState[]} calls
 * @param {string} owner
 */
function ownedBy(calls, owner) {
  const ids = [];
  for (const call of calls) if (call.subagentRunId === owner) ids.push(call.id);
  return Object.freeze(ids);
}

/**
 * The violations after a record: the core keeps them bounded (repeats
 * counted on one entry, a cap on distinct ones), so this copy is too.
 * @param {readonly Violation[]} list
 * @param {Changes} changes
 */
function violationsAfter(list, { violations, counted }) {
  const next = copy(list);
  if (counted) for (const [index, count] of counted) next[index] = Object.freeze({ ...next[index], count });
  for (const v of violations) next.push(deepFreeze(v));
  return Object.freeze(next);
}

/**
 * A list after entries were added (unmatched results are only ever added).
 * @param {readonly any[]} list
 * @param {readonly any[]} added
 */
function appended(list, added) {
  const next = copy(list);
  for (const item of added) next.push(deepFreeze(item));
  return Object.freeze(next);
}

/**
 * A derived list after some calls changed. Untouched when no changed call
 * was or is a member; otherwise edited: each changed member replaced,
 * added or removed in place, at the position its call index has in
 * `members` (ascending, updated here): first-start order, in time
 * proportional to the changes (plus one copy of a short list), never a
 * filter over every call (rule N1). A list holding every call is `after`.
 * @param {List<ToolCallState>} list
 * @param {number[]} members
 * @param {(call: ToolCallState) => boolean} keep
 * @param {List<ToolCallState>} before
 * @param {List<ToolCallState>} after
 * @param {readonly { index: number }[]} changed
 */
export function derived(list, members, keep, before, after, changed) {
  /** @type {any[] | null} */
  let edits = null;
  for (const { index } of changed) {
    const then = PatchedList.at(before, index);
    const now = /** @type {ToolCallState} */ (PatchedList.at(after, index));
    const was = then !== undefined && keep(then);
    const is = keep(now);
    if (!was && !is) continue;
    edits ??= [];
    const at = position(members, index);
    if (was && is) edits.push(SET, at, now);
    else if (is) {
      members.splice(at, 0, index);
      edits.push(INSERT, at, now);
    } else {
      members.splice(at, 1);
      edits.push(REMOVE, at, undefined);
    }
  }
  if (!edits) return list;
  // Every call a member: the list is `after` itself (members keep the
  // calls' order), one list fewer to make per change.
  return members.length === PatchedList.size(after) ? after : PatchedList.edited(list, edits);
}

/**
 * Where `index` is or would go in the ascending `members`.
 * @param {readonly number[]} members
 * @param {number} index
 */
function position(members, index) {
  let low = 0;
  let high = members.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (members[mid] < index) low = mid + 1;
    else high = mid;
  }
  return low;
}

// Copies of frozen arrays: engines take a slow path for `slice` and
// `filter` on frozen arrays (measured 30-50x slower than these at 200 calls).
const copy = (list) => [...list];
