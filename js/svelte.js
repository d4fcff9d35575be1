// @ts-check
// The Svelte 5 binding: readable stores over a tracker's snapshots (the
// Svelte store contract: `$store` in a component, `fromStore(store).current`
// with runes), and <ToolCalls> (./svelte-tool-calls.svelte, shipped as
// source for the application's own Svelte compiler).
//
// The tracker itself is not a Svelte store: its `subscribe` calls the
// listener with each new snapshot, not with the current one at once, so
// `$tracker` would be `undefined` until the next event; and it would
// render every snapshot. These stores give the current value on
// subscription, and share one store per tracker (./store.js: one tracker
// subscription while some subscriber listens, at most one publication per
// animation frame by default). A store tells its subscribers only when its
// value is a new object, and unchanged calls keep theirs, so the store of
// one call is quiet while other calls stream.
import { findCall, storeOf } from "./store.js";
import { argFieldReader, argsStatusReader } from "./actions.js";

// @ts-expect-error -- a Svelte component, for the application's Svelte compiler; svelte.d.ts declares it
export { default as ToolCalls } from "./svelte-tool-calls.svelte";

/**
 * A readable store of `select(snapshot)`.
 *
 * @template T
 * @param {import("./index.js").ToolCallTracker} tracker
 * @param {(snapshot: import("./index.js").Snapshot) => T} select
 * @param {{ coalesce?: boolean } | undefined} options
 */
function readable(tracker, select, options) {
  const store = storeOf(tracker, options);
  return {
    /** @param {(value: T) => void} run */
    subscribe(run) {
      let value = select(store.getSnapshot());
      run(value);
      return store.subscribe(() => {
        const next = select(store.getSnapshot());
        if (next !== value) run((value = next));
      });
    },
  };
}

/**
 * The tracker's current snapshot, as a readable store.
 *
 * @example
 * const snapshot = toolCallsStore(tracker); // then {$snapshot.calls.length} in markup
 */
export function toolCallsStore(tracker, options) {
  return readable(tracker, (s) => s, options);
}

/**
 * One call by id (`undefined` until it starts): tells its subscribers only
 * when that call changes.
 *
 * @example
 * const call = toolCallStore(tracker, "c1"); // {$call?.status}
 */
export function toolCallStore(tracker, id, options) {
  const last = { index: -1 };
  return readable(tracker, (s) => findCall(s.calls, id, last), options);
}

/**
 * The calls the application must answer (`snapshot.pendingCalls`).
 *
 * @example
 * const pending = pendingCallsStore(tracker); // {$pending.length} to answer
 */
export function pendingCallsStore(tracker, options) {
  return readable(tracker, (s) => s.pendingCalls, options);
}

/**
 * The thread's open interrupts (`snapshot.interrupts`).
 *
 * @example
 * const interrupts = interruptsStore(tracker); // {#each $interrupts as i}...{/each}
 */
export function interruptsStore(tracker, options) {
  return readable(tracker, (s) => s.interrupts, options);
}

/**
 * One top-level field of a call's arguments, `{ value, complete }`
 * (`call.isComplete(field)`): tells its subscribers only when the field's
 * value or completeness changes, so markup reading a complete field is
 * quiet while other fields stream.
 *
 * @example
 * const url = argFieldStore(tracker, "c1", "url"); // {#if $url.complete}<a href={$url.value}>{$url.value}</a>{/if}
 */
export function argFieldStore(tracker, callId, field, options) {
  const read = argFieldReader();
  return readable(tracker, (s) => read(s, callId, field), options);
}

/**
 * Each top-level field of a call's arguments, `"streaming"` or
 * `"complete"` (`call.argsStatus()`, `{}` until the call starts): tells
 * its subscribers only when a field appears or completes.
 *
 * @example
 * const status = toolArgsStatusStore(tracker, "c1"); // {$status.url ?? "not yet"}
 */
export function toolArgsStatusStore(tracker, callId, options) {
  const read = argsStatusReader();
  return readable(tracker, (s) => read(s, callId), options);
}

/**
 * The user's standing approvals (`snapshot.standingApprovals`, given by
 * `approve({ remember: "tool" })`).
 *
 * @example
 * const standing = standingApprovalsStore(tracker); // {#each $standing as s}<button onclick={() => tracker.revokeApproval(s.tool)}>Ask again for {s.tool}</button>{/each}
 */
export function standingApprovalsStore(tracker, options) {
  return readable(tracker, (s) => s.standingApprovals, options);
}
