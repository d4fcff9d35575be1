// SARIF 2.1.0, for code-scanning tools: one run, a rule for each rule id
// seen, a result for each violation located at its line.
import { pathToFileURL } from "node:url";
import path from "node:path";
import { RULE_TITLES } from "./rules.js";
import { plainMessage } from "./message.js";

const LEVELS = { fatal: "error", violation: "error", warning: "warning" };

/** The SARIF log of all results, as text; `version` is the package's. */
export function sarifReport(results, version) {
  const seen = [...new Set(results.flatMap((r) => (r.violations ?? []).map((v) => v.code)))].sort(byRuleId);
  const ruleIndex = new Map(seen.map((id, i) => [id, i]));
  const run = {
    tool: {
      driver: {
        name: "agui-tool-calls",
        version,
        informationUri: "https://www.npmjs.com/package/agui-tool-calls",
        rules: seen.map((id) => ({
          id,
          shortDescription: { text: RULE_TITLES[id] ?? `Rule ${id}` },
          defaultConfiguration: { level: levelOfRule(results, id) },
        })),
      },
    },
    invocations: [
      {
        executionSuccessful: results.every((r) => r.verdict !== "unreadable"),
        toolExecutionNotifications: results
          .filter((r) => r.verdict === "unreadable")
          .map((r) => ({ level: "error", message: { text: r.error }, locations: [location(r.label)] })),
      },
    ],
    results: results.flatMap((r) =>
      (r.violations ?? []).map((v) => ({
        ruleId: v.code,
        ruleIndex: ruleIndex.get(v.code),
        level: LEVELS[v.severity] ?? "note",
        message: { text: plainMessage(v) },
        locations: [location(r.label, v.line)],
        properties: {
          severity: v.severity,
          eventIndex: v.eventIndex,
          ...(v.toolCallId !== undefined && { toolCallId: v.toolCallId }),
          ...(v.messageId !== undefined && { messageId: v.messageId }),
        },
      })),
    ),
  };
  return (
    JSON.stringify(
      { $schema: "https://json.schemastore.org/sarif-2.1.0.json", version: "2.1.0", runs: [run] },
      null,
      2,
    ) + "\n"
  );
}

function location(label, line = null) {
  const physicalLocation = { artifactLocation: { uri: uriOf(label) } };
  if (line !== null) physicalLocation.region = { startLine: line };
  return { physicalLocation };
}

/** A relative path stays relative (resolved against the working directory by readers). */
function uriOf(label) {
  if (label === "<stdin>") return "stdin";
  if (path.isAbsolute(label)) return pathToFileURL(label).href;
  return label.split(path.sep).map(encodeURIComponent).join("/");
}

function levelOfRule(results, id) {
  const severities = results.flatMap((r) => (r.violations ?? []).filter((v) => v.code === id).map((v) => v.severity));
  return severities.every((s) => s === "warning") ? "warning" : "error";
}

function byRuleId(a, b) {
  return a[0] === b[0] ? Number(a.slice(1)) - Number(b.slice(1)) : a.localeCompare(b);
}
