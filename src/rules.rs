//! The rules of the protocol's tool-call section, as data: the one source of
//! every rule id, its class and its one-line wording. `docs/rules.md`, the
//! checker's rule titles and its SARIF rule metadata are checked against this
//! table by `tests/rules_table.rs`.

use serde::Serialize;

/// What breaking (or following) a rule means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleClass {
    /// The stream is broken; every later event is refused.
    Fatal,
    /// A MUST was broken; processing continues.
    Violation,
    /// A SHOULD, or a suspicious pattern.
    Warning,
    /// What the state and snapshot show; not reported by itself (some of
    /// these rules still report a violation when their limits are crossed,
    /// such as `S5`).
    Behaviour,
}

/// One rule: its id, its class, a title and a one-line summary.
///
/// ```
/// use agui_tool_calls::rules::{rule, RuleClass};
///
/// let t1 = rule("T1").unwrap();
/// assert_eq!(t1.class, RuleClass::Fatal);
/// assert!(rule("Z9").is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// The rule id, such as `T1`.
    pub id: &'static str,
    /// The rule's class.
    pub class: RuleClass,
    /// What the rule is about, in a few words (the checker's rule titles).
    pub title: &'static str,
    /// The rule in one line.
    pub summary: &'static str,
}

/// Every rule id, in the order of [`RULES`], one string: what a saved
/// violation's code is read against (`events::saved`), without the table's
/// text in the wasm module.
const IDS: &str = "L1 L2 L3 L4 L5 L6 L7 L8 L9 T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 C1 C2 C3 C4 C5 C6 C7 A1 A2 A3 A4 A5 A6 A7 A8 A9 A10 F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 I1 I2 I3 I4 I5 I6 S1 S2 S3 S4 S5 S6 E1 E2 E3 P1 P2 P3 P4 N1 N2 N3";

/// The rule id equal to `code`, as the static string violations hold.
///
/// ```
/// assert_eq!(agui_tool_calls::rules::id("T1"), Some("T1"));
/// assert_eq!(agui_tool_calls::rules::id("T"), None);
/// ```
pub fn id(code: &str) -> Option<&'static str> {
    crate::split::split(IDS, b' ').find(|id| *id == code)
}

/// The rule with this id.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

const fn r(id: &'static str, class: RuleClass, title: &'static str, summary: &'static str) -> Rule {
    Rule {
        id,
        class,
        title,
        summary,
    }
}

use RuleClass::{Behaviour, Fatal, Violation, Warning};

/// Every rule, in the order of the rule table.
pub const RULES: &[Rule] = &[
    r("L1", Fatal, "The first event is RUN_STARTED (or RUN_ERROR), unless the stream is a fragment.", "A stream that is not a fragment starts with RUN_STARTED or RUN_ERROR."),
    r("L2", Fatal, "RUN_STARTED while a run is active.", "A run starts only when no run is active."),
    r("L3", Fatal, "After RUN_FINISHED only RUN_STARTED or RUN_ERROR; after RUN_ERROR only RUN_STARTED.", "Nothing but a new run (or a RUN_ERROR after RUN_FINISHED) follows a finished or errored run."),
    r("L4", Fatal, "RUN_FINISHED while a tool call is open.", "A run finishes only when every one of its calls is closed; the error names every open call."),
    r("L5", Behaviour, "RUN_ERROR abandons open calls.", "RUN_ERROR marks open calls abandoned, without a violation; abandoned calls are never pending."),
    r("L6", Behaviour, "Several runs make one thread.", "Calls of earlier runs stay; per-run bookkeeping resets at RUN_STARTED."),
    r("L7", Behaviour, "The run's outcome is shown.", "RUN_FINISHED.outcome is absent, success, interrupt or cancelled; the snapshot shows status and outcome."),
    r("L8", Behaviour, "A cancelled run is neither a success nor a failure.", "Status cancelled; everything delivered stays; nothing is pending; the next history answers its unanswered calls as cancelled."),
    r("L9", Behaviour, "A consumer-side stop is a truncated run.", "abortRun or a stream the application closed is aborted, never reported as finished or cancelled."),
    r("T1", Fatal, "TOOL_CALL_ARGS for a call that is not open.", "Arguments extend only an open call."),
    r("T2", Fatal, "TOOL_CALL_END for a call that is not open.", "Only an open call can be closed."),
    r("T3", Fatal, "TOOL_CALL_START for a call that is already open.", "A call that is open cannot be started again."),
    r("T4", Behaviour, "The argument text is the deltas concatenated.", "The text is kept exactly as streamed; it is never refused for not being JSON."),
    r("T5", Behaviour, "Nothing acts on arguments before TOOL_CALL_END.", "An open call has text and a partial value only; answering an open call is refused."),
    r("T6", Behaviour, "Closing establishes completeness, not validity.", "At TOOL_CALL_END the text is parsed; a parse error is recorded on the call, not a violation."),
    r("T7", Behaviour, "A closed call may be reopened.", "A new TOOL_CALL_START with the same id reopens a closed call; deltas append to its text."),
    r("T8", Fatal, "A reopening TOOL_CALL_START disagrees with the call it reopens.", "A reopen keeps the call's name, parent message and owner."),
    r("T9", Behaviour, "A result is a tool message of its own.", "TOOL_CALL_RESULT answers its call without reopening it; its content is opaque."),
    r("T10", Warning, "A result for a call never seen.", "A result names a call the tracker knows."),
    r("T11", Violation, "A result for a call that is still open.", "A call is answered only once it is closed."),
    r("T12", Warning, "A second result for the same call.", "A call is answered once."),
    r("C1", Fatal, "The first chunk of a call carries toolCallId and toolCallName.", "A chunk that opens a call names it and its tool."),
    r("C2", Fatal, "A continuation chunk repeats toolCallName or parentMessageId with another value.", "A continuation chunk agrees with the call it continues."),
    r("C3", Behaviour, "Chunks expand into start, args and end.", "Chunks expand exactly as the streaming pattern says."),
    r("C4", Behaviour, "A chunk that several lanes could claim.", "One lane per owner; an unnamed chunk that several lanes could claim is fatal."),
    r("C5", Behaviour, "Explicit events close chunk lanes.", "An explicit event closes its own lane's chunked call; run events close every lane."),
    r("C6", Fatal, "A chunk whose owner disagrees with the lane that holds its id.", "A chunk belongs to the lane that holds its id."),
    r("C7", Behaviour, "Text chunks expand the same way.", "TEXT_MESSAGE_CHUNK uses the same lanes; an opening text chunk without messageId is fatal."),
    r("A1", Behaviour, "A message's owner is its first writer.", "TEXT_MESSAGE_START or an opening text chunk records the message's owner; the first writer wins."),
    r("A2", Fatal, "A tool call's subagentRunId disagrees with the owner of its parent message.", "A tool call belongs to the message that carries it."),
    r("A3", Fatal, "An event's subagentRunId disagrees with the owner of its call.", "Arguments, ends and chunks come from the call's owner."),
    r("A4", Fatal, "A call reopened under another owner.", "A reopen keeps the call's owner, explicit or inherited."),
    r("A5", Behaviour, "History seeds owners and calls.", "MESSAGES_SNAPSHOT and the run input's messages seed owners, known calls and their answers."),
    r("A6", Fatal, "subagentRunId is null (it must be omitted).", "An absent owner is omitted, never null."),
    r("A7", Behaviour, "A result carries its own attribution.", "A result is not checked against its call's owner."),
    r("A8", Behaviour, "Subagent invocations form a tree.", "Each announced subagent is listed with its parent call or subagent, its status and its calls."),
    r("A9", Fatal, "A subagent's lifecycle is broken.", "An invocation is announced once per run, under a parent announced in the run, and closed once before the run finishes."),
    r("A10", Warning, "A subagent reference that does not hold.", "parentToolCallId names a known call; no call is attributed to an invocation that ended in this run; an invocation is announced before any call, message or result attributed to it in the run."),
    r("F1", Behaviour, "Advertised tools make frontend calls.", "Tools come from the options, the run input and RUN_STARTED.input.tools."),
    r("F2", Behaviour, "Closed, unanswered calls are pending at run end.", "When a run finishes, its closed calls without a result are pending, in start order."),
    r("F3", Violation, "outcome.pendingToolCallIds disagrees with the calls left pending.", "The producer's list of pending calls agrees with the derived one."),
    r("F4", Violation, "The producer answered a frontend tool call.", "A producer that calls a frontend tool does not answer it."),
    r("F5", Behaviour, "The application answers, fails or declines each pending call.", "Each disposal gives exactly one tool message for the next run's input."),
    r("F6", Behaviour, "The next run answers every pending call.", "A run input that leaves a pending call unanswered is refused, naming each call."),
    r("F7", Warning, "A call to an unadvertised tool left unanswered at run end.", "Calls to tools the application never advertised are flagged."),
    r("F8", Behaviour, "A frontend call history leaves unanswered is pending again.", "A call to an advertised tool restored from history with no tool message answering it is pending; the next run must answer it."),
    r("F9", Behaviour, "Empty argument text reads as {}.", "A call closed with no argument text reads as {} for args and schema validation; argsText stays empty."),
    r("F10", Behaviour, "The next history keeps what calls and assistant messages carry.", "Each call's and assistant message's encryptedValue, its type and metadata are kept as delivered and returned in the next history."),
    r("F11", Behaviour, "A call a run abandoned is closed in the next input.", "A call stopped mid-stream or abandoned by RUN_ERROR that the history holds is answered by nextRun, toolMessages() and the adapter alike."),
    r("I1", Behaviour, "An interrupt outcome's interrupts are the thread's open interrupts.", "Each interrupt is listed, in order, with its fields, until the next run resumes it."),
    r("I2", Violation, "Two interrupts with one id, or a frontend call ending in an interrupt.", "Interrupt ids are unique in a run; a run that called a frontend tool ends with the success outcome."),
    r("I3", Behaviour, "An interrupt naming a call asks approval of that call.", "The call awaits the interrupt, is not pending, and no tool message answers it; naming an unseen call is a warning."),
    r("I4", Behaviour, "The application resolves or cancels each interrupt.", "A payload is validated against responseSchema, edited arguments against the tool's schema; consent is recorded."),
    r("I5", Behaviour, "The next run covers every open interrupt.", "A run input that leaves an interrupt uncovered, or resolves an expired one, is refused, naming each."),
    r("I6", Warning, "A resume entry that answers nothing.", "A resume entry names an open interrupt, and a resume list continues an interrupted run."),
    r("S1", Behaviour, "Arguments are validated against the tool's schema.", "At close, an advertised tool's arguments are checked against its JSON Schema."),
    r("S2", Behaviour, "Calls without a schema are unvalidated.", "A call with no advertised schema is marked unvalidated."),
    r("S3", Behaviour, "Consent is explicit.", "Only the application approves or declines; a tool may require approval before an answer."),
    r("S4", Behaviour, "Result content is opaque.", "Result content is never read as protocol material."),
    r("S5", Behaviour, "A limit was exceeded.", "Limits are enforced with a clear error; no input exhausts the tracker."),
    r("S6", Behaviour, "No eval; arguments shown as text.", "No eval or new Function; examples render arguments as text."),
    r("E1", Behaviour, "Events as objects, JSON text or event-stream bytes.", "Raw text/event-stream input may be split anywhere."),
    r("E2", Fatal, "A malformed event.", "An event that is not an object or lacks a well-typed required field is fatal, naming the field."),
    r("E3", Warning, "An unknown event type.", "An unknown event type is passed over; unknown fields are tolerated."),
    r("P1", Warning, "An unrecognised union member was stripped.", "An outcome type, content part kind or media source kind 1.0 does not describe is removed, naming its path; the run goes on."),
    r("P2", Warning, "A property 1.0 does not describe was stripped.", "An undescribed property on an object the schema closes never reaches application code."),
    r("P3", Fatal, "A known field holds a value the 1.0 schema rejects.", "A malformed known value is fatal E2 naming the field; retired shapes are translated with a warning."),
    r("P4", Behaviour, "nextRun sends nothing unrecognised and refuses a malformed known field.", "The run input nextRun returns carries no unrecognised material; a malformed known field is refused, naming it, before anything is sent."),
    r("N1", Behaviour, "Snapshots are immutable and keep identity.", "An unchanged tracker returns the identical snapshot; an unchanged call keeps its object."),
    r("N2", Behaviour, "A snapshot shows the whole state.", "Run status, open, completed and pending calls, results, violations and the fatal error."),
    r("N3", Behaviour, "Calls are listed in start order.", "Calls are listed in the order they were first started."),
];

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_the_tables() {
        let ids: Vec<_> = super::RULES.iter().map(|r| r.id).collect();
        assert_eq!(super::IDS.split(' ').collect::<Vec<_>>(), ids);
    }
}
