// @ts-check
// What the bindings share beyond the store: the actions bound to a call
// (and to the interrupt it awaits), which calls a per-tool renderer may
// take, where each call goes in the subagent tree, and the per-field
// readings of a call's arguments. Shared by agui-tool-calls/react, /vue,
// /svelte, /angular and /element so that they agree on all four.
import { findCall } from "./store.js";

/**
 * `approve(options?)` (`{ remember: "tool" }` for a standing approval),
 * `decline`, `answer` and `fail`, bound to one call; for a call
 * awaiting an interrupt's approval (rule I3), `approveWithEdits(editedArgs?)`
 * (resolves it with `{ approved: true }`, the edits as `editedArgs`) and
 * `reject()` (cancels it), bound to that interrupt.
 *
 * @example
 * const { approve, answer } = bindActions(tracker, "c1");
 * approve();
 * answer("Deployed checkout.");
 *
 * @param {import("./index.js").ToolCallTracker} tracker
 * @param {string} id
 * @param {string} [interruptId]
 */
export function bindActions(tracker, id, interruptId) {
  const awaited = () => interruptId ?? fail(`tool call ${JSON.stringify(id)} awaits no interrupt`);
  return {
    /** @param {{ remember?: "tool" }} [options] */
    approve: (options) => void tracker.approve(id, options),
    /** @param {string | null} [reason] */
    decline: (reason) => void tracker.decline(id, reason),
    /** @param {string | import("./index.js").ContentPart[]} content */
    answer: (content) => void tracker.answer(id, content),
    /** @param {string} error @param {string | null} [content] */
    fail: (error, content) => void tracker.fail(id, error, content),
    /** @param {Record<string, unknown>} [editedArgs] */
    approveWithEdits: (editedArgs) =>
      void tracker.resolveInterrupt(awaited(), { approved: true }, editedArgs === undefined ? undefined : { editedArgs }),
    reject: () => void tracker.cancelInterrupt(awaited()),
  };
}

/** @param {string} message @returns {never} */
const fail = (message) => {
  throw new Error(message);
};

/**
 * Each call of `snapshot`, in first-start order, with the open interrupt
 * it awaits (if any) and the renderer it gets: `render[call.name]` for a
 * call to an advertised tool or one awaiting an interrupt's approval,
 * `fallback` for any other (or none: left out).
 *
 * @example
 * for (const { call, interrupt, renderer } of callsToRender(snapshot, { confirm_deploy: Card }, Other)) draw(renderer, call, interrupt);
 *
 * @template R
 * @param {import("./index.js").Snapshot} snapshot
 * @param {{ readonly [name: string]: R | undefined } | undefined | null} render
 * @param {R | undefined | null} fallback
 */
export function callsToRender(snapshot, render, fallback) {
  /** @type {{ call: import("./index.js").ToolCallState, interrupt: import("./index.js").InterruptState | undefined, renderer: R }[]} */
  const out = [];
  const interrupts = snapshot.interrupts.length > 0 ? new Map(snapshot.interrupts.map((i) => [i.interrupt.id, i])) : null;
  for (const call of snapshot.calls) {
    const awaited = call.awaitingInterrupt;
    const interrupt = awaited === undefined ? undefined : interrupts?.get(awaited);
    const own = (call.advertised || interrupt) && render && Object.hasOwn(render, call.name) ? render[call.name] : undefined;
    const renderer = own ?? fallback;
    if (renderer) out.push({ call, interrupt, renderer });
  }
  return out;
}

/**
 * The calls of `snapshot` as a tree, for a nested rendering: each call
 * (with `entry`, its item of `entries`, if any), then the subagents it
 * started (`parentToolCallId`), each with its own calls nested the same
 * way, then the subagents it started itself without a call. At the top:
 * the parent agent's calls (and those of no announced subagent), then the
 * subagents with nowhere to go. Each call and subagent is placed once, so
 * a cycle a stream drew ends; what no walk reached comes last, at the top:
 * every call is in the tree. Keys are stable: a call's id, and
 * `subagent:` and the run id.
 *
 * @example
 * const draw = (node) => node.kind === "call" ? [card(node.entry), ...node.subagents.map(draw)] : group(node.subagent, node.children.map(draw));
 * callTree(snapshot, callsToRender(snapshot, renderers, fallback)).map(draw);
 *
 * @template {{ call: import("./index.js").ToolCallState }} E
 * @param {import("./index.js").Snapshot} snapshot
 * @param {readonly E[]} entries
 */
export function callTree(snapshot, entries) {
  /** @typedef {{ kind: "call", key: string, call: import("./index.js").ToolCallState, entry: E | undefined, subagents: SubagentNode[] }} CallNode */
  /** @typedef {{ kind: "subagent", key: string, subagent: import("./index.js").Subagent, children: (CallNode | SubagentNode)[] }} SubagentNode */
  const byEntry = new Map(entries.map((e) => [e.call.id, e]));
  const announced = new Map(snapshot.subagents.map((s) => [s.subagentRunId, s]));
  const calls = new Map(snapshot.calls.map((c) => [c.id, c]));
  /** @type {Map<string, import("./index.js").Subagent[]>} */
  const byCall = new Map();
  /** @type {Map<string, import("./index.js").Subagent[]>} */
  const bySubagent = new Map();
  /** @param {Map<string, import("./index.js").Subagent[]>} map @param {string} key @param {import("./index.js").Subagent} s */
  const add = (map, key, s) => (map.get(key) ?? map.set(key, []).get(key)).push(s);
  const unplaced = [];
  for (const s of snapshot.subagents) {
    if (s.parentToolCallId !== undefined && calls.has(s.parentToolCallId)) add(byCall, s.parentToolCallId, s);
    else if (s.parentSubagentRunId !== undefined && announced.has(s.parentSubagentRunId)) add(bySubagent, s.parentSubagentRunId, s);
    else unplaced.push(s);
  }
  /** @type {Set<object>} */
  const seen = new Set();
  /** @param {import("./index.js").Subagent[] | undefined} list @returns {SubagentNode[]} */
  const subagents = (list) => (list ?? []).filter((s) => !seen.has(s)).map(groupOf);
  /** @param {import("./index.js").ToolCallState} call @returns {CallNode} */
  const callNode = (call) => {
    seen.add(call);
    return { kind: "call", key: call.id, call, entry: byEntry.get(call.id), subagents: subagents(byCall.get(call.id)) };
  };
  /** @param {import("./index.js").Subagent} s @returns {SubagentNode} */
  function groupOf(s) {
    seen.add(s);
    const own = s.callIds.map((id) => calls.get(id)).filter((c) => c !== undefined && !seen.has(c));
    /** @type {(CallNode | SubagentNode)[]} */
    const children = own.map(callNode);
    children.push(...subagents(bySubagent.get(s.subagentRunId)));
    return { kind: "subagent", key: `subagent:${s.subagentRunId}`, subagent: s, children };
  }
  /** @type {(CallNode | SubagentNode)[]} */
  const top = [];
  for (const call of snapshot.calls) {
    if (!seen.has(call) && (call.subagentRunId === undefined || !announced.has(call.subagentRunId))) top.push(callNode(call));
  }
  for (const s of unplaced) top.push(groupOf(s));
  for (const call of snapshot.calls) if (!seen.has(call)) top.push(callNode(call));
  for (const s of snapshot.subagents) if (!seen.has(s)) top.push(groupOf(s));
  return top;
}

const NO_FIELD = Object.freeze({ value: undefined, complete: false });
const NO_STATUS = Object.freeze({});

/**
 * A reader of one top-level field of a call's arguments, `{ value,
 * complete }` (`call.isComplete(field)`): it returns the same object while
 * neither changes, so a consumer comparing by identity (a React selector,
 * a shallow ref, a signal, a store) is quiet while other fields stream. A
 * complete value never changes again while the call streams, and is kept
 * as first seen. Another call or field: what was kept goes.
 *
 * @example
 * const read = argFieldReader();
 * const url = read(tracker.snapshot(), "c1", "url"); // { value: "https://exa", complete: false }
 *
 * @returns {(snapshot: import("./index.js").Snapshot, callId: string, field: string) => { readonly value: unknown, readonly complete: boolean }}
 */
export function argFieldReader() {
  const last = { index: -1, field: NO_FIELD, of: "" };
  return (snapshot, callId, field) => {
    const of = JSON.stringify([callId, field]);
    if (last.of !== of) Object.assign(last, { index: -1, field: NO_FIELD, of });
    const call = findCall(snapshot.calls, callId, last);
    if (last.field.complete && call?.status !== "abandoned") return last.field;
    const value = call?.status === "open" ? call.partialArgs?.[field] : call?.args?.[field];
    const complete = call !== undefined && call.isComplete(field);
    if (value !== last.field.value || complete !== last.field.complete) last.field = { value, complete };
    return last.field;
  };
}

/**
 * A reader of each top-level field's status of a call's arguments,
 * `"streaming"` or `"complete"` (`call.argsStatus()`, `{}` until the call
 * starts): it returns the same object until a field appears or completes.
 *
 * @example
 * const read = argsStatusReader();
 * read(tracker.snapshot(), "c1"); // { url: "complete", note: "streaming" }
 *
 * @returns {(snapshot: import("./index.js").Snapshot, callId: string) => { readonly [field: string]: "streaming" | "complete" }}
 */
export function argsStatusReader() {
  const last = { index: -1, id: "", status: NO_STATUS };
  return (snapshot, callId) => {
    if (last.id !== callId) Object.assign(last, { index: -1, id: callId });
    const status = findCall(snapshot.calls, callId, last)?.argsStatus() ?? NO_STATUS;
    if (!sameStatus(status, last.status)) last.status = status;
    return last.status;
  };
}

/** @param {{ readonly [field: string]: string }} a @param {{ readonly [field: string]: string }} b */
function sameStatus(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}
