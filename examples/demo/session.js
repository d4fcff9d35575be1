// One chat thread with the demo agent, without React: it posts runs, feeds the
// streamed bytes to the tracker, which hands every event to a small text
// reducer (the assistant's messages, through `onEvent`) and tracks the tool
// calls; the user's decisions become answers, and `nextRun` builds each run's
// input from the conversation.
// The full entry, whose module loads a saved thread (`ToolCallTracker.restore`).
import { ToolCallStreamError, ToolCallTracker } from "agui-tool-calls/full";
import { keep, kept } from "./persist.js";

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
    // Text events reach the chat through `onEvent`: no second event-stream parser.
    const options = { tools, requireApproval, onEvent: (event) => this.#text(event) };
    this.tracker = this.#reloaded(options) ?? new ToolCallTracker(options);
  }

  /** The thread as it was before the page reloaded, if one was kept and can be restored. */
  #reloaded(options) {
    const thread = kept();
    if (!thread) return null;
    try {
      const tracker = ToolCallTracker.restore(thread.saved, { ...options, messages: thread.history });
      this.#threadId = thread.threadId;
      this.state = { ...this.state, messages: thread.messages };
      return tracker;
    } catch (error) {
      this.state = { ...this.state, error: `The saved thread could not be restored: ${error.message}` };
      return null;
    }
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

  /**
   * The user approves a frontend call: the tool runs (here: says so), then
   * the thread goes on. `always`: later calls to the tool are approved too
   * (a standing approval), and run without asking.
   */
  approve(call, always = false) {
    this.#decide(() => {
      this.tracker.approve(call.id, always ? { remember: "tool" } : undefined);
      this.#execute(call);
    });
  }

  /** The user withdraws the standing approval of a tool: its calls ask again. */
  revoke(tool) {
    this.tracker.revokeApproval(tool);
    this.#keep();
  }

  /** Runs an approved call: the agent reads `approved: true`; the message is for people. */
  #execute(call) {
    const { service, version } = call.args ?? {};
    const who = call.consentFrom ? `by the standing approval given on ${call.consentFrom}` : "by the user";
    this.tracker.answer(call.id, JSON.stringify({ approved: true, message: `Deployment of ${service} ${version} approved ${who}.` }));
  }

  /** Calls a standing approval approved run without asking; then the thread goes on. */
  #runStanding() {
    const approved = this.tracker.snapshot().pendingCalls.filter((c) => c.consentFrom !== undefined);
    if (approved.length > 0) this.#decide(() => approved.forEach((call) => this.#execute(call)));
  }

  #keep() {
    keep(this.#threadId, this.state.messages, this.tracker);
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
    this.#keep();
    // Continue on its own once nothing is left to answer.
    if (this.tracker.snapshot().pendingCalls.length === 0) this.#run(this.state.messages);
  }

  /** Starts a run on `messages`; false, with the reason shown, when it may not start. */
  #run(messages) {
    if (this.state.busy) return false;
    let input;
    try {
      // The conversation as AG-UI messages; nextRun adds every call of the
      // thread and its one answer. Throws, naming them, while a pending call
      // is unanswered.
      input = this.tracker.nextRun({
        threadId: this.#threadId,
        runId: newId("run"),
        messages: messages.map(({ id, role, text }) => ({ id, role, content: text })),
        tools: this.tools,
        context: [],
        state: null,
        forwardedProps: {},
      });
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
      // The stream ended or broke without RUN_FINISHED or RUN_ERROR: the run is over, the thread goes on.
      if (this.tracker.snapshot().run.status === "running") this.tracker.abortRun("the stream ended without a terminal event");
      this.#set({ busy: false });
      this.#keep();
      this.#runStanding();
    }
  }

  async #stream(reader) {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
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

  #set(patch) {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.#listeners]) listener();
  }
}

/** The agent's refusal as one line: its error, and the calls it names. */
async function refusal(response) {
  const body = await response.json().catch(() => null);
  const ids = body?.unansweredToolCallIds?.length ? ` Unanswered: ${body.unansweredToolCallIds.join(", ")}.` : "";
  return `The agent refused the run (HTTP ${response.status}): ${body?.error ?? response.statusText}${ids}`;
}
