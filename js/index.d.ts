/** An AG-UI tool the application advertises (`RunAgentInput.tools`); `Tool` of @ag-ui/core, both ways. */
export interface Tool {
  name: string;
  description: string;
  /** The tool's parameters, as a JSON Schema (2020-12 or draft-07). */
  parameters?: any;
  metadata?: Record<string, any>;
}

/** A tool as the options take it: the description may be left out. */
export type ToolOption = Omit<Tool, "description"> & { description?: string };

/** Where a media part's content is: inline (base64), at a URL, or a provider's file. */
export type PartSource =
  | { type: "data"; value: string; mimeType: string }
  | { type: "url"; value: string; mimeType?: string }
  | { type: "file"; value: string; provider?: string; mimeType?: string };

/** A content part of a tool result or answer, as @ag-ui/core 1.0 defines them (opaque to the tracker). */
export type ContentPart =
  | { type: "text"; id?: string; text: string; metadata?: any }
  | { type: "image" | "audio" | "video" | "document"; id?: string; source: PartSource; metadata?: any };

/** The tool message an answer becomes, for the next run's `messages` (a `ToolMessage` of @ag-ui/core). */
export interface ToolMessage {
  id: string;
  role: "tool";
  toolCallId: string;
  content: string | ContentPart[];
  error?: string;
  subagentRunId?: string;
}

/** A call as an assistant message's `toolCalls` holds it. */
export interface FunctionToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** An assistant message `nextRun` makes up for calls whose message the input lacks. */
export interface AssistantMessage {
  id: string;
  role: "assistant";
  content?: string;
  toolCalls?: FunctionToolCall[];
  subagentRunId?: string;
}

/** What `nextRun` returns: the input, its messages completed with assistant and tool messages. */
export type NextRunInput<I extends RunAgentInput> = Omit<I, "messages"> & {
  messages: Array<I["messages"][number] | AssistantMessage | ToolMessage>;
};

/** An event as `onEvent` receives it: a plain object, as sent. */
export interface AgUiEvent {
  type: string;
  [key: string]: unknown;
}

/** The parts of a `RunAgentInput` the tracker reads; other fields pass through. */
export interface RunAgentInput {
  threadId: string;
  runId: string;
  parentRunId?: string;
  messages: Array<{ id: string; role: string; [key: string]: unknown }>;
  tools?: ToolOption[];
  context?: Array<{ [key: string]: unknown }>;
  [key: string]: unknown;
}

export interface TrackerOptions {
  /** Advertised frontend tools (rule F1). */
  tools?: ToolOption[];
  /** Called with every event read (tracked or not: text, state, custom), in order, once applied; not with one a fatal rule refused. */
  onEvent?: (event: AgUiEvent) => void;
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
  /**
   * How many times it happened: repeats of one violation (same rule,
   * message, call and message id, at other events) are one entry, and
   * `eventIndex` is the first. Past 1000 distinct entries, later new ones
   * are only counted, in one last `S5` warning.
   */
  readonly count: number;
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
  /** `aborted`: ended by `abortRun` (the user stopped, the stream went away). */
  readonly status: "idle" | "running" | "finished" | "interrupted" | "errored" | "aborted";
  readonly threadId?: string;
  readonly runId?: string;
  readonly outcome?:
    | { readonly type: "success"; readonly pendingToolCallIds?: readonly string[] }
    | { readonly type: "interrupt"; readonly interrupts: readonly unknown[] };
  /** `RUN_FINISHED.result`, as given (opaque). */
  readonly result?: unknown;
  /** The message of `RUN_ERROR`, or the reason given to `abortRun`. */
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
  /** Every violation and warning, in the order first met; repeats counted (`count`), at most 1001 entries plus the fatal one. */
  readonly violations: readonly Violation[];
  readonly fatal: Violation | null;
}

/** Thrown by `push`, `pushJson` and `pushSse` when the stream breaks a fatal rule. */
export declare class ToolCallStreamError extends Error {
  readonly name: "ToolCallStreamError";
  readonly violation: Violation;
  constructor(violation: Violation);
}

/** Thrown by every method of a tracker after `free()` (`free()` itself excepted). */
export declare class TrackerFreedError extends Error {
  readonly name: "TrackerFreedError";
  constructor(method: string);
}

/**
 * Thrown when the wasm module trapped (a real out-of-memory, or a bug; the
 * `WebAssembly.RuntimeError` is the `cause`), and by every later call but
 * `snapshot()`, which keeps returning the last snapshot, and `free()`.
 */
export declare class TrackerTrappedError extends Error {
  readonly name: "TrackerTrappedError";
  readonly cause: WebAssembly.RuntimeError;
  constructor(method: string, cause: WebAssembly.RuntimeError);
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

/**
 * The tool-call state of one AG-UI thread. Every argument is checked
 * before it reaches the wasm module: a value of the wrong type is refused
 * with a `TypeError` naming it, a string over 32 Mi UTF-16 units (bytes for
 * byte chunks) with a `RangeError` (`pushSse` reads a longer chunk in
 * pieces instead), and the tracker is unchanged.
 */
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
  /**
   * Calls `listener` with each new snapshot, once the operation that made
   * it is done; returns the unsubscribe function. A listener that throws
   * is reported (`globalThis.reportError` where the host has it, else
   * `console.error`) and the other listeners still hear.
   */
  subscribe(listener: (snapshot: Snapshot) => void): () => void;
  /**
   * Advertises the input's tools and checks that it answers every pending
   * call; throws a `ToolCallRefusedError` naming each unanswered call, or a `TypeError` naming the
   * field that does not fit `RunAgentInput`.
   */
  startRun(input: RunAgentInput): void;
  /**
   * The input to send for the next run: `input` with its messages completed
   * (every completed call in its assistant message's `toolCalls`, each
   * followed at once by its one tool message), other fields passed through;
   * the run is declared as by `startRun`. A pending call left unanswered
   * throws a `ToolCallRefusedError` of kind `unanswered` naming each.
   */
  nextRun<I extends RunAgentInput>(input: I): NextRunInput<I>;
  /** Ends the active run locally: status `aborted`, open calls abandoned; the thread goes on. */
  abortRun(reason?: string): Snapshot;
  approve(toolCallId: string): Snapshot;
  decline(toolCallId: string, reason?: string | null): Snapshot;
  answer(toolCallId: string, content: string | ContentPart[]): Snapshot;
  fail(toolCallId: string, error: string, content?: string | ContentPart[] | null): Snapshot;
  /** The application's answers, for the next run's `input.messages`. */
  toolMessages(): ToolMessage[];
  /** Releases the wasm memory; every other method then throws `TrackerFreedError`. Harmless when repeated. */
  free(): void;
}
