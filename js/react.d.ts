import type { Snapshot, ToolCallTracker } from "./index.js";

/** The tracker's current snapshot, re-rendering on each new one (via `useSyncExternalStore`). */
export declare function useToolCalls(tracker: ToolCallTracker): Snapshot;
