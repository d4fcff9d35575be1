// `npm run bench`'s per-event benchmark runs end to end, in Node and in
// Chromium, on tiny streams (AGUI_BENCH_QUICK=1): every table gets its rows
// and figures, and the report is written with the machine it ran on. What
// the figures are is never asserted: speed is measured, not tested.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { root } from "./support/paths.mjs";

test("the perf bench runs in Node and Chromium and writes its report", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "agui-perf-test-"));
  const out = path.join(dir, "performance.md");
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, "bench", "perf.bench.mjs")], {
      env: { ...process.env, AGUI_BENCH_QUICK: "1", AGUI_BENCH_OUT: out },
      timeout: 120_000,
    });
    const report = readFileSync(out, "utf8");
    assert.ok(report.startsWith("# Performance\n"));
    assert.ok(report.includes(stdout.trim()), "the report holds what was printed");
    assert.match(stdout, /^Measured \d{4}-\d\d-\d\dT[\d:]+Z on .+, \d+ cores, Node v[\d.]+, Chromium \d+[\d.]*/m);
    assert.match(stdout, /shared with other jobs and noisy/);
    const time = String.raw`\d[\d.]* µs`;
    const ratio = String.raw`\d[\d.]*x`;
    for (const env of ["Node", "Chromium"]) {
      for (const scenario of ["1 call, 64 KB arguments", "100 calls x 1 KB", "100 calls x 1 KB, from a subagent"]) {
        const row = `\\| ${env}, ${scenario} \\|`;
        // Steady state: floor, ours, ours / floor, the reference, client / ours.
        assert.match(stdout, new RegExp(`${row} ${time} \\| ${time} \\| ${ratio} \\| ${time} \\| ${ratio} \\|`));
        // Event objects, and the chunk holding many events.
        assert.match(stdout, new RegExp(`${row} ${time} \\| ${ratio} \\| `));
        assert.match(stdout, new RegExp(`${row} ${time} \\| ${time} \\| ${ratio} \\| `));
      }
      // Cold: import, import to first snapshot, the CPU time before the
      // stream, per event, for both libraries.
      const before = "[\\d.]+ ms";
      const ours = ['ours, `init\\({ warmUp: "idle" }\\)`', "ours, `init\\(\\)`, no warm-up", ...(env === "Chromium" ? ['ours, `init\\({ warmUp: "worker" }\\)`'] : [])];
      for (const arm of ours) {
        assert.match(stdout, new RegExp(`\\| ${env}, ${arm} \\| [\\d.]+ ms \\| [\\d.]+ ms \\| ${before} \\| ${time} \\| ${ratio} \\|`));
      }
      assert.match(stdout, new RegExp(`\\| ${env}, @ag-ui/client 1.0 \\| [\\d.]+ ms \\| [\\d.]+ ms \\| ${before} \\| ${time} \\|`));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
