// @ts-check
// The processing model (rules E3, P1, P2) for what `onEvent` hands the
// application: an event of a type 1.0 does not describe is dropped, and a
// property 1.0 does not describe (on the event, its outcome, the outcome's
// interrupts), an outcome of an unknown type and a
// content part or media source of an unknown kind are stripped, as the
// core strips them from what its snapshots show. Only events the core
// accepted get here, so every value 1.0 describes is well formed. Runs only
// for a tracker with `onEvent`; an event with nothing to strip is handed
// over as it is.

const BASE = "type timestamp rawEvent metadata";
const OWNED = `${BASE} subagentRunId`;

/** The properties each event type has in the 1.0 schema (schema.json). */
const PROPERTIES = {
  TEXT_MESSAGE_START: `${OWNED} messageId role name`,
  TEXT_MESSAGE_CONTENT: `${OWNED} messageId delta`,
  TEXT_MESSAGE_END: `${OWNED} messageId`,
  TEXT_MESSAGE_CHUNK: `${OWNED} messageId role delta name`,
  TOOL_CALL_START: `${OWNED} toolCallId toolCallName parentMessageId`,
  TOOL_CALL_ARGS: `${OWNED} toolCallId delta`,
  TOOL_CALL_END: `${OWNED} toolCallId`,
  TOOL_CALL_CHUNK: `${OWNED} toolCallId toolCallName parentMessageId delta`,
  TOOL_CALL_RESULT: `${OWNED} messageId toolCallId content role`,
  STATE_SNAPSHOT: `${OWNED} snapshot`,
  STATE_DELTA: `${OWNED} delta`,
  MESSAGES_SNAPSHOT: `${BASE} messages`,
  ACTIVITY_SNAPSHOT: `${OWNED} messageId activityType content replace`,
  ACTIVITY_DELTA: `${OWNED} messageId activityType patch`,
  RAW: `${OWNED} event source`,
  CUSTOM: `${OWNED} name value`,
  RUN_STARTED: `${BASE} threadId runId protocolVersion parentRunId input`,
  RUN_FINISHED: `${BASE} threadId runId result outcome usage`,
  RUN_ERROR: `${BASE} message code usage`,
  STEP_STARTED: `${OWNED} stepName`,
  STEP_FINISHED: `${OWNED} stepName`,
  REASONING_START: `${OWNED} messageId`,
  REASONING_MESSAGE_START: `${OWNED} messageId role`,
  REASONING_MESSAGE_CONTENT: `${OWNED} messageId delta`,
  REASONING_MESSAGE_END: `${OWNED} messageId`,
  REASONING_MESSAGE_CHUNK: `${OWNED} messageId delta`,
  REASONING_END: `${OWNED} messageId`,
  REASONING_ENCRYPTED_VALUE: `${OWNED} subtype entityId encryptedValue encryptedValueType`,
  SUBAGENT_STARTED: `${BASE} subagentRunId name description parentSubagentRunId parentToolCallId parentMessageId`,
  SUBAGENT_FINISHED: `${BASE} subagentRunId result outcome`,
  SUBAGENT_ERROR: `${BASE} subagentRunId message code`,
};

/** Closed objects inside events, by kind: outcomes, content parts, media sources. */
const OUTCOMES = { success: "type pendingToolCallIds", interrupt: "type interrupts", cancelled: "type" };
const PARTS = { text: "type id text metadata", image: "type id source metadata", audio: "type id source metadata", video: "type id source metadata", document: "type id source metadata" };
const SOURCES = { data: "type value mimeType", url: "type value mimeType", file: "type value provider mimeType" };
const INTERRUPT = "id reason message toolCallId responseSchema expiresAt metadata subagentRunId";

/** `value` with only the `described` (space-separated) properties; itself when it has no other. */
function closed(value, described) {
  const keys = Object.keys(value);
  const names = described.split(" ");
  if (keys.every((k) => names.includes(k))) return value;
  return Object.fromEntries(keys.filter((k) => names.includes(k)).map((k) => [k, value[k]]));
}

/** A content part with its undescribed material stripped, or undefined when the part itself goes (P1). */
function part(p) {
  const described = PARTS[p?.type];
  if (described === undefined) return undefined;
  if (p.type === "text") return closed(p, described);
  const source = SOURCES[p.source?.type] && closed(p.source, SOURCES[p.source.type]);
  if (source === undefined) return undefined;
  const kept = closed(p, described);
  return source === p.source ? kept : { ...kept, source };
}

/**
 * The event as `onEvent` hands it over: `undefined` for a type 1.0 does not
 * describe (dropped), else the event with what 1.0 does not describe
 * stripped (a copy; the event itself when there was nothing to strip).
 * @param {any} event
 */
export function recognised(event) {
  const described = PROPERTIES[event?.type];
  if (described === undefined) return undefined;
  let out = closed(event, described);
  const copy = () => (out === event ? { ...event } : out);
  // Retired spellings of none, read as absent (rule P3).
  for (const key of ["parentMessageId", "outcome", "result", "rawEvent"]) {
    if (out[key] === null) {
      out = copy();
      delete out[key];
    }
  }
  if (event.type === "RUN_FINISHED" && event.outcome != null) {
    const kind = OUTCOMES[event.outcome.type];
    let outcome = kind && closed(event.outcome, kind);
    const interrupts = outcome?.type === "interrupt" ? outcome.interrupts.map((i) => closed(i, INTERRUPT)) : undefined;
    if (interrupts?.some((i, k) => i !== outcome.interrupts[k])) outcome = { ...outcome, interrupts };
    if (outcome !== event.outcome) {
      out = copy();
      if (outcome === undefined) delete out.outcome;
      else out.outcome = outcome;
    }
  }
  if (event.type === "TOOL_CALL_RESULT" && Array.isArray(event.content)) {
    const content = event.content.map(part);
    if (content.some((p, i) => p !== event.content[i])) {
      out = copy();
      out.content = content.filter((p) => p !== undefined);
    }
  }
  return out;
}
