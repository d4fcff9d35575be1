// The advertised tools a check starts from: given with `--tools`, or read
// from the request a capture recorded (the run input a client POSTed: a
// server that sends `RUN_STARTED` without `input` leaves them nowhere else).
import { utf8 } from "./bytes.js";

/** Tools in a shape the core refuses: says which and why. */
export class ToolsError extends Error {}

/**
 * The tools of `parsed` (a JSON array of AG-UI `Tool` objects, or an object
 * with a `tools` array), each as `{ name, description, parameters }`.
 *
 * ```js
 * toolsOf([{ name: "search" }]); // [{ name: "search", description: "", parameters: {} }]
 * ```
 */
export function toolsOf(parsed) {
  const tools = Array.isArray(parsed) ? parsed : parsed?.tools;
  if (!Array.isArray(tools)) throw new ToolsError('expected a JSON array of tools, or {"tools": [...]}');
  return tools.map((tool, i) => {
    if (tool === null || typeof tool !== "object" || typeof tool.name !== "string") throw new ToolsError(`tool ${i} has no "name" string`);
    const { name, description = "", parameters = {} } = tool;
    if (typeof description !== "string") throw new ToolsError(`tool "${name}" has a description that is not a string`);
    return { name, description, parameters };
  });
}

/**
 * The core's options for a stream whose request body (a run input, as
 * bytes or text, or null) was captured: the given tools, then the
 * request's tools of other names. `{ options, note }`: the note says which
 * tools came from the request, or why none did; null when there was no
 * request body.
 */
export function withRequestTools(options, request) {
  if (request === null || request === undefined) return { options, note: null };
  let input;
  try {
    input = JSON.parse(typeof request === "string" ? request : utf8(request));
  } catch {
    return { options, note: "the captured request body is not JSON: no tools read from it" };
  }
  if (!Array.isArray(input?.tools)) return { options, note: null };
  let tools;
  try {
    tools = toolsOf(input.tools);
  } catch (error) {
    return { options, note: `the captured request's tools were not used: ${error.message}` };
  }
  const given = new Set((options.tools ?? []).map((t) => t.name));
  const added = tools.filter((t) => !given.has(t.name) && given.add(t.name));
  if (added.length === 0) return { options, note: null };
  const names = added.map((t) => t.name).join(", ");
  return { options: { ...options, tools: [...(options.tools ?? []), ...added] }, note: `advertised tools read from the captured request body: ${names}` };
}
