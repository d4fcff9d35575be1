// The reference consumer, @ag-ui/client 1.0.0, as an oracle: events through
// its compatibility boundary, enforcement, chunk expansion and verification,
// in the processing model's order. What it hands the application, what it
// warned about, and the error that stopped it, if any.
import { CompatibilityBoundary, enforceEvents, transformChunks, verifyEvents } from "@ag-ui/client";
import { from, lastValueFrom, toArray } from "rxjs";

/** @returns {Promise<{ events: object[], warnings: string[], error?: string }>} */
export async function reference(events) {
  const warnings = [];
  const warn = console.warn;
  console.warn = (...parts) => warnings.push(parts.join(" "));
  try {
    // The boundary is a middleware; its translation is applied event by event, as its `run` does.
    const boundary = new CompatibilityBoundary();
    const translated = events.map((event) => boundary.transformEvent(structuredClone(event)));
    const out = await lastValueFrom(from(translated).pipe(enforceEvents(), transformChunks(false), verifyEvents(false), toArray()));
    return { events: out, warnings };
  } catch (error) {
    return { events: [], warnings, error: String(error?.message ?? error) };
  } finally {
    console.warn = warn;
  }
}
