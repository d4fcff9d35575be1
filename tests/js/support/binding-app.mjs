// What the framework binding tests share: the two turns of the
// conversation as real event streams, and one production build of a
// fixture app through its framework's Vite plugin, served beside them and
// opened in headless Chromium (tests/js/fixtures/binding-harness.js drives
// the page).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { serveStatic } from "./static-server.mjs";
import { resultOf, viteBuild } from "./bundle.mjs";
import { runStarted, runFinished, start, args, end, sse } from "./events.mjs";

/** The first turn: two calls awaiting approval, one argument hostile markup. */
export const turn1 = [
  runStarted("r1"),
  start("c1", "confirm_deploy", { parentMessageId: "a1" }),
  args("c1", '{"service":'),
  args("c1", ' "checkout"}'),
  end("c1"),
  start("c2", "delete_service", { parentMessageId: "a1" }),
  args("c2", '{"service":"<img src=x onerror=window.pwned=1>"}'),
  end("c2"),
  runFinished("r1"),
];

/** The second turn: a backend call the run stops on, asking its approval (rule I3). */
export const turn2 = [
  runStarted("r2"),
  start("c3", "transfer", { parentMessageId: "a2" }),
  args("c3", '{"amount":5}'),
  end("c3"),
  runFinished("r2", { outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "tool_approval", toolCallId: "c3", message: "Send 5?" }] } }),
];

/** What every app's cards show, turn by turn. */
export const expected = {
  turn1: ["confirm_deploy checkout awaiting approval Approve Decline", "delete_service <img src=x onerror=window.pwned=1> awaiting approval Approve Decline"],
  answered: ["confirm_deploy checkout answered: Deployed checkout.", "delete_service <img src=x onerror=window.pwned=1> declined"],
  turn2Interrupt: "transfer 5 awaiting interrupt Send 5? (open) Approve Reject",
  resolvedInterrupt: "transfer 5 awaiting interrupt Send 5? (resolved)",
  resume: [{ interruptId: "i1", status: "resolved", payload: { approved: true, editedArgs: { amount: 3 } } }],
};

/**
 * Builds `fixture` for production with `plugins` (one build per suite),
 * serves it with the streams, and returns `window.result` of its page
 * and the warnings the build printed.
 */
export async function runBindingApp(browser, fixture, plugins) {
  const streams = mkdtempSync(path.join(tmpdir(), "agui-streams-"));
  writeFileSync(path.join(streams, "turn1.sse"), sse(turn1));
  writeFileSync(path.join(streams, "turn2.sse"), sse(turn2));
  const warnings = [];
  const dist = await viteBuild(fixture, "vite", warnings, { plugins });
  const server = await serveStatic({ "/streams/": streams, "/": dist });
  try {
    return { result: await resultOf(browser, `${server.url}/index.html`, 60_000, { console: true }), warnings };
  } finally {
    await server.close();
  }
}
