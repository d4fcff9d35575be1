// Where a stream's bytes come from (a file or stdin), and which format they
// are in, told from the first bytes that are not blank.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";

const CHUNK = 64 * 1024;

/** An input the user named, or an error that says why it cannot be read. */
export class InputError extends Error {}

/**
 * Opens `name` (a path, or `-` for stdin): `{ label, size, chunks }`, where
 * `chunks` is an async iterable of Buffers and `size` is null when unknown.
 */
export async function openInput(name) {
  if (name === "-") return { label: "<stdin>", size: null, chunks: process.stdin };
  let info;
  try {
    info = await stat(name);
  } catch (error) {
    throw new InputError(`${name}: ${describe(error)}`);
  }
  if (info.isDirectory()) throw new InputError(`${name}: is a directory`);
  return { label: name, size: info.size, chunks: readChunks(name) };
}

async function* readChunks(name) {
  try {
    yield* createReadStream(name, { highWaterMark: CHUNK });
  } catch (error) {
    throw new InputError(`${name}: ${describe(error)}`);
  }
}

function describe(error) {
  switch (error.code) {
    case "ENOENT":
      return "no such file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a directory";
    default:
      return error.message;
  }
}

const SSE_FIELDS = ["data", "event", "id", "retry"].map((f) => Buffer.from(f));

/**
 * The format of a stream from its first bytes: "jsonl", "sse", null (not a
 * stream) or undefined (too few bytes yet to tell; `ended` says no more come).
 */
export function detectFormat(bytes, ended) {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && isSpace(bytes[i])) i++;
  if (i === bytes.length) return ended ? null : undefined;
  if (bytes[i] === 0x7b) return "jsonl"; // {
  if (bytes[i] === 0x3a) return "sse"; // a comment line
  let undecided = false;
  for (const field of SSE_FIELDS) {
    const verdict = startsWithField(bytes, i, field);
    if (verdict === true) return "sse";
    if (verdict === undefined) undecided = true;
  }
  return undecided && !ended ? undefined : null;
}

/** Whether `field` followed by ":" or a line end starts at `i`; undefined if the bytes stop first. */
function startsWithField(bytes, i, field) {
  for (let k = 0; k < field.length; k++) {
    if (i + k >= bytes.length) return undefined;
    if (bytes[i + k] !== field[k]) return false;
  }
  const next = bytes[i + field.length];
  if (next === undefined) return undefined;
  return next === 0x3a || next === 0x0a || next === 0x0d;
}

function isSpace(b) {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/** Human names of the formats. */
export const FORMAT_NAMES = { jsonl: "JSON Lines", sse: "text/event-stream" };
