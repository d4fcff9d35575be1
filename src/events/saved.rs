//! A saved thread (`Tracker::save`), read back from its JSON text like the
//! other nested payloads: shallowly, without recursion, the opaque parts
//! (answers' content, interrupts' schemas and payloads) kept as given, and
//! every error naming the field by its path. What the tracker must check
//! against its own state (known calls, ids in use, limits) is checked by
//! `Tracker::load`.

use super::interrupts::{interrupt, strict_string};
use super::json::{self, Kind, Raw};
use super::payload::{field_error, item_path, key_path, missing, must_be, object, FieldError};
use super::Opaque;
use crate::machine::{Consent, InterruptDecision, OpenInterrupt, StandingApproval};
use crate::violation::{Severity, Violation};

/// The format [`crate::save`] writes; [`read`] reads this one only.
pub const SAVED_VERSION: u32 = 1;

/// What a saved thread holds beyond its history.
#[derive(Debug, Default)]
pub struct Saved {
    /// The open interrupts, each with the application's decision.
    pub interrupts: Vec<OpenInterrupt>,
    /// The calls the user decided on or answered.
    pub calls: Vec<SavedCall>,
    /// The standing approvals.
    pub standing: Vec<StandingApproval>,
    /// The violations, in order.
    pub violations: Vec<Violation>,
}

/// One call's decisions.
#[derive(Debug)]
pub struct SavedCall {
    /// The call's id.
    pub id: String,
    /// Approved or declined (never `Unrequested`: such a call is not saved).
    pub consent: Consent,
    /// The call whose standing approval approved it.
    pub consent_from: Option<String>,
    /// The application's answer no run input carried yet: message id,
    /// content, error.
    pub answer: Option<(String, Opaque, Option<String>)>,
}

/// Reads a saved thread; the error names the field by its path.
///
/// Paths are built only on the way to an error, by the payload reader's
/// shared writers (`item_path`, `key_path`): a `format!` per site is code
/// of its own in the wasm module.
pub fn read(text: &str) -> Result<Saved, FieldError> {
    let raw = Raw::checked(text).map_err(|e| FieldError::whole(String::from("not JSON: ") + &e))?;
    let map = object(raw, "saved")?;
    let version = map
        .get("version")
        .ok_or_else(|| missing("saved", "version"))?;
    match crate::digits::decimal(version.get()) {
        Some(v) if v == u64::from(SAVED_VERSION) => {}
        Some(v) if v > u64::from(SAVED_VERSION) => {
            return Err(field_error("saved", "version", NEWER));
        }
        _ => return Err(must_be("saved", "version", "1")),
    }
    let mut saved = Saved::default();
    let items = list(&map, "interrupts")?;
    for (i, item) in items.into_iter().enumerate() {
        let path = item_path("saved.interrupts", i);
        let entry = object(item, &path)?;
        let it = match entry.get("interrupt") {
            // What `save` wrote has nothing to strip: a property added
            // since is dropped, as a stream's would be (rule P2).
            Some(v) => interrupt(v, &key_path(&path, "interrupt"), &mut Vec::new())?,
            None => return Err(missing(&path, "interrupt")),
        };
        let mut payload = entry.get("payload").map(Opaque::from_raw);
        let decision = match strict_string(&entry, "status", &path)?.as_deref() {
            Some("open") => InterruptDecision::Open,
            Some("resolved") => InterruptDecision::Resolved(payload.take()),
            Some("cancelled") => InterruptDecision::Cancelled,
            _ => {
                return Err(must_be(
                    &path,
                    "status",
                    "\"open\", \"resolved\" or \"cancelled\"",
                ))
            }
        };
        if payload.is_some() {
            return Err(must_be(&path, "payload", "absent unless resolved"));
        }
        saved.interrupts.push(OpenInterrupt {
            interrupt: it,
            decision,
        });
    }
    let items = list(&map, "calls")?;
    for (i, item) in items.into_iter().enumerate() {
        saved.calls.push(call(item, &item_path("saved.calls", i))?);
    }
    let items = list(&map, "standingApprovals")?;
    for (i, item) in items.into_iter().enumerate() {
        let path = item_path("saved.standingApprovals", i);
        let entry = object(item, &path)?;
        saved.standing.push(StandingApproval {
            tool: required(&entry, "tool", &path)?,
            tool_call_id: required(&entry, "toolCallId", &path)?,
        });
    }
    let items = list(&map, "violations")?;
    for (i, item) in items.into_iter().enumerate() {
        saved
            .violations
            .push(violation(item, &item_path("saved.violations", i))?);
    }
    Ok(saved)
}

/// The refusal of a newer format; its version is spelled out once here.
const NEWER: &str = " is above 1: saved by a newer version of agui-tool-calls, which this one cannot read (it reads version 1)";
const _: () = assert!(SAVED_VERSION == 1, "NEWER names the version read");

fn call(item: Raw<'_>, path: &str) -> Result<SavedCall, FieldError> {
    let entry = object(item, path)?;
    let decided = match strict_string(&entry, "consent", path)?.as_deref() {
        None => Consent::Unrequested,
        Some("approved") => Consent::Approved,
        Some("declined") => Consent::Declined,
        Some(_) => return Err(must_be(path, "consent", "\"approved\" or \"declined\"")),
    };
    let answer = match entry.get("answer") {
        None => None,
        Some(a) => {
            let at = key_path(path, "answer");
            let fields = object(a, &at)?;
            let content = match fields.get("content") {
                Some(c) if matches!(json::kind(c), Kind::String | Kind::Array) => c,
                Some(_) => {
                    return Err(must_be(
                        &at,
                        "content",
                        "a string or an array of content parts",
                    ))
                }
                None => return Err(missing(&at, "content")),
            };
            Some((
                required(&fields, "messageId", &at)?,
                Opaque::from_raw(content),
                strict_string(&fields, "error", &at)?,
            ))
        }
    };
    Ok(SavedCall {
        id: required(&entry, "id", path)?,
        consent: decided,
        consent_from: strict_string(&entry, "consentFrom", path)?,
        answer,
    })
}

fn violation(item: Raw<'_>, path: &str) -> Result<Violation, FieldError> {
    let entry = object(item, path)?;
    let code = required(&entry, "code", path)?;
    let code = crate::rules::id(&code).ok_or_else(|| must_be(path, "code", "a rule id"))?;
    let severity = match required(&entry, "severity", path)?.as_str() {
        "fatal" => Severity::Fatal,
        "violation" => Severity::Violation,
        "warning" => Severity::Warning,
        _ => {
            return Err(must_be(
                path,
                "severity",
                "\"fatal\", \"violation\" or \"warning\"",
            ))
        }
    };
    let mut v = Violation::new(
        code,
        severity,
        number(&entry, "eventIndex", path)?,
        required(&entry, "message", path)?,
    );
    v.tool_call_id = strict_string(&entry, "toolCallId", path)?;
    v.message_id = strict_string(&entry, "messageId", path)?;
    v.path = strict_string(&entry, "path", path)?;
    v.count = number(&entry, "count", path)? as u64;
    if v.count == 0 {
        return Err(must_be(path, "count", "at least 1"));
    }
    Ok(v)
}

/// The items of the optional array field `saved.<key>`.
fn list<'a>(map: &json::Fields<'a>, key: &str) -> Result<Vec<Raw<'a>>, FieldError> {
    match map.get(key) {
        None => Ok(Vec::new()),
        Some(v) => json::items(v).ok_or_else(|| must_be("saved", key, "an array")),
    }
}

fn required(map: &json::Fields, key: &str, path: &str) -> Result<String, FieldError> {
    strict_string(map, key, path)?.ok_or_else(|| missing(path, key))
}

/// A whole number field below 2^53, as JS writes counts and indices.
fn number(map: &json::Fields, key: &str, path: &str) -> Result<usize, FieldError> {
    let raw = map.get(key).ok_or_else(|| missing(path, key))?;
    match crate::digits::decimal(raw.get()) {
        Some(n) if n < 1 << 53 => {
            usize::try_from(n).map_err(|_| must_be(path, key, "a smaller number"))
        }
        _ => Err(must_be(path, key, "a whole number")),
    }
}
