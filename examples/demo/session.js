// One chat thread with the demo agent, without React: it posts runs, feeds the
// streamed bytes to the tracker (tool calls) and to a small text reducer (the
// assistant's messages), and turns the user's decisions into tool messages.
import { ToolCallStreamError, ToolCallTracker } from "agui-tool-calls";
import { SseEvents } from "./sse.js";

const newId = (prefix) => `${prefix}_${crypto.getRandomValues(new Uint32Array(2)).join("")}`;

/**
 * The state the view renders: replaced, never mutated, on every change.
 * @typedef {{ messages: Array<{ id: string, role: "user" | "assistant", text: string, streaming?: boolean }>, busy: boolean, error: string | null }} ChatState
 */
export class ChatSession {
  #listeners = new Set();
  #threadId = newId("thread");
  /** @type {ChatState} */
  state = { messages: [], busy: false, error: null };

  /**
   * @param {{ endpoint: string, tools: import("agui-tool-calls").Tool[], requireApproval?: string[] }} options
   */
  constructor({ endpoint, tools, requireApproval = [] }) {
    this.endpoint = endpoint;
    this.tools = tools;
    this.tracker = new ToolCallTracker({ tools, requireApproval });
  }

  subscribe = (listener) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getState = () => this.state;

  /** Sends a user message and runs the agent on the whole history; false when the run may not start. */
  send(text) {
    const message = { id: newId("user"), role: "user", text };
    return this.#run([...this.state.messages, message]);
  }

  /** The user approves a frontend call: the tool runs (here: says so), then the thread goes on. */
  approve(call) {
    this.#decide(() => {
      this.tracker.approve(call.id);
      const { service, version } = call.args ?? {};
      // The agent reads `approved: true`; the message is for people.
      const content = JSON.stringify({ approved: true, message: `Deployment of ${service} ${version} approved by the user.` });
      this.tracker.answer(call.id, content);
    });
  }

  /** The user declines a frontend call: it is answered with the refusal, then the thread goes on. */
  decline(call) {
    this.#decide(() => this.tracker.decline(call.id, "not approved in the chat."));
  }

  #decide(apply) {
    try {
      apply();
    } catch (error) {
      this.#set({ error: error.message });
      return;
    }
    // Continue on its own once nothing is left to answer.
    if (this.tracker.snapshot().pendingCalls.length === 0) this.#run(this.state.messages);
  }

  /** Starts a run on `messages`; false, with the reason shown, when it may not start. */
  #run(messages) {
    if (this.state.busy) return false;
    const input = {
      threadId: this.#threadId,
      runId: newId("run"),
      messages: this.#history(messages),
      tools: this.tools,
      context: [],
      state: null,
      forwardedProps: {},
    };
    try {
      // Throws, naming them, while a pending call is unanswered.
      this.tracker.startRun(input);
    } catch (error) {
      this.#set({ error: error.message });
      return false;
    }
    this.#set({ messages, busy: true, error: null });
    this.#post(input);
    return true;
  }

  async #post(input) {
    try {
      const response = await fetch(this.endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify(input),
      });
      if (!response.ok) throw new Error(await refusal(response));
      await this.#stream(response.body.getReader());
    } catch (error) {
      this.#set({ error: error instanceof ToolCallStreamError ? `Stream stopped: ${error.message}` : error.message });
    } finally {
      this.#set({ busy: false });
    }
  }

  async #stream(reader) {
    const events = new SseEvents();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        for (const event of events.push(value)) this.#text(event);
        this.tracker.pushSse(value); // throws ToolCallStreamError on a fatal violation
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  /** The text-message reducer: the tracker owns tool calls, the chat owns text. */
  #text(event) {
    if (!event || typeof event.messageId !== "string") return;
    const { messages } = this.state;
    if (event.type === "TEXT_MESSAGE_START") {
      this.#set({ messages: [...messages, { id: event.messageId, role: "assistant", text: "", streaming: true }] });
      return;
    }
    const i = messages.findLastIndex((m) => m.id === event.messageId);
    if (i < 0) return;
    let next;
    if (event.type === "TEXT_MESSAGE_CONTENT") next = { ...messages[i], text: messages[i].text + String(event.delta ?? "") };
    else if (event.type === "TEXT_MESSAGE_END") next = { ...messages[i], streaming: false };
    else return;
    this.#set({ messages: messages.with(i, next) });
  }

  /**
   * The run input's messages: each assistant message carries the calls it made,
   * followed by their answers (the tracker's tool messages, or a streamed result).
   */
  #history(messages) {
    const calls = this.tracker.snapshot().calls.filter((c) => c.status === "complete");
    const answers = new Map(this.tracker.toolMessages().map((m) => [m.toolCallId, m]));
    const known = new Set(messages.map((m) => m.id));
    const out = [];
    const withCalls = (id, content, own) => {
      const message = { id, role: "assistant", content };
      if (own.length > 0) {
        message.toolCalls = own.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.argsText } }));
      }
      out.push(message);
      for (const c of own) {
        const answer = answers.get(c.id) ?? streamedAnswer(c);
        if (answer) out.push(answer);
      }
    };
    for (const m of messages) {
      if (m.role === "user") out.push({ id: m.id, role: "user", content: m.text });
      else withCalls(m.id, m.text, calls.filter((c) => c.parentMessageId === m.id));
    }
    // Calls the agent made outside any text message still belong to the history.
    const orphans = calls.filter((c) => !known.has(c.parentMessageId));
    if (orphans.length > 0) withCalls(newId("calls"), "", orphans);
    return out;
  }

  #set(patch) {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.#listeners]) listener();
  }
}

function streamedAnswer(call) {
  const r = call.result;
  if (!r || r.rejected || r.source === "application") return null;
  return { id: r.messageId, role: "tool", toolCallId: call.id, content: r.content, ...(r.error ? { error: r.error } : {}) };
}

/** The agent's refusal as one line: its error, and the calls it names. */
async function refusal(response) {
  const body = await response.json().catch(() => null);
  const ids = body?.unansweredToolCallIds?.length ? ` Unanswered: ${body.unansweredToolCallIds.join(", ")}.` : "";
  return `The agent refused the run (HTTP ${response.status}): ${body?.error ?? response.statusText}${ids}`;
}
