// @ts-check
// The advertised tools given with `--tools`, in the shape the core takes.

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
