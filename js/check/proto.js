// @ts-check
// The HTTP + protobuf binding of AG-UI 1.1 (`application/vnd.ag-ui.event+proto`):
// a body of frames, each a 4-byte big-endian length and one encoded `Event`.
// The checker reads such a capture by decoding each frame to the event's
// JSON form, one a line, and checking those lines as JSON Lines: the same
// tracker, the same verdict as the JSON twin of the stream. Used by the
// command line only (the page never loads it).
//
// The wire schema below is the one of the `@ag-ui/proto` package (its
// `events.proto`, `types.proto`, `patch.proto`): per message, each field's
// number, JSON name, kind and whether it is optional (`?`, absent when not
// sent) or repeated (`*`). A field proto3 leaves out when it holds its
// default ("" or 0) is given that default, as the JSON form has it.

/** The media type of the binding. */
export const PROTO_MEDIA_TYPE = "application/vnd.ag-ui.event+proto";

const EVENT_BASE = "1 baseEvent? BaseEvent";
const SCHEMA = {
  BaseEvent: "1 type int32, 2 timestamp? int64, 3 rawEvent? Value, 4 metadata? Struct",
  TextMessageStartEvent: `${EVENT_BASE}, 2 messageId string, 3 role? string, 4 name? string, 5 subagentRunId? string`,
  TextMessageContentEvent: `${EVENT_BASE}, 2 messageId string, 3 delta string, 4 subagentRunId? string`,
  TextMessageEndEvent: `${EVENT_BASE}, 2 messageId string, 3 subagentRunId? string`,
  TextMessageChunkEvent: `${EVENT_BASE}, 2 messageId? string, 3 role? string, 4 delta? string, 5 name? string, 6 subagentRunId? string`,
  ToolCallStartEvent: `${EVENT_BASE}, 2 toolCallId string, 3 toolCallName string, 4 parentMessageId? string, 5 subagentRunId? string`,
  ToolCallArgsEvent: `${EVENT_BASE}, 2 toolCallId string, 3 delta string, 4 subagentRunId? string`,
  ToolCallEndEvent: `${EVENT_BASE}, 2 toolCallId string, 3 subagentRunId? string`,
  ToolCallChunkEvent: `${EVENT_BASE}, 2 toolCallId? string, 3 toolCallName? string, 4 parentMessageId? string, 5 delta? string, 6 subagentRunId? string`,
  ToolCallResultEvent: `${EVENT_BASE}, 2 subagentRunId? string, 3 messageId string, 4 toolCallId string, 5 content? string, 6 role? string, 7 contentParts* InputContent`,
  StateSnapshotEvent: `${EVENT_BASE}, 2 snapshot? Value, 3 subagentRunId? string`,
  StateDeltaEvent: `${EVENT_BASE}, 2 delta* JsonPatchOperation, 3 subagentRunId? string`,
  MessagesSnapshotEvent: `${EVENT_BASE}, 2 messages* Message`,
  ActivitySnapshotEvent: `${EVENT_BASE}, 2 subagentRunId? string, 3 messageId string, 4 activityType string, 5 content? Struct, 6 replace? bool`,
  ActivityDeltaEvent: `${EVENT_BASE}, 2 subagentRunId? string, 3 messageId string, 4 activityType string, 5 patch* JsonPatchOperation`,
  RawEvent: `${EVENT_BASE}, 2 event? Value, 3 source? string, 4 subagentRunId? string`,
  CustomEvent: `${EVENT_BASE}, 2 name string, 3 value? Value, 4 subagentRunId? string`,
  RunStartedEvent: `${EVENT_BASE}, 2 threadId string, 3 runId string, 4 parentRunId? string, 5 input? RunAgentInput, 6 protocolVersion? string`,
  RunFinishedEvent: `${EVENT_BASE}, 2 threadId string, 3 runId string, 4 result? Value, 5 outcome string, 6 interrupts* Interrupt, 7 usage* Usage, 8 pendingToolCallIds* string`,
  RunErrorEvent: `${EVENT_BASE}, 2 code? string, 3 message string, 4 usage* Usage`,
  StepStartedEvent: `${EVENT_BASE}, 2 stepName string, 3 subagentRunId? string`,
  StepFinishedEvent: `${EVENT_BASE}, 2 stepName string, 3 subagentRunId? string`,
  ReasoningStartEvent: `${EVENT_BASE}, 2 subagentRunId? string, 3 messageId string`,
  ReasoningMessageStartEvent: `${EVENT_BASE}, 2 subagentRunId? string, 3 messageId string, 4 role string`,
  ReasoningMessageContentEvent: `${EVENT_BASE}, 2 subagentRunId? string, 3 messageId string, 4 delta string`,
  ReasoningMessageEndEvent: `${EVENT_BASE}, 2 subagentRunId? string, 3 messageId string`,
  ReasoningMessageChunkEvent: `${EVENT_BASE}, 2 subagentRunId? string, 3 messageId? string, 4 delta? string`,
  ReasoningEndEvent: `${EVENT_BASE}, 2 subagentRunId? string, 3 messageId string`,
  ReasoningEncryptedValueEvent: `${EVENT_BASE}, 2 subagentRunId? string, 3 subtype string, 4 entityId string, 5 encryptedValue string`,
  SubagentStartedEvent: `${EVENT_BASE}, 2 subagentRunId string, 3 name string, 4 description? string, 5 parentSubagentRunId? string, 6 parentToolCallId? string, 7 parentMessageId? string`,
  SubagentFinishedEvent: `${EVENT_BASE}, 2 subagentRunId string, 3 result? Value, 4 outcome string, 5 interruptIds* string`,
  SubagentErrorEvent: `${EVENT_BASE}, 2 subagentRunId string, 3 message string, 4 code? string`,
  RunAgentInput:
    "1 threadId string, 2 runId string, 3 parentRunId? string, 4 state? Value, 5 messages* Message, 6 tools* Tool, 7 context* Context, 8 forwardedProps? Value, 9 resume* ResumeEntry, 10 protocolVersion? string",
  Message:
    "1 id string, 2 role string, 3 content? string, 4 name? string, 5 toolCalls* ToolCall, 6 toolCallId? string, 7 error? string, 8 contentParts* InputContent, 9 metadata? Struct, 10 subagentRunId? string, 11 encryptedValue? string, 12 activityType? string, 13 activityContent? Struct",
  ToolCall: "1 id string, 2 type string, 3 function? ToolCallFunction, 4 metadata? Struct, 5 encryptedValue? string",
  ToolCallFunction: "1 name string, 2 arguments string",
  Tool: "1 name string, 2 description string, 3 parameters? Value, 4 metadata? Struct",
  Context: "1 description string, 2 value string",
  ResumeEntry: "1 interruptId string, 2 status string, 3 payload? Value, 4 metadata? Struct",
  Interrupt:
    "1 id string, 2 reason string, 3 message? string, 4 toolCallId? string, 5 responseSchema? Value, 6 expiresAt? string, 7 metadata? Value, 8 subagentRunId? string",
  Usage:
    "1 provider? string, 2 model? string, 3 inputTokens? int64, 4 outputTokens? int64, 5 totalTokens? int64, 6 reasoningTokens? int64, 7 cachedInputTokens? int64, 8 cacheWriteInputTokens? int64",
  JsonPatchOperation: "1 op int32, 2 path string, 3 from? string, 4 value? Value",
  InputContent: "1 text? TextInputPart, 2 image? MediaInputPart, 3 audio? MediaInputPart, 4 video? MediaInputPart, 5 document? MediaInputPart",
  TextInputPart: "1 text string, 2 id? string, 3 metadata? Value",
  MediaInputPart: "1 source? InputContentSource, 2 metadata? Value, 3 id? string",
  InputContentSource: "1 data? SourceFields, 2 url? SourceFields, 3 file? FileSourceFields",
  SourceFields: "1 value string, 2 mimeType? string",
  FileSourceFields: "1 value string, 2 provider? string, 3 mimeType? string",
};

/** The `Event` envelope's arms, by field number: the event type and its message. */
const ARMS = [
  "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
  "STATE_SNAPSHOT", "STATE_DELTA", "MESSAGES_SNAPSHOT", "RAW", "CUSTOM", "RUN_STARTED", "RUN_FINISHED", "RUN_ERROR",
  "STEP_STARTED", "STEP_FINISHED", "TEXT_MESSAGE_CHUNK", "TOOL_CALL_CHUNK", "SUBAGENT_STARTED", "SUBAGENT_FINISHED",
  "SUBAGENT_ERROR", "TOOL_CALL_RESULT", "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA", "REASONING_START", "REASONING_MESSAGE_START",
  "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END", "REASONING_MESSAGE_CHUNK", "REASONING_END", "REASONING_ENCRYPTED_VALUE",
];
const MESSAGE_OF_TYPE = { RAW: "RawEvent", CUSTOM: "CustomEvent" };
const PATCH_OPS = ["add", "remove", "replace", "move", "copy", "test"];
/** Nesting of messages and JSON values a frame may have; deeper is malformed (the stack stays small). */
const MAX_NESTING = 128;

/** A frame that does not decode: says where and why. */
export class ProtoError extends Error {}

const fields = new Map(
  Object.entries(SCHEMA).map(([name, spec]) => [
    name,
    new Map(
      spec.split(", ").map((f) => {
        const [no, key, kind] = f.split(" ");
        const mark = key.at(-1);
        const plain = mark === "?" || mark === "*" ? key.slice(0, -1) : key;
        return [Number(no), { key: plain, kind, optional: mark === "?", repeated: mark === "*" }];
      }),
    ),
  ]),
);

function messageName(type) {
  return MESSAGE_OF_TYPE[type] ?? `${type.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c) => c.toUpperCase())}Event`;
}

/** Reads protobuf wire data from `bytes[from..to)`. */
class Reader {
  constructor(bytes, from, to, depth) {
    this.bytes = bytes;
    this.at = from;
    this.end = to;
    this.depth = depth;
    if (depth > MAX_NESTING) this.fail(`nested over ${MAX_NESTING} deep`);
  }

  /** @returns {never} */
  fail(why) {
    throw new ProtoError(`${why} at byte ${this.at}`);
  }

  varint() {
    let value = 0;
    let scale = 1;
    for (let k = 0; k < 10; k++) {
      if (this.at >= this.end) this.fail("a number cut off");
      const b = this.bytes[this.at++];
      value += (b & 0x7f) * scale;
      scale *= 128;
      if (b < 0x80) return value;
    }
    return this.fail("a number of more than 10 bytes");
  }

  length() {
    const n = this.varint();
    if (n > this.end - this.at) this.fail(`a field of ${n} bytes where ${this.end - this.at} remain`);
    return n;
  }

  sub() {
    const n = this.length();
    const reader = new Reader(this.bytes, this.at, this.at + n, this.depth + 1);
    this.at += n;
    return reader;
  }

  string() {
    const n = this.length();
    const text = decoder.decode(this.bytes.subarray(this.at, this.at + n));
    this.at += n;
    return text;
  }

  double() {
    if (this.end - this.at < 8) this.fail("a number cut off");
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.at, 8);
    this.at += 8;
    return view.getFloat64(0, true);
  }

  skip(wire) {
    if (wire === 0) this.varint();
    else if (wire === 1) this.fixed(8);
    else if (wire === 2) this.at += this.length();
    else if (wire === 5) this.fixed(4);
    else this.fail(`wire type ${wire}, which no field of AG-UI uses`);
  }

  fixed(n) {
    if (this.end - this.at < n) this.fail("a field cut off");
    this.at += n;
  }

  /** Each field: `visit(number, wireType)`, which reads it. */
  each(visit) {
    while (this.at < this.end) {
      const tag = this.varint();
      visit(Math.floor(tag / 8), tag % 8);
    }
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** One message of the schema, as its JSON object. */
function decodeMessage(reader, name) {
  const spec = fields.get(name);
  const out = {};
  reader.each((no, wire) => {
    const field = spec.get(no);
    if (field === undefined) return reader.skip(wire); // a field this schema predates: skipped, as protobuf does
    const value = decodeField(reader, field, wire);
    if (field.repeated) (out[field.key] ??= []).push(...value);
    else out[field.key] = value;
  });
  for (const field of spec.values()) {
    if (out[field.key] !== undefined) continue;
    if (field.repeated) out[field.key] = [];
    else if (!field.optional) out[field.key] = field.kind === "string" ? "" : field.kind === "bool" ? false : field.kind === "int32" || field.kind === "int64" ? 0 : undefined;
  }
  return out;
}

/** A field's value (a list of values for a repeated one: a packed field holds several). */
function decodeField(reader, field, wire) {
  const { kind, repeated } = field;
  if (kind === "string") return expect(reader, wire, 2) && wrap(reader.string(), repeated);
  if (kind === "int32" || kind === "int64" || kind === "bool") {
    if (repeated && wire === 2) {
      const sub = reader.sub();
      const values = [];
      while (sub.at < sub.end) values.push(scalar(kind, sub.varint()));
      return values;
    }
    return expect(reader, wire, 0) && wrap(scalar(kind, reader.varint()), repeated);
  }
  expect(reader, wire, 2);
  const sub = reader.sub();
  if (kind === "Value") return wrap(decodeValue(sub), repeated);
  if (kind === "Struct") return wrap(decodeStruct(sub), repeated);
  return wrap(decodeMessage(sub, kind), repeated);
}

function expect(reader, wire, wanted) {
  if (wire !== wanted) reader.fail(`wire type ${wire} where ${wanted} was expected`);
  return true;
}

function wrap(value, repeated) {
  return repeated ? [value] : value;
}

function scalar(kind, n) {
  if (kind === "bool") return n !== 0;
  // Negative int32/int64 come as 10-byte two's complement: the JSON form wants the number.
  return n >= 2 ** 63 ? n - 2 ** 64 : n;
}

/** `google.protobuf.Value`: any JSON value. */
function decodeValue(reader) {
  let value = null;
  reader.each((no, wire) => {
    if (no === 1) value = (reader.varint(), null);
    else if (no === 2) value = expect(reader, wire, 1) && reader.double();
    else if (no === 3) value = expect(reader, wire, 2) && reader.string();
    else if (no === 4) value = expect(reader, wire, 0) && reader.varint() !== 0;
    else if (no === 5) value = expect(reader, wire, 2) && decodeStruct(reader.sub());
    else if (no === 6) value = expect(reader, wire, 2) && decodeList(reader.sub());
    else reader.skip(wire);
  });
  return value;
}

/** `google.protobuf.Struct`: a JSON object. */
function decodeStruct(reader) {
  const out = {};
  reader.each((no, wire) => {
    if (no !== 1) return reader.skip(wire);
    expect(reader, wire, 2);
    const entry = reader.sub();
    let key = "";
    let value = null;
    entry.each((n, w) => {
      if (n === 1) key = expect(entry, w, 2) && entry.string();
      else if (n === 2) value = expect(entry, w, 2) && decodeValue(entry.sub());
      else entry.skip(w);
    });
    out[key] = value;
  });
  return out;
}

/** `google.protobuf.ListValue`: a JSON array. */
function decodeList(reader) {
  const out = [];
  reader.each((no, wire) => {
    if (no !== 1) return reader.skip(wire);
    out.push(expect(reader, wire, 2) && decodeValue(reader.sub()));
  });
  return out;
}

/**
 * One frame's `Event` as the event's JSON object, or null for an arm this
 * schema predates (the binding drops that frame with a warning).
 */
export function decodeEvent(bytes) {
  const reader = new Reader(bytes, 0, bytes.length, 0);
  let event;
  let arms = 0;
  reader.each((no, wire) => {
    const type = ARMS[no - 1];
    if (type === undefined) return reader.skip(wire);
    expect(reader, wire, 2);
    arms++;
    event = { type, ...decodeMessage(reader.sub(), messageName(type)) };
  });
  if (arms > 1) throw new ProtoError(`an envelope with ${arms} events`);
  return event === undefined ? null : jsonForm(event);
}

/** The event as its JSON form: the base event's fields at the top, open payloads as they were sent. */
function jsonForm(event) {
  const { baseEvent, ...rest } = event;
  const out = { type: rest.type };
  if (baseEvent?.timestamp !== undefined) out.timestamp = baseEvent.timestamp;
  if (baseEvent?.rawEvent !== undefined) out.rawEvent = baseEvent.rawEvent;
  if (baseEvent?.metadata !== undefined) out.metadata = baseEvent.metadata;
  Object.assign(out, rest);
  if (out.type === "RUN_FINISHED") runOutcome(out);
  if (out.type === "RUN_ERROR" && out.usage.length === 0) delete out.usage;
  if (out.type === "TOOL_CALL_RESULT") partsAsContent(out);
  if (out.type === "MESSAGES_SNAPSHOT") out.messages = out.messages.map(messageForm);
  if (out.type === "RUN_STARTED" && out.input !== undefined) out.input = { ...out.input, messages: out.input.messages.map(messageForm) };
  for (const op of [...(out.delta && out.type === "STATE_DELTA" ? out.delta : []), ...(out.patch ?? [])]) op.op = PATCH_OPS[op.op] ?? String(op.op);
  if (Array.isArray(out.interruptIds) && out.type === "SUBAGENT_FINISHED") subagentOutcome(out);
  return dropUndefined(out);
}

/** `RUN_FINISHED.outcome`: a string and two lists on the wire, an object in JSON. */
function runOutcome(event) {
  const { outcome, pendingToolCallIds, interrupts } = event;
  delete event.outcome;
  delete event.pendingToolCallIds;
  delete event.interrupts;
  if (event.usage.length === 0) delete event.usage;
  if (outcome === "success") event.outcome = { type: "success", ...(pendingToolCallIds.length > 0 && { pendingToolCallIds }) };
  else if (outcome === "interrupt") event.outcome = { type: "interrupt", interrupts };
  else if (outcome !== "") event.outcome = { type: outcome };
  else {
    if (pendingToolCallIds.length > 0) event.pendingToolCallIds = pendingToolCallIds;
    if (interrupts.length > 0) event.interrupts = interrupts;
  }
}

function subagentOutcome(event) {
  const { outcome, interruptIds } = event;
  delete event.interruptIds;
  if (outcome === "") delete event.outcome;
  else event.outcome = outcome === "suspended" ? { type: "suspended", interruptIds } : { type: outcome };
}

/** A wire message: its content parts (or activity content) as `content`, empty lists left out. */
function messageForm(message) {
  const out = { ...message };
  if (out.content === undefined && out.contentParts.length > 0) out.content = out.contentParts.map(partForm);
  if (out.content === undefined && out.activityContent !== undefined) out.content = out.activityContent;
  delete out.contentParts;
  delete out.activityContent;
  if (out.toolCalls.length === 0) delete out.toolCalls;
  else out.toolCalls = out.toolCalls.map((c) => dropUndefined({ ...c, function: c.function ?? { name: "", arguments: "" } }));
  return dropUndefined(out);
}

function partsAsContent(event) {
  if (event.content === undefined) event.content = event.contentParts.map(partForm);
  delete event.contentParts;
}

function partForm(part) {
  const [type, value] = Object.entries(part).find(([, v]) => v !== undefined) ?? ["text", { text: "" }];
  if (type === "text") return dropUndefined({ type, ...value });
  const [kind, source] = Object.entries(value.source ?? {}).find(([, v]) => v !== undefined) ?? [];
  return dropUndefined({ type, id: value.id, metadata: value.metadata, source: kind === undefined ? undefined : { type: kind, ...source } });
}

function dropUndefined(object) {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}

/** JSON Lines text handed on at a time (bytes, about). */
const CHUNK_CHARS = 64 * 1024;

/**
 * A body of frames as JSON Lines, one event a frame (frame N on line N),
 * in chunks of about 64 KiB: never the whole text at once, since an
 * event's JSON form is larger than its frame. `notes` gets, as the frames
 * are read: a frame that does not decode (fatal to the stream: its line
 * says so and is no JSON, so the tracker stops there), a body that ends
 * inside a frame (a truncated run), and once, how many frames held an
 * event type this schema predates (each dropped: an empty line).
 */
export function* framesAsJsonLines(body, notes) {
  const encoder = new TextEncoder();
  let lines = [];
  let chars = 0;
  let unknown = 0;
  let firstUnknown = 0;
  try {
    for (let at = 0, frame = 1; at < body.length; frame++) {
      if (body.length - at < 4) {
        notes.push(`the body ends inside the length of frame ${frame} (a truncated run)`);
        break;
      }
      const n = ((body[at] << 24) >>> 0) + (body[at + 1] << 16) + (body[at + 2] << 8) + body[at + 3];
      if (n > body.length - at - 4) {
        notes.push(`the body ends inside frame ${frame}, ${body.length - at - 4} of its ${n} bytes sent (a truncated run)`);
        break;
      }
      let line;
      try {
        const event = decodeEvent(body.subarray(at + 4, at + 4 + n));
        if (event === null && unknown++ === 0) firstUnknown = frame;
        line = event === null ? "" : JSON.stringify(event);
      } catch (error) {
        if (!(error instanceof ProtoError) && !(error instanceof TypeError)) throw error;
        const why = `frame ${frame} (at byte ${at} of the body) does not decode as an AG-UI event: ${error.message}`;
        notes.push(`${why}; a malformed frame is fatal to the stream`);
        lines.push(`malformed protobuf frame: ${why}\n`);
        break;
      }
      lines.push(line + "\n");
      chars += line.length + 1;
      at += 4 + n;
      if (chars >= CHUNK_CHARS) {
        yield encoder.encode(lines.join(""));
        lines = [];
        chars = 0;
      }
    }
    if (lines.length > 0) yield encoder.encode(lines.join(""));
  } finally {
    if (unknown > 0) notes.push(`${unknown} frame${unknown === 1 ? "" : "s"} (the first: frame ${firstUnknown}) held an event type this checker does not know: dropped`);
  }
}
