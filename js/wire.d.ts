// Generated from the Rust types of src/wire/ and the core types they hold;
// do not edit: `UPDATE_GENERATED=1 cargo test --lib wire::` rewrites it.
// Internal (not shipped): what the wasm core sends the JS layer, and the
// options it reads. The JS readers of the records (js/snapshot.js, js/tracker.js,
// js/check/diagnostics.js) are type-checked against it, and js/index.d.ts is
// checked against it (tests/js/wire-types.test.mjs).

/**
 * What changed since the last record: the run when it changed, each
 * changed call (in the order they changed: the JS layer places each by
 * `index`), the new violations, repeats of earlier ones, the new
 * unmatched results, and the fatal violation.
 */
export type ChangeRecord = {
  /**
   * Grows with every change of the tracker.
   */
  version: number;
  /**
   * Present when the run changed.
   */
  run?: RunRecord;
  calls: Array<CallRecord>;
  violations: Array<Violation>;
  /**
   * Earlier violations repeated: `[index, count]` pairs.
   */
  counted?: Array<[number, number]>;
  /**
   * Results whose call the tracker never saw (rule T10), new since the
   * last record.
   */
  unmatchedResults?: Array<UnmatchedRecord>;
  fatal: Violation | null;
  /**
   * Present when the run changed: the thread's open interrupts, whole
   * (rule I1).
   */
  interrupts?: Array<InterruptRecord>;
  /**
   * Present when the run changed: the user's standing approvals, whole
   * (rule S3).
   */
  standingApprovals?: Array<StandingApproval>;
  /**
   * The subagents changed since the last record (rule A8), each placed
   * by `index`.
   */
  subagents?: Array<SubagentRecord>;
};

/**
 * The whole state without argument text or values: what a report needs
 * after a stream, at a cost independent of the arguments' size. Its calls
 * carry `argsBytes` and `closedAt`, which change records leave out.
 */
export type SummaryRecord = {
  version: number;
  /**
   * How many events the tracker read.
   */
  eventsSeen: number;
  run: RunRecord;
  calls: Array<CallRecord>;
  violations: Array<Violation>;
  fatal: Violation | null;
};

/**
 * The latest run.
 */
export type RunRecord = {
  status: RunStatus;
  threadId?: string;
  runId?: string;
  outcome?: OutcomeRecord;
  /**
   * `RUN_FINISHED.result`, kept as given.
   */
  result?: unknown;
  /**
   * The message of `RUN_ERROR`, or the reason given to `abortRun`.
   */
  error?: string;
};

/**
 * `RUN_FINISHED.outcome` as the producer spelled it; each interrupt with
 * its fields (rule I1).
 */
export type OutcomeRecord = { "type": "success", pendingToolCallIds?: Array<string>, } | { "type": "interrupt", interrupts: Array<Interrupt>, } | { "type": "cancelled" };

/**
 * One call: in a change record, a call that changed; in a summary, every
 * call.
 */
export type CallRecord = {
  /**
   * Its place in the snapshot's `calls`.
   */
  index: number;
  id: string;
  name: string;
  parentMessageId?: string;
  subagentRunId?: string;
  runId?: string;
  status: CallStatus;
  /**
   * The argument text appended since the last record (in summaries,
   * none).
   */
  append: string;
  /**
   * In summaries: the length of the whole argument text, in bytes of
   * UTF-8 (the page never reads it, so change records leave it out).
   */
  argsBytes?: number;
  /**
   * While open: `argsText.slice(0, cut) + suffix` is the partial value.
   */
  partial?: PartialRecord;
  /**
   * Complete, and the text parsed: JS parses its own copy of the text,
   * natively and in key order, when `args` is first read.
   */
  parsed: boolean;
  argsError?: ArgsErrorRecord;
  advertised: boolean;
  validation: ValidationState;
  consent: Consent;
  /**
   * When a standing approval approved the call: the call on which the
   * user gave it (rule S3).
   */
  consentFrom?: string;
  pending: boolean;
  /**
   * Left unanswered by a cancelled run (rule L8); omitted when not.
   */
  cancelled?: boolean;
  /**
   * The open interrupt that asks this call's approval (rule I3).
   */
  awaitingInterrupt?: string;
  reopened: number;
  /**
   * `encryptedValue`, as delivered (rule F10).
   */
  encryptedValue?: string;
  /**
   * `encryptedValueType`, as delivered.
   */
  encryptedValueType?: string;
  /**
   * `metadata`, merged as delivered.
   */
  metadata?: { [key in string]?: unknown };
  /**
   * In summaries: the event that last closed the call.
   */
  closedAt?: number;
  result?: ResultRecord;
  results: Array<ResultRecord>;
};

/**
 * The usable prefix of an open call's text, and what closes it.
 */
export type PartialRecord = {
  /**
   * In UTF-16 code units, as JS strings count.
   */
  cut: number;
  suffix: string;
};

/**
 * Why a call's arguments are unusable.
 */
export type ArgsErrorRecord = {
  kind: ArgsErrorClass;
  message: string;
  /**
   * Byte offset into the argument text (parse and limit errors).
   */
  position?: number;
  /**
   * The schema failures kept: the first 100, fewer when the thread's
   * budget could not hold them.
   */
  errors?: Array<ValidationError>;
  /**
   * How many schema failures there were; more than `errors.length`
   * when some were only counted.
   */
  errorCount?: number;
};

/**
 * A result received for a call (or for no known call).
 */
export type ResultRecord = {
  messageId: string;
  /**
   * A string or content parts, kept as given.
   */
  content: unknown;
  error?: string;
  source: ResultSource;
  subagentRunId?: string;
  /**
   * The producer answered a frontend call (rule F4): kept, not the answer.
   */
  rejected?: boolean;
};

/**
 * A result whose `toolCallId` names no call the tracker saw (rule T10).
 */
export type UnmatchedRecord = {
  toolCallId: string;
  result: ResultRecord;
};

/**
 * An application operation the tracker refused, as the JS layer's
 * `ToolCallRefusedError` reads it: the kind, the message and the calls
 * concerned (for a refused run input, each unanswered call).
 */
export type RefusalRecord = {
  kind: RefusalKind;
  message: string;
  toolCallIds: Array<string>;
  unanswered?: Array<UnansweredRecord>;
  /**
   * The interrupts concerned (rules I4, I5).
   */
  interruptIds?: Array<string>;
  /**
   * For a refused run input, each interrupt it leaves uncovered (I5).
   */
  uncovered?: Array<UncoveredRecord>;
  /**
   * For a refused payload or edited arguments, each schema failure (I4).
   */
  errors?: Array<ValidationError>;
  /**
   * For a malformed run input or saved thread, the field at fault by
   * its path (`messages[2].id`); absent for the value as a whole.
   */
  path?: string;
};

/**
 * A call a run input leaves unanswered.
 */
export type UnansweredRecord = {
  toolCallId: string;
  toolName: string;
  answerLeftOut: boolean;
};

/**
 * An open interrupt (rule I1) and the application's decision (rule I4).
 */
export type InterruptRecord = {
  interrupt: Interrupt;
  status: InterruptStatus;
  /**
   * The payload of a resolved interrupt, when it has one.
   */
  payload?: unknown;
};

/**
 * An interrupt a run input leaves uncovered, or resolves though it expired.
 */
export type UncoveredRecord = {
  interruptId: string;
  expired: boolean;
};

/**
 * An announced subagent invocation (rule A8).
 */
export type SubagentRecord = {
  /**
   * Its place in the tracker's list of subagents.
   */
  index: number;
  subagentRunId: string;
  name: string;
  status: SubagentStatus;
  description?: string;
  parentToolCallId?: string;
  parentSubagentRunId?: string;
  parentMessageId?: string;
  /**
   * The interrupts a suspended invocation raised itself.
   */
  interruptIds?: Array<string>;
  /**
   * `SUBAGENT_ERROR`'s message.
   */
  error?: string;
  /**
   * `SUBAGENT_ERROR`'s code.
   */
  code?: string;
  /**
   * `SUBAGENT_FINISHED.result`, kept as given.
   */
  result?: unknown;
};

/**
 * A saved thread.
 */
export type SavedRecord = {
  /**
   * The format: 1.
   */
  version: number;
  interrupts: Array<InterruptRecord>;
  /**
   * The calls the user decided on, or answered without a run carrying
   * the answer yet.
   */
  calls: Array<SavedCallRecord>;
  standingApprovals: Array<StandingApproval>;
  violations: Array<Violation>;
};

/**
 * One call's decisions.
 */
export type SavedCallRecord = {
  id: string;
  consent?: Consent;
  consentFrom?: string;
  /**
   * The application's answer no run input carried yet.
   */
  answer?: SavedAnswerRecord;
};

/**
 * An answer no run input carried yet.
 */
export type SavedAnswerRecord = {
  messageId: string;
  content: unknown;
  error?: string;
};

/**
 * Where a call stands.
 */
export type CallStatus = "open" | "complete" | "abandoned";

/**
 * Whether the application let a call be executed (rule S3).
 */
export type Consent = "unrequested" | "approved" | "declined";

/**
 * What validation says of a call's arguments; the errors are in
 * `argsError`.
 */
export type ValidationState = "unvalidated" | "valid" | "invalid";

/**
 * What made a call's arguments unusable: the text does not parse or
 * passes a limit (`schema`, the value fails the tool's schema, is
 * named by `schema_error`).
 */
export type ArgsErrorClass = "parse" | "schema" | "limit";

/**
 * Where a result came from.
 */
export type ResultSource = "stream" | "history" | "application";

/**
 * Where the latest run stands.
 */
export type RunStatus = "idle" | "running" | "finished" | "interrupted" | "cancelled" | "errored" | "aborted";

/**
 * Why the tracker refused an application operation, as the JS layer's
 * `ToolCallRefusedError.kind` holds it.
 */
export type RefusalKind = "unknownCall" | "open" | "abandoned" | "answered" | "declined" | "notTheApplications" | "approvalRequired" | "messageIdInUse" | "invalidContent" | "unanswered" | "malformedInput" | "runActive" | "stopped" | "limit" | "unknownInterrupt" | "interruptCovered" | "interruptExpired" | "invalidPayload" | "invalidEditedArgs" | "awaitingInterrupt" | "uncovered" | "invalidSaved";

/**
 * Where a subagent invocation stands (rule A8).
 */
export type SubagentStatus = "running" | "finished" | "suspended" | "errored" | "abandoned";

/**
 * What the application decided about an open interrupt (rule I4).
 */
export type InterruptStatus = "open" | "resolved" | "cancelled";

/**
 * One broken rule, with where it happened.
 */
export type Violation = {
  /**
   * The rule id of `RULES.md`, such as `T1`.
   */
  code: string;
  /**
   * How bad it is.
   */
  severity: Severity;
  /**
   * The human-readable message.
   */
  message: string;
  /**
   * Zero-based index of the offending event in the stream.
   */
  eventIndex: number;
  /**
   * `toolCallId`: the tool call.
   */
  toolCallId?: string;
  /**
   * `messageId`: the message.
   */
  messageId?: string;
  /**
   * The field at fault, as a path in the event: `toolCallId`,
   * `input.messages[2].toolCalls[0].id` (keys joined by `.`, list items
   * as `[i]`). Absent when no one field is: the event as a whole is out
   * of place, or the fault is the stream's (a limit on its length).
   */
  path?: string;
  /**
   * How many times it happened: repeats of one violation (same rule,
   * message and call, at other events) are kept once, counted here;
   * `event_index` is the first occurrence.
   */
  count: number;
};

/**
 * How bad a broken rule is (see the severities of `docs/rules.md`).
 */
export type Severity = "fatal" | "violation" | "warning";

/**
 * One way an instance fails its schema.
 */
export type ValidationError = {
  /**
   * JSON Pointer to the failing place in the instance (`""` is the root).
   */
  path: string;
  /**
   * The keyword that failed, such as `required` or `type`.
   */
  keyword: string;
  /**
   * The human-readable message.
   */
  message: string;
};

/**
 * How a tracker is set up.
 */
export type Options = {
  /**
   * Tools the application advertises for every run (rule F1).
   */
  tools?: Array<Tool>;
  /**
   * The stream is a fragment: it need not begin with a run event (L1).
   */
  fragment?: boolean;
  /**
   * Tools whose calls must be approved before the application may answer
   * or fail them (rule S3); declining is always allowed.
   */
  requireApproval?: Array<string>;
  /**
   * Bounds on what one thread may make the tracker hold (rule S5).
   */
  limits?: Limits;
};

/**
 * Bounds on what one thread may make the tracker hold (rule S5); each is
 * described, with its default and what exceeding it does, in
 * `docs/limits.md`. Per-call limits (`max_args_bytes`, `max_depth`) mark
 * the call and the stream goes on; the others are fatal.
 */
export type Limits = {
  /**
   * Most bytes of argument text per call.
   */
  maxArgsBytes?: number;
  /**
   * Deepest nesting of arrays and objects in arguments.
   */
  maxDepth?: number;
  /**
   * Most tool calls per thread; one more is fatal.
   */
  maxCalls?: number;
  /**
   * Most bytes of one event: its JSON text, or an event-stream line or
   * event's data; more is fatal.
   */
  maxEventBytes?: number;
  /**
   * Most bytes the thread may retain, all told (argument text, results,
   * ids, names, history); more is fatal.
   */
  maxThreadBytes?: number;
  /**
   * Most bytes of one id or name (call, message, thread and run ids,
   * tool names, `subagentRunId`); more is fatal.
   */
  maxIdBytes?: number;
  /**
   * Most message ids per thread (an id in the owner table and among the
   * ids in use counts twice); one more is fatal.
   */
  maxMessages?: number;
  /**
   * Most chunk lanes open at once, for tool calls and for text messages
   * each; one more is fatal.
   */
  maxLanes?: number;
};

/**
 * A tool the application advertises (`Tool` of `@ag-ui/core`).
 */
export type Tool = {
  /**
   * The name.
   */
  name: string;
  /**
   * What the tool does, for the model.
   */
  description?: string;
  /**
   * The tool's parameters, a JSON Schema.
   */
  parameters?: unknown;
};

/**
 * One interrupt of an interrupt outcome (rule I1), its fields as given.
 */
export type Interrupt = {
  id: string;
  reason: string;
  message?: string;
  toolCallId?: string;
  responseSchema?: { [key in string]?: unknown };
  expiresAt?: string;
  metadata?: { [key in string]?: unknown };
  subagentRunId?: string;
};

/**
 * The user's approval of every later call to one tool in this thread
 * (rule S3), given when approving one call.
 */
export type StandingApproval = {
  /**
   * The tool whose calls it approves.
   */
  tool: string;
  /**
   * The call the user approved when giving it.
   */
  toolCallId: string;
};
