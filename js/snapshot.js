// Immutable snapshots, built from the change records the wasm core reports.
//
// The core says which calls changed and hands over only the argument text
// appended since the last record, so the work here is proportional to what
// an event changed: unchanged calls keep their identical frozen objects, a
// derived list (open, completed, pending) that no changed call enters or
// leaves is reused as is, and argument text grows by string concatenation
// (a rope in JS engines), never by a copy out of wasm memory.

const EMPTY = Object.freeze([]);

/** One frozen call object, sharing `argsText` growth with its predecessor. */
function freezeCall(previous, change) {
  const argsText = previous && !change.replaceText ? previous.argsText + change.append : change.append;
  const call = {
    id: change.id,
    name: change.name,
    parentMessageId: change.parentMessageId,
    subagentRunId: change.subagentRunId,
    runId: change.runId,
    status: change.status,
    argsText,
    partialArgs: undefined,
    args: change.args,
    argsError: change.argsError,
    advertised: change.advertised,
    validation: change.validation,
    consent: change.consent,
    pending: change.pending,
    reopened: change.reopened,
    result: change.result,
    results: deepFreeze(change.results ?? []),
  };
  for (const key of ["parentMessageId", "subagentRunId", "runId", "args", "argsError", "result"]) {
    if (call[key] === undefined) delete call[key];
    else deepFreeze(call[key]);
  }
  if (change.status === "open") definePartialArgs(call, argsText, change.partial);
  return Object.freeze(call);
}

/**
 * `partialArgs` is computed on first read only: the core gives the usable
 * prefix length (UTF-16 units) and the text that closes it, so the value is
 * one native `JSON.parse` away and never parsed when nobody looks.
 */
function definePartialArgs(call, argsText, partial) {
  let value;
  let done = partial == null;
  Object.defineProperty(call, "partialArgs", {
    enumerable: true,
    get() {
      if (!done) {
        done = true;
        value = deepFreeze(JSON.parse(argsText.slice(0, partial.cut) + partial.suffix));
      }
      return value;
    },
  });
}

function deepFreeze(value) {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
}

const isOpen = (c) => c.status === "open";
const isCompleted = (c) => c.status === "complete";
const isPending = (c) => c.pending;

/** Keeps the current snapshot and folds change records into new ones. */
export class SnapshotBuilder {
  #snapshot = Object.freeze({
    version: 0,
    run: Object.freeze({ status: "idle" }),
    calls: EMPTY,
    openCalls: EMPTY,
    completedCalls: EMPTY,
    pendingCalls: EMPTY,
    violations: EMPTY,
    fatal: null,
  });

  get snapshot() {
    return this.#snapshot;
  }

  /** Folds one change record in; returns the snapshot (the same object when nothing changed). */
  apply(changes) {
    const prev = this.#snapshot;
    if (changes.version === prev.version) return prev;
    const calls = changes.calls.length ? this.#calls(prev.calls, changes.calls) : prev.calls;
    // A derived list is rebuilt only when a changed call was or is a member:
    // O(changed calls) to decide, so streaming into one call among hundreds
    // leaves the lists it does not belong to untouched.
    const derive = (list, keep) => {
      const affected = changes.calls.some(({ index }) => {
        const before = prev.calls[index];
        return (before !== undefined && keep(before)) || keep(calls[index]);
      });
      return affected ? Object.freeze(calls.filter(keep)) : list;
    };
    this.#snapshot = Object.freeze({
      version: changes.version,
      run: changes.run ? deepFreeze(changes.run) : prev.run,
      calls,
      openCalls: derive(prev.openCalls, isOpen),
      completedCalls: derive(prev.completedCalls, isCompleted),
      pendingCalls: derive(prev.pendingCalls, isPending),
      violations: changes.violations.length
        ? Object.freeze([...prev.violations, ...changes.violations.map(deepFreeze)])
        : prev.violations,
      fatal: changes.fatal ? deepFreeze(changes.fatal) : prev.fatal,
    });
    return this.#snapshot;
  }

  #calls(prevCalls, changed) {
    const next = prevCalls.slice();
    for (const change of changed) next[change.index] = freezeCall(prevCalls[change.index], change);
    return Object.freeze(next);
  }
}
