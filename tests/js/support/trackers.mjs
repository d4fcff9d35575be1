// Trackers in the states many tests start from.
import { ToolCallTracker } from "../../../pkg/index.js";
import { runStarted, runFinished, call } from "./events.mjs";

/** The frontend tool those trackers advertise. */
export const CONFIRM_TOOLS = [{ name: "confirm", parameters: { type: "object" } }];

/** A tracker whose finished run left call `c1` (tool `confirm`) pending for the application. */
export function pendingTracker() {
  const t = new ToolCallTracker({ tools: CONFIRM_TOOLS });
  t.push(runStarted());
  for (const e of call("c1", "confirm", ['{"ok":true}'])) t.push(e);
  t.push(runFinished());
  return t;
}
