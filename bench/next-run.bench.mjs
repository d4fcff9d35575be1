// Cost of `nextRun` (history completion + declaring the run) on threads of
// 10, 100 and 1000 turns, each a user message, an assistant text message and
// an answered frontend call: the input is the app's history (user and
// assistant text, 2 messages a turn), the output 3 a turn (the assistant
// message gets its call, then the answer). The cost per message should stay
// flat as the thread grows. Then a history holding many tool messages for
// one call (a MESSAGES_SNAPSHOT can deliver one): the cost per input message
// should stay flat too (`NEXT_RUN_MAX` caps the sizes tried, for timing a
// slower build). `npm run bench:next-run`.
import { ToolCallTracker } from "../pkg/index.js";
import { nsPerOp, warmUp } from "./support.mjs";

warmUp(ToolCallTracker);

const tools = [{ name: "confirm", description: "Ask", parameters: { type: "object" } }];

/** A tracker that has seen `turns` turns, and the app's history of them. */
function thread(turns) {
  const tracker = new ToolCallTracker({ tools });
  const history = [];
  for (let t = 0; t < turns; t++) {
    history.push({ id: `u${t}`, role: "user", content: `turn ${t}` });
    tracker.nextRun({ threadId: "t", runId: `r${t}`, messages: history });
    const runId = `r${t}`;
    for (const e of [
      { type: "RUN_STARTED", threadId: "t", runId },
      { type: "TEXT_MESSAGE_START", messageId: `a${t}`, role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: `a${t}`, delta: "Shall I?" },
      { type: "TEXT_MESSAGE_END", messageId: `a${t}` },
      { type: "TOOL_CALL_START", toolCallId: `c${t}`, toolCallName: "confirm", parentMessageId: `a${t}` },
      { type: "TOOL_CALL_ARGS", toolCallId: `c${t}`, delta: '{"service":"checkout","replicas":3}' },
      { type: "TOOL_CALL_END", toolCallId: `c${t}` },
      { type: "RUN_FINISHED", threadId: "t", runId },
    ]) {
      tracker.push(e);
    }
    tracker.answer(`c${t}`, "approved");
    history.push({ id: `a${t}`, role: "assistant", content: "Shall I?" });
  }
  return { tracker, input: { threadId: "t", runId: "next", messages: history, tools, context: [], state: {}, forwardedProps: {} } };
}

console.log("nextRun, best of 3 (setup outside the timing)");
for (const turns of [10, 100, 1000]) {
  const { tracker, input } = thread(turns);
  const count = Math.max(20, Math.round(20_000 / turns));
  const ns = nsPerOp(count, () => tracker.nextRun(input));
  const out = tracker.nextRun(input).messages.length;
  console.log(
    `${String(turns).padStart(5)} turns: ${(ns / 1000).toFixed(1).padStart(8)} us per nextRun, ` +
      `${(ns / out).toFixed(0).padStart(5)} ns per output message (${input.messages.length} in, ${out} out)`,
  );
  tracker.free();
}

/** A tracker with one answered call, and an input holding `count` tool messages for it. */
function manyAnswers(count) {
  const tracker = new ToolCallTracker({ tools });
  for (const e of [
    { type: "RUN_STARTED", threadId: "t", runId: "r1" },
    { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "confirm", parentMessageId: "a1" },
    { type: "TOOL_CALL_END", toolCallId: "c1" },
    { type: "RUN_FINISHED", threadId: "t", runId: "r1" },
  ]) {
    tracker.push(e);
  }
  tracker.answer("c1", "approved");
  const messages = [
    { id: "u1", role: "user", content: "deploy" },
    { id: "a1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "confirm", arguments: "" } }] },
  ];
  for (let k = 0; k < count; k++) messages.push({ id: `m${k}`, role: "tool", toolCallId: "c1", content: `answer ${k}` });
  return { tracker, input: { threadId: "t", runId: "next", messages, tools, context: [], state: {}, forwardedProps: {} } };
}

const most = Number(process.env.NEXT_RUN_MAX ?? Infinity);
console.log("nextRun, one call with many tool messages in the input (best of 3, one run each)");
for (const count of [1_000, 10_000, 30_000, 100_000].filter((c) => c <= most)) {
  let best = Infinity;
  for (let r = 0; r < 3; r++) {
    const { tracker, input } = manyAnswers(count);
    const t0 = performance.now();
    tracker.nextRun(input);
    best = Math.min(best, performance.now() - t0);
    tracker.free();
  }
  console.log(`${String(count).padStart(7)} tool messages: ${best.toFixed(1).padStart(9)} ms per nextRun, ${((best * 1e6) / count).toFixed(0).padStart(6)} ns per input message`);
}
