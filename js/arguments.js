// The application's arguments, checked before they cross into wasm: the
// glue trusts its types (a number where it expects a string reads arbitrary
// memory, a trap). Only strings and bytes cross; objects become JSON here,
// and checks read the plain value that JSON spells, so getters, `toJSON`
// and Proxy traps run once, inside `jsonText`'s `try`.

/** The longest string (UTF-16 units) or byte array one call moves into wasm: 32 Mi. */
export const MAX_CROSSING = 2 ** 25;

/** Thrown by every method of a tracker after `free()`. */
export class TrackerFreedError extends Error {
  constructor(method) {
    super(`ToolCallTracker.${method}(): the tracker was freed`);
    this.name = "TrackerFreedError";
  }
}

/** The wasm module trapped (`cause`): this tracker is unusable, its last snapshot readable. */
export class TrackerTrappedError extends Error {
  constructor(method, cause) {
    super(`ToolCallTracker.${method}(): the wasm module trapped (${cause.message}); this tracker is unusable`, { cause });
    this.name = "TrackerTrappedError";
  }
}

/** What a value is, for messages (`Array.isArray` throws on a revoked Proxy). */
export function kind(v) {
  try {
    return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v;
  } catch {
    return "a revoked Proxy";
  }
}
const fail = (name, what, v) => {
  throw new TypeError(`${name} must be ${what} (got ${kind(v)})`);
};

export function crossing(value, name) {
  if (value.length > MAX_CROSSING) throw new RangeError(`${name} is ${value.length} long, over the ${MAX_CROSSING} that may cross into the tracker at once; nothing was read`);
  return value;
}

export const requireString = (v, name) => (typeof v === "string" ? crossing(v, name) : fail(name, "a string", v));
export const optionalString = (v, name) => (v == null ? undefined : requireString(v, name));

/** A long chunk in pieces that may cross, never cut inside a surrogate pair. */
export function pieces(chunk) {
  const out = [];
  for (let i = 0; i < chunk.length || !out.length; ) {
    let j = Math.min(i + MAX_CROSSING, chunk.length);
    if (typeof chunk === "string" && j < chunk.length && (chunk.charCodeAt(j - 1) & 0xfc00) === 0xd800) j--;
    out.push(typeof chunk === "string" ? chunk.slice(i, j) : chunk.subarray(i, j));
    i = j;
  }
  return out;
}

/** JSON text of `value` (`undefined` where JSON cannot spell it), or a TypeError naming it. */
export function jsonText(value, name, replacer) {
  try {
    return JSON.stringify(value, replacer);
  } catch (error) {
    throw new TypeError(`${name} cannot be serialised as JSON: ${error?.message ?? error}`, { cause: error });
  }
}

/** JSON text of an object (or array, with `array`) and the plain value it spells. */
function spelt(value, name, array, replacer) {
  const wanted = array ? "an array" : "object";
  if (kind(value) !== wanted) fail(name, array ? "an array" : "an object", value);
  const text = jsonText(value, name, replacer);
  if (text === undefined) fail(name, "JSON", text);
  return [crossing(text, name), JSON.parse(text)];
}

/** A checker of an object's fields: `[key, check, required]`. */
const shape = (fields) => (v, name) => {
  if (v === null || typeof v !== "object" || Array.isArray(v)) fail(name, "an object", v);
  for (const [key, check, required] of fields) {
    if (v[key] !== undefined) check(v[key], `${name}.${key}`);
    else if (required) throw new TypeError(`${name}.${key} is missing`);
  }
};
const list = (check) => (v, name) => (Array.isArray(v) ? v.forEach((x, i) => check(x, `${name}[${i}]`)) : fail(name, "an array", v));
const str = (v, name) => void requireString(v, name);

/** The constructor's options as JSON (the core names a field it refuses); NaN and Infinity are refused, not read as absent. */
export function checkOptions(options) {
  const finite = (key, v) => (typeof v !== "number" || Number.isFinite(v) ? v : fail(`options.${key}`, "a finite number", v));
  return options === undefined ? "{}" : spelt(options, "ToolCallTracker options", false, finite)[0];
}

const runInput = shape([
  ["threadId", str, true],
  ["runId", str, true],
  ["parentRunId", str],
  ["protocolVersion", str],
  ["messages", list(shape([["id", str, true], ["role", str, true]])), true],
  ["tools", list(shape([["name", str, true], ["description", str]]))],
  ["context", list(shape([]))],
  ["resume", list(shape([]))],
]);

/** The next run's input as JSON, in the shape of `@ag-ui/core`'s `RunAgentInput`. */
export function checkRunInput(input) {
  const [text, plain] = spelt(input, "startRun(input)", false);
  runInput(plain, "startRun(input): input");
  return text;
}

/** Answer content as JSON: a string, or an array of content parts (kept as given: the parts are the core's to judge). */
export function checkContent(content, name) {
  if (typeof content === "string") return JSON.stringify(crossing(content, name));
  if (kind(content) !== "an array") fail(name, "a string or an array of content parts", content);
  return spelt(content, name, true)[0];
}
