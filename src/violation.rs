//! Violations: what the tracker reports when a stream breaks a rule.

use serde::Serialize;
use std::fmt;

/// How bad a broken rule is (see the severities of `docs/rules.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Severity {
    /// The stream is broken: the tracker refuses every later event.
    Fatal,
    /// A MUST was broken; processing continues.
    Violation,
    /// A SHOULD, or a suspicious pattern.
    Warning,
}

/// One broken rule, with where it happened.
///
/// ```
/// use agui_tool_calls::{Severity, Violation};
///
/// let v = Violation::new("T1", Severity::Fatal, 3, "TOOL_CALL_ARGS for a call that is not open");
/// assert_eq!(v.to_string(), "T1 (fatal) at event 3: TOOL_CALL_ARGS for a call that is not open");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Violation {
    /// The rule id of `RULES.md`, such as `T1`.
    pub code: &'static str,
    /// How bad it is.
    pub severity: Severity,
    /// The human-readable message.
    pub message: String,
    /// Zero-based index of the offending event in the stream.
    pub event_index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    /// `toolCallId`: the tool call.
    pub tool_call_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    /// `messageId`: the message.
    pub message_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    /// The field at fault, as a path in the event: `toolCallId`,
    /// `input.messages[2].toolCalls[0].id` (keys joined by `.`, list items
    /// as `[i]`). Absent when no one field is: the event as a whole is out
    /// of place, or the fault is the stream's (a limit on its length).
    pub path: Option<String>,
    /// How many times it happened: repeats of one violation (same rule,
    /// message and call, at other events) are kept once, counted here;
    /// `event_index` is the first occurrence.
    pub count: u64,
}

impl Violation {
    /// A violation with no call or message named yet.
    pub fn new(
        code: &'static str,
        severity: Severity,
        event_index: usize,
        message: impl Into<String>,
    ) -> Self {
        debug_assert!(crate::rules::rule(code).is_some(), "no rule {code}");
        Violation {
            code,
            severity,
            message: message.into(),
            event_index,
            tool_call_id: None,
            message_id: None,
            path: None,
            count: 1,
        }
    }

    /// Names the tool call the violation is about.
    #[must_use]
    pub fn with_call(mut self, id: &str) -> Self {
        self.tool_call_id = Some(id.to_owned());
        self
    }

    /// Names the message the violation is about.
    #[must_use]
    pub fn with_message(mut self, id: &str) -> Self {
        self.message_id = Some(id.to_owned());
        self
    }

    /// Names the field at fault, by its path in the event.
    #[must_use]
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }
}

impl Severity {
    /// The name of `docs/rules.md`: `fatal`, `violation` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Fatal => "fatal",
            Severity::Violation => "violation",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}) at event {}: {}",
            self.code, self.severity, self.event_index, self.message
        )
    }
}

impl std::error::Error for Violation {}
