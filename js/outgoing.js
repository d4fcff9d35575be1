// @ts-check
// Rule P4: the run input `nextRun` returns, judged immediately before it is
// sent. Unrecognised material is removed (a property 1.0 does not describe
// on an object it closes, a message of a role it does not describe, a
// content part or media source of a kind it does not describe), a `null`
// in an optional place is read as absent, and a malformed known field is
// refused, naming it, before anything is sent. Judged as @ag-ui/client
// 1.0's outgoing stage judges the same input (tests/js/reference.test.mjs).

/** A malformed known field: `field` is its path, as `messages[0].content` (the core's paths). */
class Malformed extends Error {
  constructor(field, what) {
    super(`field "${field}" ${what}`);
    this.field = field;
  }
}

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v, at) => {
  if (typeof v !== "string") throw new Malformed(at, "must be a string");
  return v;
};
const obj = (v, at) => {
  if (!isObject(v)) throw new Malformed(at, "must be an object");
  return v;
};
const arr = (v, at) => {
  if (!Array.isArray(v)) throw new Malformed(at, "must be an array");
  return v;
};
const any = (v) => v;
/** `at.key`, or `key` at the input's top. */
const keyPath = (at, key) => (at === "" ? key : `${at}.${key}`);

/**
 * `value` with its described fields checked, in its own key order: `fields`
 * maps each to `[check, required]`; a `null` optional field, and every
 * field not described, is left out.
 */
function closed(value, at, fields) {
  obj(value, at);
  for (const [key, [, required]] of Object.entries(fields)) {
    if (required && value[key] === undefined) throw new Malformed(keyPath(at, key), "is missing");
  }
  const out = {};
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (!Object.hasOwn(fields, key) || v === undefined || (v === null && !fields[key][1])) continue;
    out[key] = fields[key][0](v, keyPath(at, key));
  }
  return out;
}

/** A list whose `check`ed items may be dropped (`undefined`). */
const listOf = (check) => (v, at) => arr(v, at).map((x, i) => check(x, `${at}[${i}]`)).filter((x) => x !== undefined);
const oneOf = (...values) => (v, at) => {
  if (!values.includes(v)) throw new Malformed(at, `must be one of ${values.map((x) => JSON.stringify(x)).join(", ")}`);
  return v;
};

const opt = (check) => [check, false];
const req = (check) => [check, true];

const SOURCES = {
  data: { type: req(str), value: req(str), mimeType: req(str) },
  url: { type: req(str), value: req(str), mimeType: opt(str) },
  file: { type: req(str), value: req(str), provider: opt(str), mimeType: opt(str) },
};
const source = (v, at) => {
  const fields = SOURCES[str(obj(v, at).type, `${at}.type`)];
  return fields && closed(v, at, fields);
};
const MEDIA = { type: req(str), id: opt(str), source: req(source), metadata: opt(any) };
const PARTS = { text: { type: req(str), id: opt(str), text: req(str), metadata: opt(any) }, image: MEDIA, audio: MEDIA, video: MEDIA, document: MEDIA };

/** A content part; `undefined` when of an unknown kind, or its source is. */
function part(v, at) {
  const fields = PARTS[str(obj(v, at).type, `${at}.type`)];
  if (fields === undefined) return undefined;
  const out = closed(v, at, fields);
  return fields === MEDIA && out.source === undefined ? undefined : out;
}
const content = (v, at) => (typeof v === "string" ? v : Array.isArray(v) ? listOf(part)(v, at) : str(v, at));

const COMMON = { id: req(str), role: req(str), subagentRunId: opt(str), metadata: opt(obj) };
const NAMED = { ...COMMON, name: opt(str), encryptedValue: opt(str), encryptedValueType: opt(str) };
const CALL = {
  id: req(str),
  type: req(oneOf("function")),
  function: req((v, at) => closed(v, at, { name: req(str), arguments: req(str) })),
  encryptedValue: opt(str),
  encryptedValueType: opt(str),
  metadata: opt(obj),
};
const ROLES = {
  developer: { ...NAMED, content: req(str) },
  system: { ...NAMED, content: req(str) },
  assistant: { ...NAMED, content: opt(str), toolCalls: opt(listOf((v, at) => closed(v, at, CALL))) },
  user: { ...NAMED, content: req(content) },
  tool: { ...COMMON, content: req(content), toolCallId: req(str), error: opt(str), encryptedValue: opt(str), encryptedValueType: opt(str) },
  activity: { ...COMMON, activityType: req(str), content: req(obj) },
  reasoning: { ...COMMON, content: req(str), encryptedValue: opt(str), encryptedValueType: opt(str) },
};
/** A message; `undefined` for a role 1.0 does not describe. */
function message(v, at) {
  const fields = ROLES[str(obj(v, at).role, `${at}.role`)];
  return fields && closed(v, at, fields);
}

const INPUT = {
  threadId: req(str),
  runId: req(str),
  protocolVersion: opt(str),
  parentRunId: opt(str),
  state: opt(any),
  messages: req(listOf(message)),
  tools: opt(listOf((v, at) => closed(v, at, { name: req(str), description: req(str), parameters: opt(any), metadata: opt(obj) }))),
  context: opt(listOf((v, at) => closed(v, at, { description: req(str), value: req(str) }))),
  forwardedProps: opt(any),
  resume: opt(listOf((v, at) => closed(v, at, { interruptId: req(str), status: req(oneOf("resolved", "cancelled")), payload: opt(any), metadata: opt(obj) }))),
};

/**
 * The run input as it may be sent (rule P4): a copy without unrecognised
 * material; a malformed known field throws `onMalformed(field, message)`'s
 * error. Open values (`state`, `forwardedProps`, `metadata`, a tool's
 * `parameters`, a part's `metadata`, a resume `payload`) are kept whole.
 * @param {any} input
 * @param {(field: string, message: string) => Error} onMalformed
 */
export function outgoingInput(input, onMalformed) {
  try {
    return closed(input, "", INPUT);
  } catch (error) {
    if (error instanceof Malformed) throw onMalformed(error.field, error.message);
    throw error;
  }
}
