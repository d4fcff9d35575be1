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

/** Something a run needs from outside before it continues: one entry of an interrupt outcome (rule I1), as sent. */
export interface Interrupt {
  /** Unique in its run; a resume entry answers it by this id. */
  readonly id: string;
  /** Why the run stopped (an open string). */
  readonly reason: string;
  /** A prompt for whoever answers. */
  readonly message?: string;
  /** The tool call this interrupt asks approval of (rule I3). */
  readonly toolCallId?: string;
  /** A JSON Schema of the expected answer; `resolveInterrupt` validates the payload against it. */
  readonly responseSchema?: { readonly [key: string]: unknown };
  /** When it stops being answerable, as sent (read as a date: now or earlier is expired). */
  readonly expiresAt?: string;
  readonly metadata?: { readonly [key: string]: unknown };
  /** The subagent that raised it. */
  readonly subagentRunId?: string;
}

/** What the application decided about an open interrupt. */
export type InterruptStatus = "open" | "resolved" | "cancelled";

/** An open interrupt of the thread and the application's decision (`snapshot.interrupts`). */
export interface InterruptState {
  readonly interrupt: Interrupt;
  readonly status: InterruptStatus;
  /** The payload a resolved interrupt's resume entry carries, when it has one. */
  readonly payload?: unknown;
}

/** One entry of `RunAgentInput.resume` (a `ResumeEntry` of @ag-ui/core 1.0). */
export interface ResumeEntry {
  interruptId: string;
  status: "resolved" | "cancelled";
  payload?: unknown;
  metadata?: Record<string, unknown>;
}

/** Options of `resolveInterrupt`. */
export interface ResolveInterruptOptions {
  /** For a tool-call approval: the arguments the user edited, validated against the tool's schema, sent as the payload's `editedArgs`. */
  editedArgs?: Record<string, unknown>;
}

/** An event as `onEvent` receives it: a plain object, as sent. */
export interface AgUiEvent {
  type: string;
  [key: string]: unknown;
}

/** The parts of a `RunAgentInput` the tracker reads; other fields pass through. */
export interface RunAgentInput<Tools extends readonly ToolOption[] = ToolOption[]> {
  threadId: string;
  runId: string;
  parentRunId?: string;
  messages: Array<{ id: string; role: string; [key: string]: unknown }>;
  /** With typed tools: only those the tracker was given (their argument types hold). */
  tools?: readonly Tools[number][];
  context?: Array<{ [key: string]: unknown }>;
  /** The answers to the open interrupts (rule I5); `nextRun` writes it. */
  resume?: ResumeEntry[];
  [key: string]: unknown;
}

export interface TrackerOptions<Tools extends readonly ToolOption[] = ToolOption[]> {
  /** Advertised frontend tools (rule F1); declared `as const` (or inline), they type each call's arguments. */
  tools?: Tools;
  /** Called with every event read (tracked or not: text, state, custom), in order, once applied; not with one a fatal rule refused. */
  onEvent?: (event: AgUiEvent) => void;
  /** Tool names that must be approved before they may be answered (rule S3). */
  requireApproval?: readonly string[];
  /** A stream fragment: no `RUN_STARTED` required first (rule L1). */
  fragment?: boolean;
  /** Bounds on what one thread may make the tracker hold (rule S5; docs/limits.md). */
  limits?: {
    /** Bytes of argument text per call (4 MiB); past it the call is marked, the stream goes on. */
    maxArgsBytes?: number;
    /** Nesting depth of arguments (64, at most 127); past it the call is marked. */
    maxDepth?: number;
    /** Tool calls per thread (10 000); one more is fatal. */
    maxCalls?: number;
    /** Bytes of one event: JSON text, an event-stream line or event (4 MiB); more is fatal. */
    maxEventBytes?: number;
    /** Bytes the thread retains, all told (64 MiB); more is fatal. */
    maxThreadBytes?: number;
    /** Bytes of one id or name (1024); more is fatal. */
    maxIdBytes?: number;
    /** Message ids per thread (100 000); one more is fatal. */
    maxMessages?: number;
    /** Chunk lanes open at once, for calls and for messages each (1000); one more is fatal. */
    maxLanes?: number;
  };
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
   * The field at fault, as a path in the event: `toolCallId`,
   * `input.messages[2].toolCalls[0].id`. Absent when no one field is (the
   * event as a whole is out of place, or a limit on the stream's length).
   */
  readonly path?: string;
  /**
   * How many times it happened: repeats of one violation (same rule,
   * message, field, call and message id, at other events) are one entry, and
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

/** A result whose `toolCallId` names no call of the thread (rule T10): kept, answering nothing. */
export interface UnmatchedResult {
  readonly toolCallId: string;
  readonly result: ToolResult;
}

/** One way a value fails a JSON Schema: its instance path (a JSON Pointer) and keyword. */
export interface SchemaError {
  readonly path: string;
  readonly keyword: string;
  readonly message: string;
}

export interface ArgsError {
  readonly kind: "parse" | "schema" | "limit";
  readonly message: string;
  /** Byte offset into the argument text (parse and limit errors). */
  readonly position?: number;
  /**
   * Schema failures, each with its instance path (a JSON Pointer) and keyword: the first 100
   * (fewer once the thread's `maxThreadBytes` budget is spent), paths and messages cut at 256
   * bytes. A validation past its work budget ends with one of keyword `limit`.
   */
  readonly errors?: readonly SchemaError[];
  /** Schema errors only: how many failures there were, `errors.length` or more when some were only counted. */
  readonly errorCount?: number;
}

// ---- Argument types from the tools' JSON Schemas (types only, no runtime) ----

/**
 * The value a JSON Schema describes, as far as a type can say: `const`,
 * `enum`, `type` (one or a list: string, number, integer, boolean, null,
 * object, array), `properties` with `required`, `items`, and `anyOf` /
 * `oneOf` (when no `type` is given); anything else is `unknown`. Objects
 * list their declared properties only, and values are read-only (they
 * are frozen).
 */
export type FromSchema<S> = 0 extends 1 & S ? unknown : S extends unknown ? SchemaValue<S> : never;

type SchemaValue<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: infer T }
      ? ValueOfType<S, T>
      : S extends { readonly anyOf: readonly (infer U)[] }
        ? FromSchema<U>
        : S extends { readonly oneOf: readonly (infer U)[] }
          ? FromSchema<U>
          : S extends { readonly properties: object }
            ? ObjectValue<S>
            : S extends { readonly items: unknown }
              ? ArrayValue<S>
              : unknown;

type ValueOfType<S, T> = T extends readonly (infer Each)[]
  ? Each extends unknown
    ? ValueOfType<S, Each>
    : never
  : T extends "string"
    ? string
    : T extends "number" | "integer"
      ? number
      : T extends "boolean"
        ? boolean
        : T extends "null"
          ? null
          : T extends "object"
            ? ObjectValue<S>
            : T extends "array"
              ? ArrayValue<S>
              : unknown;

type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R & string : never;

type ObjectValue<S> = S extends { readonly properties: infer P extends object }
  ? Flat<
      { readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: FromSchema<P[K]> } & {
        readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: FromSchema<P[K]>;
      } & { readonly [K in Exclude<RequiredKeys<S>, keyof P>]: unknown }
    >
  : { readonly [key: string]: unknown };

type ArrayValue<S> = S extends { readonly items: infer I }
  ? I extends readonly unknown[]
    ? readonly unknown[]
    : readonly FromSchema<I>[]
  : readonly unknown[];

type Flat<T> = { [K in keyof T]: T[K] } & {};

/**
 * What `partialArgs` may hold while a value of type `T` streams: every
 * property optional, strings (enum members too) possibly cut short,
 * numbers and literals only once complete. The shape the schema promises:
 * a stream is only validated once complete.
 */
export type PartialValue<T> = T extends string
  ? string
  : T extends readonly (infer E)[]
    ? readonly PartialValue<E>[]
    : T extends object
      ? { readonly [K in keyof T]?: PartialValue<T[K]> }
      : T;

/** The tools' names, or `string` when the tools are not known to the type system. */
export type ToolName<Tools extends readonly ToolOption[]> = Tools[number]["name"];

/**
 * The argument types of the advertised tools of `Tools` (a union), or
 * `unknown` when the tools are not declared `as const`.
 */
export type ToolArgs<Tools extends readonly ToolOption[]> = Typed<Tools> extends true ? ArgsOfTool<Tools[number]> : unknown;
type ArgsOfTool<T> = T extends ToolOption ? FromSchema<T extends { readonly parameters: infer P } ? P : undefined> : never;

/** A top-level field of arguments of type `A` (any of them when `A` is a union; `string` when unknown). */
export type ArgKey<A> = unknown extends A ? string : A extends unknown ? keyof A & string : never;

/** The type of field `K` of arguments of type `A`. */
export type ArgValue<A, K> = unknown extends A ? unknown : A extends unknown ? (K extends keyof A ? A[K] : never) : never;

/** `complete`: closed by the text, it never changes again while the call streams. */
export type FieldStatus = "streaming" | "complete";

/** Each top-level field of the arguments so far, and whether it is complete. */
export type ArgsStatus<A> = { readonly [K in ArgKey<A>]?: FieldStatus };

/** Whether the tools were declared precisely enough (`as const`) to type arguments. */
type Typed<Tools extends readonly ToolOption[]> = string extends ToolName<Tools> ? false : true;

/** What every state of a call has, whatever its tool and status. */
interface CallCommon {
  readonly id: string;
  readonly parentMessageId?: string;
  /** The owner: the subagent run that streams the call (absent: the parent agent). */
  readonly subagentRunId?: string;
  /** The run the call was (last) opened in. */
  readonly runId?: string;
  /** The concatenated deltas, exactly (rule T4). */
  readonly argsText: string;
  readonly consent: "unrequested" | "approved" | "declined";
  /**
   * Set when a standing approval approved the call (rule S3): the id of the
   * call on which the user gave it (`approve(id, { remember: "tool" })`).
   * Absent when the user decided on this call itself.
   */
  readonly consentFrom?: string;
  /** Closed, unanswered, its run finished: the application must answer it (rule F2). */
  readonly pending: boolean;
  /**
   * Closed, unanswered, its run cancelled (rule L8): not pending; `nextRun`
   * answers it as cancelled unless the application answers it first.
   */
  readonly cancelled: boolean;
  /** The id of the open interrupt asking this call's approval (rule I3): not pending, answered by the resume entry. */
  readonly awaitingInterrupt?: string;
  /** How many times the call was reopened (rule T7). */
  readonly reopened: number;
  /**
   * The provider's opaque artefact for this call (`REASONING_ENCRYPTED_VALUE`
   * naming it, or history), as delivered: returned unmodified in the next
   * history (rule F10). Never show it or send it to anyone but its producer.
   */
  readonly encryptedValue?: string;
  /** What kind of artefact `encryptedValue` is, as delivered with it. */
  readonly encryptedValueType?: string;
  /** The call's metadata: every `TOOL_CALL_*` event's merged, key by key, the last write winning (rule F10). */
  readonly metadata?: { readonly [key: string]: unknown };
  /** The result that answers the call. */
  readonly result?: ToolResult;
  /** Every result received for the call, in order. */
  readonly results: readonly ToolResult[];
}

/**
 * The states of a call named `N` whose arguments are of type `A`, told
 * apart by `status` and `validation`:
 *
 * - `open`: `partialArgs`, a best-effort value of the text so far (frozen),
 *   computed on first read from the text that arrived since the last read;
 *   strings grow as they stream, numbers and literals appear once complete,
 *   nothing shown ever disappears. `argsError` only for a limit hit (S5).
 * - `complete`: `args` (frozen, keys in the order sent), parsed on first
 *   read, typed `A` once `validation` is `"valid"`; `"invalid"` always has
 *   an `argsError` (a parse, schema or limit error).
 * - `abandoned`: neither value.
 *
 * `args` and `partialArgs` are own enumerable properties, computed on first
 * read (accessors; once two states of an open call in a row were read
 * before the next came, its next 16 compute theirs as they are made):
 * `{...call}` and `JSON.stringify(call)` (through `toJSON`) carry them, and
 * `call.toJSON()` is a plain object for `structuredClone`.
 */
type CallStates<N extends string, A, Adv extends boolean> = CallCommon & { readonly name: N; readonly advertised: Adv } & (
    | {
        readonly status: "open";
        readonly partialArgs: PartialValue<A> | undefined;
        readonly args?: undefined;
        readonly validation: "unvalidated";
        readonly argsError?: ArgsError;
      }
    | {
        readonly status: "abandoned";
        readonly partialArgs?: undefined;
        readonly args?: undefined;
        readonly validation: "unvalidated";
        readonly argsError?: ArgsError;
      }
    | {
        readonly status: "complete";
        readonly partialArgs?: undefined;
        readonly args: unknown;
        readonly validation: "unvalidated";
        readonly argsError?: ArgsError;
      }
    | (Adv extends false
        ? never
        :
            | {
                readonly status: "complete";
                readonly partialArgs?: undefined;
                readonly args: A;
                readonly validation: "valid";
                readonly argsError?: undefined;
              }
            | {
                readonly status: "complete";
                readonly partialArgs?: undefined;
                /** The parsed value when the schema failed, `undefined` when the text did not parse. */
                readonly args: unknown;
                readonly validation: "invalid";
                readonly argsError: ArgsError;
              })
  ) & {
    /** A plain object (not frozen; nested values are the frozen ones) with `args` and `partialArgs` as values: for `structuredClone`, storage, `postMessage`. */
    toJSON(): ToolCallJSON<N, A, Adv>;
    /**
     * Whether the value at `path` (a top-level field, or keys and indices)
     * is complete: closed by the text, so it never changes again while the
     * call streams. Every value of a complete call is; `false` for what is
     * not there yet.
     *
     * @example
     * if (call.isComplete("url")) prefetch(call.partialArgs?.url ?? call.args.url);
     */
    isComplete(path: ArgKey<A> | readonly (string | number)[]): boolean;
    /**
     * Each top-level field so far, `"streaming"` or `"complete"` (frozen,
     * computed once per state); `{}` while the arguments are no object.
     *
     * @example
     * call.argsStatus(); // { url: "complete", note: "streaming" }
     */
    argsStatus(): ArgsStatus<A>;
  };

/** The plain object `toJSON` gives: the same fields, as data. */
export type ToolCallJSON<N extends string = string, A = unknown, Adv extends boolean = boolean> =
  CallStates<N, A, Adv> extends infer C ? (C extends unknown ? { -readonly [K in Exclude<keyof C, "toJSON" | "isComplete" | "argsStatus">]: C[K] } : never) : never;

/** The calls to one advertised tool of `Tools`. */
type AdvertisedCall<T> = T extends { readonly name: infer N extends string } & ToolOption
  ? CallStates<N, FromSchema<T extends { readonly parameters: infer P } ? P : undefined>, true>
  : never;

/**
 * A tool call. With tools declared `as const`, a union over the tools:
 * `advertised` and `name` select the tool, then `status` and `validation`
 * say which of `partialArgs`, `args` and `argsError` exist. Otherwise every
 * argument is `unknown`. The types trust that a name keeps the schema it was
 * declared with (a stream advertising other tools in `RUN_STARTED` may
 * break that).
 */
export type ToolCallState<Tools extends readonly ToolOption[] = ToolOption[]> =
  Typed<Tools> extends true
    ? AdvertisedCall<Tools[number]> | CallStates<string, unknown, false>
    : CallStates<string, unknown, boolean>;

/** The calls to the tool named `Name`, once `advertised`. */
export type ToolCallFor<Tools extends readonly ToolOption[], Name extends ToolName<Tools>> =
  Typed<Tools> extends true
    ? Extract<ToolCallState<Tools>, { readonly name: Name; readonly advertised: true }>
    : CallStates<string, unknown, true>;

type Outcome =
  | { readonly type: "success"; readonly pendingToolCallIds?: readonly string[] }
  | { readonly type: "interrupt"; readonly interrupts: readonly Interrupt[] }
  | { readonly type: "cancelled" };

/** The latest run, told apart by `status`. */
export type RunState =
  | {
      readonly status: "idle";
      readonly threadId?: undefined;
      readonly runId?: undefined;
      readonly outcome?: undefined;
      readonly result?: undefined;
      readonly error?: undefined;
    }
  | {
      readonly status: "running";
      readonly threadId: string;
      readonly runId: string;
      readonly outcome?: undefined;
      readonly result?: undefined;
      readonly error?: undefined;
    }
  | {
      readonly status: "finished";
      readonly threadId?: string;
      readonly runId?: string;
      readonly outcome?: Extract<Outcome, { type: "success" }>;
      /** `RUN_FINISHED.result`, as given (opaque). */
      readonly result?: unknown;
      readonly error?: undefined;
    }
  | {
      readonly status: "interrupted";
      readonly threadId?: string;
      readonly runId?: string;
      readonly outcome: Extract<Outcome, { type: "interrupt" }>;
      /** `RUN_FINISHED.result`, as given (opaque). */
      readonly result?: unknown;
      readonly error?: undefined;
    }
  | {
      /** Stopped by the producer before it completed (rule L8): neither a success nor a failure. */
      readonly status: "cancelled";
      readonly threadId?: string;
      readonly runId?: string;
      readonly outcome: Extract<Outcome, { type: "cancelled" }>;
      /** `RUN_FINISHED.result`, as given (opaque; a cancelled run should have none). */
      readonly result?: unknown;
      readonly error?: undefined;
    }
  | {
      readonly status: "errored";
      readonly threadId?: string;
      readonly runId?: string;
      /** The outcome, when `RUN_ERROR` came after `RUN_FINISHED`. */
      readonly outcome?: Outcome;
      /** `RUN_FINISHED.result`, when `RUN_ERROR` came after `RUN_FINISHED`. */
      readonly result?: unknown;
      /** The message of `RUN_ERROR`. */
      readonly error: string;
    }
  | {
      /**
       * Ended by `abortRun` (the user stopped, the stream went away), or a run
       * declared (`startRun`, `nextRun`, `trackAgent`) whose request failed
       * before its `RUN_STARTED` (then `runId`, `outcome` and `result` are absent).
       */
      readonly status: "aborted";
      readonly threadId?: string;
      readonly runId?: string;
      readonly outcome?: Outcome;
      readonly result?: unknown;
      /** The reason given to `abortRun` (`trackAgent`: the error that failed the run, `HTTP 500: ...`). */
      readonly error?: string;
    };

/** An immutable view of the tracker; unchanged parts keep their identity across snapshots. */
export interface Snapshot<Tools extends readonly ToolOption[] = ToolOption[]> {
  /** Increments with every change. */
  readonly version: number;
  readonly run: RunState;
  /** Every call, in first-start order. */
  readonly calls: readonly ToolCallState<Tools>[];
  /** Still streaming. */
  readonly openCalls: readonly Extract<ToolCallState<Tools>, { readonly status: "open" }>[];
  /** Closed. */
  readonly completedCalls: readonly Extract<ToolCallState<Tools>, { readonly status: "complete" }>[];
  /** Closed, unanswered, run finished: the application must answer these. */
  readonly pendingCalls: readonly Extract<ToolCallState<Tools>, { readonly status: "complete" }>[];
  /** Every violation and warning, in the order first met; repeats counted (`count`), at most 1001 entries plus the fatal one. */
  readonly violations: readonly Violation[];
  readonly fatal: Violation | null;
  /** Results for calls the thread never saw (rule T10), in the order received; a later call with that id does not claim them. */
  readonly unmatchedResults: readonly UnmatchedResult[];
  /** The open interrupts of the thread's last interrupted run, in order, until the next run starts (rule I1). */
  readonly interrupts: readonly InterruptState[];
  /** The user's standing approvals, one per tool, in the order given (rule S3). */
  readonly standingApprovals: readonly StandingApproval[];
  /**
   * Every subagent `SUBAGENT_STARTED` announced, in the order first
   * announced (rule A8): with the call or subagent that started it, its
   * status and its calls, so a UI can draw call -> subagent -> its calls.
   */
  readonly subagents: readonly Subagent[];
}

/**
 * One subagent invocation (rule A8).
 *
 * @example
 * const started = snapshot.subagents.filter((s) => s.parentToolCallId === call.id);
 * const theirCalls = started.flatMap((s) => s.callIds.map((id) => snapshot.calls.find((c) => c.id === id)));
 */
export interface Subagent {
  /** The invocation (`subagentRunId`): its calls carry it. */
  readonly subagentRunId: string;
  /** The subagent, reusable across invocations. */
  readonly name: string;
  readonly description?: string;
  /** The tool call that started it. */
  readonly parentToolCallId?: string;
  /** The invocation that started it (absent: the parent agent). */
  readonly parentSubagentRunId?: string;
  /** The message that held the starting call. */
  readonly parentMessageId?: string;
  /**
   * `running` until `SUBAGENT_FINISHED` (`finished`, or `suspended`:
   * paused awaiting outside input) or `SUBAGENT_ERROR` (`errored`);
   * `abandoned` when its run ended with it running.
   */
  readonly status: "running" | "finished" | "suspended" | "errored" | "abandoned";
  /** The interrupts a suspended invocation raised itself. */
  readonly interruptIds: readonly string[];
  /** `SUBAGENT_ERROR`'s message and code. */
  readonly error?: string;
  readonly code?: string;
  /** `SUBAGENT_FINISHED.result`: its return value, as given (opaque; absent until it finishes with one). */
  readonly result?: unknown;
  /** The ids of the calls it streams (`subagentRunId`), in start order. */
  readonly callIds: readonly string[];
}

/**
 * What `tracker.save()` returns: plain JSON to keep across a page reload,
 * holding what the thread's history cannot bring back. `version` is the
 * format's; a tracker refuses a value of another version (kind
 * `invalidSaved`).
 *
 * ```ts
 * localStorage.setItem("thread", JSON.stringify(tracker.save()));
 * ```
 */
export interface SavedThread {
  readonly version: 1;
  /** The open interrupts and the application's decisions. */
  readonly interrupts: readonly InterruptState[];
  /** The calls the user decided on, or answered without a run carrying the answer yet. */
  readonly calls: readonly SavedCall[];
  readonly standingApprovals: readonly StandingApproval[];
  readonly violations: readonly Violation[];
}

/** One call of a `SavedThread`. */
export interface SavedCall {
  readonly id: string;
  readonly consent?: "unrequested" | "approved" | "declined";
  readonly consentFrom?: string;
  /** The application's answer no run input carried yet. */
  readonly answer?: { readonly messageId: string; readonly content: string | ContentPart[]; readonly error?: string };
}

/**
 * The user's approval of every later call to `tool` in this thread, given
 * when approving the call `toolCallId`.
 *
 * ```ts
 * tracker.approve("c1", { remember: "tool" });
 * tracker.snapshot().standingApprovals; // [{ tool: "confirm_deploy", toolCallId: "c1" }]
 * ```
 */
export interface StandingApproval {
  readonly tool: string;
  readonly toolCallId: string;
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
  | "limit"
  | "unknownInterrupt"
  | "interruptCovered"
  | "interruptExpired"
  | "invalidPayload"
  | "invalidEditedArgs"
  | "awaitingInterrupt"
  | "uncovered"
  /** `load`: the saved thread cannot be restored; the message names the field. */
  | "invalidSaved";

/** An interrupt a run input leaves uncovered, or resolves though it expired (rule I5). */
export interface UncoveredInterrupt {
  readonly interruptId: string;
  /** Resolved after it expired: only cancelling covers it. */
  readonly expired: boolean;
}

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
  /** The interrupt operated on, or each one a run input leaves uncovered. */
  readonly interruptIds: readonly string[];
  /** With kind `uncovered`: each interrupt the input leaves uncovered. */
  readonly uncovered: readonly UncoveredInterrupt[];
  /** With kind `invalidPayload` or `invalidEditedArgs`: each schema failure, with path and keyword. */
  readonly errors: readonly SchemaError[];
  /** With kind `malformedInput` or `invalidSaved`: the field at fault, by its path (`messages[2].id`); absent for the value as a whole. */
  readonly path?: string;
  constructor(record: {
    kind: RefusalKind;
    message: string;
    toolCallIds: string[];
    unanswered?: UnansweredCall[];
    interruptIds?: string[];
    uncovered?: UncoveredInterrupt[];
    errors?: SchemaError[];
    path?: string;
  });
}

/**
 * The tool-call state of one AG-UI thread. `Tools` is inferred from
 * `options.tools`: declared `as const` (or inline), it types the calls.
 * Every argument is checked before it reaches the wasm module: a value of
 * the wrong type is refused with a `TypeError` naming it, a string over
 * 32 Mi UTF-16 units (bytes for byte chunks) with a `RangeError`, and the
 * tracker is unchanged.
 */
export declare class ToolCallTracker<const Tools extends readonly ToolOption[] = ToolOption[]> {
  constructor(options?: TrackerOptions<Tools>);
  /** Reads one AG-UI event object. */
  push(event: object): Snapshot<Tools>;
  /** Reads one event given as JSON text. */
  pushJson(text: string): Snapshot<Tools>;
  /** Reads raw `text/event-stream` input, split anywhere. */
  pushSse(chunk: string | Uint8Array): Snapshot<Tools>;
  /** The current snapshot: the identical object while nothing changes. */
  snapshot(): Snapshot<Tools>;
  /**
   * Calls `listener` with each new snapshot, once the operation that made
   * it is done; returns the unsubscribe function. A listener (or `onEvent`)
   * that throws is reported (`globalThis.reportError` where the host has
   * it, else `console.error`) and the other listeners still hear.
   */
  subscribe(listener: (snapshot: Snapshot<Tools>) => void): () => void;
  /**
   * Advertises the input's tools and checks that it answers every pending
   * call; throws a `ToolCallRefusedError` naming each unanswered call, or
   * one of kind `malformedInput` whose `path` names the field that does not
   * fit `RunAgentInput` (`messages[0].id`). A `TypeError` when `input` is
   * no object, or cannot be read as JSON.
   */
  startRun(input: RunAgentInput<Tools>): void;
  /**
   * The input to send for the next run: `input` with its messages completed
   * (every completed call in its assistant message's `toolCalls`, each
   * followed at once by its one tool message), other fields passed through;
   * the run is declared as by `startRun`. A pending call left unanswered
   * throws a `ToolCallRefusedError` of kind `unanswered` naming each; a
   * field that does not fit, one of kind `malformedInput` with its `path`.
   */
  nextRun<I extends RunAgentInput>(input: I): NextRunInput<I>;
  /**
   * Restores the thread from saved history (a page reloaded): the messages
   * seed the tracker as a run input's do, the tools (when given) are
   * advertised, and a call to an advertised tool that no tool message
   * answers is pending again (rule F8), for the application to answer
   * before the next run. No run starts. A `ToolCallRefusedError` (nothing
   * changed) while a run is active, or of kind `malformedInput` with the
   * field's `path` when the history does not fit (`messages[0].id`).
   */
  restore(input: { messages: RunAgentInput["messages"]; tools?: RunAgentInput<Tools>["tools"] }): Snapshot<Tools>;
  /**
   * The thread as plain JSON (`SavedThread`), to keep across a page
   * reload: open interrupts and their decisions, consent and standing
   * approvals, answers no run carried yet, violations.
   *
   * ```ts
   * sessionStorage.setItem("saved", JSON.stringify(tracker.save()));
   * ```
   */
  save(): SavedThread;
  /**
   * Loads what `save()` returned (or its JSON text) into this tracker,
   * which holds the thread's history (`restore`) and no interrupts or
   * standing approvals of its own. A `ToolCallRefusedError` (kind
   * `invalidSaved` naming the field, as in `field "saved.calls[0].id" names
   * no call in the thread's history`; `limit`; `runActive`) leaves the
   * tracker unchanged and usable. Only the tracker of
   * `agui-tool-calls/full` loads: the main entry's wasm module leaves the
   * reader out, and its `load` refuses (kind `invalidSaved`, naming
   * `agui-tool-calls/full`).
   *
   * ```ts
   * tracker.restore({ messages });
   * tracker.load(JSON.parse(sessionStorage.getItem("saved")!));
   * ```
   */
  load(saved: SavedThread | string): Snapshot<Tools>;
  /**
   * A tracker for a reloaded page: made with `options`, the thread's
   * history `options.messages` restored (`restore`, rule F8), then `saved`
   * loaded (`load`, so from `agui-tool-calls/full`). Throws what they
   * throw (the tracker is then freed).
   *
   * ```ts
   * const tracker = ToolCallTracker.restore(saved, { tools, messages: agent.messages });
   * ```
   */
  static restore<const Tools extends readonly ToolOption[] = ToolOption[]>(
    saved: SavedThread | string,
    options?: TrackerOptions<Tools> & { messages?: RunAgentInput["messages"] },
  ): ToolCallTracker<Tools>;
  /**
   * Ends the active run locally: status `aborted`, open calls abandoned; the
   * thread goes on. With no run active, ends the run a run input declared
   * (`startRun`, `nextRun`) when no `RUN_STARTED` followed (its request
   * failed), changing no call; otherwise changes nothing.
   */
  abortRun(reason?: string): Snapshot<Tools>;
  /**
   * Records the user's approval of a completed call (rule S3); it does not
   * answer it. With `{ remember: "tool" }`, a standing approval of its tool
   * too: every call to that tool awaiting a decision, and every later one
   * in this thread, is approved once its arguments pass the tool's schema
   * (`consentFrom` names this call), until `revokeApproval(tool)`. A
   * standing approval never approves a call whose arguments fail or lack a
   * schema, nor a call an interrupt asks about (resolve the interrupt).
   *
   * ```ts
   * tracker.approve("c1", { remember: "tool" });
   * ```
   */
  approve(toolCallId: string, options?: { remember?: "tool" }): Snapshot<Tools>;
  /**
   * Withdraws the standing approval of `tool`: later calls await the user
   * again, and so do those it approved that are not answered yet. Without
   * one, nothing changes.
   *
   * ```ts
   * tracker.revokeApproval("confirm_deploy");
   * ```
   */
  revokeApproval(tool: string): Snapshot<Tools>;
  decline(toolCallId: string, reason?: string | null): Snapshot<Tools>;
  answer(toolCallId: string, content: string | ContentPart[]): Snapshot<Tools>;
  fail(toolCallId: string, error: string, content?: string | ContentPart[] | null): Snapshot<Tools>;
  /**
   * The application's answers, for the next run's `input.messages`, and a
   * closing message (`error: "abandoned"`) for each call a stopped or
   * failed run abandoned (rule F11), or `error: "cancelled"` for each a
   * cancelled run left unanswered (rule L8), until a run input carries them.
   */
  toolMessages(): ToolMessage[];
  /**
   * Resolves an open interrupt (rule I4): the next run's resume entry
   * carries `payload` (any JSON value but `null`; validated against the
   * interrupt's `responseSchema`). For a tool-call approval, `editedArgs`
   * (validated against the tool's schema) ride the payload, which must then
   * be an object or absent, and the call is approved. Refused (kinds
   * `unknownInterrupt`, `interruptCovered`, `interruptExpired`,
   * `invalidPayload`, `invalidEditedArgs`) with nothing changed.
   */
  resolveInterrupt(interruptId: string, payload?: unknown, options?: ResolveInterruptOptions): Snapshot<Tools>;
  /** Cancels an open interrupt (an expired one too): its resume entry abandons it; a tool-call approval's call is declined. */
  cancelInterrupt(interruptId: string): Snapshot<Tools>;
  /** The resume entries of the interrupts decided so far, in order: for `agent.runAgent({ resume })` (`nextRun` writes them itself). */
  resumeEntries(): ResumeEntry[];
  /** Releases the wasm memory; every other method then throws `TrackerFreedError`. Harmless when repeated. */
  free(): void;
}

/**
 * Compiles and instantiates the wasm module (once; later calls return the
 * same promise) and starts the warm-up `options.warmUp` names (none by
 * default). Importing the package starts nothing: in a browser (page or
 * worker), await this before the first `new ToolCallTracker`; in Node
 * (20.16+), a tracker made before it loads the module synchronously.
 * Throws a `TypeError` for options it cannot read.
 *
 * @example
 * import { init, ToolCallTracker } from "agui-tool-calls";
 * await init({ warmUp: "worker" }); // nothing compiled on the page's thread before its first stream
 * const tracker = new ToolCallTracker();
 */
export declare function init(options?: InitOptions | null): Promise<void>;

/**
 * Loads the module (as `init` does) and warms the stream's code up, once
 * per page or process: a later call, or an `init({ warmUp })` after it,
 * gets the first warm-up's promise. Resolves whether the warm-up ran to
 * its end. See {@link InitOptions.warmUp} for the modes.
 *
 * @example
 * import { warmUp } from "agui-tool-calls";
 * void warmUp("idle"); // once the page is idle, before the user's first message
 */
export declare function warmUp(mode?: "idle" | "worker"): Promise<boolean>;

/** Options of {@link init}. */
export interface InitOptions {
  /**
   * How the stream's code gets compiled before the first stream (V8
   * compiles a wasm or JS function on its first call, on the thread that
   * calls it).
   * - `"off"` (default): no warm-up; the first stream compiles what it
   *   runs, on the thread that runs it.
   * - `"idle"`: once the thread is idle (a browser's
   *   `requestIdleCallback`; in Node or a worker, the event loop's next
   *   turn, on a timer that does not keep Node's process alive), and
   *   unless a tracker has been fed by then, a small stream runs through
   *   two throwaway trackers on this thread (about 15 ms of a page's CPU,
   *   once).
   * - `"worker"`: in a browser page, a module worker runs the stream
   *   through the compiled module instead, off the page's thread. It loads
   *   two more files (about 0.6 KB gzip); where no worker may start (a CSP
   *   without `worker-src 'self'`), the page loses only the head start.
   *   Elsewhere, no warm-up.
   */
  warmUp?: "idle" | "worker" | "off";
}
