// @ts-check
// SARIF 2.1.0, for code-scanning tools: one run, a rule for each rule id
// seen, a result for each violation located at its line.
import { pathToFileURL } from "node:url";
import process from "node:process";
import path from "node:path";
import { RULE_TITLES } from "./rules.js";
import { CHECKER_TITLES } from "../diagnostics.js";

const LEVELS = { fatal: "error", violation: "error", warning: "warning" };

/** The base every artifact URI is relative to: the working directory. */
const BASE = "CWD";

/** The SARIF log of all results, as text; `version` is the package's; `cwd` the directory URIs are relative to. */
export function sarifReport(results, version, cwd = process.cwd()) {
  const location = (r, v = null) => locationOf(r, v, cwd);
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
          shortDescription: { text: CHECKER_TITLES[id] ?? RULE_TITLES[id] ?? `Rule ${id}` },
          defaultConfiguration: { level: levelOfRule(results, id) },
        })),
      },
    },
    originalUriBaseIds: {
      [BASE]: { uri: pathToFileURL(cwd + path.sep).href, description: { text: "The working directory of the check." } },
    },
    invocations: [
      {
        executionSuccessful: results.every((r) => r.verdict !== "unreadable"),
        toolExecutionNotifications: results
          .filter((r) => r.verdict === "unreadable")
          .map((r) => ({ level: "error", message: { text: r.error }, locations: [location(r)] })),
      },
    ],
    results: results.flatMap((r) =>
      (r.violations ?? []).map((v) => ({
        ruleId: v.code,
        ruleIndex: ruleIndex.get(v.code),
        level: LEVELS[v.severity] ?? "note",
        message: { text: v.message },
        locations: [location(r, v)],
        properties: {
          severity: v.severity,
          ...(v.eventIndex !== null && v.eventIndex !== undefined && { eventIndex: v.eventIndex }),
          ...(r.name && { stream: r.name, ...(v.line !== null && { bodyLine: v.line }) }),
          ...(v.count > 1 && { count: v.count }),
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

/**
 * Where a result is: its file, relative to the working directory, and its
 * line. A HAR stream's lines are lines of a response body inside the file,
 * so they go to `properties.bodyLine`, not the region.
 */
function locationOf(r, v, cwd) {
  const file = r.name ? r.label.replace(/#\d+$/, "") : r.label;
  const physicalLocation = { artifactLocation: artifactOf(file, cwd) };
  const line = v?.line ?? null;
  if (line !== null && !r.name) physicalLocation.region = { startLine: line };
  return { physicalLocation };
}

/** A path as a URI relative to the working directory (`uriBaseId`), or absolute when it cannot be. */
function artifactOf(file, cwd) {
  if (file === "<stdin>") return { uri: "stdin" };
  const relative = path.relative(cwd, path.resolve(cwd, file));
  if (path.isAbsolute(relative)) return { uri: pathToFileURL(path.resolve(cwd, file)).href };
  return { uri: relative.split(path.sep).map(encodeURIComponent).join("/"), uriBaseId: BASE };
}

function levelOfRule(results, id) {
  const severities = results.flatMap((r) => (r.violations ?? []).filter((v) => v.code === id).map((v) => v.severity));
  return severities.every((s) => s === "warning") ? "warning" : "error";
}

function byRuleId(a, b) {
  return a[0] === b[0] ? Number(a.slice(1)) - Number(b.slice(1)) || a.localeCompare(b) : a.localeCompare(b);
}
