// The demo agent server over real HTTP: the frontend-tool round trip and its refusals.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { EventSchema } from "@ag-ui/core/schemas";
import { startAgentServer } from "../../examples/agent-server.mjs";
import { CONFIRM_DEPLOY_TOOL } from "../../examples/confirm-deploy.mjs";
import { SERVICE_STATUS } from "../../examples/scenarios.mjs";

const TOOLS = [CONFIRM_DEPLOY_TOOL];

let server;
before(async () => {
  server = await startAgentServer({ port: 0, pace: 0 });
});
after(async () => {
  await server?.close();
});

let counter = 0;
const fresh = (prefix) => `${prefix}_${++counter}`;
const userMessage = (content) => ({ id: fresh("msg_user"), role: "user", content });

function runInput(threadId, messages, tools = TOOLS) {
  return { threadId, runId: fresh("run"), messages, tools, context: [], state: {}, forwardedProps: {} };
}

function decodeSse(text) {
  return text
    .split("\n\n")
    .filter((frame) => frame.startsWith("data: "))
    .map((frame) => JSON.parse(frame.slice(6)));
}

async function post(input, headers = {}) {
  const response = await fetch(server.endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: typeof input === "string" ? input : JSON.stringify(input),
  });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  return { response, events: type.startsWith("text/event-stream") ? decodeSse(text) : null, body: type.startsWith("application/json") ? JSON.parse(text) : text };
}

// The keywords the advertised schema uses, checked by hand.
function schemaErrors(value, schema) {
  const errors = [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return ["not an object"];
  for (const key of schema.required) if (!(key in value)) errors.push(`missing ${key}`);
  for (const [key, v] of Object.entries(value)) {
    const s = schema.properties[key];
    if (!s) {
      errors.push(`unexpected ${key}`);
      continue;
    }
    if (s.type === "string" && typeof v !== "string") errors.push(`${key} not a string`);
    if (s.type === "integer" && !Number.isInteger(v)) errors.push(`${key} not an integer`);
    if (s.pattern && !new RegExp(s.pattern, "u").test(v)) errors.push(`${key} does not match`);
    if (s.minimum !== undefined && v < s.minimum) errors.push(`${key} too small`);
    if (s.maximum !== undefined && v > s.maximum) errors.push(`${key} too large`);
  }
  return errors;
}

// The assistant turn of a run, as the application would put it into history.
function assistantTurn(events) {
  const start = events.find((e) => e.type === "TEXT_MESSAGE_START");
  const content = events.filter((e) => e.type === "TEXT_MESSAGE_CONTENT" && e.messageId === start.messageId).map((e) => e.delta).join("");
  const toolCalls = events
    .filter((e) => e.type === "TOOL_CALL_START")
    .map((s) => ({
      id: s.toolCallId,
      type: "function",
      function: {
        name: s.toolCallName,
        arguments: events.filter((e) => e.type === "TOOL_CALL_ARGS" && e.toolCallId === s.toolCallId).map((e) => e.delta).join(""),
      },
    }));
  return { id: start.messageId, role: "assistant", content, ...(toolCalls.length ? { toolCalls } : {}) };
}

const replyText = (events) => events.filter((e) => e.type === "TEXT_MESSAGE_CONTENT").map((e) => e.delta).join("");

async function firstRun(threadId) {
  const user = userMessage("Ship checkout-api v2.14.0");
  const { response, events } = await post(runInput(threadId, [user]));
  assert.equal(response.status, 200);
  const call = events.find((e) => e.type === "TOOL_CALL_START");
  return { user, events, callId: call.toolCallId, assistant: assistantTurn(events) };
}

test("GET / describes the agent in plain text", async () => {
  const response = await fetch(server.url);
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type"), /^text\/plain/);
  assert.match(await response.text(), /POST \/agent/);
});

test("run 1 streams text, then a confirm_deploy call in small deltas, and finishes with it unanswered", async () => {
  const threadId = fresh("thread");
  const input = runInput(threadId, [userMessage("Ship it")]);
  const { response, events } = await post(input);
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type"), /^text\/event-stream/);
  for (const event of events) assert.ok(EventSchema.safeParse(event).success, `${event.type} has the @ag-ui/core shape`);

  const types = events.map((e) => e.type);
  assert.equal(types[0], "RUN_STARTED");
  assert.equal(types.at(-1), "RUN_FINISHED");
  assert.equal(events[0].threadId, threadId);
  assert.equal(events[0].runId, input.runId);
  assert.deepEqual(events[0].input.tools, TOOLS, "RUN_STARTED echoes the advertised tools");
  assert.ok(types.indexOf("TEXT_MESSAGE_END") < types.indexOf("TOOL_CALL_START"), "text comes before the call");
  assert.ok(!types.includes("TOOL_CALL_RESULT"), "a frontend call is never answered by the agent");
  assert.ok(events.every((e) => Number.isInteger(e.timestamp)));

  const start = events.find((e) => e.type === "TOOL_CALL_START");
  assert.equal(start.toolCallName, "confirm_deploy");
  assert.equal(start.parentMessageId, events.find((e) => e.type === "TEXT_MESSAGE_START").messageId);
  const deltas = events.filter((e) => e.type === "TOOL_CALL_ARGS").map((e) => e.delta);
  assert.ok(deltas.length >= 6, "many deltas");
  assert.ok(deltas.slice(0, -1).every((d) => d.length >= 4 && d.length <= 12), "deltas of 4-12 characters");
  assert.ok(types.lastIndexOf("TOOL_CALL_ARGS") < types.indexOf("TOOL_CALL_END"));

  const args = JSON.parse(deltas.join(""));
  assert.deepEqual(schemaErrors(args, CONFIRM_DEPLOY_TOOL.parameters), []);
  assert.ok(args.notes.includes("<img src=x onerror=alert(1)>"));
  assert.deepEqual(events.at(-1).outcome, { type: "success", pendingToolCallIds: [start.toolCallId] });
});

test("run 2 whose history leaves the call unanswered is refused with 400 naming it", async () => {
  const threadId = fresh("thread");
  const run1 = await firstRun(threadId);
  const { response, body } = await post(runInput(threadId, [run1.user, run1.assistant, userMessage("go on")]));
  assert.equal(response.status, 400);
  assert.equal(typeof body.error, "string");
  assert.deepEqual(body.unansweredToolCallIds, [run1.callId]);
});

test("run 2 whose history omits the pending call entirely is refused the same way", async () => {
  const threadId = fresh("thread");
  const run1 = await firstRun(threadId);
  const { response, body } = await post(runInput(threadId, [run1.user, userMessage("never mind, just say hi")]));
  assert.equal(response.status, 400);
  assert.deepEqual(body.unansweredToolCallIds, [run1.callId]);
});

test("an approved answer gets a deploying reply, and the thread has nothing pending", async () => {
  const threadId = fresh("thread");
  const run1 = await firstRun(threadId);
  const answer = { id: fresh("msg_tool"), role: "tool", toolCallId: run1.callId, content: '{"approved":true}' };
  const history = [run1.user, run1.assistant, answer];
  const { response, events } = await post(runInput(threadId, history));
  assert.equal(response.status, 200);
  assert.equal(events[0].type, "RUN_STARTED");
  assert.equal(events.at(-1).type, "RUN_FINISHED");
  assert.deepEqual(events.at(-1).outcome, { type: "success" });
  assert.ok(!events.some((e) => e.type.startsWith("TOOL_CALL_")));
  assert.match(replyText(events), /^Deploying checkout-api v2\.14\.0…/);

  // Nothing pending: the thread continues, and a new request starts a new proposal.
  const run2 = assistantTurn(events);
  const next = await post(runInput(threadId, [...history, run2, userMessage("and again")]));
  assert.equal(next.response.status, 200);
  const nextCall = next.events.find((e) => e.type === "TOOL_CALL_START");
  assert.notEqual(nextCall.toolCallId, run1.callId);
});

test("a declined or failed answer gets a reply that does not deploy", async () => {
  for (const answer of [
    { content: '{"approved":false,"reason":"not during business hours"}' },
    { content: "declined by the user" },
    { content: "", error: "confirmation dialog crashed" },
    { content: [{ type: "text", text: '{"approved":false}' }] },
  ]) {
    const threadId = fresh("thread");
    const run1 = await firstRun(threadId);
    const tool = { id: fresh("msg_tool"), role: "tool", toolCallId: run1.callId, ...answer };
    const { response, events } = await post(runInput(threadId, [run1.user, run1.assistant, tool]));
    assert.equal(response.status, 200, JSON.stringify(answer));
    assert.match(replyText(events), /^Understood, not deploying\./, JSON.stringify(answer));
    assert.equal(events.at(-1).type, "RUN_FINISHED");
  }
});

test("without confirm_deploy advertised the agent calls no tool", async () => {
  const { response, events } = await post(runInput(fresh("thread"), [userMessage("Ship it")], []));
  assert.equal(response.status, 200);
  assert.ok(!events.some((e) => e.type.startsWith("TOOL_CALL_")));
  assert.deepEqual(events.at(-1).outcome, { type: "success" });
});

test("asked for the status, the agent calls its own tool and streams the result; the next run carries it", async () => {
  const threadId = fresh("thread");
  const user = userMessage("What is the status of checkout-api?");
  const { response, events } = await post(runInput(threadId, [user]));
  assert.equal(response.status, 200);
  const start = events.find((e) => e.type === "TOOL_CALL_START");
  assert.equal(start.toolCallName, "check_status");
  const result = events.find((e) => e.type === "TOOL_CALL_RESULT");
  assert.equal(result.toolCallId, start.toolCallId);
  assert.deepEqual(JSON.parse(result.content), SERVICE_STATUS);
  assert.ok(replyText(events).includes(`${SERVICE_STATUS.service} is healthy`));
  assert.equal(events.at(-1).outcome.pendingToolCallIds, undefined, "nothing left for the page");
  // The history with the call and its streamed result goes on; without the result it is refused.
  const call = { id: start.parentMessageId, role: "assistant", content: "", toolCalls: assistantTurn(events).toolCalls };
  const answer = { id: result.messageId, role: "tool", toolCallId: result.toolCallId, content: result.content };
  const next = await post(runInput(threadId, [user, call, answer, userMessage("Thanks")]));
  assert.equal(next.response.status, 200);
  const refused = await post(runInput(threadId, [user, call, userMessage("Thanks")]));
  assert.equal(refused.response.status, 400);
});

test("malformed input is refused with 400", async () => {
  for (const body of ["not json", "[]", JSON.stringify({ threadId: "t", runId: "r" }), JSON.stringify({ threadId: "", runId: "r", messages: [] })]) {
    const { response, body: answer } = await post(body);
    assert.equal(response.status, 400, body);
    assert.equal(typeof answer.error, "string");
  }
});

test("CORS allows loopback pages on any port, including the preflight, and nothing else", async () => {
  const origin = "http://127.0.0.1:5173";
  const preflight = await fetch(server.endpoint, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), origin);
  assert.match(preflight.headers.get("access-control-allow-methods"), /POST/);
  assert.match(preflight.headers.get("access-control-allow-headers"), /content-type/);

  const { response } = await post(runInput(fresh("thread"), [userMessage("hi")]), { origin });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("access-control-allow-origin"), origin);

  for (const other of ["http://evil.example", "http://127.0.0.1.evil.example:80", "https://127.0.0.1:5173"]) {
    const refused = await fetch(server.endpoint, { method: "OPTIONS", headers: { origin: other, "access-control-request-method": "POST" } });
    assert.equal(refused.status, 403, other);
    assert.equal(refused.headers.get("access-control-allow-origin"), null);
    const post403 = await post(runInput(fresh("thread"), [userMessage("hi")]), { origin: other });
    assert.equal(post403.response.status, 403, other);
  }
});

test("the server closes cleanly, even with a paced stream in flight", async () => {
  const slow = await startAgentServer({ port: 0, pace: 200 });
  const threadId = fresh("thread");
  const start = () =>
    fetch(slow.endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(runInput(threadId, [userMessage("Ship it")])),
    });
  const response = await start();
  assert.equal(response.status, 200);
  const reader = response.body.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.match(first, /^data: \{"type":"RUN_STARTED"/);
  const concurrent = await start();
  assert.equal(concurrent.status, 409, "one run per thread at a time");
  await concurrent.body.cancel();
  await slow.close();
  await assert.rejects(reader.read().then((r) => (r.done ? Promise.reject(new Error("ended")) : r)));
  await assert.rejects(fetch(slow.url));
});
