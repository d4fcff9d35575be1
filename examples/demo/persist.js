// The thread across a page reload: the chat, the conversation as AG-UI
// messages (which the tracker rebuilds its calls from, rule F8) and
// `tracker.save()` (what that history cannot bring back: consent, standing
// approvals, answers no run carried yet, interrupts, violations), kept in
// sessionStorage after each step the user could reload at.
const KEY = "agui-demo-thread";

/** What `keep` stored, or null (nothing kept, or storage unreadable). */
export function kept() {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? "null");
  } catch {
    return null;
  }
}

/** Keeps the thread: its id, the chat's messages, their AG-UI history and the saved tracker. */
export function keep(threadId, messages, tracker) {
  const snapshot = tracker.snapshot();
  const value = { threadId, messages, history: historyOf(messages, snapshot, tracker.toolMessages()), saved: tracker.save() };
  try {
    sessionStorage.setItem(KEY, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the thread lives as long as the page.
  }
}

/**
 * The conversation as AG-UI messages: each text message, each completed call
 * in the assistant message that carries it, and the answers a run already
 * carried (those no run carried yet are in the saved tracker).
 */
function historyOf(messages, snapshot, undelivered) {
  const unsent = new Set(undelivered.map((m) => m.id));
  const byParent = Map.groupBy(snapshot.completedCalls, (c) => c.parentMessageId);
  const history = [];
  for (const m of messages.filter((m) => !m.streaming)) {
    const calls = byParent.get(m.id) ?? [];
    const toolCalls = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.argsText } }));
    history.push(toolCalls.length ? { id: m.id, role: m.role, content: m.text, toolCalls } : { id: m.id, role: m.role, content: m.text });
    for (const c of calls) {
      const r = c.result;
      if (r && !unsent.has(r.messageId)) history.push({ id: r.messageId, role: "tool", toolCallId: c.id, content: r.content, ...(r.error ? { error: r.error } : {}) });
    }
  }
  return history;
}
