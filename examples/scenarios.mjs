// The scripted agent behind the demo server: given a thread's memory and a
// RunAgentInput, decide whether the run may start and which events it streams.
// Pure data in, data out; the HTTP side lives in agent-server.mjs.
import { randomUUID } from "node:crypto";
import { CONFIRM_DEPLOY_PARAMETERS } from "./confirm-deploy.mjs";

export const CONFIRM_DEPLOY = "confirm_deploy";

/** A tool of the agent's own (a backend call): it runs it and streams the result. */
export const CHECK_STATUS = "check_status";

/** A tool of the agent's own that starts a subagent, whose frontend call the page answers. */
export const INVESTIGATE = "investigate";

/** The subagent `investigate` starts. */
export const INVESTIGATOR = "investigator";

/** What `check_status` reports. */
export const SERVICE_STATUS = Object.freeze({ service: "checkout-api", version: "v2.13.2", ready: "3/3", healthy: true });

/** The parameters schema the demo page advertises for `confirm_deploy`. */
export { CONFIRM_DEPLOY_PARAMETERS };

/** The deployment the scripted agent proposes. `notes` carries markup on purpose: a page must show it as text. */
export const PROPOSED_DEPLOY = Object.freeze({
  service: "checkout-api",
  version: "v2.14.0",
  replicas: 3,
  notes: 'Canary passed. Changelog: <img src=x onerror=alert(1)> "quoted" \\ ok',
});

// Delta sizes cycle through this list so argument text arrives in 4-12 character pieces.
const DELTA_SIZES = [5, 9, 4, 12, 7, 10, 6, 8, 11];

/** Splits `text` into small pieces, the way a model streams its output. */
export function splitIntoDeltas(text, sizes = DELTA_SIZES) {
  const deltas = [];
  for (let at = 0, i = 0; at < text.length; i += 1) {
    const size = sizes[i % sizes.length];
    deltas.push(text.slice(at, at + size));
    at += size;
  }
  return deltas;
}

/** What the server remembers of one thread between runs. */
export function newThreadMemory() {
  // toolCallId -> the arguments the call was made with, for calls not yet answered.
  return { pending: new Map() };
}

/**
 * Checks a RunAgentInput's required fields. Returns an error message, or null.
 * Lenient where the demo does not care (context, state, forwardedProps).
 */
export function inputProblem(input) {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return "the body must be a RunAgentInput object";
  for (const field of ["threadId", "runId"]) {
    if (typeof input[field] !== "string" || input[field] === "") return `${field} must be a non-empty string`;
  }
  if (!Array.isArray(input.messages)) return "messages must be an array";
  if (input.tools !== undefined && !Array.isArray(input.tools)) return "tools must be an array";
  return null;
}

function toolMessagesById(messages) {
  const answers = new Map();
  for (const m of messages) {
    if (m && m.role === "tool" && typeof m.toolCallId === "string") answers.set(m.toolCallId, m);
  }
  return answers;
}

function callsInHistory(messages) {
  const calls = [];
  for (const m of messages) {
    if (m && m.role === "assistant" && Array.isArray(m.toolCalls)) calls.push(...m.toolCalls.filter((c) => c && typeof c.id === "string"));
  }
  return calls;
}

/**
 * The calls a run input leaves unanswered: calls in its history without a tool
 * message, and calls this thread is still waiting on that the history omits.
 */
export function unansweredCalls(memory, messages) {
  const answers = toolMessagesById(messages);
  const ids = callsInHistory(messages)
    .map((c) => c.id)
    .filter((id) => !answers.has(id));
  for (const id of memory.pending.keys()) if (!answers.has(id) && !ids.includes(id)) ids.push(id);
  return ids;
}

function contentText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (part && part.type === "text" ? part.text : "")).join("");
  return "";
}

/** Reads an answer to `confirm_deploy`: approved only when it says so plainly, never by default. */
export function isApproval(toolMessage) {
  if (typeof toolMessage.error === "string" && toolMessage.error !== "") return false;
  const text = contentText(toolMessage.content).trim();
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object") return value.approved === true || value.status === "approved";
  } catch {
    // Not JSON: fall through to the plain-word reading.
  }
  return /^(approved|yes|confirmed)\b/i.test(text);
}

function parseArguments(text) {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

// The most recent answer, in this input, to a confirm_deploy call this thread made.
function latestDeployAnswer(memory, messages) {
  const deployCalls = new Map();
  for (const c of callsInHistory(messages)) {
    if (c.function && c.function.name === CONFIRM_DEPLOY) deployCalls.set(c.id, parseArguments(c.function.arguments));
  }
  for (const [id, args] of memory.pending) deployCalls.set(id, args);
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m && m.role === "tool" && deployCalls.has(m.toolCallId)) {
      return { toolCallId: m.toolCallId, args: deployCalls.get(m.toolCallId), approved: isApproval(m) };
    }
    if (m && m.role === "user") return null;
  }
  return null;
}

const ids = () => randomUUID().replaceAll("-", "").slice(0, 12);
const words = (text) => text.match(/\S+\s*/g) ?? [];

function textMessage(messageId, text) {
  return [
    { type: "TEXT_MESSAGE_START", messageId, role: "assistant" },
    ...words(text).map((delta) => ({ type: "TEXT_MESSAGE_CONTENT", messageId, delta })),
    { type: "TEXT_MESSAGE_END", messageId },
  ];
}

function proposeRun(input) {
  const messageId = `msg_${ids()}`;
  const advertised = (input.tools ?? []).some((t) => t && t.name === CONFIRM_DEPLOY);
  if (!advertised) {
    const text = `I can deploy ${PROPOSED_DEPLOY.service} ${PROPOSED_DEPLOY.version}, but this page did not offer the ${CONFIRM_DEPLOY} tool, so I will not deploy anything without a confirmation.`;
    return { events: textMessage(messageId, text), pending: [] };
  }
  const toolCallId = `call_${ids()}`;
  const { service, version, replicas } = PROPOSED_DEPLOY;
  const text = `I'll deploy ${service} ${version} to production with ${replicas} replicas. This changes production, so I need your confirmation first.`;
  const events = [
    ...textMessage(messageId, text),
    { type: "TOOL_CALL_START", toolCallId, toolCallName: CONFIRM_DEPLOY, parentMessageId: messageId },
    ...splitIntoDeltas(JSON.stringify(PROPOSED_DEPLOY)).map((delta) => ({ type: "TOOL_CALL_ARGS", toolCallId, delta })),
    { type: "TOOL_CALL_END", toolCallId },
  ];
  return { events, pending: [[toolCallId, { ...PROPOSED_DEPLOY }]] };
}

/** The last message asks about the status: the agent calls its own tool and streams the result. */
function wantsStatus(messages) {
  const last = messages.at(-1);
  return Boolean(last && last.role === "user" && /\bstatus\b/i.test(contentText(last.content)));
}

function statusRun() {
  const messageId = `msg_${ids()}`;
  const toolCallId = `call_${ids()}`;
  const { service, version, ready } = SERVICE_STATUS;
  const events = [
    ...textMessage(messageId, "Let me check the service."),
    { type: "TOOL_CALL_START", toolCallId, toolCallName: CHECK_STATUS, parentMessageId: messageId },
    ...splitIntoDeltas(JSON.stringify({ service })).map((delta) => ({ type: "TOOL_CALL_ARGS", toolCallId, delta })),
    { type: "TOOL_CALL_END", toolCallId },
    { type: "TOOL_CALL_RESULT", messageId: `msg_${ids()}`, toolCallId, role: "tool", content: JSON.stringify(SERVICE_STATUS) },
    ...textMessage(`msg_${ids()}`, `${service} is healthy: ${ready} replicas ready, running ${version}.`),
  ];
  return { events, pending: [] };
}

/** The last message asks to investigate: the agent's own call starts a subagent, which asks the user through `confirm_deploy`. */
function wantsInvestigation(messages) {
  const last = messages.at(-1);
  return Boolean(last && last.role === "user" && /\binvestigat/i.test(contentText(last.content)));
}

function investigateRun(input) {
  const run = proposeRun(input);
  const [[nestedId] = []] = run.pending;
  if (nestedId === undefined) return run;
  const messageId = `msg_${ids()}`;
  const callId = `call_${ids()}`;
  const subagentRunId = `sub_${ids()}`;
  // The subagent's own message and call carry its id (rule A2: the call belongs to the message that holds it).
  const tagged = run.events.map((event) => ({ ...event, subagentRunId }));
  const events = [
    ...textMessage(messageId, `I'll have the ${INVESTIGATOR} look into it.`),
    { type: "TOOL_CALL_START", toolCallId: callId, toolCallName: INVESTIGATE, parentMessageId: messageId },
    { type: "TOOL_CALL_ARGS", toolCallId: callId, delta: JSON.stringify({ service: PROPOSED_DEPLOY.service }) },
    { type: "TOOL_CALL_END", toolCallId: callId },
    { type: "SUBAGENT_STARTED", subagentRunId, name: INVESTIGATOR, parentToolCallId: callId, parentMessageId: messageId },
    ...tagged,
    { type: "SUBAGENT_FINISHED", subagentRunId },
    { type: "TOOL_CALL_RESULT", messageId: `msg_${ids()}`, toolCallId: callId, role: "tool", content: `The ${INVESTIGATOR} asked the user to confirm.` },
  ];
  return { events, pending: run.pending };
}

function replyRun(answer) {
  const { service = "the service", version = "" } = answer.args;
  const text = answer.approved
    ? `Deploying ${service} ${version}… I'll report back once the rollout is healthy.`
    : "Understood, not deploying. Nothing in production has changed.";
  return { events: textMessage(`msg_${ids()}`, text), pending: [] };
}

/**
 * Plans one run. Returns `{ refused: { status, body } }` when the input may not
 * continue the thread, else `{ events, commit }`: the events to stream, and a
 * function that records the run in the thread's memory once it has finished.
 */
export function planRun(memory, input) {
  const unanswered = unansweredCalls(memory, input.messages);
  if (unanswered.length > 0) {
    return {
      refused: {
        status: 400,
        body: {
          error: `The thread cannot continue: ${unanswered.length === 1 ? "a tool call is" : "tool calls are"} unanswered. Add a tool message for each one.`,
          unansweredToolCallIds: unanswered,
        },
      },
    };
  }
  const answer = latestDeployAnswer(memory, input.messages);
  const run = answer
    ? replyRun(answer)
    : wantsInvestigation(input.messages)
      ? investigateRun(input)
      : wantsStatus(input.messages)
        ? statusRun()
        : proposeRun(input);
  const { threadId, runId } = input;
  const pendingToolCallIds = run.pending.map(([id]) => id);
  const events = [
    { type: "RUN_STARTED", threadId, runId, input },
    ...run.events,
    { type: "RUN_FINISHED", threadId, runId, outcome: pendingToolCallIds.length > 0 ? { type: "success", pendingToolCallIds } : { type: "success" } },
  ];
  const answered = toolMessagesById(input.messages);
  const commit = () => {
    for (const id of [...memory.pending.keys()]) if (answered.has(id)) memory.pending.delete(id);
    for (const [id, args] of run.pending) memory.pending.set(id, args);
  };
  return { events, commit };
}
