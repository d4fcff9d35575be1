// The report for people: a header, a table of calls and compiler-style
// diagnostics (`file:line: severity[RULE]: message`) per stream.
import { FORMAT_NAMES } from "../input.js";
import { plainMessage } from "./message.js";

const MAX_ROWS = 50; // more calls than this: the JSON report lists them all
const MAX_CELL = 32;

/** Colours, or none (`enabled` false). */
export function palette(enabled) {
  const wrap = (open, close) => (enabled ? (s) => `\x1b[${open}m${s}\x1b[${close}m` : (s) => s);
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    magenta: wrap(35, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
  };
}

/** The text report of all results, as one string. */
export function textReport(results, totals, colour) {
  const c = palette(colour);
  const parts = results.map((r) => (r.verdict === "unreadable" ? null : streamSection(r, c))).filter(Boolean);
  parts.push(summaryLine(totals, c));
  return parts.join("\n") + "\n";
}

function streamSection(result, c) {
  const { summary } = result;
  const out = [`${c.bold(result.label)}: ${header(result)}`];
  out.push(...callTable(summary.calls, c));
  if (result.pending.length > 0) out.push(`  pending: ${result.pending.join(", ")}`);
  for (const v of result.violations) out.push(diagnostic(result.label, v, c));
  out.push(`  ${verdictWord(result.verdict, c)}`);
  return out.join("\n") + "\n";
}

function header(result) {
  const { run, eventsSeen } = result.summary;
  const events = `${eventsSeen} event${eventsSeen === 1 ? "" : "s"}${result.stopped ? " (stopped at the fatal error)" : ""}`;
  let status = `run ${run.status}`;
  if (run.outcome?.type) status += ` (${run.outcome.type})`;
  if (run.error) status += ` (${run.error})`;
  return `${FORMAT_NAMES[result.format]}, ${events}, ${status}`;
}

function callTable(calls, c) {
  if (calls.length === 0) return ["  no tool calls"];
  const shown = calls.slice(0, MAX_ROWS);
  const rows = [["id", "tool", "status", "args", "validation", "consent", "result"], ...shown.map(callRow)];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r, n) => {
    const text = "  " + r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join("  ");
    return n === 0 ? c.dim(text) : text;
  });
  if (shown.some((call) => !call.advertised)) lines.push(c.dim("  * a tool the run did not advertise"));
  if (calls.length > shown.length) lines.push(`  ... ${calls.length - shown.length} more calls (--format json lists them all)`);
  return lines;
}

function callRow(call) {
  return [
    cell(call.id),
    cell(call.name) + (call.advertised ? "" : "*"),
    call.status + (call.reopened > 0 ? ` (reopened ${call.reopened}x)` : ""),
    size(call.argsBytes) + (call.argsError ? ` (${call.argsError.kind} error)` : ""),
    call.validation,
    call.consent,
    resultCell(call),
  ];
}

function resultCell(call) {
  if (call.pending) return call.advertised ? "pending" : "pending (unadvertised tool)";
  const answer = call.result;
  if (!answer) return "-";
  if (answer.error !== undefined) return `failed (${cell(answer.messageId)}): ${cell(answer.error)}`;
  return `answered (${cell(answer.messageId)})`;
}

function cell(text) {
  const s = String(text).replace(/[\x00-\x1f\x7f]/g, " ");
  return s.length > MAX_CELL ? `${s.slice(0, MAX_CELL - 1)}…` : s;
}

function size(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `file:line: severity[RULE]: message (event N, toolCallId "x")` */
export function diagnostic(label, v, c = palette(false)) {
  const where = v.line === null ? label : `${label}:${v.line}`;
  const colour = { fatal: c.red, violation: c.magenta, warning: c.yellow }[v.severity] ?? ((s) => s);
  const about = [`event ${v.eventIndex}`];
  if (v.toolCallId !== undefined) about.push(`toolCallId ${JSON.stringify(v.toolCallId)}`);
  if (v.messageId !== undefined) about.push(`messageId ${JSON.stringify(v.messageId)}`);
  return `${c.bold(where + ":")} ${colour(`${v.severity}[${v.code}]`)}: ${plainMessage(v)} (${about.join(", ")})`;
}

function verdictWord(verdict, c) {
  switch (verdict) {
    case "fatal":
      return c.red("broken: a fatal error stopped the stream");
    case "violations":
      return c.magenta("violations");
    case "warnings":
      return c.yellow("warnings only");
    default:
      return c.green("clean");
  }
}

function summaryLine(t, c) {
  const parts = [
    c.green(`${t.clean} clean`),
    c.yellow(`${t.warnings} with warnings`),
    c.magenta(`${t.violations} with violations`),
    c.red(`${t.fatal} fatal`),
  ];
  if (t.unreadable > 0) parts.push(c.red(`${t.unreadable} unreadable`));
  return `${c.bold(`${t.streams} stream${t.streams === 1 ? "" : "s"}:`)} ${parts.join(", ")}`;
}
