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
  /** Called when a run's input is refused (a pending call left unanswered, an open interrupt left uncovered by `runAgent({ resume })`); the run is stopped before the request leaves. Default: `console.error`. */
  onRefused?: (error: Error) => void;
}

/** The reason a run that ended without `RUN_FINISHED` or `RUN_ERROR` is aborted with. */
export declare const UNTERMINATED: string;

/**
 * Subscribes `tracker` to `agent`: each run's input is declared to it, every
 * event goes through it before the agent applies it, an event it refuses is
 * not applied and stops the run (`fatal` on the snapshot), and a run that is
 * stopped, fails or ends without a terminal event aborts the tracker's run.
 * Returns the unsubscribe function. The tracker may be typed by its tools
 * (`as const`).
 */
export declare function trackAgent<Tools extends readonly ToolOption[]>(
  agent: TrackableAgent,
  tracker: ToolCallTracker<Tools>,
  options?: TrackAgentOptions,
): () => void;
