/** An AG-UI tool the application advertises (`RunAgentInput.tools`). */
export interface Tool {
  name: string;
  description?: string;
  /** The tool's parameters, as a JSON Schema (2020-12 or draft-07). */
  parameters?: unknown;
}

/** A content part of a tool result or answer (opaque to the tracker). */
export type ContentPart = { type: string; [key: string]: unknown };

/** The tool message an answer becomes, for the next run's `messages`. */
export interface ToolMessage {
  id: string;
  role: "tool";
  toolCallId: string;
  content: string | ContentPart[];
  error?: string;
}

/** The parts of a `RunAgentInput` the tracker reads; other fields pass through. */
export interface RunAgentInput {
  threadId: string;
  runId: string;
  messages: Array<{ id: string; role: string; [key: string]: unknown }>;
  tools?: Tool[];
  [key: string]: unknown;
}

export interface TrackerOptions {
  /** Advertised frontend tools (rule F1). */
  tools?: Tool[];
  /** Tool names that must be approved before they may be answered (rule S3). */
  requireApproval?: string[];
  /** A stream fragment: no `RUN_STARTED` required first (rule L1). */
  fragment?: boolean;
  /** Bounds on what one thread may make the tracker hold (rule S5). */
  limits?: { maxArgsBytes?: number; maxDepth?: number; maxCalls?: number };
}

export interface Violation {
  /** The rule id, such as `T1`. */
  readonly code: string;
  readonly severity: "fatal" | "violation" | "warning";
  readonly message: string;
  /** Zero-based index of the offending event. */
  readonly eventIndex: number;
  readonly toolCallId?: string;
  readonly messageId?: string;
}

export interface ToolResult {
  readonly messageId: string;
  readonly content: string | readonly ContentPart[];
  readonly error?: string;
  /** `stream`: a `TOOL_CALL_RESULT`; `history`: a tool message of run input or a snapshot; `application`: the application's answer. */
  readonly source: "stream" | "history" | "application";
  readonly subagentRunId?: string;
  /** The producer answered a frontend call (rule F4): kept, not the answer. */
  readonly rejected?: true;
}

export interface ArgsError {
  readonly kind: "parse" | "schema" | "limit";
  readonly message: string;
  /** Byte offset into the argument text (parse and limit errors). */
  readonly position?: number;
  /** Each schema failure, with its instance path (a JSON Pointer) and keyword. */
  readonly errors?: readonly { readonly path: string; readonly keyword: string; readonly message: string }[];
}

export interface ToolCallState {
  readonly id: string;
  readonly name: string;
  readonly parentMessageId?: string;
  /** The owner: the subagent run that streams the call (absent: the parent agent). */
  readonly subagentRunId?: string;
  /** The run the call was (last) opened in. */
  readonly runId?: string;
  readonly status: "open" | "complete" | "abandoned";
  /** The concatenated deltas, exactly (rule T4). */
  readonly argsText: string;
  /**
   * While open: a best-effort value of the text so far (frozen), computed on
   * first read from the text that arrived since the last read (complete
   * parts are shared between successive values). A getter on the call's
   * prototype, so it is not an own enumerable property (`{...call}` and
   * `JSON.stringify(call)` leave it out). `undefined` once complete. Rules:
   * strings grow as they stream, numbers and literals appear once complete,
   * nothing shown ever disappears.
   */
  readonly partialArgs: unknown;
  /**
   * Once complete and the text parsed (rule T6): the arguments (frozen),
   * parsed from `argsText` on first read, keys in the order sent. A lazy
   * getter like `partialArgs`.
   */
  readonly args?: unknown;
  readonly argsError?: ArgsError;
  /** The tool was advertised: a frontend call (rule F1). */
  readonly advertised: boolean;
  readonly validation: "valid" | "invalid" | "unvalidated";
  readonly consent: "unrequested" | "approved" | "declined";
  /** Closed, unanswered, its run finished: the application must answer it (rule F2). */
  readonly pending: boolean;
  /** How many times the call was reopened (rule T7). */
  readonly reopened: number;
  /** The result that answers the call. */
  readonly result?: ToolResult;
  /** Every result received for the call, in order. */
  readonly results: readonly ToolResult[];
}

export interface RunState {
  readonly status: "idle" | "running" | "finished" | "interrupted" | "errored";
  readonly threadId?: string;
  readonly runId?: string;
  readonly outcome?:
    | { readonly type: "success"; readonly pendingToolCallIds?: readonly string[] }
    | { readonly type: "interrupt"; readonly interrupts: readonly unknown[] };
  /** The message of `RUN_ERROR`. */
  readonly error?: string;
}

/** An immutable view of the tracker; unchanged parts keep their identity across snapshots. */
export interface Snapshot {
  /** Increments with every change. */
  readonly version: number;
  readonly run: RunState;
  /** Every call, in first-start order. */
  readonly calls: readonly ToolCallState[];
  /** Still streaming. */
  readonly openCalls: readonly ToolCallState[];
  /** Closed. */
  readonly completedCalls: readonly ToolCallState[];
  /** Closed, unanswered, run finished: the application must answer these. */
  readonly pendingCalls: readonly ToolCallState[];
  /** Every violation and warning, in order. */
  readonly violations: readonly Violation[];
  readonly fatal: Violation | null;
}

/** Thrown by `push`, `pushJson` and `pushSse` when the stream breaks a fatal rule. */
export declare class ToolCallStreamError extends Error {
  readonly name: "ToolCallStreamError";
  readonly violation: Violation;
  constructor(violation: Violation);
}

/** Why the tracker refused an application operation. */
export type RefusalKind =
  | "unknownCall"
  | "open"
  | "abandoned"
  | "answered"
  | "declined"
  | "notTheApplications"
  | "approvalRequired"
  | "messageIdInUse"
  | "invalidContent"
  | "unanswered"
  | "malformedInput"
  | "runActive"
  | "stopped"
  | "limit";

/** A call a run input leaves unanswered. */
export interface UnansweredCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The application answered it, but the input does not carry the answer. */
  readonly answerLeftOut: boolean;
}

/** Thrown by `approve`, `decline`, `answer`, `fail` and `startRun` when the tracker refuses; nothing changed. */
export declare class ToolCallRefusedError extends Error {
  readonly name: "ToolCallRefusedError";
  readonly kind: RefusalKind;
  /** The call operated on, or each call a run input leaves unanswered. */
  readonly toolCallIds: readonly string[];
  /** With kind `unanswered`: each call the input leaves unanswered. */
  readonly unanswered: readonly UnansweredCall[];
  constructor(record: { kind: RefusalKind; message: string; toolCallIds: string[]; unanswered?: UnansweredCall[] });
}

/** The tool-call state of one AG-UI thread. */
export declare class ToolCallTracker {
  constructor(options?: TrackerOptions);
  /** Reads one AG-UI event object. */
  push(event: object): Snapshot;
  /** Reads one event given as JSON text. */
  pushJson(text: string): Snapshot;
  /** Reads raw `text/event-stream` input, split anywhere. */
  pushSse(chunk: string | Uint8Array): Snapshot;
  /** The current snapshot: the identical object while nothing changes. */
  snapshot(): Snapshot;
  /** Calls `listener` with each new snapshot; returns the unsubscribe function. */
  subscribe(listener: (snapshot: Snapshot) => void): () => void;
  /** Advertises the input's tools and checks that it answers every pending call; throws naming each unanswered call. */
  startRun(input: RunAgentInput): void;
  approve(toolCallId: string): Snapshot;
  decline(toolCallId: string, reason?: string): Snapshot;
  answer(toolCallId: string, content: string | ContentPart[]): Snapshot;
  fail(toolCallId: string, error: string, content?: string): Snapshot;
  /** The application's answers, for the next run's `input.messages`. */
  toolMessages(): ToolMessage[];
  /** Releases the wasm memory; the tracker is unusable afterwards. */
  free(): void;
}
