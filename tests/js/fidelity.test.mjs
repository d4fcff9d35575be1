// Rule F10: what a tool call or an assistant message carries for its
// producer alone (`encryptedValue`, `encryptedValueType`, `metadata`) is
// kept as the stream delivered it and given back in the next history, by
// `nextRun`, after `restore`, and through the `@ag-ui/client` adapter;
// against @ag-ui/client 1.0.0's own message building on the same events.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { HttpAgent } from "@ag-ui/client";
import { ToolCallTracker } from "../../pkg/index.js";
import { trackAgent } from "../../pkg/ag-ui.js";
import { runStarted, runFinished, start, args, end, sse } from "./support/events.mjs";
import { startScriptedAgent } from "./support/scripted-agent.mjs";
import { checkHistory } from "./support/history-check.mjs";

const encrypted = (subtype, entityId, encryptedValue, extra = {}) => ({ type: "REASONING_ENCRYPTED_VALUE", subtype, entityId, encryptedValue, ...extra });
const withMetadata = (event, metadata) => ({ ...event, metadata });

/**
 * One run: an assistant message a1 (text, metadata on its events) holding
 * call c1 to the frontend tool `deploy` (metadata on each of its events,
 * an encrypted value with its type), an encrypted value for a1, and a
 * parentless backend call c2, answered in the stream, whose encrypted
 * value comes first with a type, then is replaced by one without.
 */
const DEPLOY = { name: "deploy", description: "Deploy a service" };
const RUN = (runId, threadId = "t1") => [
  runStarted(runId, { threadId }),
  withMetadata({ type: "TEXT_MESSAGE_START", messageId: "a1", role: "assistant" }, { model: "m1" }),
  withMetadata({ type: "TEXT_MESSAGE_CONTENT", messageId: "a1", delta: "Deploying." }, { model: "m2", tokens: 3 }),
  { type: "TEXT_MESSAGE_END", messageId: "a1" },
  withMetadata(start("c1", "deploy", { parentMessageId: "a1" }), { provider: "p", step: 1 }),
  withMetadata(args("c1", '{"service":"checkout"}'), { step: 2, trace: ["x"] }),
  withMetadata(end("c1"), { finish: "tool_calls" }),
  encrypted("tool-call", "c1", "sig-c1", { encryptedValueType: "anthropic.signature" }),
  encrypted("message", "a1", "blob-a1"),
  start("c2", "search"),
  end("c2"),
  { type: "TOOL_CALL_RESULT", messageId: "r-c2", toolCallId: "c2", content: "found" },
  encrypted("tool-call", "c2", "old", { encryptedValueType: "t.old" }),
  encrypted("tool-call", "c2", "sig-c2"),
  runFinished(runId, { threadId }),
];

const C1 = { encryptedValue: "sig-c1", encryptedValueType: "anthropic.signature", metadata: { provider: "p", step: 2, trace: ["x"], finish: "tool_calls" } };
const C2 = { encryptedValue: "sig-c2" };
const A1 = { encryptedValue: "blob-a1", metadata: { model: "m2", tokens: 3 } };
const kept = ({ encryptedValue, encryptedValueType, metadata }) =>
  Object.fromEntries(Object.entries({ encryptedValue, encryptedValueType, metadata }).filter(([, v]) => v !== undefined));
const user = (id) => ({ id, role: "user", content: `message ${id}` });

function answered() {
  const tracker = new ToolCallTracker({ tools: [DEPLOY] });
  for (const e of RUN("r1")) tracker.push(e);
  tracker.answer("c1", "deployed");
  return tracker;
}

test("f10_the_snapshots_calls_show_what_the_stream_delivered_for_them", () => {
  const tracker = answered();
  const [c1, c2] = tracker.snapshot().calls;
  // Metadata merged key by key, last write winning; the value with its
  // type, a new value replacing both.
  assert.deepEqual(kept(c1), C1);
  assert.deepEqual(kept(c2), C2);
  assert.ok(Object.isFrozen(c1.metadata) && Object.isFrozen(c1.metadata.trace));
  assert.deepEqual(tracker.snapshot().violations.map((v) => v.code), []);
  // Carried by copies, as every other field.
  assert.deepEqual(kept(JSON.parse(JSON.stringify(c1))), C1);
  tracker.free();
});

test("f10_next_run_gives_back_each_calls_and_assistant_messages_as_delivered", () => {
  const tracker = answered();
  const next = tracker.nextRun({ threadId: "t1", runId: "r2", messages: [user("u1")] });
  checkHistory(next.messages, { calls: ["c1", "c2"], users: ["u1"] });
  const [, a1, , made, ,] = next.messages;
  // The assistant messages the tracker made up, and the calls in them.
  assert.deepEqual([a1.id, made.id], ["a1", "c2:assistant"]);
  assert.deepEqual(kept(a1), A1);
  assert.deepEqual(kept(a1.toolCalls[0]), C1);
  assert.deepEqual(kept(made), {});
  assert.deepEqual(kept(made.toolCalls[0]), C2);
  // Fed its own output, it adds nothing.
  assert.deepEqual(tracker.nextRun({ ...next, runId: "r3" }).messages, next.messages);
  tracker.free();
});

test("f10_an_input_holding_them_keeps_its_own_and_gets_what_it_lacks", () => {
  const tracker = answered();
  const call = (id, extra = {}) => ({ id, type: "function", function: { name: id === "c1" ? "deploy" : "search", arguments: id === "c1" ? '{"service":"checkout"}' : "" }, ...extra });
  const history = [
    user("u1"),
    // As a 1.0 client builds it: the value without its type, and metadata.
    { id: "a1", role: "assistant", content: "Deploying.", toolCalls: [call("c1", { encryptedValue: "sig-c1", metadata: { mine: true } })] },
    { id: "t1", role: "tool", toolCallId: "c1", content: "deployed" },
    // An application that kept none of it; and one with its own value.
    { id: "a2", role: "assistant", toolCalls: [call("c2", { encryptedValue: "other" })] },
    { id: "t2", role: "tool", toolCallId: "c2", content: "found" },
  ];
  const next = tracker.nextRun({ threadId: "t1", runId: "r2", messages: history });
  const [, a1, , a2] = next.messages;
  // The input's own win; what it lacks is added: the type of the same
  // value, the message's artefact; never a type for another value.
  assert.deepEqual(kept(a1.toolCalls[0]), { encryptedValue: "sig-c1", encryptedValueType: "anthropic.signature", metadata: { mine: true } });
  assert.equal(a1.content, "Deploying.");
  assert.deepEqual(kept(a1), A1);
  assert.deepEqual(kept(a2.toolCalls[0]), { encryptedValue: "other" });
  assert.deepEqual(kept(a2), {});
  tracker.free();
});

test("f10_a_restored_thread_gives_them_back_too", () => {
  const saved = [
    user("u1"),
    {
      id: "a1",
      role: "assistant",
      encryptedValue: "blob-a1",
      metadata: { model: "m2" },
      toolCalls: [{ id: "c1", type: "function", function: { name: "deploy", arguments: "{}" }, encryptedValue: "sig", encryptedValueType: "t", metadata: { k: 1 } }],
    },
    { id: "t1", role: "tool", toolCallId: "c1", content: "deployed" },
  ];
  const tracker = new ToolCallTracker();
  tracker.restore({ messages: saved });
  assert.deepEqual(kept(tracker.snapshot().calls[0]), { encryptedValue: "sig", encryptedValueType: "t", metadata: { k: 1 } });
  // The application sends only the new user message: the history the
  // tracker rebuilds keeps them.
  const next = tracker.nextRun({ threadId: "t1", runId: "r2", messages: [user("u2")] });
  const a1 = next.messages.find((m) => m.id === "a1");
  assert.deepEqual(kept(a1), { encryptedValue: "blob-a1", metadata: { model: "m2" } });
  assert.deepEqual(kept(a1.toolCalls[0]), { encryptedValue: "sig", encryptedValueType: "t", metadata: { k: 1 } });
  tracker.free();
});

test("f10_on_event_hands_over_the_encrypted_value_with_its_type", () => {
  const handed = [];
  const tracker = new ToolCallTracker({ onEvent: (e) => handed.push(e) });
  for (const e of RUN("r1")) tracker.push(e);
  assert.deepEqual(handed[7], RUN("r1")[7]);
  assert.equal(handed[7].encryptedValueType, "anthropic.signature");
  tracker.free();
});

// The reference: @ag-ui/client 1.0.0 builds its history from the same
// events (`defaultApplyEvents`), and the tracker's agrees with it.
let agentServer;
before(async () => {
  agentServer = await startScriptedAgent();
});
after(() => agentServer.close());

test("f10_the_tracker_keeps_what_the_1_0_client_keeps_and_the_adapter_sends_it", async () => {
  // The client alone, on the stream as sent.
  const reference = new HttpAgent({ url: "http://reference.invalid/", threadId: "t-ref", fetch: async () => new Response(sse(RUN("r1", "t-ref")), { headers: { "content-type": "text/event-stream" } }) });
  const warn = console.warn;
  console.warn = () => {};
  try {
    await reference.runAgent({});
  } finally {
    console.warn = warn;
  }
  const theirs = reference.messages;
  const theirCall = (id) => theirs.flatMap((m) => m.toolCalls ?? []).find((c) => c.id === id);
  // The tracker on the same stream, pushed directly: the same values, and
  // the 1.1 type the 1.0 client strips.
  const tracker = answered();
  const mine = tracker.snapshot().calls;
  for (const c of mine) assert.deepEqual({ ...kept(c), encryptedValueType: undefined }, { ...kept(theirCall(c.id)), encryptedValueType: undefined }, c.id);
  assert.equal(theirCall("c1").encryptedValueType, undefined, "the 1.0 client drops the type");
  const next = tracker.nextRun({ threadId: "t1", runId: "r2", messages: [user("u1")] });
  const theirA1 = theirs.find((m) => m.id === "a1");
  assert.deepEqual(kept(next.messages[1]), kept(theirA1));
  tracker.free();

  // Through trackAgent, the events the client lets through reach the
  // tracker: it keeps what the client keeps, and the next request
  // carries it as delivered.
  const agent = new HttpAgent({ url: agentServer.url, threadId: "t-adapter" });
  const tracked = new ToolCallTracker({ tools: [DEPLOY] });
  trackAgent(agent, tracked);
  agentServer.inputs.length = 0;
  agentServer.script.push(
    (i) => RUN(i.runId, "t-adapter"),
    (i) => [runStarted(i.runId, { threadId: "t-adapter" }), runFinished(i.runId, { threadId: "t-adapter" })],
  );
  agent.addMessages([user("u1")]);
  console.warn = () => {};
  try {
    await agent.runAgent({ tools: [DEPLOY] });
  } finally {
    console.warn = warn;
  }
  for (const c of tracked.snapshot().calls) assert.deepEqual(kept(c), kept(theirCall(c.id)), c.id);
  tracked.answer("c1", "deployed");
  agent.addMessages(tracked.toolMessages());
  agent.addMessages([user("u2")]);
  await agent.runAgent({ tools: [DEPLOY] });
  const sent = agentServer.inputs[1].messages;
  const sentCall = (id) => sent.flatMap((m) => m.toolCalls ?? []).find((c) => c.id === id);
  assert.deepEqual(kept(sentCall("c1")), kept(theirCall("c1")));
  assert.deepEqual(kept(sentCall("c2")), C2);
  assert.deepEqual(kept(sent.find((m) => m.id === "a1")), A1);
  assert.equal(tracked.snapshot().fatal, null);
});

test("s5_metadata_and_content_nested_deeper_than_the_stack_reach_the_snapshot_frozen", () => {
  // Opaque values are frozen by a loop: no nesting a 4 MiB event allows
  // overflows the stack (a recursive freeze did, from about 10,000 levels).
  const depth = 200_000;
  const deep = `${"[".repeat(depth)}${"]".repeat(depth)}`;
  const tracker = new ToolCallTracker();
  tracker.push(runStarted("r1"));
  tracker.pushJson(`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","metadata":{"deep":${deep}}}`);
  tracker.pushJson(`{"type":"TOOL_CALL_END","toolCallId":"c1"}`);
  tracker.pushJson(`{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":[{"type":"text","text":"x","metadata":${deep}}]}`);
  const [call] = tracker.snapshot().calls;
  let level = call.metadata.deep;
  for (let k = 1; k < depth; k++) level = level[0];
  assert.deepEqual(level, []);
  assert.ok(Object.isFrozen(level));
  assert.ok(Object.isFrozen(call.result.content[0].metadata));
  tracker.free();
});
