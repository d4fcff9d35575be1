import type { ToolCallTracker, ToolOption } from "./index.js";

/**
 * What `trackAgent` needs of an agent: the subscriber interface and
 * `abortRun` of `@ag-ui/client`'s `AbstractAgent` (so `HttpAgent` and any
 * custom agent fit).
 */
export interface TrackableAgent {
  subscribe(subscriber: object): { unsubscribe(): void };
  abortRun(): void;
}

export interface TrackAgentOptions {
  /** Called when a run's input is refused (a pending call left unanswered, an open interrupt left uncovered by `runAgent({ resume })`; the run is stopped before the request leaves), or the agent's history cannot restore the tracker. Default: `console.error`. */
  onRefused?: (error: Error) => void;
}

/** The reason a run that ended without `RUN_FINISHED` or `RUN_ERROR` is aborted with. */
export declare const UNTERMINATED: string;

/**
 * Subscribes `tracker` to `agent`: the agent's history, when it has one (a
 * page reloaded), restores the tracker (`restore`: its unanswered frontend
 * calls pending again); each run's input is declared to it, with a closing
 * tool message added for every call it holds that a stopped or failed run
 * abandoned; every event goes through it before the agent applies it, an
 * event it refuses is not applied and stops the run (`fatal` on the
 * snapshot), and a run that is stopped, fails or ends without a terminal
 * event aborts the tracker's run, the reason in `run.error` (an event
 * @ag-ui/client rejected: its message; a request that failed before
 * `RUN_STARTED`: `HTTP 500: ...`, a network error, the run declared being the
 * one aborted). Returns the unsubscribe function.
 * The tracker may be typed by its tools (`as const`).
 */
export declare function trackAgent<Tools extends readonly ToolOption[]>(
  agent: TrackableAgent,
  tracker: ToolCallTracker<Tools>,
  options?: TrackAgentOptions,
): () => void;
