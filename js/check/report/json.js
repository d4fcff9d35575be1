// @ts-check
// The report for programs: one JSON document, each stream with the core's
// summary and its violations with their lines.

/** The JSON report of all results, as text. */
export function jsonReport(results, totals, exitCode) {
  const streams = results.map((r) =>
    r.verdict === "unreadable"
      ? { file: r.label, verdict: r.verdict, error: r.error, notes: r.notes ?? [] }
      : {
          file: r.label,
          name: r.name,
          format: r.format,
          containers: r.containers,
          bytes: r.bytes,
          verdict: r.verdict,
          stoppedAtFatal: r.stopped,
          pending: r.pending,
          violations: r.violations,
          fatal: r.violations.find((v) => v.severity === "fatal") ?? null,
          counts: r.counts,
          severities: r.totals,
          omitted: r.omitted,
          notes: r.notes,
          summary: r.summary,
        },
  );
  return JSON.stringify({ tool: "agui-tool-calls", totals, exitCode, streams }, null, 2) + "\n";
}
