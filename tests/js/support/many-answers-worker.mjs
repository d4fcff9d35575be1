// Runs `nextRun` on a history holding `workerData.count` tool messages for
// one call, off the test's thread, so that the test can stop it when it
// takes too long (a synchronous call cannot be timed out on its own thread).
import { parentPort, workerData } from "node:worker_threads";
import { ToolCallTracker } from "../../../pkg/index.js";

const tools = [{ name: "confirm_deploy", description: "Ask the user", parameters: { type: "object" } }];
const tracker = new ToolCallTracker({ tools });
for (const e of [
  { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
  { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "confirm_deploy" },
  { type: "TOOL_CALL_END", toolCallId: "c1" },
  { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
]) {
  tracker.push(e);
}
tracker.answer("c1", "approved");
const a1 = { id: "a1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "confirm_deploy", arguments: "{}" } }] };
const messages = [{ id: "u1", role: "user", content: "deploy" }, a1];
for (let k = 0; k < workerData.count; k++) messages.push({ id: `m${k}`, role: "tool", toolCallId: "c1", content: `answer ${k}` });
const next = tracker.nextRun({ threadId: "t1", runId: "r2", messages, tools });
parentPort.postMessage(next.messages);
