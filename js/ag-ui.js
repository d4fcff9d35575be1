// `agui-tool-calls/ag-ui`: a ToolCallTracker subscribed to an @ag-ui/client
// agent (HttpAgent, or any AbstractAgent). Nothing here imports
// @ag-ui/client: the agent's own subscriber interface is all it uses.
import { ToolCallStreamError } from "./index.js";

/** The reason a run that ended without `RUN_FINISHED` or `RUN_ERROR` is aborted with. */
export const UNTERMINATED = "the run ended without RUN_FINISHED or RUN_ERROR";

/**
 * Subscribes `tracker` to `agent`: each run's input is declared to it
 * (`startRun`, its `resume` list from `runAgent({ resume })` checked
 * against the open interrupts), every event goes through it before the agent applies it, an
 * event it refuses (fatal) is not applied and stops the run (`agent.abortRun()`),
 * and a run that is stopped, fails or ends without a terminal event aborts the
 * tracker's run. Returns the unsubscribe function.
 */
export function trackAgent(agent, tracker, { onRefused = (error) => console.error(error) } = {}) {
  if (!agent || typeof agent.subscribe !== "function") throw new TypeError("trackAgent needs an @ag-ui/client agent");
  if (!tracker || typeof tracker.push !== "function") throw new TypeError("trackAgent needs a ToolCallTracker");
  // The run's input was refused (a pending call left unanswered, an open
  // interrupt its `resume` list leaves uncovered): nothing of it is applied.
  let refused = false;
  const stop = () => agent.abortRun?.();
  const endRun = (reason) => {
    if (tracker.snapshot().run.status === "running") tracker.abortRun(reason);
  };
  const { unsubscribe } = agent.subscribe({
    onRunInitialized({ input }) {
      refused = false;
      try {
        tracker.startRun(input);
      } catch (error) {
        refused = true;
        // Before the request leaves: an aborted HttpAgent sends nothing.
        stop();
        onRefused(error);
      }
    },
    onEvent({ event }) {
      if (refused) return { stopPropagation: true };
      // What @ag-ui/client makes of an aborted request (the user stopped, or
      // the agent was stopped): not the producer's error, the run is aborted.
      if (event.type === "RUN_ERROR" && event.code === "abort" && !tracker.snapshot().fatal) {
        endRun(typeof event.message === "string" ? event.message : "aborted");
        return undefined;
      }
      try {
        tracker.push(event);
      } catch (error) {
        if (!(error instanceof ToolCallStreamError)) throw error;
        // The error is on the tracker's snapshot (`fatal`); the agent keeps
        // what it applied before and never sees this event or any later one.
        stop();
        return { stopPropagation: true };
      }
      return undefined;
    },
    onRunFailed({ error }) {
      endRun(error instanceof Error ? error.message : String(error));
    },
    onRunFinalized() {
      endRun(UNTERMINATED);
    },
  });
  return unsubscribe;
}
