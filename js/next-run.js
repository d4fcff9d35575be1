// @ts-check
// The history nextRun sends; the rules are the package README's ("The next
// run"). In JS: a Rust version cost the page 5 KB gzip. Three passes, each
// linear in the input's messages plus the tracker's calls and results (a
// history may hold many tool messages for one call, as a MESSAGES_SNAPSHOT
// can): `indexInput` reads the input once, `placeCalls` decides where each
// call the input lacks goes, `emit` writes the history out.

/**
 * The fields of a call's result (`ToolResult`) read here.
 * @typedef {object} Result
 * @property {string} messageId
 * @property {unknown} content
 * @property {string} [error]
 * @property {string} [subagentRunId]
 */
/**
 * The fields of a snapshot's call (`ToolCallState`) read here.
 * @typedef {object} Call
 * @property {string} id
 * @property {string} name
 * @property {string} argsText
 * @property {"open" | "complete" | "abandoned"} status
 * @property {string} [parentMessageId]
 * @property {string} [runId]
 * @property {string} [subagentRunId]
 * @property {boolean} pending
 * @property {boolean} [cancelled] left unanswered by a cancelled run (rule L8)
 * @property {string} [awaitingInterrupt] the open interrupt asking its approval (rule I3)
 * @property {Result} [result]
 * @property {readonly Result[]} results
 * @property {string} [encryptedValue] rule F10, as delivered
 * @property {string} [encryptedValueType]
 * @property {object} [metadata]
 */
/**
 * What a call or message keeps for the next history (rule F10).
 * @typedef {{ encryptedValue?: string, encryptedValueType?: string, metadata?: object }} Kept
 */
/** @typedef {import("./index.js").ToolMessage} ToolMessage */
/** @typedef {import("./index.js").FunctionToolCall} Entry */
/** @typedef {import("./index.js").AssistantMessage} Assistant */
/** @typedef {import("./index.js").RunAgentInput["messages"][number]} Message an input message, as given */
/** @typedef {Message | Assistant | ToolMessage} OutMessage */

/** The content of the tool message closing a call that will never be answered. */
export const ABANDONED = "This tool call was not completed: its run ended before the call was answered.";

/** The content of the tool message closing a call its cancelled run left unanswered (rule L8). */
export const CANCELLED = "This tool call was not completed: its run was cancelled before the call was answered.";

/**
 * What the message closing `call` says: cancelled (rule L8), else abandoned.
 * @param {Call | undefined} call
 */
const closingWords = (call) => (call?.cancelled ? { content: CANCELLED, error: "cancelled" } : { content: ABANDONED, error: "abandoned" });

/**
 * `messages` completed from a snapshot's `calls`. `at`: where each message
 * (-1: unseen), then each call, was first seen among the thread's messages
 * (the core's `positions`). `advertised(name)`: whether the run advertises
 * the tool: a call the tracker never saw that the input holds unanswered is
 * then the user's to answer (rule F8), not closed here. `kept`: what each
 * message keeps (the core's `keptMessages`), by id (rule F10).
 * @param {readonly Message[]} messages
 * @param {readonly Call[]} calls
 * @param {ArrayLike<number>} at
 * @param {(name: string) => boolean} [advertised]
 * @param {Map<unknown, Kept>} [kept]
 * @returns {OutMessage[]}
 */
export function completeHistory(messages, calls, at, advertised = () => false, kept = new Map()) {
  const input = indexInput(messages, calls);
  const placement = placeCalls(messages, calls, at, input);
  return emit(messages, input, placement, advertised, kept);
}

/**
 * `target` (a tool call or an assistant message) with what the tracker
 * kept (`from`, rule F10) where it has none of its own: the encrypted value
 * with its type (the type alone when the value is the same: a 1.0 client
 * drops it), the metadata. `target` itself when nothing is added.
 * @template T
 * @param {T} target
 * @param {Kept | undefined} from
 * @returns {T}
 */
function withKept(target, from) {
  if (!from || typeof target !== "object" || target === null) return target;
  /** @type {any} */
  let out = target;
  /** @param {"encryptedValue" | "encryptedValueType" | "metadata"} key */
  const add = (key) => {
    if (from[key] === undefined || out[key] !== undefined) return;
    if (out === target) out = { ...target };
    out[key] = from[key];
  };
  const own = /** @type {Kept} */ (target).encryptedValue;
  if (own === undefined || own === from.encryptedValue) {
    add("encryptedValue");
    add("encryptedValueType");
  }
  add("metadata");
  return out;
}

/**
 * What the input holds, and the tracker's calls by id.
 * @typedef {object} Index
 * @property {Set<unknown>} ids every message id of the input
 * @property {Map<string, number>} assistants assistant message id -> its first index
 * @property {Map<string, number>} held call id -> index of the first assistant message holding it
 * @property {Map<unknown, Message[]>} answers call id -> the input's tool messages for it, in order
 * @property {Map<string, Call>} byId the tracker's calls
 * @property {Set<unknown>} taken every message id in use: the input's, the calls' parents and results, the ones made up here
 */

/**
 * @param {readonly Message[]} messages
 * @param {readonly Call[]} calls
 * @returns {Index}
 */
function indexInput(messages, calls) {
  /** @type {Index} */
  const index = { ids: new Set(), assistants: new Map(), held: new Map(), answers: new Map(), byId: new Map(), taken: new Set() };
  messages.forEach((m, k) => {
    index.ids.add(m?.id);
    index.taken.add(m?.id);
    if (m?.role === "assistant") {
      if (!index.assistants.has(m.id)) index.assistants.set(m.id, k);
      for (const c of toolCallsOf(m) ?? []) if (!index.held.has(c?.id)) index.held.set(c?.id, k);
    } else if (m?.role === "tool") {
      const list = index.answers.get(m.toolCallId);
      if (list) list.push(m);
      else index.answers.set(m.toolCallId, [m]);
    }
  });
  for (const c of calls) {
    index.byId.set(c.id, c);
    index.taken.add(c.parentMessageId);
    for (const r of c.results) index.taken.add(r.messageId);
  }
  return index;
}

/**
 * Where the calls the input lacks go.
 * @typedef {object} Group a made-up assistant message
 * @property {number} slot the input index it goes before (the input's length: the end)
 * @property {string | undefined} parent
 * @property {string | undefined} owner
 * @property {Call[]} calls
 *
 * @typedef {object} Placement
 * @property {Map<number, Call[]>} extra input index -> calls to append to that assistant message's `toolCalls`
 * @property {Map<number, Group[]>} bySlot input index -> the made-up messages that go just before it
 */

/**
 * A call the input lacks is placed when it is complete, or abandoned and
 * answered in the input: in the input's assistant message its
 * `parentMessageId` names, else in a made-up one where the call happened.
 * @param {readonly Message[]} messages
 * @param {readonly Call[]} calls
 * @param {ArrayLike<number>} at
 * @param {Index} input
 * @returns {Placement}
 */
function placeCalls(messages, calls, at, input) {
  const n = messages.length;
  const slotOf = slotFinder(at, n);
  /** @type {Placement} */
  const placement = { extra: new Map(), bySlot: new Map() };
  /** @type {Map<string, Group>} */
  const groups = new Map();
  calls.forEach((c, i) => {
    if (!toPlace(c, input)) return;
    const parent = c.parentMessageId;
    const k = parent === undefined ? undefined : input.assistants.get(parent);
    if (k !== undefined) return append(placement.extra, k, c);
    const slot = slotOf(at[n + i]);
    // Parentless calls share one when place, run and owner agree.
    const key = parent !== undefined ? `p\0${parent}` : `${slot}\0${c.runId ?? ""}\0${c.subagentRunId ?? ""}`;
    let group = groups.get(key);
    if (!group) {
      group = { slot, parent, owner: c.subagentRunId, calls: [] };
      groups.set(key, group);
      append(placement.bySlot, slot, group);
    }
    group.calls.push(c);
  });
  return placement;
}

/**
 * Whether a call the tracker knows is added: complete, or abandoned and
 * answered in the input, and not already held by it.
 * @param {Call | undefined} c
 * @param {Index} input
 */
function toPlace(c, input) {
  if (c === undefined || input.held.has(c.id)) return false;
  return c.status === "complete" || (c.status === "abandoned" && input.answers.has(c.id));
}

/**
 * The input index a made-up message at thread position `p` goes before:
 * after the input message seen last before it, else before the first seen,
 * else at the end. Positions are counts of the tracker's message ids, so a
 * table over them (no sort) answers each call in constant time.
 * @param {ArrayLike<number>} at
 * @param {number} n the input's length
 * @returns {(p: number) => number}
 */
function slotFinder(at, n) {
  let top = -1;
  for (let k = 0; k < n; k++) top = Math.max(top, at[k]);
  // last[p]: the last input index seen at position p, -1 for none.
  const last = new Int32Array(top + 1).fill(-1);
  for (let k = 0; k < n; k++) if (at[k] >= 0) last[at[k]] = k;
  // below[p]: the last index at the highest position under p, -1 for none.
  const below = new Int32Array(top + 2);
  let best = -1;
  let lowest = -1;
  for (let p = 0; p <= top + 1; p++) {
    below[p] = best;
    if (p <= top && last[p] >= 0) {
      best = last[p];
      if (lowest < 0) lowest = p;
    }
  }
  // The first input message at the lowest position seen.
  let first = n;
  for (let k = 0; k < n && lowest >= 0; k++) {
    if (at[k] === lowest) {
      first = k;
      break;
    }
  }
  return (p) => {
    const k = below[Math.max(0, Math.min(p, top + 1))];
    return k >= 0 ? k + 1 : first;
  };
}

/**
 * The history: the input's messages in order, made-up assistant messages
 * where their calls happened, every call followed at once by its answer.
 * @param {readonly Message[]} messages
 * @param {Index} input
 * @param {Placement} placement
 * @param {(name: string) => boolean} advertised
 * @param {Map<unknown, Kept>} kept
 * @returns {OutMessage[]}
 */
function emit(messages, input, { extra, bySlot }, advertised, kept) {
  const n = messages.length;
  /** @type {OutMessage[]} */
  const out = [];
  /** @type {Set<unknown>} */
  const answered = new Set();
  /** @param {Entry[]} entries */
  const follow = (entries) => {
    for (const e of entries) {
      const answer = answerOf(e, input, advertised);
      if (answer) out.push(answer);
      answered.add(e?.id);
    }
  };
  for (let k = 0; k <= n; k++) {
    for (const g of bySlot.get(k) ?? []) {
      const entries = g.calls.map(entry);
      const id = g.parent !== undefined && !input.ids.has(g.parent) ? g.parent : unused(input, g.calls[0].id, "assistant");
      out.push(withKept({ id, role: "assistant", toolCalls: entries, ...(g.owner !== undefined && { subagentRunId: g.owner }) }, kept.get(id)));
      follow(entries);
    }
    if (k === n) break;
    const m = messages[k];
    if (m?.role === "tool") {
      const callId = /** @type {string} */ (m.toolCallId);
      // Its answer moves after its call.
      if (input.held.has(callId) || toPlace(input.byId.get(callId), input)) continue;
    }
    if (m?.role !== "assistant") {
      out.push(m);
      continue;
    }
    const own = toolCallsOf(m);
    // Each keeps what was delivered for it where it lacks it (rule F10).
    const entries = (own ?? []).filter((c) => !answered.has(c?.id)).map((c) => withKept(c, input.byId.get(c?.id)));
    for (const c of extra.get(k) ?? []) entries.push(entry(c));
    out.push(withKept(entries.length > 0 || own ? { ...m, toolCalls: entries } : m, kept.get(m.id)));
    follow(entries);
  }
  return out;
}

/**
 * A call's one tool message: the input's answer, else the recorded one, else
 * a closing one; none while the call is pending, or restored from history
 * (never seen by the tracker) and calling an advertised tool (rule F8).
 * @param {Entry} e
 * @param {Index} input
 * @param {(name: string) => boolean} advertised
 * @returns {OutMessage | null}
 */
function answerOf(e, input, advertised) {
  const id = e?.id;
  const given = input.answers.get(id) ?? [];
  const call = input.byId.get(id);
  if (call === undefined) {
    const name = e?.function?.name;
    return given[0] ?? (typeof name === "string" && advertised(name) ? null : closing(input, id));
  }
  const r = call.result;
  if (r) return given.find((m) => m.id === r.messageId) ?? toolMessage(id, r);
  const refused = new Set(call.results.map((x) => x.messageId));
  // A call awaiting approval is answered by the resume entry (rule I3).
  return given.find((m) => !refused.has(m.id)) ?? (call.pending || call.awaitingInterrupt ? null : closing(input, id, call.subagentRunId, call));
}

/**
 * The tool message closing a call that will never be answered.
 * @param {Index} input
 * @param {string} id
 * @param {string} [owner]
 * @param {Call} [call] the tracker's call, when it knows it: a cancelled run's says so (rule L8)
 * @returns {ToolMessage}
 */
function closing(input, id, owner, call) {
  return {
    id: unused(input, id, "closed"),
    role: "tool",
    toolCallId: id,
    ...closingWords(call),
    ...(owner !== undefined && { subagentRunId: owner }),
  };
}

/**
 * `<base>:<what>`, a number appended while the thread uses it; taken from now on.
 * @param {Index} input
 * @param {string} base
 * @param {string} what
 */
function unused(input, base, what) {
  let id = `${base}:${what}`;
  for (let k = 2; input.taken.has(id); k++) id = `${base}:${what}${k}`;
  input.taken.add(id);
  return id;
}

/**
 * An assistant message's `toolCalls`, as given (possibly malformed: checked by `startRun`).
 * @param {Message} m
 * @returns {Entry[] | undefined}
 */
const toolCallsOf = (m) => /** @type {Assistant} */ (m).toolCalls;

/**
 * @param {Call} call
 * @returns {Entry}
 */
const entry = (call) => withKept({ id: call.id, type: "function", function: { name: call.name, arguments: call.argsText } }, call);

/**
 * @param {Map<number, T[]>} map
 * @param {number} key
 * @param {T} value
 * @template T
 */
function append(map, key, value) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * @param {string} toolCallId
 * @param {Result} r
 * @returns {ToolMessage}
 */
function toolMessage(toolCallId, r) {
  /** @type {ToolMessage} */
  const message = { id: r.messageId, role: "tool", toolCallId, content: /** @type {ToolMessage["content"]} */ (r.content ?? "") };
  if (r.error !== undefined) message.error = r.error;
  if (r.subagentRunId !== undefined) message.subagentRunId = r.subagentRunId;
  return message;
}
