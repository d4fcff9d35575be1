// @ts-check
// `--format html`: one self-contained page (style and script inline, no
// network: a Content-Security-Policy forbids any fetch) with a section per
// stream, rendered by the code the inspector page uses too.
import { createHash } from "node:crypto";
import { REPORT_CSS, esc, renderStream, summaryLine } from "./html.js";

// Filters a timeline to its marked events; nothing else needs a script.
const REPORT_SCRIPT = `
for (const box of document.querySelectorAll(".only-marked")) {
  box.addEventListener("change", () => {
    const table = box.closest(".stream").querySelector(".timeline");
    for (const row of table.tBodies[0].rows) row.hidden = box.checked && !row.classList.contains("marked");
  });
}
`;

/**
 * Nothing from the network, no form that submits anywhere, no `<base>`, and
 * only the one script above runs (by its hash): a recording's text that got
 * past the escaping could still not run or send anything.
 */
const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src '${scriptHash(REPORT_SCRIPT)}'; img-src data:; form-action 'none'; base-uri 'none'`;

function scriptHash(script) {
  return `sha256-${createHash("sha256").update(script, "utf8").digest("base64")}`;
}

/** The HTML report of all results, as one document. */
export function htmlReport(results, totals, version) {
  const title = `AG-UI stream check: ${summaryLine(totals)}`;
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">` +
    `<title>${esc(title)}</title><style>${REPORT_CSS}</style></head><body>\n` +
    `<h1>${esc(summaryLine(totals))}</h1><p class="meta">agui-tool-calls ${esc(version)} check</p>\n` +
    results.map((r, i) => renderStream(r, i)).join("\n") +
    `\n<script>${REPORT_SCRIPT}</script></body></html>\n`
  );
}
