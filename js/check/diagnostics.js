// @ts-check
// What a stream is charged with: the core's violations, and the checker's
// own findings about the recording (rules R1-R3) and about the arguments
// the core judged (T6, S1, S5). Counted in full by rule and severity, kept
// in detail up to a bound per rule, so two million repeats of one warning
// cost a counter, not gigabytes. A violation the core already aggregated
// (`count`) counts as that many.

/** Detailed diagnostics kept per rule; the rest are counted. */
const KEEP_PER_RULE = 20;

/**
 * What the checker's own findings say, by rule id, for reports that describe
 * their rules (SARIF): R1-R3 are no protocol rules; T6 and S1 are reported
 * here as findings about a call's arguments.
 */
export const CHECKER_TITLES = Object.freeze({
  R1: "The recording ends inside a run, or with calls open.",
  R2: "The file mixes formats: a line of another format than the file's.",
  R3: "A line over the line limit (the reading of that stream stops).",
  T6: "The arguments of a closed call are not JSON.",
  S1: "The arguments of a call to an advertised tool fail its schema.",
});

export class Diagnostics {
  #byRule = new Map(); // code -> { kept, count, firstLine }
  totals = { fatal: 0, violation: 0, warning: 0 };

  /** Adds one diagnostic: `{ code, severity, message, eventIndex, line, ... }`. */
  add(v) {
    const n = Number.isSafeInteger(v.count) && v.count > 0 ? v.count : 1;
    this.totals[v.severity] = (this.totals[v.severity] ?? 0) + n;
    let rule = this.#byRule.get(v.code);
    if (rule === undefined) {
      rule = { kept: [], count: 0 };
      this.#byRule.set(v.code, rule);
    }
    rule.count += n;
    if (rule.kept.length < KEEP_PER_RULE || v.severity === "fatal") rule.kept.push(v);
  }

  /** The worst severity seen: "fatal", "violations", "warnings" or "clean". */
  get verdict() {
    if (this.totals.fatal > 0) return "fatal";
    if (this.totals.violation > 0) return "violations";
    if (this.totals.warning > 0) return "warnings";
    return "clean";
  }

  /** The kept diagnostics in the order of the stream (by line, then event). */
  list() {
    const all = [...this.#byRule.values()].flatMap((r) => r.kept);
    const key = (v) => [v.line ?? Infinity, v.eventIndex ?? Infinity];
    return all.sort((a, b) => {
      const [la, ea] = key(a);
      const [lb, eb] = key(b);
      return la - lb || ea - eb;
    });
  }

  /** Per rule: `{ code: { count, shown } }`, for rules with more than were kept. */
  omitted() {
    const out = {};
    for (const [code, r] of this.#byRule) {
      const shown = r.kept.reduce((n, v) => n + (v.count ?? 1), 0);
      if (r.count > shown) out[code] = { count: r.count, shown: r.kept.length };
    }
    return out;
  }

  /** Per rule id, how many. */
  counts() {
    return Object.fromEntries([...this.#byRule].map(([code, r]) => [code, r.count]));
  }
}

/**
 * The checker's findings in a finished reading: arguments that did not parse
 * or fail their schema (at the event that closed the call), and the end of
 * input inside a run or with calls open (rule R1).
 * @param {import("../wire").SummaryRecord} summary the core's summary (type-checked against the generated records)
 * @param {(eventIndex: number) => number | null} lineOf
 * @param {boolean} stopped
 */
export function findingsOf(summary, lineOf, stopped) {
  const out = [];
  for (const call of summary.calls) {
    const error = call.argsError;
    if (!error || call.status === "open") continue;
    const at = call.closedAt ?? null;
    const base = { source: "checker", eventIndex: at, line: at === null ? null : lineOf(at), toolCallId: call.id };
    // A frontend call's arguments reach the application: broken ones are a
    // violation. A backend call's are the agent's own business: a warning.
    const severity = call.advertised ? "violation" : "warning";
    if (error.kind === "schema") {
      const kept = error.errors ?? [];
      for (const e of kept) {
        out.push({ ...base, code: "S1", severity, message: `arguments of ${quote(call.name)} fail the schema at ${quote(e.path)}: ${e.keyword}: ${e.message}`, schemaPath: e.path, keyword: e.keyword });
      }
      const more = (error.errorCount ?? kept.length) - kept.length;
      if (more > 0) {
        // Counted as the failures it stands for.
        out.push({ ...base, code: "S1", severity, count: more, message: `arguments of ${quote(call.name)} fail the schema in ${more} more place${more === 1 ? "" : "s"} (only the first ${kept.length} failures are kept)` });
      }
    } else if (error.kind === "parse") {
      const where = error.position === undefined ? "" : ` at byte ${error.position}`;
      out.push({ ...base, code: "T6", severity, message: `arguments of ${quote(call.name)} are not JSON${where}: ${error.message}` });
    } else if (error.kind === "limit") {
      out.push({ ...base, code: "S5", severity, message: `arguments of ${quote(call.name)} stopped at a limit: ${error.message}` });
    }
  }
  if (!stopped) {
    const open = summary.calls.filter((c) => c.status === "open").map((c) => c.id);
    const running = summary.run.status === "running";
    if (running || open.length > 0) {
      const last = summary.eventsSeen - 1;
      const calls = open.length === 0 ? "no call open" : `call${open.length === 1 ? "" : "s"} ${open.map(quote).join(", ")} still open`;
      const inRun = running ? `inside run ${quote(summary.run.runId ?? "?")}` : "outside a run";
      out.push({
        source: "checker",
        code: "R1",
        severity: "violation",
        message: `the recording ends ${inRun}, with ${calls} (cut off?)`,
        eventIndex: last >= 0 ? last : null,
        line: last >= 0 ? lineOf(last) : null,
        openCalls: open,
      });
    }
  }
  return out;
}

function quote(s) {
  return JSON.stringify(String(s));
}

/** The totals of a list of results, by verdict. */
export function countVerdicts(results) {
  const totals = { streams: results.length, clean: 0, warnings: 0, violations: 0, fatal: 0, unreadable: 0 };
  for (const r of results) totals[r.verdict]++;
  return totals;
}
