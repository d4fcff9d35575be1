//! The change records: what changed since the last record, in the shapes
//! of the package's TypeScript declarations, or for the commonest change,
//! text appended to one open call, a header of numbers ([`TextChange`]). A
//! call's argument text travels as the part appended since the last record,
//! never whole.

use crate::args::{ArgsError, ArgsErrorKind};
use crate::events::{Opaque, Outcome};
use crate::schema::ValidationError;
use crate::{
    ApplicationError, CallChange, CallStatus, Changes, Consent, ResultSource, RunState, RunStatus,
    ToolCall, ToolResult, Tracker, Validation, Violation,
};
use serde::Serialize;

#[derive(Serialize)]
pub struct ChangeRecord<'a> {
    version: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    run: Option<RunRecord<'a>>,
    calls: Vec<CallRecord<'a>>,
    violations: &'a [Violation],
    /// Earlier violations repeated: `[index, count]` pairs.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    counted: &'a [(usize, u64)],
    fatal: Option<&'a Violation>,
}

impl<'a> ChangeRecord<'a> {
    /// The record of `changes`, read from the tracker they were taken from.
    pub fn new(tracker: &'a Tracker, changes: &'a Changes) -> Self {
        // In the order they changed: the JS layer places each by index.
        let calls = changes
            .calls
            .iter()
            .map(|c| CallRecord::new(c.index, &tracker.calls()[c.index], c.text_from))
            .collect();
        ChangeRecord {
            version: tracker.version(),
            run: changes.run.then(|| RunRecord::new(tracker.run())),
            calls,
            violations: &tracker.violations()[changes.violations.clone()],
            counted: &changes.violations_counted,
            fatal: tracker.fatal(),
        }
    }
}

/// The most common change, text appended to one open call and nothing
/// else, as the JS layer reads it without a JSON record: a header of six
/// `f64` at a fixed address, `[version, index, text address, append bytes,
/// suffix bytes, cut]`, and the text, the appended UTF-8 then the
/// partial value's suffix (ASCII closers), at `text address`. `cut` is -1
/// with no partial value. Valid until the tracker's next call.
#[derive(Default)]
pub struct TextChange {
    header: Box<[f64; 6]>,
    text: String,
}

impl TextChange {
    /// Describes `changes` if they are text appended to one open call and
    /// nothing else; `false` (and nothing written) otherwise.
    pub fn fill(&mut self, tracker: &Tracker, changes: &Changes) -> bool {
        let Some(only) = text_only(changes) else {
            return false;
        };
        let call = &tracker.calls()[only.index];
        let append = call.args_text().get(only.text_from..).unwrap_or_default();
        self.text.clear();
        self.text.push_str(append);
        let cut = call
            .partial_into(&mut self.text)
            .map_or(-1.0, |cut| cut as f64);
        *self.header = [
            tracker.version() as f64,
            only.index as f64,
            self.text.as_ptr() as usize as f64,
            append.len() as f64,
            (self.text.len() - append.len()) as f64,
            cut,
        ];
        true
    }

    /// The header and the text.
    pub fn parts(&self) -> (&[f64; 6], &[u8]) {
        (&self.header, self.text.as_bytes())
    }

    /// The address of the header in the module's memory.
    pub fn header_address(&self) -> usize {
        self.header.as_ptr() as usize
    }
}

/// The one changed call, if only argument text was appended to it.
fn text_only(changes: &Changes) -> Option<CallChange> {
    let [only] = changes.calls.as_slice() else {
        return None;
    };
    let quiet = !changes.run
        && changes.violations.is_empty()
        && changes.violations_counted.is_empty()
        && changes.unmatched_results.is_empty()
        && !changes.fatal;
    (only.text_only && quiet).then_some(*only)
}

/// The whole state without argument text or values: what a report needs
/// after a stream, at a cost independent of the arguments' size.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SummaryRecord<'a> {
    version: u64,
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
        let calls = tracker
            .calls()
            .iter()
            .enumerate()
            .map(|(index, call)| CallRecord {
                partial: None,
                closed_at: call.closed_at,
                ..CallRecord::new(index, call, call.args_text().len())
            })
            .collect();
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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RunRecord<'a> {
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    thread_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    run_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<OutcomeRecord<'a>>,
    /// `RUN_FINISHED.result`, kept as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'a Opaque>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

impl<'a> RunRecord<'a> {
    fn new(run: &'a RunState) -> Self {
        RunRecord {
            status: match run.status {
                RunStatus::Idle => "idle",
                RunStatus::Running => "running",
                RunStatus::Finished => "finished",
                RunStatus::Interrupted => "interrupted",
                RunStatus::Errored => "errored",
                RunStatus::Aborted => "aborted",
            },
            thread_id: run.thread_id.as_deref(),
            run_id: run.run_id.as_deref(),
            outcome: run.outcome.as_ref().map(outcome_record),
            result: run.result.as_ref(),
            error: run.error.as_ref().map(|(message, _)| message.as_str()),
        }
    }
}

/// `RUN_FINISHED.outcome` as the producer spelled it; interrupts kept as
/// given.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OutcomeRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pending_tool_call_ids: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    interrupts: Option<&'a [Opaque]>,
}

fn outcome_record(outcome: &Outcome) -> OutcomeRecord<'_> {
    match outcome {
        Outcome::Success {
            pending_tool_call_ids,
        } => OutcomeRecord {
            kind: "success",
            pending_tool_call_ids: pending_tool_call_ids.as_deref(),
            interrupts: None,
        },
        Outcome::Interrupt { interrupts } => OutcomeRecord {
            kind: "interrupt",
            pending_tool_call_ids: None,
            interrupts: Some(interrupts),
        },
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallRecord<'a> {
    index: usize,
    id: &'a str,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent_message_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    subagent_run_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    run_id: Option<&'a str>,
    status: &'static str,
    /// The argument text appended since the last record.
    append: &'a str,
    /// The length of the whole argument text, in bytes of UTF-8.
    args_bytes: usize,
    /// While open: `argsText.slice(0, cut) + suffix` is the partial value.
    #[serde(skip_serializing_if = "Option::is_none")]
    partial: Option<PartialRecord>,
    /// Complete, and the text parsed: JS parses its own copy of the text,
    /// natively and in key order, when `args` is first read.
    parsed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    args_error: Option<ArgsErrorRecord<'a>>,
    advertised: bool,
    validation: &'static str,
    consent: &'static str,
    pending: bool,
    reopened: u32,
    /// In summaries: the event that last closed the call.
    #[serde(skip_serializing_if = "Option::is_none")]
    closed_at: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<ResultRecord<'a>>,
    results: Vec<ResultRecord<'a>>,
}

#[derive(Serialize)]
struct PartialRecord {
    /// In UTF-16 code units, as JS strings count.
    cut: usize,
    suffix: String,
}

#[derive(Serialize)]
struct ArgsErrorRecord<'a> {
    kind: &'static str,
    message: std::borrow::Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<&'a [ValidationError]>,
}

impl<'a> ArgsErrorRecord<'a> {
    fn new(error: &'a ArgsError) -> Self {
        ArgsErrorRecord {
            kind: match error.kind {
                ArgsErrorKind::Parse => "parse",
                ArgsErrorKind::Limit => "limit",
            },
            message: error.message.as_str().into(),
            position: error.position,
            errors: None,
        }
    }

    /// Arguments that parsed but fail the tool's schema (rule S1).
    fn schema(call: &'a ToolCall, errors: &'a [ValidationError]) -> Self {
        let count = errors.len();
        ArgsErrorRecord {
            kind: "schema",
            message: format!(
                "arguments do not match the schema of {}: {count} error{}",
                call.name,
                if count == 1 { "" } else { "s" }
            )
            .into(),
            position: None,
            errors: Some(errors),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultRecord<'a> {
    message_id: &'a str,
    content: &'a Opaque,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    subagent_run_id: Option<&'a str>,
    /// The producer answered a frontend call (rule F4): kept, not the answer.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    rejected: bool,
}

impl<'a> ResultRecord<'a> {
    fn new(result: &'a ToolResult) -> Self {
        ResultRecord {
            message_id: &result.message_id,
            content: &result.content,
            error: result.error.as_deref(),
            source: match result.source {
                ResultSource::Stream => "stream",
                ResultSource::History => "history",
                ResultSource::Application => "application",
            },
            subagent_run_id: result.owner.as_deref(),
            rejected: result.rejected,
        }
    }
}

impl<'a> CallRecord<'a> {
    fn new(index: usize, call: &'a ToolCall, text_from: usize) -> Self {
        let completed = call.arguments();
        CallRecord {
            index,
            id: &call.id,
            name: &call.name,
            parent_message_id: call.parent_message_id.as_deref(),
            subagent_run_id: call.owner.as_deref(),
            run_id: call.run_id.as_deref(),
            status: match call.status {
                CallStatus::Open => "open",
                CallStatus::Complete => "complete",
                CallStatus::Abandoned => "abandoned",
            },
            append: call.args_text().get(text_from..).unwrap_or_default(),
            args_bytes: call.args_text().len(),
            partial: call.partial().map(|p| PartialRecord {
                cut: p.cut_utf16,
                suffix: p.suffix,
            }),
            parsed: matches!(completed, Some(Ok(_))),
            args_error: completed
                .and_then(|r| r.as_ref().err())
                .or(call.args_error())
                .map(ArgsErrorRecord::new)
                .or(match &call.validation {
                    Validation::Invalid(errors) if !errors.is_empty() => {
                        Some(ArgsErrorRecord::schema(call, errors))
                    }
                    _ => None,
                }),
            advertised: call.advertised,
            validation: match call.validation {
                Validation::Unvalidated => "unvalidated",
                Validation::Valid => "valid",
                Validation::Invalid(_) => "invalid",
            },
            consent: match call.consent {
                Consent::Unrequested => "unrequested",
                Consent::Approved => "approved",
                Consent::Declined => "declined",
            },
            pending: call.pending,
            reopened: call.reopen_count,
            closed_at: None,
            result: answer(call).map(ResultRecord::new),
            results: call.results.iter().map(ResultRecord::new).collect(),
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
pub struct RefusalRecord<'a> {
    kind: &'static str,
    message: String,
    tool_call_ids: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unanswered: Vec<UnansweredRecord<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct UnansweredRecord<'a> {
    tool_call_id: &'a str,
    tool_name: &'a str,
    answer_left_out: bool,
}

impl<'a> RefusalRecord<'a> {
    pub fn new(error: &'a ApplicationError) -> Self {
        let unanswered = match error {
            ApplicationError::Unanswered(calls) => calls
                .iter()
                .map(|c| UnansweredRecord {
                    tool_call_id: &c.tool_call_id,
                    tool_name: &c.tool_name,
                    answer_left_out: c.answer_left_out,
                })
                .collect(),
            _ => Vec::new(),
        };
        RefusalRecord {
            kind: error.kind(),
            message: error.to_string(),
            tool_call_ids: error.tool_call_ids(),
            unanswered,
        }
    }
}
