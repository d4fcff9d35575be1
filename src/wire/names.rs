//! The names the records give the core's states (`"open"`, `"valid"`, ...),
//! each set declared once: the match that names a value and, in tests, the
//! TypeScript union of the names (`js/wire.d.ts`), come from one list.
//!
//! Records hold the names as `&'static str` rather than serde-derived
//! enums: every field type costs the wasm module a serialiser of its own,
//! and these added 0.8 KB (raw; 0.2 KB gzip) for nothing JS can tell.

use crate::args::ArgsErrorKind;
use crate::{
    ApplicationError, CallStatus, Consent, InterruptDecision, ResultSource, RunStatus,
    SubagentStatus, Validation,
};

/// Declares functions naming values, and (in tests) the union of each
/// function's names, exported under the given TypeScript name.
macro_rules! names {
    ($(
        $(#[doc = $doc:literal])*
        $vis:vis fn $fn:ident(&$ty:ty) as $ts:ident { $($pat:pat => $name:literal,)* }
    )*) => {
        $(
            $(#[doc = $doc])*
            $vis fn $fn(value: &$ty) -> &'static str {
                match value { $($pat => $name,)* }
            }
        )*

        /// Each union's declaration, after its doc comment.
        #[cfg(test)]
        pub(super) fn declarations() -> Vec<String> {
            vec![$(
                format!(
                    "/**\n{} */\nexport type {} = {};",
                    [$($doc),*].iter().map(|l| format!(" *{l}\n")).collect::<String>(),
                    stringify!($ts),
                    [$(concat!("\"", $name, "\"")),*].join(" | "),
                )
            ),*]
        }
    };
}

names! {
    /// Where a call stands.
    pub(super) fn call_status(&CallStatus) as CallStatus {
        CallStatus::Open => "open",
        CallStatus::Complete => "complete",
        CallStatus::Abandoned => "abandoned",
    }

    /// Whether the application let a call be executed (rule S3).
    pub(super) fn consent(&Consent) as Consent {
        Consent::Unrequested => "unrequested",
        Consent::Approved => "approved",
        Consent::Declined => "declined",
    }

    /// What validation says of a call's arguments; the errors are in
    /// `argsError`.
    pub(super) fn validation(&Validation) as ValidationState {
        Validation::Unvalidated => "unvalidated",
        Validation::Valid => "valid",
        Validation::Invalid(_) => "invalid",
    }

    /// What made a call's arguments unusable: the text does not parse or
    /// passes a limit (`schema`, the value fails the tool's schema, is
    /// named by `schema_error`).
    pub(super) fn args_error(&Option<ArgsErrorKind>) as ArgsErrorClass {
        Some(ArgsErrorKind::Parse) => "parse",
        None => "schema",
        Some(ArgsErrorKind::Limit) => "limit",
    }

    /// Where a result came from.
    pub(super) fn result_source(&ResultSource) as ResultSource {
        ResultSource::Stream => "stream",
        ResultSource::History => "history",
        ResultSource::Application => "application",
    }

    /// Where the latest run stands.
    pub(super) fn run_status(&RunStatus) as RunStatus {
        RunStatus::Idle => "idle",
        RunStatus::Running => "running",
        RunStatus::Finished => "finished",
        RunStatus::Interrupted => "interrupted",
        RunStatus::Cancelled => "cancelled",
        RunStatus::Errored => "errored",
        RunStatus::Aborted => "aborted",
    }

    /// Why the tracker refused an application operation, as the JS layer's
    /// `ToolCallRefusedError.kind` holds it.
    pub fn refusal_kind(&ApplicationError) as RefusalKind {
        ApplicationError::UnknownCall { .. } => "unknownCall",
        ApplicationError::Open { .. } => "open",
        ApplicationError::Abandoned { .. } => "abandoned",
        ApplicationError::Answered { .. } => "answered",
        ApplicationError::Declined { .. } => "declined",
        ApplicationError::NotTheApplications { .. } => "notTheApplications",
        ApplicationError::ApprovalRequired { .. } => "approvalRequired",
        ApplicationError::MessageIdInUse { .. } => "messageIdInUse",
        ApplicationError::InvalidContent { .. } => "invalidContent",
        ApplicationError::Unanswered(_) => "unanswered",
        ApplicationError::MalformedInput(_) => "malformedInput",
        ApplicationError::RunActive => "runActive",
        ApplicationError::Stopped { .. } => "stopped",
        ApplicationError::Limit(_) => "limit",
        ApplicationError::UnknownInterrupt { .. } => "unknownInterrupt",
        ApplicationError::InterruptCovered { .. } => "interruptCovered",
        ApplicationError::InterruptExpired { .. } => "interruptExpired",
        ApplicationError::InvalidPayload { .. } => "invalidPayload",
        ApplicationError::InvalidEditedArgs { .. } => "invalidEditedArgs",
        ApplicationError::AwaitingInterrupt { .. } => "awaitingInterrupt",
        ApplicationError::Uncovered(_) => "uncovered",
        ApplicationError::Saved(_) => "invalidSaved",
    }

    /// Where a subagent invocation stands (rule A8).
    pub(super) fn subagent_status(&SubagentStatus) as SubagentStatus {
        SubagentStatus::Running => "running",
        SubagentStatus::Finished => "finished",
        SubagentStatus::Suspended => "suspended",
        SubagentStatus::Errored => "errored",
        SubagentStatus::Abandoned => "abandoned",
    }

    /// What the application decided about an open interrupt (rule I4).
    pub(super) fn interrupt_status(&InterruptDecision) as InterruptStatus {
        InterruptDecision::Open => "open",
        InterruptDecision::Resolved(_) => "resolved",
        InterruptDecision::Cancelled => "cancelled",
    }
}

/// The name of a schema failure among [`args_error`]'s.
pub(super) fn schema_error() -> &'static str {
    args_error(&None)
}
