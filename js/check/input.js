// @ts-check
// Where a stream's bytes come from in Node: a file or stdin.
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
