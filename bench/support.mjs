// Shared pieces of the benchmarks: timing and realistic argument documents.
// No Node-only import: bench/perf/ loads this module in Chromium too.

/**
 * Nanoseconds per operation of `fn(i)` over `count` operations, best of
 * `rounds`; `setup()` runs before each round, outside the timing.
 */
export function nsPerOp(count, fn, rounds = 3, setup = () => {}) {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    setup();
    const t0 = performance.now();
    for (let i = 0; i < count; i++) fn(i);
    best = Math.min(best, ((performance.now() - t0) * 1e6) / count);
  }
  return best;
}

/**
 * A tool-call argument document of about `bytes` bytes, shaped like what
 * models send: an object with strings (some escaped, some non-ASCII),
 * numbers, booleans and a growing array of records.
 */
export function argumentsOfSize(bytes) {
  const doc = { title: "Quarterly report — draft", path: "reports/q3.md", overwrite: false, sections: [] };
  for (let i = 0; JSON.stringify(doc).length < bytes; i++) {
    doc.sections.push({
      heading: `Section ${i}: “results” and notes`,
      body: "Revenue grew 12.5% quarter over quarter.\nCosts: see table \"A\".",
      weight: i * 0.25 - 3,
      tags: ["finance", "q3", i % 2 === 0],
    });
  }
  return JSON.stringify(doc);
}

/** Splits text into deltas of `size` UTF-16 units, never inside a surrogate pair. */
export function deltas(text, size) {
  const out = [];
  for (let i = 0; i < text.length; ) {
    let j = Math.min(i + size, text.length);
    if (j < text.length && /[\ud800-\udbff]/.test(text[j - 1])) j++;
    out.push(text.slice(i, j));
    i = j;
  }
  return out;
}

export const kb = (n) => `${n / 1024} KB`;

/**
 * Runs the package's hot path long enough for the engine to tier the wasm
 * and JS up (V8 compiles wasm with a baseline compiler first), so figures
 * are steady-state, as in a long-lived page.
 */
export function warmUp(ToolCallTracker, events = 30000) {
  const tracker = new ToolCallTracker();
  tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  tracker.push({ type: "TOOL_CALL_START", toolCallId: "w", toolCallName: "warm" });
  tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "w", delta: '{"text":"' });
  for (let i = 0; i < events; i++) {
    const s = tracker.push({ type: "TOOL_CALL_ARGS", toolCallId: "w", delta: "abcd" });
    if (i % 64 === 0) void s.calls[0].partialArgs;
  }
  tracker.free();
}

/** RUN_STARTED, then `completed` finished calls with results, then one call opened. */
export function prelude(completed) {
  const events = [{ type: "RUN_STARTED", threadId: "t", runId: "r" }];
  for (let i = 0; i < completed; i++) {
    const id = `done_${i}`;
    events.push(
      { type: "TOOL_CALL_START", toolCallId: id, toolCallName: "lookup", parentMessageId: `m${i}` },
      { type: "TOOL_CALL_ARGS", toolCallId: id, delta: JSON.stringify({ query: `record ${i}`, fields: ["a", "b", "c"], limit: 50 }) },
      { type: "TOOL_CALL_END", toolCallId: id },
      { type: "TOOL_CALL_RESULT", messageId: `r${i}`, toolCallId: id, content: `result ${i} `.repeat(20), role: "tool" },
    );
  }
  events.push({ type: "TOOL_CALL_START", toolCallId: "live", toolCallName: "write", parentMessageId: "m_live" });
  return events;
}
