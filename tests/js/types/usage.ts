// Checked by `tsc --noEmit` (tests/js/types.test.mjs): the declarations
// accept what the package does and refuse what it does not.
import {
  ToolCallTracker,
  ToolCallStreamError,
  ToolCallRefusedError,
  TrackerFreedError,
  TrackerTrappedError,
  type RefusalKind,
  type Snapshot,
  type ToolCallState,
  type ToolMessage,
  type Violation,
} from "agui-tool-calls";
import { useToolCalls } from "agui-tool-calls/react";

const tracker = new ToolCallTracker({
  tools: [{ name: "confirm_deploy", description: "Ask first", parameters: { type: "object" } }],
  requireApproval: ["confirm_deploy"],
  fragment: false,
  limits: {
    maxArgsBytes: 1 << 20,
    maxDepth: 32,
    maxCalls: 100,
    maxEventBytes: 1 << 22,
    maxThreadBytes: 1 << 25,
    maxIdBytes: 256,
    maxMessages: 1000,
    maxLanes: 8,
  },
});

const snapshot: Snapshot = tracker.push({ type: "RUN_STARTED", threadId: "t", runId: "r" });
tracker.pushJson("{}");
tracker.pushSse("data: {}\n\n");
tracker.pushSse(new Uint8Array([100]));

const status: "idle" | "running" | "finished" | "interrupted" | "cancelled" | "errored" | "aborted" = snapshot.run.status;
if (snapshot.run.status === "cancelled") {
  const cancelled: { readonly type: "cancelled" } = snapshot.run.outcome;
}
const leftByACancelledRun: boolean | undefined = snapshot.calls[0]?.cancelled;
const first: ToolCallState | undefined = snapshot.calls[0];
if (first) {
  const text: string = first.argsText;
  const partial: unknown = first.partialArgs;
  const validation: "valid" | "invalid" | "unvalidated" = first.validation;
  const consent: "unrequested" | "approved" | "declined" = first.consent;
  const source: "stream" | "history" | "application" | undefined = first.result?.source;
  const kind: "parse" | "schema" | "limit" | undefined = first.argsError?.kind;
  const paths: string[] | undefined = first.argsError?.errors?.map((e) => e.path);
  void [text, partial, validation, consent, source, kind, paths];
  // @ts-expect-error snapshots are read-only
  first.argsText = "x";
}
const fatal: Violation | null = snapshot.fatal;
void [status, fatal];

try {
  tracker.push({ type: "TOOL_CALL_END", toolCallId: "x" });
} catch (error) {
  if (error instanceof ToolCallStreamError) {
    const code: string = error.violation.code;
    const index: number = error.violation.eventIndex;
    void [code, index];
  }
}

const unsubscribe: () => void = tracker.subscribe((s: Snapshot) => void s.version);
unsubscribe();
tracker.startRun({ threadId: "t", runId: "r2", messages: [], tools: [] });
tracker.approve("c1");
tracker.decline("c1");
tracker.decline("c1", "not now");
tracker.answer("c1", "done");
tracker.answer("c1", [{ type: "text", text: "done" }]);
tracker.fail("c1", "boom");
tracker.fail("c1", "boom", "details");
tracker.fail("c1", "boom", [{ type: "text", text: "trace" }]);
tracker.decline("c1", null);
const count: number = snapshot.violations[0]!.count;
void count;
try {
  tracker.toolMessages();
} catch (error) {
  if (error instanceof TrackerTrappedError) {
    const cause: WebAssembly.RuntimeError = error.cause;
    void cause;
  } else if (error instanceof TrackerFreedError) {
    const name: "TrackerFreedError" = error.name;
    void name;
  }
}
const messages: ToolMessage[] = tracker.toolMessages();
const role: "tool" = messages[0]!.role;
void role;

// @ts-expect-error content is a string or content parts
tracker.answer("c1", 42);
// @ts-expect-error failure content is a string or content parts
tracker.fail("c1", "boom", 42);
// @ts-expect-error a run input needs messages
tracker.startRun({ threadId: "t", runId: "r3" });
// @ts-expect-error an unknown option
new ToolCallTracker({ tool: [] });
// @ts-expect-error limits are numbers
new ToolCallTracker({ limits: { maxDepth: "deep" } });

const fromHook: Snapshot = useToolCalls(tracker);
void fromHook;
tracker.free();

// Refusals are typed: the kind narrows to the known ones, the ids are strings.
try {
  tracker.startRun({ threadId: "t", runId: "r3", messages: [], tools: [] });
} catch (e) {
  if (e instanceof ToolCallRefusedError) {
    const kind: RefusalKind = e.kind;
    const ids: readonly string[] = e.toolCallIds;
    const leftOut: boolean | undefined = e.unanswered[0]?.answerLeftOut;
    // @ts-expect-error not a refusal kind
    const wrong: "nope" = e.kind;
    void [kind, ids, leftOut, wrong];
  }
}

// Loading: init() and warmUp(), from the main entry and from /init (the same declarations).
import { init, warmUp } from "agui-tool-calls";
import { init as initAgain, ToolCallTracker as InitTracker } from "agui-tool-calls/init";
const loaded: Promise<void> = init({ warmUp: "idle" });
const warmed: Promise<boolean> = warmUp("worker");
void [loaded, warmed, initAgain(), warmUp(), new InitTracker()];
// @ts-expect-error "off" is init's, not a warm-up
warmUp("off");
// @ts-expect-error not a warm-up mode
init({ warmUp: "eager" });
