// The public declarations (js/index.d.ts, written by hand for readers)
// against the records generated from the Rust types (js/wire.d.ts): where
// both describe one shape, the same fields, and every public value one the
// record allows; where the snapshot derives a field from the record, the
// fields that differ are listed here. A mismatch is a type error, so
// `tsc -p tests/js/wire` (tests/js/wire-types.test.mjs) fails.
import type * as Public from "../../../js/index.js";
import type * as Wire from "../../../js/wire.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;

/** `W` as the snapshot hands it out: frozen all the way down. */
type Frozen<W> = W extends (infer E)[]
  ? readonly Frozen<E>[]
  : W extends object
    ? { readonly [K in keyof W]: Frozen<W[K]> }
    : W;

/** `P` has the fields of `W`, no more, each holding a value `W` allows there. */
type Refines<P, W> = Equal<keyof P, keyof W> extends true ? (P extends Frozen<W> ? true : false) : false;

// Violations, results, argument errors: the record's own shape.
export type Checks = [
  Assert<Refines<Public.Violation, Wire.Violation>>,
  Assert<Equal<Public.Violation["severity"], Wire.Severity>>,
  Assert<Refines<Public.ToolResult, Wire.ResultRecord>>,
  Assert<Equal<Public.ToolResult["source"], Wire.ResultSource>>,
  Assert<Refines<Public.UnmatchedResult, Wire.UnmatchedRecord>>,
  Assert<Refines<Public.ArgsError, Wire.ArgsErrorRecord>>,
  Assert<Equal<Public.ArgsError["kind"], Wire.ArgsErrorClass>>,
  Assert<Refines<NonNullable<Public.ArgsError["errors"]>[number], Wire.ValidationError>>,

  // The run: the public type tells the statuses apart, the record is flat.
  Assert<Refines<Public.RunState, Wire.RunRecord>>,
  Assert<Equal<Public.RunState["status"], Wire.RunStatus>>,

  // A call: copied from the record but for the transport fields.
  Assert<Equal<Exclude<keyof Wire.CallRecord, keyof Public.ToolCallJSON>, CallTransport>>,
  Assert<Equal<Exclude<keyof Public.ToolCallJSON, keyof Wire.CallRecord>, "argsText" | "partialArgs" | "args">>,
  Assert<Refines<Pick<Public.ToolCallJSON, CallCopied>, Pick<Wire.CallRecord, CallCopied>>>,
  Assert<Equal<Public.ToolCallJSON["status"], Wire.CallStatus>>,
  Assert<Equal<Public.ToolCallJSON["consent"], Wire.Consent>>,
  Assert<Equal<Public.ToolCallJSON["validation"], Wire.ValidationState>>,

  // The snapshot: what the change record carries, plus the derived lists.
  Assert<Equal<Exclude<keyof Public.Snapshot, keyof Wire.ChangeRecord>, "openCalls" | "completedCalls" | "pendingCalls">>,
  Assert<Equal<Exclude<keyof Wire.ChangeRecord, keyof Public.Snapshot>, "counted">>,
  Assert<Public.Snapshot["unmatchedResults"] extends Frozen<NonNullable<Wire.ChangeRecord["unmatchedResults"]>> ? true : false>,

  // The options: the JSON the core reads, plus `onEvent`, which stays in JS.
  Assert<Equal<keyof Omit<Public.TrackerOptions, "onEvent">, keyof Wire.Options>>,
  Assert<Refines<NonNullable<Public.TrackerOptions["limits"]>, Wire.Limits>>,
  Assert<Public.ToolOption extends Wire.Tool ? true : false>,
  Assert<Equal<Exclude<keyof Wire.Tool, keyof Public.ToolOption>, never>>,
  Assert<Public.TrackerOptions["requireApproval"] extends Frozen<Wire.Options["requireApproval"]> ? true : false>,

  // A refusal: what `ToolCallRefusedError` is built from.
  Assert<Equal<Public.RefusalKind, Wire.RefusalKind>>,
  Assert<Refines<RefusalArgument, Wire.RefusalRecord>>,
  Assert<Refines<Public.UnansweredCall, Wire.UnansweredRecord>>,
  Assert<Refines<Public.UncoveredInterrupt, Wire.UncoveredRecord>>,

  // Interrupts: the record's own shape.
  Assert<Refines<Public.InterruptState, Wire.InterruptRecord>>,
  Assert<Equal<Public.InterruptStatus, Wire.InterruptStatus>>,
  Assert<Refines<Public.Interrupt, Wire.Interrupt>>,
  Assert<Public.Snapshot["interrupts"] extends Frozen<NonNullable<Wire.ChangeRecord["interrupts"]>> ? true : false>,

  // Standing approvals and the saved thread: the records' own shapes.
  Assert<Refines<Public.StandingApproval, Wire.StandingApproval>>,
  Assert<Public.Snapshot["standingApprovals"] extends Frozen<NonNullable<Wire.ChangeRecord["standingApprovals"]>> ? true : false>,
  Assert<Refines<Public.SavedThread, Wire.SavedRecord>>,
  Assert<Refines<Public.SavedCall, Wire.SavedCallRecord>>,
];

/** Fields of a call record the snapshot turns into others (`argsText`, `partialArgs`, `args`) or leaves out. */
type CallTransport = "index" | "append" | "argsBytes" | "partial" | "parsed" | "closedAt";
type CallCopied = Exclude<keyof Wire.CallRecord, CallTransport>;
type RefusalArgument = ConstructorParameters<typeof Public.ToolCallRefusedError>[0];
