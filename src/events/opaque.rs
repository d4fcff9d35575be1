//! JSON the tracker carries without reading it, kept as given.

use super::json::Raw;
use crate::quote::quoted;
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::io;

/// An opaque JSON payload (result content, a run's `result`, interrupts,
/// history message content; rules S4, F5): the exact text the producer or
/// the application gave, so key order, number spelling (`-0`, `1e400`,
/// integers above 2^53) and lone surrogate escapes come back unchanged.
/// It is never parsed into a value, so no depth or range makes it fail.
///
/// ```
/// use agui_tool_calls::events::Opaque;
/// use serde_json::json;
///
/// let content = Opaque::from_json(r#" [{"z":1,"a":-0,"n":1e400}] "#).unwrap();
/// assert_eq!(content.get(), r#"[{"z":1,"a":-0,"n":1e400}]"#);
/// // Written as given, inside any other JSON, by `to_json`.
/// assert_eq!(agui_tool_calls::events::to_json(&[&content]), r#"[[{"z":1,"a":-0,"n":1e400}]]"#);
/// assert_eq!(Opaque::from(json!("done")), json!("done"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opaque(Box<str>);

impl Opaque {
    /// Any JSON text, kept as given (surrounding whitespace aside). Only the
    /// syntax is checked, without recursion: nesting depth is not limited.
    /// The error says what is wrong and where, as `serde_json` words it.
    pub fn from_json(text: &str) -> Result<Opaque, String> {
        Raw::checked(text).map(Opaque::from_raw)
    }

    /// A JSON string holding `text`.
    pub fn string(text: &str) -> Opaque {
        Opaque(quoted(text).into_boxed_str())
    }

    /// `null`.
    pub fn null() -> Opaque {
        Opaque("null".into())
    }

    /// JSON text the tracker wrote (content with parts stripped, rule P1).
    pub(crate) fn from_text(text: String) -> Opaque {
        Opaque(text.into_boxed_str())
    }

    pub(crate) fn from_raw(raw: Raw) -> Opaque {
        Opaque(raw.get().into())
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        &self.0
    }

    /// Whether the payload is a JSON string.
    pub fn is_string(&self) -> bool {
        self.0.starts_with('"')
    }

    /// Whether the payload is a JSON array.
    pub fn is_array(&self) -> bool {
        self.0.starts_with('[')
    }

    /// The payload as a `serde_json` value, when `serde_json` can represent
    /// it (not deeper than 128 levels, numbers in range, no lone surrogate).
    pub fn to_value(&self) -> Option<Value> {
        serde_json::from_str(&self.0).ok()
    }
}

impl Opaque {
    /// The payload as a value, read by the tracker's own JSON reader (as
    /// tool schemas are): the wasm module links no `serde_json` parser.
    pub(crate) fn read(&self) -> Option<crate::value::Value> {
        super::json::value(Raw::new(&self.0)).ok()
    }
}

impl From<Value> for Opaque {
    fn from(value: Value) -> Opaque {
        Opaque(value.to_string().into_boxed_str())
    }
}

/// Equal when the payload reads as this value.
impl PartialEq<Value> for Opaque {
    fn eq(&self, other: &Value) -> bool {
        self.to_value().as_ref() == Some(other)
    }
}

/// Serialised as bytes holding the JSON text, which `to_json` writes as
/// they are. (`serde_json`'s own raw values would link its type errors, and
/// with them float formatting, about 9 KB gzip, into the wasm module.)
impl Serialize for Opaque {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0.as_bytes())
    }
}

/// In the declarations of the records (`js/wire.d.ts`): any JSON value,
/// kept as given.
#[cfg(test)]
impl ts_rs::TS for Opaque {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;

    fn name(_: &ts_rs::Config) -> String {
        "unknown".to_owned()
    }

    fn inline(cfg: &ts_rs::Config) -> String {
        Self::name(cfg)
    }
}

/// `value` as compact JSON text, with every [`Opaque`] in it written as
/// given. Use it, not `serde_json::to_string`, for anything holding one
/// (which would write an opaque payload as an array of byte values).
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::with_capacity(128);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, RawBytes);
    // Writing to memory cannot fail, and every key the tracker writes is a
    // string; an empty string would make the reader throw, not trap.
    if value.serialize(&mut serializer).is_err() {
        return String::new();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// `serde_json`'s compact format, except that bytes (only ever an
/// [`Opaque`]'s checked JSON text) are written as they are.
struct RawBytes;

impl serde_json::ser::Formatter for RawBytes {
    fn write_byte_array<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        value: &[u8],
    ) -> io::Result<()> {
        w.write_all(value)
    }
}
