// Small builders for AG-UI events, to keep the tests readable.
export const runStarted = (runId = "r1", extra = {}) => ({ type: "RUN_STARTED", threadId: "t1", runId, ...extra });
export const runFinished = (runId = "r1", extra = {}) => ({ type: "RUN_FINISHED", threadId: "t1", runId, ...extra });
export const start = (toolCallId, toolCallName, extra = {}) => ({ type: "TOOL_CALL_START", toolCallId, toolCallName, ...extra });
export const args = (toolCallId, delta) => ({ type: "TOOL_CALL_ARGS", toolCallId, delta });
export const end = (toolCallId) => ({ type: "TOOL_CALL_END", toolCallId });
export const result = (toolCallId, content, messageId = `m-${toolCallId}`) => ({
  type: "TOOL_CALL_RESULT",
  messageId,
  toolCallId,
  content,
  role: "tool",
});

/** The events of a whole call: start, one ARGS per delta, end. */
export const call = (id, name, deltas) => [start(id, name), ...deltas.map((d) => args(id, d)), end(id)];

/** Events as a `text/event-stream` body. */
export const sse = (events, eol = "\n") => events.map((e) => `data: ${JSON.stringify(e)}${eol}${eol}`).join("");
