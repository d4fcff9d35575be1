// @ts-check
// The checks every argument of a tracker's methods passes before it
// crosses into wasm: the glue trusts its types (a number where it expects
// a string reads arbitrary memory, a trap). Only strings and bytes cross;
// objects become JSON here, and checks read the plain value that JSON
// spells, so getters, `toJSON` and Proxy traps run once, inside
// `jsonText`'s `try`.

/** The longest string (UTF-16 units) or byte array one call moves into wasm: 32 Mi. */
const MAX_CROSSING = 2 ** 25;

/** What a value is, for messages (`Array.isArray` throws on a revoked Proxy). */
export function kind(v) {
  try {
    return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v;
  } catch {
    return "a revoked Proxy";
  }
}
export const fail = (name, what, v) => {
  throw new TypeError(`${name} must be ${what} (got ${kind(v)})`);
};

/** A string or bytes short enough to cross, or a RangeError naming it. */
export function crossing(value, name) {
  if (value.length > MAX_CROSSING) throw new RangeError(`${name} is ${value.length} long, over the ${MAX_CROSSING} one call may pass`);
  return value;
}

export const requireString = (v, name) => (typeof v === "string" ? crossing(v, name) : fail(name, "a string", v));
export const optionalString = (v, name) => (v == null ? undefined : requireString(v, name));

/** A TypeError for an argument whose getter, `toJSON` or Proxy trap threw. */
export function unreadable(name, error) {
  throw new TypeError(`${name} cannot be read as JSON: ${error?.message ?? error}`, { cause: error });
}

/** What `get` reads from an argument, or a TypeError naming it when a getter or Proxy trap throws. */
export function read(get, name) {
  try {
    return get();
  } catch (error) {
    throw new TypeError(`${name} cannot be read: ${error?.message ?? error}`, { cause: error });
  }
}

/** JSON text of `value` (`undefined` where JSON cannot spell it), or a TypeError naming it. */
export function jsonText(value, name, replacer) {
  try {
    return JSON.stringify(value, replacer);
  } catch (error) {
    unreadable(name, error);
  }
}

/** JSON text of an object (or array, with `array`) and the plain value it spells. */
export function spelt(value, name, array, replacer) {
  const wanted = array ? "an array" : "object";
  if (kind(value) !== wanted) fail(name, array ? "an array" : "an object", value);
  const text = jsonText(value, name, replacer);
  if (text === undefined) fail(name, "JSON", text);
  return [crossing(text, name), JSON.parse(text)];
}

/** The constructor's options as JSON (the core names a field it refuses) and the plain value; NaN and Infinity are refused, not read as absent. */
export function checkOptions(options) {
  const finite = (key, v) => (typeof v !== "number" || Number.isFinite(v) ? v : fail(`options.${key}`, "a finite number", v));
  return options === undefined ? ["{}", {}] : spelt(options, "ToolCallTracker options", false, finite);
}

/**
 * The next run's input as JSON text. Only what would not cross into wasm is
 * checked here (not an object, not JSON, a throwing getter): the core
 * checks it against `RunAgentInput`, naming the field by its path.
 */
export function checkRunInput(input, name = "startRun(input)") {
  return spelt(input, name, false)[0];
}

/** Answer content as JSON: a string, or an array of content parts (kept as given: the parts are the core's to judge). */
export function checkContent(content, name) {
  if (typeof content === "string") return JSON.stringify(crossing(content, name));
  if (kind(content) !== "an array") fail(name, "a string or an array of content parts", content);
  return spelt(content, name, true)[0];
}

/**
 * A chunk's bytes as a plain `Uint8Array`, its extent read through the
 * intrinsic getters alone: the glue sizes its allocation in wasm memory by
 * the chunk's `length`, then copies every byte, so a subclass's `length`
 * that lies, or a Proxy's that changes between reads, would write past the
 * allocation into other trackers' memory. A Proxy is no view or buffer.
 */
export function toBytes(chunk) {
  // The usual chunk, a plain non-empty Uint8Array (what fetch and
  // TextEncoder give), crosses as it is: its length can only be the
  // intrinsic one. The tag getter runs none of the caller's code (a Proxy
  // has no tag); an empty or detached chunk takes the checked way.
  if (typedTag.call(chunk) === "Uint8Array" && Object.getPrototypeOf(chunk) === Uint8Array.prototype && !Object.hasOwn(chunk, "length") && typedLength.call(chunk) > 0) return chunk;
  const view = ArrayBuffer.isView(chunk);
  const [buffer, offset, length] = !view ? bufferExtent : typedTag.call(chunk) ? typedExtent : dataViewExtent;
  let bytes;
  try {
    bytes = new Uint8Array(buffer.call(chunk), offset.call(chunk), length.call(chunk));
  } catch (error) {
    if (view || isBuffer(chunk)) throw new TypeError("pushSse(chunk): chunk's ArrayBuffer was detached (transferred)", { cause: error });
  }
  return bytes ?? fail("pushSse(chunk): chunk", "a string or a Uint8Array", chunk);
}

const getters = (proto, ...names) => names.map((name) => Object.getOwnPropertyDescriptor(proto, name).get);
const typedArray = Object.getPrototypeOf(Uint8Array.prototype);
// A typed array's tag (undefined for a DataView); its extent, a DataView's, a buffer's.
const [typedTag] = getters(typedArray, Symbol.toStringTag);
const typedExtent = getters(typedArray, "buffer", "byteOffset", "byteLength");
const typedLength = typedExtent[2];
const dataViewExtent = getters(DataView.prototype, "buffer", "byteOffset", "byteLength");
const [bufferLength] = getters(ArrayBuffer.prototype, "byteLength");
const bufferExtent = [function () { return this; }, () => 0, bufferLength];

/** Whether `value` is an ArrayBuffer itself (a Proxy or a SharedArrayBuffer is not). */
function isBuffer(value) {
  try {
    return bufferLength.call(value) >= 0;
  } catch {
    return false;
  }
}

/**
 * The fields of `event` when it is a plain `TOOL_CALL_ARGS` object and no
 * more: own keys `type`, `toolCallId` and `delta`, with `timestamp` and
 * then `subagentRunId` after `type` when there are (as `@ag-ui/core`'s
 * schemas and the Python encoder order them), the timestamp a whole number
 * of milliseconds; the ids and delta whole strings (a lone surrogate half
 * crosses as JSON, whose escape keeps it for its pair: rule T4), the
 * call's id not empty; no `toJSON`. Each is read once, as JSON.stringify
 * would have read it, and returned as `[toolCallId, delta, timestamp,
 * subagentRunId]` (-1 and `undefined` for none): the core reads them as it
 * reads the event's JSON text (`Tracker::push_args`). Anything else, or
 * what throws here, is `undefined`: it goes the JSON way. The array is the
 * same one each time, refilled: valid until the next call.
 * @param {any} event
 * @returns {[string, string, number, string | undefined] | undefined}
 */
export function plainArgs(event) {
  try {
    // Object.getPrototypeOf throws for null and undefined, caught below.
    if (Object.getPrototypeOf(event) !== Object.prototype) return;
    const keys = Object.keys(event);
    let at = 1;
    const timed = keys[at] === "timestamp";
    if (timed) at++;
    const owned = keys[at] === "subagentRunId";
    if (owned) at++;
    if (keys[0] !== "type" || keys.length !== at + 2 || keys[at] !== "toolCallId" || keys[at + 1] !== "delta") return;
    const { type, timestamp, subagentRunId, toolCallId, delta, toJSON } = event;
    // An empty id crosses as JSON: an empty `feedArgs` id is the last one's.
    if (type !== "TOOL_CALL_ARGS" || !wholeString(toolCallId) || !toolCallId || !wholeString(delta) || toJSON !== undefined) return;
    if (timed && !(Number.isSafeInteger(timestamp) && timestamp >= 0)) return;
    if (owned && !wholeString(subagentRunId)) return;
    fields[0] = toolCallId;
    fields[1] = delta;
    fields[2] = timed ? timestamp : -1;
    fields[3] = owned ? subagentRunId : undefined;
    return fields;
  } catch {}
}

// Refilled by each `plainArgs`: an array per event was garbage on the
// commonest path.
/** @type {[string, string, number, string | undefined]} */
const fields = ["", "", -1, undefined];

/** Whether `s` is a string with no lone surrogate (`isWellFormed`: Node 20, every current browser; without it, none is taken as whole), short enough to cross. */
const wholeString = (s) => typeof s === "string" && s.length < MAX_CROSSING / 16 && s.isWellFormed?.() === true;
