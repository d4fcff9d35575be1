// Just enough of `node:assert/strict` for the package's Node test files to
// run in a browser page, with the same strict semantics for what they use.
class AssertionError extends Error {}

function fail(message, fallback) {
  throw new AssertionError(message ?? fallback);
}

const show = (v) => {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
};

/** Strict deep equality over own enumerable keys, as node's deepStrictEqual. */
function deepEqualValues(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqualValues(a[k], b[k]));
}

function matches(error, expected) {
  if (expected === undefined) return true;
  if (expected instanceof RegExp) return expected.test(String(error));
  if (typeof expected === "function" && expected.prototype !== undefined && error instanceof expected) return true;
  if (typeof expected === "function") return expected(error) === true;
  return deepEqualValues(error, expected);
}

function assert(value, message) {
  if (!value) fail(message, `expected a truthy value, got ${show(value)}`);
}

assert.ok = assert;
assert.equal = (a, b, message) => Object.is(a, b) || fail(message, `${show(a)} !== ${show(b)}`);
assert.notEqual = (a, b, message) => !Object.is(a, b) || fail(message, `both are ${show(a)}`);
assert.deepEqual = (a, b, message) => deepEqualValues(a, b) || fail(message, `${show(a)} is not deeply equal to ${show(b)}`);
assert.match = (text, re, message) => re.test(text) || fail(message, `${show(text)} does not match ${re}`);
assert.throws = (fn, expected, message) => {
  try {
    fn();
  } catch (error) {
    if (!matches(error, expected)) fail(message, `the error did not match: ${error}`);
    return;
  }
  fail(message, "expected the function to throw");
};

export default assert;
