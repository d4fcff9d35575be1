// A loopback AG-UI agent as strict as the models behind real ones: an input
// whose history holds a dangling call (an assistant tool call not followed
// at once by its tool message, or a tool message without its call just
// before), or that leaves an interrupt of the agent's last run uncovered by
// its `resume` list, is answered with HTTP 400 and recorded. A call an
// interrupt asks approval of, covered by the input's resume entry, is
// answered by that entry, not by a tool message. Each accepted POST gets
// the next scripted reply. The checks are a list, so that a test can add
// its own.
import { createServer } from "node:http";
import { sse } from "./events.mjs";

/** The calls whose approval an open interrupt asks, and the input resumes: no tool message answers them. */
const resumed = (input, open) => {
  const covered = new Set((input?.resume ?? []).map((e) => e.interruptId));
  return new Set(open.filter((i) => i.toolCallId !== undefined && covered.has(i.id)).map((i) => i.toolCallId));
};

/** What is wrong with a history, or null: the dangling-call rule. `open`: the interrupts the agent's last run ended with. */
export function danglingCall(messages, input, { open = [] } = {}) {
  const approvals = resumed(input, open);
  for (let k = 0; k < messages.length; ) {
    const m = messages[k++];
    if (m.role === "tool") return `tool message ${m.id} (call ${m.toolCallId}) without its call just before`;
    if (m.role !== "assistant") continue;
    for (const call of m.toolCalls ?? []) {
      if (approvals.has(call.id) && messages[k]?.toolCallId !== call.id) continue;
      const answer = messages[k++];
      if (answer?.role !== "tool" || answer.toolCallId !== call.id) return `call ${call.id} of ${m.id} is not followed at once by its tool message`;
    }
  }
  return null;
}

/** What is wrong with an input, or null: every interrupt of the agent's last run covered by a resume entry. */
export function uncoveredInterrupt(_messages, input, { open = [] } = {}) {
  const covered = new Set((input.resume ?? []).map((e) => e.interruptId));
  const left = open.filter((i) => !covered.has(i.id)).map((i) => i.id);
  return left.length > 0 ? `interrupt ${left.join(", ")} left uncovered` : null;
}

/**
 * Starts the agent on 127.0.0.1. `script`: replies, taken in order, each
 * `(input) => ({ events, open? })` (`open` leaves the response unterminated,
 * for a stop button to close). Each check is `(messages, input, { open })`,
 * `open` the interrupts the agent's last accepted run ended with. Returns
 * `{ url, inputs, rejected, script, checks, close }`.
 */
export async function startStrictAgent({ checks = [danglingCall, uncoveredInterrupt] } = {}) {
  const inputs = [];
  const rejected = [];
  const script = [];
  // What the agent's last run left open: its interrupts.
  const state = { open: [] };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const input = JSON.parse(body);
      const problem = checks.map((check) => check(input.messages, input, state)).find((p) => p);
      if (problem) {
        rejected.push({ input, problem });
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: problem }));
        return;
      }
      inputs.push(input);
      const reply = script.shift();
      if (!reply) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "no reply scripted" }));
        return;
      }
      const { events, open } = reply(input);
      const finished = events.findLast((e) => e.type === "RUN_FINISHED");
      state.open = finished?.outcome?.type === "interrupt" ? finished.outcome.interrupts : [];
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(sse(events));
      if (!open) res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/agent`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url, inputs, rejected, script, checks, close };
}
