//! The records the binding returns: the change record of `pushJson` and
//! the other operations (what changed since the last record; a call's
//! argument text travels as the part appended since then, never whole),
//! its short form for a delta alone, the checker's summary, and refusals.
//!
//! Each type here is also the one source of its TypeScript declaration
//! (`js/wire.d.ts`, written by the unit test of `super::declarations`). A
//! field JS may find missing is marked `ts(optional)` next to its serde
//! `skip_serializing_if`: `ts(as = "Option<_>", optional)` on a field that
//! is not an `Option`.
//!
//! The binding writes these records by hand (`write.rs`, each type's
//! `write_json`), not through their derived `Serialize`: a new field needs
//! its line there too, which the rule tests check (`records_agree`).

use super::names;
use crate::args::ArgsError;
use crate::events::{Interrupt, Opaque, Outcome};
use crate::schema::{Failures, ValidationError};
use crate::{
    ApplicationError, Changes, InterruptDecision, OpenInterrupt, ResultSource, RunState,
    StandingApproval, Subagent, ToolCall, ToolResult, Tracker, UnmatchedResult, Validation,
    Violation,
};
use serde::Serialize;

mod write;
pub(super) use write::Object;
pub use write::{json_text, WriteJson};
// The binding writes its own JSON lists with these; `quote::quoted`
// quotes with the string writer too.
#[cfg(target_arch = "wasm32")]
pub(crate) use write::number;
pub(crate) use write::string;

/// What changed since the last record: the run when it changed, each
/// changed call (in the order they changed: the JS layer places each by
/// `index`), the new violations, repeats of earlier ones, the new
/// unmatched results, and the fatal violation.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChangeRecord<'a> {
    /// Grows with every change of the tracker.
    version: u64,
    /// Present when the run changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    run: Option<RunRecord<'a>>,
    calls: Vec<CallRecord<'a>>,
    violations: &'a [Violation],
    /// Earlier violations repeated: `[index, count]` pairs.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    counted: &'a [(usize, u64)],
    /// Results whose call the tracker never saw (rule T10), new since the
    /// last record.
    #[serde(skip_serializing_if = "UnmatchedResults::is_empty")]
    #[cfg_attr(test, ts(as = "Option<Vec<UnmatchedRecord<'a>>>", optional))]
    unmatched_results: UnmatchedResults<'a>,
    fatal: Option<&'a Violation>,
    /// Present when the run changed: the thread's open interrupts, whole
    /// (rule I1).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(as = "Option<Vec<InterruptRecord<'a>>>", optional))]
    interrupts: Option<OpenInterrupts<'a>>,
    /// Present when the run changed: the user's standing approvals, whole
    /// (rule S3).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    standing_approvals: Option<&'a [StandingApproval]>,
    /// The subagents changed since the last record (rule A8), each placed
    /// by `index`.
    #[serde(skip_serializing_if = "ChangedSubagents::is_empty")]
    #[cfg_attr(test, ts(as = "Option<Vec<SubagentRecord<'a>>>", optional))]
    subagents: ChangedSubagents<'a>,
}

/// An announced subagent invocation (rule A8).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
struct SubagentRecord<'a> {
    /// Its place in the tracker's list of subagents.
    index: usize,
    subagent_run_id: &'a str,
    name: &'a str,
    #[cfg_attr(test, ts(type = "SubagentStatus"))]
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    parent_tool_call_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    parent_subagent_run_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    parent_message_id: Option<&'a str>,
    /// The interrupts a suspended invocation raised itself.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    interrupt_ids: &'a [String],
    /// `SUBAGENT_ERROR`'s message.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    error: Option<&'a str>,
    /// `SUBAGENT_ERROR`'s code.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    code: Option<&'a str>,
    /// `SUBAGENT_FINISHED.result`, kept as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    result: Option<&'a Opaque>,
}

impl<'a> SubagentRecord<'a> {
    fn new(index: usize, s: &'a Subagent) -> Self {
        SubagentRecord {
            index,
            subagent_run_id: &s.id,
            name: &s.name,
            status: names::subagent_status(&s.status),
            description: s.description.as_deref(),
            parent_tool_call_id: s.parent_tool_call_id.as_deref(),
            parent_subagent_run_id: s.parent_subagent_run_id.as_deref(),
            parent_message_id: s.parent_message_id.as_deref(),
            interrupt_ids: &s.interrupt_ids,
            error: s.error.as_ref().map(|(m, _)| m.as_str()),
            code: s.error.as_ref().and_then(|(_, c)| c.as_deref()),
            result: s.result.as_ref(),
        }
    }
}

impl<'a> ChangeRecord<'a> {
    /// The record of `changes`, read from the tracker they were taken from.
    pub fn new(tracker: &'a Tracker, changes: &'a Changes) -> Self {
        // In the order they changed: the JS layer places each by index.
        // Loops rather than `collect`s of mapped iterators, each of which
        // is a generic instantiation of its own in the wasm module.
        let mut calls = Vec::with_capacity(changes.calls.len());
        for c in &changes.calls {
            calls.push(CallRecord::new(
                c.index,
                &tracker.calls()[c.index],
                c.text_from,
            ));
        }
        ChangeRecord {
            subagents: ChangedSubagents(tracker.subagents(), &changes.subagents),
            version: tracker.version(),
            run: changes.run.then(|| RunRecord::new(tracker.run())),
            calls,
            violations: &tracker.violations()[changes.violations.clone()],
            counted: &changes.violations_counted,
            unmatched_results: UnmatchedResults(
                &tracker.unmatched_results()[changes.unmatched_results.clone()],
            ),
            fatal: tracker.fatal(),
            interrupts: changes.run.then(|| OpenInterrupts(tracker.interrupts())),
            standing_approvals: changes.run.then(|| tracker.standing_approvals()),
        }
    }
}

/// The changed subagents (the tracker's, and the indices of those that
/// changed), written as a list of [`SubagentRecord`] without collecting
/// one (as [`OpenInterrupts`]).
struct ChangedSubagents<'a>(&'a [Subagent], &'a [usize]);

impl ChangedSubagents<'_> {
    fn is_empty(&self) -> bool {
        self.1.is_empty()
    }
}

impl Serialize for ChangedSubagents<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let all = self.0;
        serializer.collect_seq(self.1.iter().map(|&i| SubagentRecord::new(i, &all[i])))
    }
}

/// The open interrupts, written as a list of [`InterruptRecord`] without
/// collecting one (as [`UnmatchedResults`]).
struct OpenInterrupts<'a>(&'a [OpenInterrupt]);

impl Serialize for OpenInterrupts<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(InterruptRecord::new))
    }
}

/// An open interrupt (rule I1) and the application's decision (rule I4).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(super) struct InterruptRecord<'a> {
    interrupt: &'a Interrupt,
    #[cfg_attr(test, ts(type = "InterruptStatus"))]
    status: &'static str,
    /// The payload of a resolved interrupt, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    payload: Option<&'a Opaque>,
}

impl<'a> InterruptRecord<'a> {
    pub(super) fn new(open: &'a OpenInterrupt) -> Self {
        InterruptRecord {
            interrupt: &open.interrupt,
            status: names::interrupt_status(&open.decision),
            payload: match &open.decision {
                InterruptDecision::Resolved(payload) => payload.as_ref(),
                _ => None,
            },
        }
    }
}

/// The whole state without argument text or values: what a report needs
/// after a stream, at a cost independent of the arguments' size. Its calls
/// carry `argsBytes` and `closedAt`, which change records leave out.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SummaryRecord<'a> {
    version: u64,
    /// How many events the tracker read.
    events_seen: usize,
    run: RunRecord<'a>,
    calls: Vec<CallRecord<'a>>,
    violations: &'a [Violation],
    fatal: Option<&'a Violation>,
}

impl<'a> SummaryRecord<'a> {
    /// `with_violations` false leaves `violations` empty, for a reader that
    /// takes them in pages (`WasmTracker::violations_json`).
    pub fn new(tracker: &'a Tracker, with_violations: bool) -> Self {
        let mut calls = Vec::with_capacity(tracker.calls().len());
        for (index, call) in tracker.calls().iter().enumerate() {
            calls.push(CallRecord {
                partial: None,
                args_bytes: Some(call.args_text().len()),
                closed_at: call.closed_at,
                ..CallRecord::new(index, call, call.args_text().len())
            });
        }
        SummaryRecord {
            version: tracker.version(),
            events_seen: tracker.events_seen(),
            run: RunRecord::new(tracker.run()),
            calls,
            violations: if with_violations {
                tracker.violations()
            } else {
                &[]
            },
            fatal: tracker.fatal(),
        }
    }
}

/// The latest run.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
struct RunRecord<'a> {
    #[cfg_attr(test, ts(type = "RunStatus"))]
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    thread_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    run_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    outcome: Option<OutcomeRecord<'a>>,
    /// `RUN_FINISHED.result`, kept as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    result: Option<&'a Opaque>,
    /// The message of `RUN_ERROR`, or the reason given to `abortRun`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    error: Option<&'a str>,
}

impl<'a> RunRecord<'a> {
    fn new(run: &'a RunState) -> Self {
        RunRecord {
            status: names::run_status(&run.status),
            thread_id: run.thread_id.as_deref(),
            run_id: run.run_id.as_deref(),
            outcome: run.outcome.as_ref().map(outcome_record),
            result: run.result.as_ref(),
            error: run.error.as_ref().map(|(message, _)| message.as_str()),
        }
    }
}

/// `RUN_FINISHED.outcome` as the producer spelled it; each interrupt with
/// its fields (rule I1).
#[derive(Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[cfg_attr(test, derive(ts_rs::TS))]
enum OutcomeRecord<'a> {
    Success {
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        pending_tool_call_ids: Option<&'a [String]>,
    },
    Interrupt {
        interrupts: &'a [Interrupt],
    },
    Cancelled,
}

fn outcome_record(outcome: &Outcome) -> OutcomeRecord<'_> {
    match outcome {
        Outcome::Success {
            pending_tool_call_ids,
        } => OutcomeRecord::Success {
            pending_tool_call_ids: pending_tool_call_ids.as_deref(),
        },
        Outcome::Interrupt { interrupts } => OutcomeRecord::Interrupt { interrupts },
        Outcome::Cancelled => OutcomeRecord::Cancelled,
    }
}

/// One call: in a change record, a call that changed; in a summary, every
/// call.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
struct CallRecord<'a> {
    /// Its place in the snapshot's `calls`.
    index: usize,
    id: &'a str,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    parent_message_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    subagent_run_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    run_id: Option<&'a str>,
    #[cfg_attr(test, ts(type = "CallStatus"))]
    status: &'static str,
    /// The argument text appended since the last record (in summaries,
    /// none).
    append: &'a str,
    /// In summaries: the length of the whole argument text, in bytes of
    /// UTF-8 (the page never reads it, so change records leave it out).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    args_bytes: Option<usize>,
    /// While open: `argsText.slice(0, cut) + suffix` is the partial value.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    partial: Option<PartialRecord>,
    /// Complete, and the text parsed: JS parses its own copy of the text,
    /// natively and in key order, when `args` is first read.
    parsed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    args_error: Option<ArgsErrorRecord<'a>>,
    advertised: bool,
    #[cfg_attr(test, ts(type = "ValidationState"))]
    validation: &'static str,
    #[cfg_attr(test, ts(type = "Consent"))]
    consent: &'static str,
    /// When a standing approval approved the call: the call on which the
    /// user gave it (rule S3).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    consent_from: Option<&'a str>,
    pending: bool,
    /// Left unanswered by a cancelled run (rule L8); omitted when not.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    cancelled: bool,
    /// The open interrupt that asks this call's approval (rule I3).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    awaiting_interrupt: Option<&'a str>,
    reopened: u32,
    /// `encryptedValue`, as delivered (rule F10).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(type = "string", optional))]
    encrypted_value: Option<&'a Opaque>,
    /// `encryptedValueType`, as delivered.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(type = "string", optional))]
    encrypted_value_type: Option<&'a Opaque>,
    /// `metadata`, merged as delivered.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(type = "{ [key in string]?: unknown }", optional))]
    metadata: Option<&'a Opaque>,
    /// In summaries: the event that last closed the call.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    closed_at: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    result: Option<ResultRecord<'a>>,
    results: Vec<ResultRecord<'a>>,
}

/// The usable prefix of an open call's text, and what closes it.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
struct PartialRecord {
    /// In UTF-16 code units, as JS strings count.
    cut: usize,
    suffix: String,
}

/// Why a call's arguments are unusable.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
struct ArgsErrorRecord<'a> {
    #[cfg_attr(test, ts(type = "ArgsErrorClass"))]
    kind: &'static str,
    message: std::borrow::Cow<'a, str>,
    /// Byte offset into the argument text (parse and limit errors).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    position: Option<usize>,
    /// The schema failures kept: the first 100, fewer when the thread's
    /// budget could not hold them.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    errors: Option<&'a [ValidationError]>,
    /// How many schema failures there were; more than `errors.length`
    /// when some were only counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    error_count: Option<usize>,
}

impl<'a> ArgsErrorRecord<'a> {
    /// A parse or limit error, found as the record is made (see
    /// `ToolCall::final_parse`).
    fn new(error: ArgsError) -> Self {
        ArgsErrorRecord {
            kind: names::args_error(&Some(error.kind)),
            message: error.message.into(),
            position: error.position,
            errors: None,
            error_count: None,
        }
    }

    /// Arguments that parsed but fail the tool's schema (rule S1).
    fn schema(call: &'a ToolCall, failures: &'a Failures) -> Self {
        let count = failures.count;
        let mut message = format!(
            "arguments do not match the schema of {}: {count} error{}",
            call.name,
            if count == 1 { "" } else { "s" }
        );
        if failures.truncated() {
            message += &format!(", the first {} kept", failures.errors.len());
        }
        ArgsErrorRecord {
            kind: names::schema_error(),
            message: message.into(),
            position: None,
            errors: Some(&failures.errors),
            error_count: Some(count),
        }
    }
}

/// A result received for a call (or for no known call).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
struct ResultRecord<'a> {
    message_id: &'a str,
    /// A string or content parts, kept as given.
    content: &'a Opaque,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    error: Option<&'a str>,
    #[cfg_attr(test, ts(type = "ResultSource"))]
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    subagent_run_id: Option<&'a str>,
    /// The producer answered a frontend call (rule F4): kept, not the answer.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    rejected: bool,
}

/// Unmatched results, written as a list of [`UnmatchedRecord`] without
/// collecting one (a smaller module than a `Vec` of them).
struct UnmatchedResults<'a>(&'a [UnmatchedResult]);

impl UnmatchedResults<'_> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for UnmatchedResults<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(UnmatchedRecord::new))
    }
}

/// A result whose `toolCallId` names no call the tracker saw (rule T10).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
struct UnmatchedRecord<'a> {
    tool_call_id: &'a str,
    result: ResultRecord<'a>,
}

impl<'a> UnmatchedRecord<'a> {
    fn new(unmatched: &'a UnmatchedResult) -> Self {
        UnmatchedRecord {
            tool_call_id: &unmatched.tool_call_id,
            result: ResultRecord::new(&unmatched.result),
        }
    }
}

impl<'a> ResultRecord<'a> {
    fn new(result: &'a ToolResult) -> Self {
        ResultRecord {
            message_id: &result.message_id,
            content: &result.content,
            error: result.error.as_deref(),
            source: names::result_source(&result.source),
            subagent_run_id: result.owner.as_deref(),
            rejected: result.rejected,
        }
    }
}

impl<'a> CallRecord<'a> {
    fn new(index: usize, call: &'a ToolCall, text_from: usize) -> Self {
        let completed = call.final_parse();
        CallRecord {
            index,
            id: &call.id,
            name: &call.name,
            parent_message_id: call.parent_message_id.as_deref(),
            subagent_run_id: call.owner.as_deref(),
            run_id: call.run_id.as_deref(),
            status: names::call_status(&call.status),
            append: call.args_text().get(text_from..).unwrap_or_default(),
            args_bytes: None,
            partial: call.partial().map(|p| PartialRecord {
                cut: p.cut_utf16,
                suffix: p.suffix,
            }),
            parsed: matches!(completed, Some(Ok(()))),
            args_error: completed
                .and_then(Result::err)
                .or_else(|| call.args_error().cloned())
                .map(ArgsErrorRecord::new)
                .or(match &call.validation {
                    Validation::Invalid(failures) if !failures.is_empty() => {
                        Some(ArgsErrorRecord::schema(call, failures))
                    }
                    _ => None,
                }),
            advertised: call.advertised,
            validation: names::validation(&call.validation),
            consent: names::consent(&call.consent),
            consent_from: call.consent_from.as_deref(),
            pending: call.pending,
            cancelled: call.cancelled,
            awaiting_interrupt: call.awaiting_interrupt.as_deref(),
            reopened: call.reopen_count,
            encrypted_value: call.kept.encrypted_value.as_ref(),
            encrypted_value_type: call.kept.encrypted_value_type.as_ref(),
            metadata: call.kept.metadata.as_ref(),
            closed_at: None,
            result: answer(call).map(ResultRecord::new),
            results: {
                let mut results = Vec::with_capacity(call.results.len());
                for r in &call.results {
                    results.push(ResultRecord::new(r));
                }
                results
            },
        }
    }
}

/// The result that answers the call: the application's when it gave one,
/// else the first that answers.
fn answer(call: &ToolCall) -> Option<&ToolResult> {
    let mut answers = call.results.iter().filter(|r| r.answers());
    let first = answers.clone().next();
    answers
        .rfind(|r| r.source == ResultSource::Application)
        .or(first)
}

/// An application operation the tracker refused, as the JS layer's
/// `ToolCallRefusedError` reads it: the kind, the message and the calls
/// concerned (for a refused run input, each unanswered call).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RefusalRecord<'a> {
    #[cfg_attr(test, ts(type = "RefusalKind"))]
    kind: &'static str,
    message: String,
    tool_call_ids: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    unanswered: Vec<UnansweredRecord<'a>>,
    /// The interrupts concerned (rules I4, I5).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    interrupt_ids: Vec<&'a str>,
    /// For a refused run input, each interrupt it leaves uncovered (I5).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    uncovered: Vec<UncoveredRecord<'a>>,
    /// For a refused payload or edited arguments, each schema failure (I4).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    #[cfg_attr(test, ts(as = "Option<Vec<ValidationError>>", optional))]
    errors: &'a [ValidationError],
    /// For a malformed run input or saved thread, the field at fault by
    /// its path (`messages[2].id`); absent for the value as a whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    path: Option<&'a str>,
}

/// An interrupt a run input leaves uncovered, or resolves though it expired.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
struct UncoveredRecord<'a> {
    interrupt_id: &'a str,
    expired: bool,
}

/// A call a run input leaves unanswered.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
struct UnansweredRecord<'a> {
    tool_call_id: &'a str,
    tool_name: &'a str,
    answer_left_out: bool,
}

impl<'a> RefusalRecord<'a> {
    /// The record of `error`.
    pub fn new(error: &'a ApplicationError) -> Self {
        let mut unanswered = Vec::new();
        if let ApplicationError::Unanswered(calls) = error {
            for c in calls {
                unanswered.push(UnansweredRecord {
                    tool_call_id: &c.tool_call_id,
                    tool_name: &c.tool_name,
                    answer_left_out: c.answer_left_out,
                });
            }
        }
        // A loop: each `collect` of a mapped iterator is an instantiation
        // of its own in the wasm module.
        let mut uncovered = Vec::new();
        if let ApplicationError::Uncovered(list) = error {
            for u in list {
                uncovered.push(UncoveredRecord {
                    interrupt_id: &u.interrupt_id,
                    expired: u.expired,
                });
            }
        }
        RefusalRecord {
            kind: names::refusal_kind(error),
            message: error.to_string(),
            tool_call_ids: error.tool_call_ids(),
            unanswered,
            interrupt_ids: error.interrupt_ids(),
            uncovered,
            errors: error.validation_errors(),
            path: match error {
                ApplicationError::MalformedInput(e) | ApplicationError::Saved(e)
                    if !e.path().is_empty() =>
                {
                    Some(e.path())
                }
                _ => None,
            },
        }
    }
}

/// The declarations of this module's types, each with its doc comment.
#[cfg(test)]
pub(super) fn declarations(cfg: &ts_rs::Config) -> Vec<String> {
    use super::declarations::declaration as d;
    vec![
        d::<ChangeRecord>(cfg),
        d::<SummaryRecord>(cfg),
        d::<RunRecord>(cfg),
        d::<OutcomeRecord>(cfg),
        d::<CallRecord>(cfg),
        d::<PartialRecord>(cfg),
        d::<ArgsErrorRecord>(cfg),
        d::<ResultRecord>(cfg),
        d::<UnmatchedRecord>(cfg),
        d::<RefusalRecord>(cfg),
        d::<UnansweredRecord>(cfg),
        d::<InterruptRecord>(cfg),
        d::<UncoveredRecord>(cfg),
        d::<SubagentRecord>(cfg),
    ]
}
