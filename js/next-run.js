// The history nextRun sends; the rules are the package README's. In JS: a
// Rust version cost the page 5 KB gzip.

/** The content of the tool message closing a call that will never be answered. */
export const ABANDONED = "This tool call was not completed: its run ended before the call was answered.";

/** The content of the tool message closing a call its cancelled run left unanswered (rule L8). */
export const CANCELLED = "This tool call was not completed: its run was cancelled before the call was answered.";

/** What the message closing `call` says: cancelled (rule L8), else abandoned. */
const closingWords = (call) => (call?.cancelled ? { content: CANCELLED, error: "cancelled" } : { content: ABANDONED, error: "abandoned" });

/** `messages` completed from a snapshot's `calls`; `at`: where each message (-1: unseen), then call, was first seen. */
export function completeHistory(messages, calls, at) {
  const n = messages.length;
  const ids = new Set();
  const assistants = new Map(); // id -> first index
  const held = new Map(); // call id -> index of the assistant message holding it
  const answers = new Map(); // call id -> tool messages
  messages.forEach((m, k) => {
    ids.add(m?.id);
    if (m?.role === "assistant") {
      if (!assistants.has(m.id)) assistants.set(m.id, k);
      for (const c of m.toolCalls ?? []) if (!held.has(c?.id)) held.set(c?.id, k);
    } else if (m?.role === "tool") {
      answers.set(m.toolCallId, [...(answers.get(m.toolCallId) ?? []), m]);
    }
  });
  const byId = new Map(calls.map((c) => [c.id, c]));
  // Calls to add: complete, or abandoned and answered in the input.
  const toPlace = (c) => c !== undefined && !held.has(c.id) && (c.status === "complete" || (c.status === "abandoned" && answers.has(c.id)));

  // After the input message seen last before the call, else before the first seen, else last.
  const seen = messages.map((_, k) => [at[k], k]).filter(([p]) => p >= 0);
  seen.sort((a, b) => a[0] - b[0]);
  const slotOf = (position) => {
    let lo = 0;
    let hi = seen.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seen[mid][0] < position) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? seen[lo - 1][1] + 1 : (seen[0]?.[1] ?? n);
  };

  const extra = new Map(); // input index -> calls for its toolCalls
  const groups = new Map(); // made-up assistant messages
  calls.forEach((c, i) => {
    if (!toPlace(c)) return;
    const parent = c.parentMessageId;
    const k = parent === undefined ? undefined : assistants.get(parent);
    if (k !== undefined) return extra.set(k, [...(extra.get(k) ?? []), c]);
    const slot = slotOf(at[n + i]);
    // Parentless calls share one when place, run and owner agree.
    const key = parent !== undefined ? `p\0${parent}` : `${slot}\0${c.runId ?? ""}\0${c.subagentRunId ?? ""}`;
    const group = groups.get(key) ?? { slot, parent, owner: c.subagentRunId, calls: [] };
    groups.set(key, group);
    group.calls.push(c);
  });
  const bySlot = new Map();
  for (const g of groups.values()) bySlot.set(g.slot, [...(bySlot.get(g.slot) ?? []), g]);

  const taken = new Set([...ids, ...calls.flatMap((c) => [c.parentMessageId, ...c.results.map((r) => r.messageId)])]);
  const unused = (base, what) => {
    let id = `${base}:${what}`;
    for (let k = 2; taken.has(id); k++) id = `${base}:${what}${k}`;
    return id;
  };
  const closing = (id, owner, call) => ({
    id: unused(id, "closed"),
    role: "tool",
    toolCallId: id,
    ...closingWords(call),
    ...(owner !== undefined && { subagentRunId: owner }),
  });
  // The input's answer, else the recorded one, else a closing one; none while pending.
  const answerOf = (id) => {
    const given = answers.get(id) ?? [];
    const call = byId.get(id);
    if (call === undefined) return given[0] ?? closing(id);
    const r = call.result;
    if (r) return given.find((m) => m.id === r.messageId) ?? toolMessage(id, r);
    const refused = new Set(call.results.map((x) => x.messageId));
    // A call awaiting approval is answered by the resume entry (rule I3).
    return given.find((m) => !refused.has(m.id)) ?? (call.pending || call.awaitingInterrupt ? null : closing(id, call.subagentRunId, call));
  };
  const out = [];
  const answered = new Set();
  const follow = (entries) => {
    for (const { id } of entries) {
      const answer = answerOf(id);
      if (answer) out.push(answer);
      answered.add(id);
    }
  };
  for (let k = 0; k <= n; k++) {
    for (const g of bySlot.get(k) ?? []) {
      const entries = g.calls.map(entry);
      const id = g.parent !== undefined && !ids.has(g.parent) ? g.parent : unused(g.calls[0].id, "assistant");
      out.push({ id, role: "assistant", toolCalls: entries, ...(g.owner !== undefined && { subagentRunId: g.owner }) });
      follow(entries);
    }
    const m = messages[k];
    if (k === n) break;
    if (m?.role === "tool" && (held.has(m.toolCallId) || toPlace(byId.get(m.toolCallId)))) continue;
    if (m?.role !== "assistant") {
      out.push(m);
      continue;
    }
    const entries = [...(m.toolCalls ?? []).filter((c) => !answered.has(c?.id)), ...(extra.get(k) ?? []).map(entry)];
    out.push(entries.length > 0 || m.toolCalls ? { ...m, toolCalls: entries } : m);
    follow(entries);
  }
  return out;
}

const entry = (call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.argsText } });

function toolMessage(toolCallId, r) {
  const message = { id: r.messageId, role: "tool", toolCallId, content: r.content ?? "" };
  if (r.error !== undefined) message.error = r.error;
  if (r.subagentRunId !== undefined) message.subagentRunId = r.subagentRunId;
  return message;
}
