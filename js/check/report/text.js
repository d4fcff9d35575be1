// @ts-check
// The report for people: a header, a table of calls and compiler-style
// diagnostics (`file:line: severity[RULE]: message`) per stream.
import { FORMAT_NAMES } from "../detect.js";
import { escapeDeep } from "./terminal.js";

const MAX_ROWS = 50; // more calls than this: the JSON report lists them all
const MAX_CELL = 32;

/** Colours, or none (`enabled` false). */
function palette(enabled) {
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

/**
 * The text report of all results, as one string. Every string of the
 * results is escaped of control characters first (`terminal.js`): the only
 * escape sequences in the report are its own colours.
 */
export function textReport(results, totals, colour) {
  const c = palette(colour);
  const parts = results.map((r) => (r.verdict === "unreadable" ? null : streamSection(escapeDeep(r), c))).filter(Boolean);
  parts.push(summaryLine(totals, c));
  return parts.join("\n") + "\n";
}

function streamSection(result, c) {
  const { summary } = result;
  const out = [`${c.bold(result.label)}${result.name ? ` (${cell(result.name, 120)})` : ""}: ${header(result)}`];
  for (const note of result.notes ?? []) out.push(c.dim(`  note: ${note}`));
  out.push(...callTable(summary.calls, c));
  if (result.pending.length > 0) out.push(`  pending: ${result.pending.join(", ")}`);
  for (const v of result.violations) out.push(diagnostic(result.label, v, c));
  for (const [code, o] of Object.entries(result.omitted ?? {})) {
    out.push(`  ... ${o.count - o.shown} more [${code}] not shown (${o.count} in all; --format json counts them by rule)`);
  }
  out.push(`  ${verdictWord(result.verdict, c)}`);
  return out.join("\n") + "\n";
}

function header(result) {
  const { run, eventsSeen } = result.summary;
  const events = `${eventsSeen} event${eventsSeen === 1 ? "" : "s"}${result.stopped ? " (stopped at the fatal error)" : ""}`;
  let status = `run ${run.status}`;
  if (run.outcome?.type) status += ` (${run.outcome.type})`;
  if (run.error) status += ` (${run.error})`;
  const inside = (result.containers ?? []).slice().reverse().map((f) => ` in ${FORMAT_NAMES[f]}`).join("");
  return `${FORMAT_NAMES[result.format]}${inside}, ${events}, ${status}`;
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

function cell(text, max = MAX_CELL) {
  const s = String(text).replace(/[\x00-\x1f\x7f]/g, " ");
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
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
  const about = v.eventIndex === null || v.eventIndex === undefined ? [] : [`event ${v.eventIndex}`];
  if (v.toolCallId !== undefined) about.push(`toolCallId ${JSON.stringify(v.toolCallId)}`);
  if (v.messageId !== undefined) about.push(`messageId ${JSON.stringify(v.messageId)}`);
  if (v.count > 1) about.push(`${v.count} times`);
  const tail = about.length > 0 ? ` (${about.join(", ")})` : "";
  return `${c.bold(where + ":")} ${colour(`${v.severity}[${v.code}]`)}: ${v.message}${tail}`;
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
