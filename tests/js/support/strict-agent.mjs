// A loopback AG-UI agent as strict as the models behind real ones: an input
// whose history holds a dangling call (an assistant tool call not followed
// at once by its tool message, or a tool message without its call just
// before) is answered with HTTP 400 and recorded. Each accepted POST gets
// the next scripted reply. The checks are a list, so that other turn kinds
// (interrupts and their resume, cancelled runs) can add theirs.
import { createServer } from "node:http";
import { sse } from "./events.mjs";

/** What is wrong with a history, or null: the dangling-call rule. */
export function danglingCall(messages) {
  for (let k = 0; k < messages.length; ) {
    const m = messages[k++];
    if (m.role === "tool") return `tool message ${m.id} (call ${m.toolCallId}) without its call just before`;
    if (m.role !== "assistant") continue;
    for (const call of m.toolCalls ?? []) {
      const answer = messages[k++];
      if (answer?.role !== "tool" || answer.toolCallId !== call.id) return `call ${call.id} of ${m.id} is not followed at once by its tool message`;
    }
  }
  return null;
}

/**
 * Starts the agent on 127.0.0.1. `script`: replies, taken in order, each
 * `(input) => ({ events, open? })` (`open` leaves the response unterminated,
 * for a stop button to close). Returns `{ url, inputs, rejected, script,
 * checks, close }`.
 */
export async function startStrictAgent({ checks = [danglingCall] } = {}) {
  const inputs = [];
  const rejected = [];
  const script = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const input = JSON.parse(body);
      const problem = checks.map((check) => check(input.messages, input)).find((p) => p);
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
