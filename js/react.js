// The React binding: `useToolCalls(tracker)` re-renders on each new snapshot.
import { useSyncExternalStore } from "react";

/**
 * The tracker's current snapshot. Snapshots are immutable and unchanged
 * calls keep their identical objects, so `memo` components re-render only
 * for the calls that changed.
 */
export function useToolCalls(tracker) {
  return useSyncExternalStore(
    (onChange) => tracker.subscribe(onChange),
    () => tracker.snapshot(),
    () => tracker.snapshot(),
  );
}
