// @ts-check
// JUnit XML, for CI test reports: a testsuite per stream. Its first
// testcase is the stream as a whole (failed by a fatal error, in error when
// unreadable); each violation is a failed testcase of its own; warnings are
// listed in the suite's system-out and counted in a property.

/** The JUnit report of all results, as XML text. */
export function junitReport(results, totals) {
  const suites = results.map(suite);
  const failures = results.reduce((n, r) => n + failuresOf(r), 0);
  const tests = results.reduce((n, r) => n + testsOf(r), 0);
  const errors = totals.unreadable;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="agui-tool-calls check" tests="${tests}" failures="${failures}" errors="${errors}">\n` +
    suites.join("") +
    `</testsuites>\n`
  );
}

const hard = (r) => (r.violations ?? []).filter((v) => v.severity !== "warning");
const warningsOf = (r) => (r.violations ?? []).filter((v) => v.severity === "warning");
const testsOf = (r) => 1 + hard(r).filter((v) => v.severity === "violation").length;
const failuresOf = (r) => hard(r).length;

function suite(r) {
  const name = attr(r.label);
  if (r.verdict === "unreadable") {
    return (
      `  <testsuite name="${name}" tests="1" failures="0" errors="1">\n` +
      `    <testcase classname="${name}" name="stream"><error message="${attr(r.error)}">${text(r.error)}</error></testcase>\n` +
      `  </testsuite>\n`
    );
  }
  const fatal = r.violations.find((v) => v.severity === "fatal");
  const cases = [testcase(r, "stream", fatal)];
  for (const v of r.violations.filter((v) => v.severity === "violation")) {
    cases.push(testcase(r, `${v.code} at ${where(v)}`, v));
  }
  const warnings = warningsOf(r);
  const props = [
    ["format", r.format],
    ["events", r.summary.eventsSeen],
    ["run.status", r.summary.run.status],
    ["calls", r.summary.calls.length],
    ["pending", r.pending.join(",")],
    ["warnings", r.totals?.warning ?? warnings.length],
  ];
  const out = warnings.map((v) => `${r.label}:${v.line ?? "?"}: warning[${v.code}]: ${v.message}${eventOf(v)}`);
  return (
    `  <testsuite name="${name}" tests="${testsOf(r)}" failures="${failuresOf(r)}" errors="0">\n` +
    `    <properties>\n` +
    props.map(([k, v]) => `      <property name="${attr(k)}" value="${attr(v)}"/>\n`).join("") +
    `    </properties>\n` +
    cases.join("") +
    (out.length > 0 ? `    <system-out>${text(out.join("\n"))}</system-out>\n` : "") +
    `  </testsuite>\n`
  );
}

function testcase(r, name, v) {
  const open = `    <testcase classname="${attr(r.label)}" name="${attr(name)}"`;
  if (!v) return `${open}/>\n`;
  const detail = `${r.label}:${v.line ?? "?"}: ${v.severity}[${v.code}]: ${v.message}${eventOf(v)}`;
  return `${open}><failure type="${attr(v.code)}" message="${attr(v.message)}">${text(detail)}</failure></testcase>\n`;
}

function where(v) {
  if (v.eventIndex === null || v.eventIndex === undefined) return `line ${v.line}`;
  return v.line === null ? `event ${v.eventIndex}` : `line ${v.line} (event ${v.eventIndex})`;
}

/** " (event N)", or nothing for a finding about a line that is no event (R2, R3). */
function eventOf(v) {
  return v.eventIndex === null || v.eventIndex === undefined ? "" : ` (event ${v.eventIndex})`;
}

// Characters XML 1.0 cannot carry at all are dropped; markup is escaped.
const INVALID_XML = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function text(value) {
  return String(value).replace(INVALID_XML, "\ufffd").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function attr(value) {
  return text(value).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;");
}
