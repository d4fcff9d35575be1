// Checked by `tsc --strict` (tests/js/types.test.mjs): the package's types fit
// @ag-ui/core 1.0 and @ag-ui/client's agents.
import type { Interrupt as CoreInterrupt, Message, ResumeEntry as CoreResumeEntry, RunAgentInput, Tool as CoreTool, ToolMessage as CoreToolMessage } from "@ag-ui/core";
import { HttpAgent } from "@ag-ui/client";
import { ToolCallTracker, type AgUiEvent, type SavedThread, type Tool } from "agui-tool-calls";
import { trackAgent, UNTERMINATED } from "agui-tool-calls/ag-ui";

const coreTools: CoreTool[] = [{ name: "confirm_deploy", description: "Ask first", parameters: { type: "object" } }];
// Tools: assignable both ways.
const ours: Tool[] = coreTools;
const back: CoreTool[] = ours;

const seen: AgUiEvent[] = [];
const tracker = new ToolCallTracker({ tools: back, onEvent: (event) => seen.push(event) });
new ToolCallTracker({ tools: [{ name: "no_description" }] });

// toolMessages() is a Message[] of @ag-ui/core.
const messages: Message[] = tracker.toolMessages();
const toolMessage: CoreToolMessage | undefined = tracker.toolMessages()[0];

// nextRun's result is a RunAgentInput of @ag-ui/core, fields passed through.
const input: RunAgentInput = { threadId: "t", runId: "r", messages, tools: coreTools, context: [], state: { step: 1 } };
const next: RunAgentInput = tracker.nextRun(input);
const state: unknown = next.state;
tracker.nextRun({ threadId: "t", runId: "r2", messages: [{ id: "u", role: "user", content: "hi" }] });

// abortRun: the documented status.
const aborted: "aborted" | "idle" | "running" | "finished" | "interrupted" | "cancelled" | "errored" = tracker.abortRun("stop").run.status;
tracker.abortRun();

// Answers take @ag-ui/core content parts.
tracker.answer("c1", [{ type: "text", text: "ok" }, { type: "image", source: { type: "url", value: "https://x/y.png" } }]);

// trackAgent takes any agent of @ag-ui/client.
const agent = new HttpAgent({ url: "http://127.0.0.1:1/agent" });
const unsubscribe: () => void = trackAgent(agent, tracker, { onRefused: (error: Error) => void error.message });
agent.addMessages(tracker.toolMessages());
unsubscribe();
const reason: string = UNTERMINATED;

// Interrupts are @ag-ui/core's; the resume entries are what runAgent takes.
const open: readonly CoreInterrupt[] = tracker.snapshot().interrupts.map((i) => i.interrupt);
const resume: CoreResumeEntry[] = tracker.resumeEntries();
void agent.runAgent({ resume: tracker.resumeEntries() });
const awaiting: string | undefined = tracker.snapshot().calls[0]?.awaitingInterrupt;
tracker.resolveInterrupt("i1", { approved: true }, { editedArgs: { service: "api" } });
tracker.cancelInterrupt("i2");
const withResume: RunAgentInput = tracker.nextRun({ ...input, resume });
// @ts-expect-error editedArgs are an object
tracker.resolveInterrupt("i1", true, { editedArgs: "x" });

// Standing approvals, and a thread saved across a reload.
tracker.approve("c1", { remember: "tool" });
// @ts-expect-error only "tool" is a scope
tracker.approve("c1", { remember: true });
const standing: readonly { readonly tool: string; readonly toolCallId: string }[] = tracker.revokeApproval("confirm").standingApprovals;
const from: string | undefined = tracker.snapshot().calls[0]?.consentFrom;
const saved: SavedThread = tracker.save();
const version: 1 = saved.version;
const reloaded: ToolCallTracker = ToolCallTracker.restore(JSON.stringify(saved), { messages: input.messages });
reloaded.load(saved);
void [standing, from, version];

// A tracker typed by `as const` tools: trackAgent takes it, and the same
// tools, spread into an array, are the `Tool[]` runAgent takes.
const typedTools = [
  { name: "confirm_deploy", description: "Ask first", parameters: { type: "object", required: ["service"] } },
  { name: "get_weather", description: "The weather", parameters: { type: "object" } },
] as const;
const typedTracker = new ToolCallTracker({ tools: typedTools });
trackAgent(agent, typedTracker);
void agent.runAgent({ tools: [...typedTools] });

// @ts-expect-error a content part of an unknown type is not one @ag-ui/core knows
tracker.answer("c1", [{ type: "video-game" }]);
// @ts-expect-error trackAgent needs an agent
trackAgent({}, tracker);
// @ts-expect-error nextRun needs a run input
tracker.nextRun({ messages: [] });

export { ours, toolMessage, state, aborted, reason, seen, open, awaiting, withResume };
