//! Disposing of a call: approve, answer, fail, decline (rules S3, F5, T5).

use super::ApplicationError;
use crate::events::Opaque;
use crate::machine::{CallStatus, Consent, ToolResult, Tracker};

/// The content of a declined call's tool message; a reason is appended.
pub const DECLINED_CONTENT: &str = "The user declined this tool call.";

/// The `error` of a declined call's tool message, so the agent can tell a
/// refusal from a result.
const DECLINED_ERROR: &str = "declined";

impl Tracker {
    /// Records the user's approval of a complete call (rule S3); it does
    /// not answer the call. Approving twice is harmless.
    ///
    /// ```
    /// use agui_tool_calls::{events::Tool, Consent, Options, Tracker};
    /// use serde_json::json;
    ///
    /// let mut t = Tracker::new(Options {
    ///     tools: vec![Tool::new("deploy", "", json!({}))],
    ///     require_approval: vec!["deploy".into()],
    ///     ..Options::default()
    /// });
    /// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
    /// t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"deploy"}"#).unwrap();
    /// t.push_json(r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#).unwrap();
    /// assert!(t.answer("c1", json!("done"), "m1").is_err()); // not approved yet
    /// t.approve("c1").unwrap();
    /// assert_eq!(t.call("c1").unwrap().consent, Consent::Approved);
    /// t.answer("c1", json!("done"), "m1").unwrap();
    /// ```
    pub fn approve(&mut self, id: &str) -> Result<(), ApplicationError> {
        let i = self.settled_call(id)?;
        match self.calls[i].consent {
            Consent::Declined => Err(ApplicationError::Declined { id: id.to_owned() }),
            Consent::Approved => {
                // The user decided on this call itself.
                if self.calls[i].consent_from.take().is_some() {
                    self.changed(i);
                }
                Ok(())
            }
            Consent::Unrequested => {
                self.disposable(id)?;
                self.calls[i].consent = Consent::Approved;
                self.changed(i);
                Ok(())
            }
        }
    }

    /// Answers a call with `content`, a string or a list of content parts,
    /// as the tool message `message_id` (rule F5).
    pub fn answer(
        &mut self,
        id: &str,
        content: impl Into<Opaque>,
        message_id: &str,
    ) -> Result<(), ApplicationError> {
        let content = content.into();
        check_content(id, &content)?;
        self.dispose(id, message_id, content, None, false)
    }

    /// Answers a call with a failure: `error` set; the content defaults to
    /// the error text, which is what most agents show the model (rule F5).
    pub fn fail(
        &mut self,
        id: &str,
        error: &str,
        content: Option<Opaque>,
        message_id: &str,
    ) -> Result<(), ApplicationError> {
        let content = content.unwrap_or_else(|| Opaque::string(error));
        check_content(id, &content)?;
        self.dispose(id, message_id, content, Some(error.to_owned()), false)
    }

    /// Answers a call by saying the user declined it ([`DECLINED_CONTENT`],
    /// plus the reason), with `error` set; consent becomes declined. Always
    /// allowed for a call the application may answer, approved or not.
    pub fn decline(
        &mut self,
        id: &str,
        reason: Option<&str>,
        message_id: &str,
    ) -> Result<(), ApplicationError> {
        let content = match reason {
            Some(reason) => format!("{DECLINED_CONTENT} Reason: {reason}"),
            None => DECLINED_CONTENT.to_owned(),
        };
        let error = Some(DECLINED_ERROR.to_owned());
        self.dispose(id, message_id, Opaque::string(&content), error, true)
    }

    /// Whether calls to this tool must be approved before they are answered.
    pub fn requires_approval(&self, tool: &str) -> bool {
        self.options.require_approval.iter().any(|t| t == tool)
    }

    /// Checks everything, then records the application's answer.
    fn dispose(
        &mut self,
        id: &str,
        message_id: &str,
        content: Opaque,
        error: Option<String>,
        declining: bool,
    ) -> Result<(), ApplicationError> {
        let i = self.disposable(id)?;
        let call = &self.calls[i];
        if !declining && call.consent != Consent::Approved && self.requires_approval(&call.name) {
            return Err(ApplicationError::ApprovalRequired {
                id: id.to_owned(),
                name: call.name.clone(),
            });
        }
        if self.messages.contains_key(message_id) || self.message_ids.contains(message_id) {
            return Err(ApplicationError::MessageIdInUse {
                message_id: message_id.to_owned(),
            });
        }
        let result = ToolResult::from_application(message_id.to_owned(), content, error);
        self.charge_answer(&result)?;
        self.attach_result(Some(i), id.to_owned(), result);
        if declining {
            self.calls[i].consent = Consent::Declined;
            self.calls[i].consent_from = None;
        }
        self.undelivered.insert(i);
        self.changed(i);
        Ok(())
    }

    /// Rule S5: the application's answer counts towards the thread's budget
    /// and bounds like the stream's results; over them it is refused.
    fn charge_answer(&mut self, result: &ToolResult) -> Result<(), ApplicationError> {
        // The application's own message id is not bounded like the
        // stream's ids; what it keeps counts towards the budget.
        let cost = crate::machine::budget::result_bytes(result);
        if let Some(message) = self.over_budget(cost) {
            Err(ApplicationError::Limit(message))
        } else {
            self.retained += cost;
            Ok(())
        }
    }

    /// A call whose arguments are final: neither open (rule T5) nor
    /// abandoned (rule L5).
    pub(super) fn settled_call(&self, id: &str) -> Result<usize, ApplicationError> {
        let Some(i) = self.call_index(id) else {
            return Err(ApplicationError::UnknownCall { id: id.to_owned() });
        };
        match self.calls[i].status {
            CallStatus::Open => Err(ApplicationError::Open { id: id.to_owned() }),
            CallStatus::Abandoned => Err(ApplicationError::Abandoned { id: id.to_owned() }),
            CallStatus::Complete => Ok(i),
        }
    }

    /// A settled, unanswered call that is the application's to dispose of:
    /// pending, or a call to an advertised tool (even before its run ends),
    /// and awaiting no interrupt (rule I3: a resume entry answers that).
    fn disposable(&self, id: &str) -> Result<usize, ApplicationError> {
        let i = self.settled_call(id)?;
        let call = &self.calls[i];
        if let Some(interrupt) = &call.awaiting_interrupt {
            return Err(ApplicationError::AwaitingInterrupt {
                id: id.to_owned(),
                interrupt_id: interrupt.clone(),
            });
        }
        if let Some(answer) = call.results.iter().find(|r| r.answers()) {
            return Err(ApplicationError::Answered {
                id: id.to_owned(),
                by: answer.source,
            });
        }
        if !call.pending && !call.advertised {
            return Err(ApplicationError::NotTheApplications {
                id: id.to_owned(),
                name: call.name.clone(),
            });
        }
        Ok(i)
    }

    /// A call changed outside any event: dirty for the next
    /// [`Tracker::take_changes`], and a new version.
    pub(crate) fn changed(&mut self, i: usize) {
        self.touch(i);
        self.version += 1;
    }
}

fn check_content(id: &str, content: &Opaque) -> Result<(), ApplicationError> {
    if content.is_string() || content.is_array() {
        Ok(())
    } else {
        Err(ApplicationError::InvalidContent { id: id.to_owned() })
    }
}
