// @ts-check
// `agui-tool-calls/ag-ui`: a ToolCallTracker subscribed to an @ag-ui/client
// agent (HttpAgent, or any AbstractAgent). Nothing here imports
// @ag-ui/client: the agent's own subscriber interface is all it uses.
// From the tracker itself, not an entry: an application of either entry
// downloads no other wasm module for it.
import { ToolCallStreamError } from "./tracker.js";

/** The reason a run that ended without `RUN_FINISHED` or `RUN_ERROR` is aborted with. */
export const UNTERMINATED = "the run ended without RUN_FINISHED or RUN_ERROR";

/**
 * Subscribes `tracker` to `agent`: the agent's history, when it has one (a
 * page reloaded), restores the tracker (rule F8); each run's input is
 * declared to it (`startRun`, its `resume` list from `runAgent({ resume })`
 * checked against the open interrupts), its history ordered as strict
 * servers require (each tool message right after its call's assistant
 * message) and a closing tool message added for every call the agent holds
 * that a stopped or failed run abandoned (rule F11); every event goes through it before the agent applies it, an
 * event it refuses (fatal) is not applied and stops the run
 * (`agent.abortRun()`), and a run that is stopped, fails or ends without a
 * terminal event aborts the tracker's run, with the reason: the run
 * declared, when its request failed before RUN_STARTED. Returns the
 * unsubscribe function.
 */
export function trackAgent(agent, tracker, { onRefused = (error) => console.error(error) } = {}) {
  if (!agent || typeof agent.subscribe !== "function") throw new TypeError("trackAgent needs an @ag-ui/client agent");
  if (!tracker || typeof tracker.push !== "function") throw new TypeError("trackAgent needs a ToolCallTracker");
  // The run's input was refused (a pending call left unanswered, an open
  // interrupt its `resume` list leaves uncovered): nothing of it is applied.
  let refused = false;
  const stop = () => agent.abortRun?.();
  // The run running, or the one declared whose request failed before its
  // RUN_STARTED (an HTTP error, a network error): aborted with the reason.
  const endRun = (reason) => tracker.abortRun(reason);
  if (Array.isArray(agent.messages) && agent.messages.length > 0) {
    try {
      tracker.restore({ messages: agent.messages });
    } catch (error) {
      onRefused(error);
    }
  }
  const { unsubscribe } = agent.subscribe({
    onRunInitialized({ input, messages }) {
      refused = false;
      const history = placed(messages ?? input.messages, tracker);
      try {
        tracker.startRun(history ? { ...input, messages: history.filter((m) => m?.role !== "activity") } : input);
      } catch (error) {
        refused = true;
        // Before the request leaves: an aborted HttpAgent sends nothing.
        stop();
        onRefused(error);
        return undefined;
      }
      // The agent's history, and so the input it sends, gets them too.
      return history ? { messages: history } : undefined;
    },
    onEvent({ event }) {
      if (refused) return { stopPropagation: true };
      // What @ag-ui/client makes of an aborted request (the user stopped, or
      // the agent was stopped): not the producer's error, the run is aborted.
      if (event.type === "RUN_ERROR" && event.code === "abort" && !tracker.snapshot().fatal) {
        endRun(typeof event.message === "string" ? event.message : "aborted");
        return undefined;
      }
      try {
        tracker.push(event);
      } catch (error) {
        if (!(error instanceof ToolCallStreamError)) throw error;
        // The error is on the tracker's snapshot (`fatal`); the agent keeps
        // what it applied before and never sees this event or any later one.
        stop();
        return { stopPropagation: true };
      }
      return undefined;
    },
    onRunFailed({ error }) {
      endRun(reasonOf(error));
    },
    onRunFinalized() {
      endRun(UNTERMINATED);
    },
  });
  return unsubscribe;
}

/** What an error that failed a run says: its message, and its cause's (`fetch failed (connect ECONNREFUSED ...)`). */
function reasonOf(error) {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause ? `${error.message} (${cause})` : error.message;
}

/**
 * `messages` with each tool message right after the assistant message that
 * holds its call (among that message's tool messages, in `toolCalls` order),
 * as strict servers require and `nextRun` writes it: an answer the app added
 * after the run said more, or after the user typed, moves up. A closing tool
 * message (from `tracker.toolMessages()`) goes after each call a stopped or
 * failed run left unanswered (rule F11). `null` when nothing moves or is
 * added.
 */
function placed(messages, tracker) {
  if (!Array.isArray(messages)) return null;
  // The tracker's closing messages (rule F11), not the application's answers.
  const closings = new Map(tracker.toolMessages().filter((m) => m.id.startsWith(`${m.toolCallId}:closed`)).map((m) => [m.toolCallId, m]));
  // The message holding each call (its first, should a call repeat).
  const holder = new Map();
  messages.forEach((m, i) => {
    if (m?.role === "assistant" && Array.isArray(m.toolCalls)) for (const c of m.toolCalls) if (typeof c?.id === "string" && !holder.has(c.id)) holder.set(c.id, i);
  });
  // The tool messages that follow their call's message, by call, in order.
  const answers = new Map();
  const answered = new Set();
  messages.forEach((m, i) => {
    if (m?.role !== "tool") return;
    answered.add(m.toolCallId);
    if (!(holder.get(m.toolCallId) < i)) return;
    const list = answers.get(m.toolCallId);
    if (list) list.push(m);
    else answers.set(m.toolCallId, [m]);
  });
  const out = [];
  messages.forEach((m, i) => {
    if (m?.role === "tool" && answers.has(m.toolCallId)) return; // placed after its call
    out.push(m);
    if (m?.role !== "assistant" || !Array.isArray(m.toolCalls)) return;
    for (const c of m.toolCalls) {
      if (holder.get(c?.id) !== i) continue;
      const own = answers.get(c.id);
      if (own) out.push(...own);
      else if (closings.has(c.id) && !answered.has(c.id)) out.push(closings.get(c.id));
    }
  });
  return out.length !== messages.length || out.some((m, i) => m !== messages[i]) ? out : null;
}
