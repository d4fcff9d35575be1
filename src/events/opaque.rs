//! JSON the tracker carries without reading it, kept as given.

use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;

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
/// let content = Opaque::from_json(r#"[{"z":1,"a":-0,"n":1e400}]"#).unwrap();
/// assert_eq!(content.get(), r#"[{"z":1,"a":-0,"n":1e400}]"#);
/// assert_eq!(Opaque::from(json!("done")), json!("done"));
/// ```
#[derive(Clone, Debug)]
pub struct Opaque(Box<RawValue>);

impl Opaque {
    /// Any JSON text, kept as given (surrounding whitespace aside). Only the
    /// syntax is checked, without recursion: nesting depth is not limited.
    pub fn from_json(text: &str) -> Result<Opaque, serde_json::Error> {
        serde_json::from_str::<Box<RawValue>>(text).map(Opaque)
    }

    /// A JSON string holding `text`.
    pub fn string(text: &str) -> Opaque {
        Opaque::from(Value::String(text.to_owned()))
    }

    /// `null`.
    pub fn null() -> Opaque {
        Opaque::from(Value::Null)
    }

    pub(crate) fn from_raw(raw: &RawValue) -> Opaque {
        Opaque(raw.to_owned())
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// Whether the payload is a JSON string.
    pub fn is_string(&self) -> bool {
        self.get().starts_with('"')
    }

    /// Whether the payload is a JSON array.
    pub fn is_array(&self) -> bool {
        self.get().starts_with('[')
    }

    /// The payload as a `serde_json` value, when serde_json can represent
    /// it (not deeper than 128 levels, numbers in range, no lone surrogate).
    pub fn to_value(&self) -> Option<Value> {
        serde_json::from_str(self.get()).ok()
    }
}

impl From<Value> for Opaque {
    fn from(value: Value) -> Opaque {
        // Writing a value out cannot fail: its keys are strings.
        Opaque(serde_json::value::to_raw_value(&value).expect("a JSON value serialises"))
    }
}

/// Equal when the texts are equal: the payload is what was given.
impl PartialEq for Opaque {
    fn eq(&self, other: &Opaque) -> bool {
        self.get() == other.get()
    }
}

/// Equal when the payload reads as this value.
impl PartialEq<Value> for Opaque {
    fn eq(&self, other: &Value) -> bool {
        self.to_value().as_ref() == Some(other)
    }
}

impl Serialize for Opaque {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}
