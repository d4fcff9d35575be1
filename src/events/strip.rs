//! The processing model (rules P1-P3) on the payloads the tracker keeps and
//! shows: content parts and outcomes. Unrecognised union members and
//! properties 1.0 does not describe on the objects it closes are stripped,
//! each with a warning naming the path removed; retired shapes are
//! translated as 1.0's compatibility boundary does; a malformed known value
//! is an error naming its field (E2). A payload's text is rewritten only
//! when something was stripped: otherwise it stays exactly as given (S4).

use super::interrupts::{must_not_be_null, strict_string};
use super::json::{self, Fields, Kind, Raw};
use super::payload::{item_path, key_path, missing, object, required_string, FieldError};
use super::Opaque;
use crate::quote::quoted;

/// Something stripped from an event, for its warning (a violation of
/// severity warning, coded by `rule`).
///
/// ```
/// use agui_tool_calls::{Options, RunStatus, Tracker};
///
/// let mut t = Tracker::new(Options::default());
/// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
/// t.push_json(r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"handoff"}}"#)
///     .unwrap();
/// assert_eq!(t.run().status, RunStatus::Finished);
/// assert_eq!(t.violations()[0].code, "P1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stripped {
    /// `P1` (an unrecognised union member), `P2` (a property 1.0 does not
    /// describe, on an object it closes) or `P3` (a retired shape).
    pub rule: &'static str,
    /// What was removed, naming its path.
    pub message: String,
    /// The path of what was removed, or of the field whose value made it go.
    pub path: String,
}

impl Stripped {
    fn new(rule: &'static str, path: String, message: String) -> Self {
        Stripped {
            rule,
            message,
            path,
        }
    }
}

/// The content part kinds 1.0 describes.
const PART_KINDS: [&str; 5] = ["text", "image", "audio", "video", "document"];

/// The properties of a text part and of a media part.
const TEXT_PART: &[&str] = &["type", "id", "text", "metadata"];
const MEDIA_PART: &[&str] = &["type", "id", "source", "metadata"];

/// Result or message content at `path`: a string, kept as given, or a list
/// of content parts, each checked. An unrecognised part kind, a media part
/// whose source is of an unrecognised kind, and a retired `binary` part are
/// dropped from the list; undescribed properties are stripped from the
/// parts and sources that keep them.
///
/// ```text
/// [{"type":"text","text":"a"},{"type":"hologram"}] -> [{"type":"text","text":"a"}]
/// ```
pub(super) fn content(
    raw: Raw<'_>,
    path: &str,
    out: &mut Vec<Stripped>,
) -> Result<Opaque, FieldError> {
    let Some(items) = json::items(raw) else {
        return Ok(Opaque::from_raw(raw));
    };
    let before = out.len();
    // Built by hand: `[String]::join` would be linked into the wasm module
    // for this list alone.
    let mut kept = String::from("[");
    for (i, item) in items.into_iter().enumerate() {
        if let Some(part) = part(item, &item_path(path, i), out)? {
            if kept.len() > 1 {
                kept.push(',');
            }
            kept.push_str(&part);
        }
    }
    if out.len() == before {
        return Ok(Opaque::from_raw(raw));
    }
    kept.push(']');
    Ok(Opaque::from_text(kept))
}

/// One content part: its text (rewritten when a property was stripped),
/// or `None` when the part itself is removed.
fn part(raw: Raw<'_>, path: &str, out: &mut Vec<Stripped>) -> Result<Option<String>, FieldError> {
    let map = object(raw, path)?;
    let kind = required_string(&map, "type", path)?;
    let described = match kind.as_str() {
        "text" => {
            required_string(&map, "text", path)?;
            known_part(&map, path)?;
            TEXT_PART
        }
        k if PART_KINDS.contains(&k) => {
            known_part(&map, path)?;
            let spath = key_path(path, "source");
            let Some(source) = map.get("source") else {
                return Err(missing(path, "source"));
            };
            match self::source(source, &spath, out)? {
                Some(text) if text != source.get() => {
                    return Ok(Some(closed(&map, path, MEDIA_PART, Some(&text), out)));
                }
                Some(_) => MEDIA_PART,
                None => return Ok(None),
            }
        }
        "binary" => {
            let message = format!("{path}: a \"binary\" content part, retired in 1.0, removed");
            out.push(Stripped::new("P3", path.into(), message));
            return Ok(None);
        }
        other => {
            let message = format!(
                "{path}.type {} is not a content part 1.0 describes: part removed",
                quoted(other)
            );
            out.push(Stripped::new("P1", key_path(path, "type"), message));
            return Ok(None);
        }
    };
    Ok(Some(closed(&map, path, described, None, out)))
}

/// The fields every known part may have: a string `id`, a `metadata` that
/// is not `null` (open, not read further).
fn known_part(map: &Fields, path: &str) -> Result<(), FieldError> {
    optional_string(map, "id", path)?;
    if map.get("metadata").map(json::kind) == Some(Kind::Null) {
        return Err(must_not_be_null(path, "metadata"));
    }
    Ok(())
}

/// A media part's source: its text (rewritten when a property was
/// stripped), or `None` when its kind is unrecognised: the source is
/// required, so the part holding it goes (rule P1).
fn source(raw: Raw<'_>, path: &str, out: &mut Vec<Stripped>) -> Result<Option<String>, FieldError> {
    let map = object(raw, path)?;
    let kind = required_string(&map, "type", path)?;
    let described: &[&str] = match kind.as_str() {
        "data" => {
            required_string(&map, "mimeType", path)?;
            &["type", "value", "mimeType"]
        }
        "url" => &["type", "value", "mimeType"],
        "file" => &["type", "value", "provider", "mimeType"],
        other => {
            let message = format!(
                "{path}.type {} is not a media source 1.0 describes: part removed",
                quoted(other)
            );
            out.push(Stripped::new("P1", key_path(path, "type"), message));
            return Ok(None);
        }
    };
    required_string(&map, "value", path)?;
    for key in ["mimeType", "provider"] {
        if described.contains(&key) {
            optional_string(&map, key, path)?;
        }
    }
    Ok(Some(closed(&map, path, described, None, out)))
}

/// The object's text with only its `described` properties (`source`
/// replaced by `source_text` when given); each other one stripped with a
/// P2 warning. The text as given when nothing changes.
fn closed(
    map: &Fields<'_>,
    path: &str,
    described: &[&str],
    source_text: Option<&str>,
    out: &mut Vec<Stripped>,
) -> String {
    let mut changed = source_text.is_some();
    let mut kept = String::from("{");
    for (key, value) in map.entries() {
        if described.contains(&key) {
            let value = match (key, source_text) {
                ("source", Some(text)) => text,
                _ => value.get(),
            };
            if kept.len() > 1 {
                kept.push(',');
            }
            kept.push_str(&quoted(key));
            kept.push(':');
            kept.push_str(value);
        } else {
            changed = true;
            out.push(undescribed(path, key));
        }
    }
    if changed {
        kept.push('}');
        kept
    } else {
        map.text().to_owned()
    }
}

/// The warning for a property 1.0 does not describe (rule P2).
pub(super) fn undescribed(path: &str, key: &str) -> Stripped {
    let path = key_path(path, key);
    let message = format!("{path} is not a property 1.0 describes: removed");
    Stripped::new("P2", path, message)
}

/// Rule P2 for an object whose value the tracker rebuilds from what it
/// reads (an outcome): a warning for each property it does not describe.
pub(super) fn check_closed(
    map: &Fields<'_>,
    path: &str,
    described: &[&str],
    out: &mut Vec<Stripped>,
) {
    for key in map.keys() {
        if !described.contains(&key) {
            out.push(undescribed(path, key));
        }
    }
}

/// The warning for a `null` that 1.0 retired as a spelling of none (rule
/// P3): read as absent, as 1.0's compatibility boundary reads it.
pub(super) fn retired_null(key: &str) -> Stripped {
    let message = format!("{key}: null, a retired spelling of none, read as absent");
    Stripped::new("P3", key.into(), message)
}

/// The warning for an outcome type 1.0 does not describe (rule P1).
pub(super) fn unknown_outcome(kind: &str, what: &str) -> Stripped {
    let message = format!(
        "outcome.type {} is not an outcome 1.0 describes: outcome removed, the {what} reads as a success",
        quoted(kind)
    );
    Stripped::new("P1", "outcome.type".into(), message)
}

/// An optional string; `null` is not absent (the 1.0 schema refuses it).
fn optional_string(map: &Fields, key: &str, path: &str) -> Result<(), FieldError> {
    strict_string(map, key, path).map(drop)
}
