//! The interrupts of an interrupt outcome and the resume entries that
//! answer them (`basic/patterns/interrupt-resume.mdx`; rules I1, I5), read
//! from raw JSON like the other nested payloads: errors name the field by
//! its path, the opaque parts (`responseSchema`, `metadata`, `payload`) are
//! kept as given, and a property the schema does not describe is stripped
//! with a warning (rule P2), as `@ag-ui/client` 1.0 strips it.

use super::json::{self, Fields, Kind, Raw, Scalar};
use super::payload::{item_path, missing, must_be, object, FieldError};
use super::Opaque;
use super::Stripped;
use serde::Serialize;

/// Something a run needs from outside before it can continue (rule I1):
/// one entry of `RUN_FINISHED.outcome.interrupts`.
///
/// ```
/// use agui_tool_calls::{Options, Outcome, Tracker};
///
/// let mut t = Tracker::new(Options::default());
/// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
/// t.push_json(r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt",
///   "interrupts":[{"id":"i1","reason":"input_required","message":"Which region?"}]}}"#).unwrap();
/// let open = t.interrupts();
/// assert_eq!(open[0].interrupt.id, "i1");
/// assert_eq!(open[0].interrupt.message.as_deref(), Some("Which region?"));
/// ```
///
/// Its JSON (`Serialize`) is the reference the binding's hand-written
/// record writer is held to (`wire::records::write`): the string fields,
/// then the opaque ones, each left out when absent.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Interrupt {
    /// `id`: unique within the run; a resume entry answers it by this id.
    pub id: String,
    /// `reason`: why the run stopped (an open string).
    pub reason: String,
    /// `message`: a human-readable prompt for whoever answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// `toolCallId`: the call this interrupt approves (rule I3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// `expiresAt`: when the interrupt stops being answerable, as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// `subagentRunId`: the subagent that raised it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// `responseSchema`: a JSON Schema of the answer (an object), as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_schema: Option<Opaque>,
    /// `metadata`: an object, as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Opaque>,
}

/// The fields an interrupt's schema describes.
const KNOWN: [&str; 8] = [
    "id",
    "reason",
    "message",
    "toolCallId",
    "responseSchema",
    "expiresAt",
    "metadata",
    "subagentRunId",
];

#[cfg(test)]
impl ts_rs::TS for Interrupt {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;
    fn name(_: &ts_rs::Config) -> String {
        "Interrupt".into()
    }
    fn inline(c: &ts_rs::Config) -> String {
        Self::name(c)
    }
    fn decl_concrete(c: &ts_rs::Config) -> String {
        Self::decl(c)
    }
    fn decl(_: &ts_rs::Config) -> String {
        "type Interrupt = { id: string, reason: string, message?: string, toolCallId?: string, \
         responseSchema?: { [key in string]?: unknown }, expiresAt?: string, \
         metadata?: { [key in string]?: unknown }, subagentRunId?: string };"
            .into()
    }
    fn docs() -> Option<String> {
        Some(
            "/**\n * One interrupt of an interrupt outcome (rule I1), its fields as given.\n */\n"
                .into(),
        )
    }
}

/// How a resume entry disposes of its interrupt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResumeStatus {
    /// `resolved`: answered, with the payload the agent asked for.
    Resolved,
    /// `cancelled`: explicitly abandoned.
    Cancelled,
}

/// One entry of `RunAgentInput.resume` (rule I5).
#[derive(Clone, Debug, PartialEq)]
pub struct ResumeEntry {
    /// `interruptId`: the interrupt answered.
    pub interrupt_id: String,
    /// `status`.
    pub status: ResumeStatus,
    /// `payload`: the answer, any JSON value but `null`, as given.
    pub payload: Option<Opaque>,
}

/// `outcome.interrupts`: a non-empty list of interrupts; what they hold
/// that the schema does not describe goes, each named in `stripped`.
pub(super) fn interrupts(
    items: Vec<Raw<'_>>,
    stripped: &mut Vec<Stripped>,
) -> Result<Vec<Interrupt>, FieldError> {
    if items.is_empty() {
        return Err(must_be("outcome", "interrupts", "a non-empty array"));
    }
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        out.push(interrupt(
            item,
            &item_path("outcome.interrupts", i),
            stripped,
        )?);
    }
    Ok(out)
}

pub(super) fn interrupt(
    v: Raw<'_>,
    path: &str,
    stripped: &mut Vec<Stripped>,
) -> Result<Interrupt, FieldError> {
    let map = object(v, path)?;
    let string = |key: &str| strict_string(&map, key, path);
    let object = |key: &str| strict_object(&map, key, path);
    let require = |key: &str, value: Option<String>| value.ok_or_else(|| missing(path, key));
    // Rule P2: the interrupt is rebuilt from the fields it describes.
    super::strip::check_closed(&map, path, &KNOWN, stripped);
    Ok(Interrupt {
        id: require("id", string("id")?)?,
        reason: require("reason", string("reason")?)?,
        message: string("message")?,
        tool_call_id: string("toolCallId")?,
        response_schema: object("responseSchema")?,
        expires_at: string("expiresAt")?,
        metadata: object("metadata")?,
        subagent_run_id: string("subagentRunId")?,
    })
}

/// An optional string field; `null` is not absent (the 1.0 schema refuses it).
pub(super) fn strict_string(
    map: &Fields,
    key: &str,
    path: &str,
) -> Result<Option<String>, FieldError> {
    match map.get(key).map(json::scalar) {
        None => Ok(None),
        Some(Scalar::Str(s)) => Ok(Some(s.into_text().into_owned())),
        Some(_) => Err(must_be(path, key, "a string")),
    }
}

/// An optional object field, kept as given.
fn strict_object(map: &Fields, key: &str, path: &str) -> Result<Option<Opaque>, FieldError> {
    match map.get(key) {
        None => Ok(None),
        Some(v) if json::kind(v) == Kind::Object => Ok(Some(Opaque::from_raw(v))),
        Some(_) => Err(must_be(path, key, "an object")),
    }
}

/// A run input's `resume` at `at`: the resume entries (`null` reads as
/// absent).
pub(super) fn resume(v: Raw<'_>, at: &str) -> Result<Option<Vec<ResumeEntry>>, FieldError> {
    if json::kind(v) == Kind::Null {
        return Ok(None);
    }
    let items = json::items(v).ok_or_else(|| must_be(at, "", "an array"))?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let path = item_path(at, i);
        let map = object(item, &path)?;
        let interrupt_id = strict_string(&map, "interruptId", &path)?
            .ok_or_else(|| missing(&path, "interruptId"))?;
        let status = match strict_string(&map, "status", &path)?.as_deref() {
            Some("resolved") => ResumeStatus::Resolved,
            Some("cancelled") => ResumeStatus::Cancelled,
            Some(_) => return Err(must_be(&path, "status", r#""resolved" or "cancelled""#)),
            None => return Err(missing(&path, "status")),
        };
        let payload = match map.get("payload") {
            Some(v) if json::kind(v) == Kind::Null => {
                return Err(must_not_be_null(&path, "payload"))
            }
            Some(v) => Some(Opaque::from_raw(v)),
            None => None,
        };
        out.push(ResumeEntry {
            interrupt_id,
            status,
            payload,
        });
    }
    Ok(Some(out))
}

/// `field "path.key" must not be null`.
pub(super) fn must_not_be_null(path: &str, key: &str) -> FieldError {
    super::payload::field_error(path, key, " must not be null")
}
