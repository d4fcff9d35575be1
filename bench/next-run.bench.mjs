// Cost of `nextRun` (history completion + declaring the run) on threads of
// 10, 100 and 1000 turns, each a user message, an assistant text message and
// an answered frontend call: the input is the app's history (user and
// assistant text, 2 messages a turn), the output 3 a turn (the assistant
// message gets its call, then the answer). The cost per message should stay
// flat as the thread grows. `npm run bench:next-run`.
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
