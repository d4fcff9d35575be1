// @ts-check
// Checks one named input (a file, or "-" for stdin) in Node: opens it and
// hands its bytes to the shared checker of stream.js.
import { WasmTracker } from "../tracker.js";
import { InputError, openInput } from "./input.js";
import { checkChunks } from "./stream.js";
import { framesAsJsonLines } from "./proto.js";

/**
 * The results of one input: one per stream (a HAR file holds several), each
 * `{ label, verdict, ... }`, or `{ label, verdict: "unreadable", error }`.
 * `options` is the core's options object; `read` is checkChunks's, plus
 * `progress(label, size)`, which may return `{ advance(n), done() }`.
 */
export async function checkInput(name, options, read = {}) {
  let source;
  try {
    source = await openInput(name);
  } catch (error) {
    if (error instanceof InputError) return [{ label: name, verdict: "unreadable", error: error.message, notes: [] }];
    throw error;
  }
  const meter = read.progress?.(source.label, source.size) ?? null;
  try {
    return await checkChunks(source.label, source.chunks, options, { ...read, size: source.size, protoFrames: framesAsJsonLines, onBytes: (n) => meter?.advance(n) });
  } finally {
    meter?.done();
  }
}

/** Throws the core's message when it refuses `options`. */
export function checkOptions(options) {
  new WasmTracker(JSON.stringify(options)).free();
}
