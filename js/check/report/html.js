// @ts-check
// The HTML rendering shared by the `--format html` report (written by Node)
// and the inspector page (rendered in the browser): plain functions from a
// checker result to HTML text, with the style sheet they need. No Node or
// DOM API here, so both can import it.
import { FORMAT_NAMES } from "../detect.js";

/** Escapes text for HTML content and attribute values. */
export function esc(value) {
  return String(value).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]);
}

const VERDICTS = {
  clean: "clean",
  warnings: "warnings only",
  violations: "violations",
  fatal: "broken: a fatal error stopped the stream",
  unreadable: "unreadable",
};

/** The section of one result; `n` numbers it, for the ids its links use. */
export function renderStream(result, n) {
  const p = `s${n}`;
  if (result.verdict === "unreadable") {
    return `<section class="stream verdict-unreadable" id="${p}"><h2>${esc(result.label)} <span class="badge">unreadable</span></h2><p class="error">${esc(result.error)}</p>${notes(result)}</section>`;
  }
  const timeline = result.events ? timelineOf(result) : null;
  return (
    `<section class="stream verdict-${esc(result.verdict)}" id="${p}">` +
    `<h2>${esc(result.label)}${result.name ? ` <small>${esc(result.name)}</small>` : ""} <span class="badge">${esc(VERDICTS[result.verdict])}</span></h2>` +
    `<p class="meta">${esc(headerOf(result))}</p>` +
    notes(result) +
    callsTable(result, timeline, p) +
    violationList(result, p) +
    (timeline ? timelineTable(result, timeline, p) : "") +
    `</section>`
  );
}

function notes(result) {
  const list = result.notes ?? [];
  return list.length === 0 ? "" : `<ul class="notes">${list.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>`;
}

/** "text/event-stream in a curl capture, 31 events, run finished (success)" */
export function headerOf(result) {
  const { run, eventsSeen } = result.summary;
  const inside = (result.containers ?? []).slice().reverse().map((f) => ` in ${FORMAT_NAMES[f]}`).join("");
  let status = `run ${run.status}`;
  if (run.outcome?.type) status += ` (${run.outcome.type})`;
  if (run.error) status += ` (${run.error})`;
  const events = `${eventsSeen} event${eventsSeen === 1 ? "" : "s"}${result.stopped ? " (stopped at the fatal error)" : ""}`;
  return `${FORMAT_NAMES[result.format]}${inside}, ${events}, ${status}`;
}

function callsTable(result, timeline, p) {
  const calls = result.summary.calls;
  if (calls.length === 0) return `<p class="none">No tool calls.</p>`;
  const colour = timeline?.colours ?? colourMap(calls);
  const rows = calls
    .map((c) => {
      const result = c.pending ? (c.advertised ? "pending" : "pending (unadvertised tool)") : c.result ? (c.result.error !== undefined ? `failed (${c.result.messageId}): ${c.result.error}` : `answered (${c.result.messageId})`) : "-";
      const closed = c.closedAt === undefined ? "" : ` <a href="#${p}-e${c.closedAt}">event ${c.closedAt}</a>`;
      return (
        `<tr><td><span class="call c${colour.get(c.id) ?? 0}">${esc(c.id)}</span></td><td>${esc(c.name)}${c.advertised ? "" : "*"}</td>` +
        `<td>${esc(c.status)}${c.reopened > 0 ? ` (reopened ${c.reopened}x)` : ""}${closed}</td><td>${c.argsBytes} B${c.argsError ? ` (${esc(c.argsError.kind)} error)` : ""}</td>` +
        `<td class="v-${esc(c.validation)}">${esc(c.validation)}</td><td>${esc(c.consent)}</td><td>${esc(result)}</td></tr>`
      );
    })
    .join("");
  return (
    `<table class="calls"><caption>Tool calls${result.pending.length ? ` (pending: ${esc(result.pending.join(", "))})` : ""}</caption>` +
    `<thead><tr><th>id</th><th>tool</th><th>status</th><th>args</th><th>validation</th><th>consent</th><th>result</th></tr></thead><tbody>${rows}</tbody></table>` +
    (calls.some((c) => !c.advertised) ? `<p class="foot">* a tool the run did not advertise</p>` : "")
  );
}

function violationList(result, p) {
  const items = result.violations.map((v) => {
    const where = [v.line === null || v.line === undefined ? null : `line ${v.line}`, v.eventIndex === null || v.eventIndex === undefined ? null : `event ${v.eventIndex}`].filter(Boolean).join(", ");
    const link = v.eventIndex === null || v.eventIndex === undefined ? esc(where) : `<a href="#${p}-e${v.eventIndex}">${esc(where)}</a>`;
    return `<li class="sev-${esc(v.severity)}"><span class="code">${esc(v.severity)}[${esc(v.code)}]</span> ${esc(v.message)}${v.count > 1 ? ` (${v.count} times)` : ""} <span class="where">${link}</span></li>`;
  });
  for (const [code, o] of Object.entries(result.omitted ?? {})) items.push(`<li class="omitted">${o.count - o.shown} more [${esc(code)}] not shown (${o.count} in all)</li>`);
  if (items.length === 0) return `<p class="none">No violations.</p>`;
  return `<h3>Violations</h3><ol class="violations">${items.join("")}</ol>`;
}

/** Per event: its type, the call it belongs to, and the violations at it. */
export function timelineOf(result) {
  const marks = new Map();
  for (const v of result.violations) {
    if (v.eventIndex === null || v.eventIndex === undefined) continue;
    if (!marks.has(v.eventIndex)) marks.set(v.eventIndex, []);
    marks.get(v.eventIndex).push(v);
  }
  const colours = colourMap(result.summary.calls);
  const lanes = new Map(); // chunk lane (subagentRunId) -> the call its chunks continue
  const rows = result.events.map((e, index) => {
    let event = null;
    try {
      event = JSON.parse(e.text);
    } catch {
      // shown as not JSON
    }
    const type = typeof event?.type === "string" ? event.type : "(not an event)";
    let call = typeof event?.toolCallId === "string" ? event.toolCallId : null;
    if (type === "TOOL_CALL_CHUNK") {
      const lane = event.subagentRunId ?? "";
      if (call !== null) lanes.set(lane, call);
      else call = lanes.get(lane) ?? null;
    }
    if (call !== null && !colours.has(call)) colours.set(call, colours.size % 8);
    return { index, line: e.line, type, call, detail: detailOf(event), marks: marks.get(index) ?? [] };
  });
  return { rows, colours };
}

function detailOf(event) {
  if (event === null || typeof event !== "object") return "";
  if (typeof event.delta === "string") return `+${event.delta.length} chars`;
  if (typeof event.toolCallName === "string") return event.toolCallName;
  if (typeof event.runId === "string") return `run ${event.runId}`;
  if (typeof event.messageId === "string") return `message ${event.messageId}`;
  return "";
}

function colourMap(calls) {
  return new Map(calls.map((c, i) => [c.id, i % 8]));
}

function timelineTable(result, timeline, p) {
  const rows = timeline.rows
    .map((r) => {
      const marks = r.marks.map((v) => `<span class="mark sev-${esc(v.severity)}" title="${esc(v.message)}">${esc(v.code)}</span>`).join(" ");
      const call = r.call === null ? "" : `<span class="call c${timeline.colours.get(r.call)}">${esc(r.call)}</span>`;
      return `<tr id="${p}-e${r.index}" data-index="${r.index}"${r.marks.length ? ` class="marked"` : ""}><td>${r.index}</td><td>${r.line ?? ""}</td><td>${esc(r.type)}</td><td>${call}</td><td>${esc(r.detail)}</td><td>${marks}</td></tr>`;
    })
    .join("");
  const more = result.eventsTruncated ? `<p class="foot">The timeline shows the first ${timeline.rows.length} of ${result.summary.eventsSeen} events.</p>` : "";
  return (
    `<h3>Timeline</h3><label class="no-print"><input type="checkbox" class="only-marked"> only events with violations</label><div class="timeline-wrap"><table class="timeline"><thead><tr><th>event</th><th>line</th><th>type</th><th>call</th><th>detail</th><th>violations</th></tr></thead><tbody>${rows}</tbody></table></div>${more}`
  );
}

/** "3 streams: 1 clean, 0 with warnings, 1 with violations, 1 fatal" */
export function summaryLine(totals) {
  const parts = [`${totals.clean} clean`, `${totals.warnings} with warnings`, `${totals.violations} with violations`, `${totals.fatal} fatal`];
  if (totals.unreadable > 0) parts.push(`${totals.unreadable} unreadable`);
  return `${totals.streams} stream${totals.streams === 1 ? "" : "s"}: ${parts.join(", ")}`;
}

/** The snapshot of a tracker at one event, for the inspector's scrubber. */
export function renderSnapshot(snapshot, index, row) {
  const calls = snapshot.calls
    .map((c) => {
      const value = c.status === "open" ? c.partialArgs : c.args;
      let shown;
      try {
        shown = value === undefined ? c.argsText : JSON.stringify(value, null, 2);
      } catch {
        shown = c.argsText;
      }
      return `<li class="snap-call"><span class="call">${esc(c.id)}</span> <b>${esc(c.name)}</b> <span class="status">${esc(c.status)}</span>${c.pending ? ` <span class="badge">pending</span>` : ""}<pre>${esc(shown ?? "")}</pre></li>`;
    })
    .join("");
  const pending = snapshot.pendingCalls.map((c) => c.id);
  return (
    `<p class="snap-at">After event ${index}${row ? ` (line ${row.line ?? "?"}, ${esc(row.type)}${row.call ? `, call ${esc(row.call)}` : ""})` : ""}: run ${esc(snapshot.run.status)}; pending: ${pending.length ? esc(pending.join(", ")) : "none"}</p>` +
    (calls ? `<ul class="snap-calls">${calls}</ul>` : `<p class="none">No tool calls yet.</p>`)
  );
}

/** The style sheet of the report and the inspector: light, dark and print. */
export const REPORT_CSS = `
:root { color-scheme: light dark; --fg: #1d1f23; --bg: #fff; --muted: #666; --line: #ddd; --fatal: #b3261e; --violation: #8e24aa; --warning: #9a6700; --ok: #1b7f3b; --mark: #fff3c4; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e6e6; --bg: #16181c; --muted: #9aa0a6; --line: #333; --fatal: #ff8a80; --violation: #e1a6ff; --warning: #ffd166; --ok: #7ee2a8; --mark: #3a3420; } }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 1.5rem; }
h1 { font-size: 1.3rem; } h2 { font-size: 1.1rem; margin: 0 0 .3rem; } h2 small { color: var(--muted); font-weight: normal; }
.stream { border: 1px solid var(--line); border-left-width: 6px; border-radius: 6px; padding: .8rem 1rem; margin: 1rem 0; }
.verdict-clean { border-left-color: var(--ok); } .verdict-warnings { border-left-color: var(--warning); }
.verdict-violations { border-left-color: var(--violation); } .verdict-fatal, .verdict-unreadable { border-left-color: var(--fatal); }
.badge { font-size: .8rem; border: 1px solid currentColor; border-radius: 999px; padding: 0 .5rem; font-weight: normal; }
.verdict-clean .badge { color: var(--ok); } .verdict-warnings .badge { color: var(--warning); } .verdict-violations .badge { color: var(--violation); } .verdict-fatal .badge, .verdict-unreadable .badge { color: var(--fatal); }
.meta, .foot, .none, .notes { color: var(--muted); }
table { border-collapse: collapse; margin: .5rem 0; font-size: 13px; } caption { text-align: left; color: var(--muted); }
th, td { border-bottom: 1px solid var(--line); padding: .15rem .6rem; text-align: left; vertical-align: top; }
.sev-fatal .code, .mark.sev-fatal { color: var(--fatal); } .sev-violation .code, .mark.sev-violation { color: var(--violation); } .sev-warning .code, .mark.sev-warning { color: var(--warning); }
.code, .call, pre, td:first-child { font-family: ui-monospace, monospace; }
.mark { font-weight: bold; border: 1px solid currentColor; border-radius: 3px; padding: 0 .25rem; }
tr.marked { background: var(--mark); } tr:target, tr.current { outline: 2px solid var(--violation); }
.call { border-radius: 3px; padding: 0 .3rem; }
.c0 { background: #4e79a733; } .c1 { background: #f28e2b33; } .c2 { background: #59a14f33; } .c3 { background: #e1575933; }
.c4 { background: #76b7b233; } .c5 { background: #edc94833; } .c6 { background: #b07aa133; } .c7 { background: #ff9da733; }
.error { color: var(--fatal); } pre { margin: .2rem 0 .6rem; white-space: pre-wrap; word-break: break-all; }
.timeline-wrap { max-height: 32rem; overflow: auto; }
@media print { body { margin: 0; font-size: 11px; } .stream { break-inside: avoid-page; border-left-width: 4px; } .timeline-wrap { max-height: none; overflow: visible; } .no-print { display: none; } a { color: inherit; text-decoration: none; } }
`;
