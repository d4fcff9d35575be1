//! A call's argument text, and what can be read from it.
//!
//! PLACEHOLDER: this first version keeps the text and parses it at close.
//! The incremental partial-JSON reader replaces the internals, keeping the API.

use serde_json::Value;

/// Limits on one call's arguments (rule S5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgsLimits {
    /// Most bytes of argument text one call may carry.
    pub max_bytes: usize,
    /// Deepest nesting of arrays and objects.
    pub max_depth: usize,
}

impl Default for ArgsLimits {
    fn default() -> Self {
        ArgsLimits {
            max_bytes: 4 * 1024 * 1024,
            max_depth: 128,
        }
    }
}

/// Why arguments could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgsErrorKind {
    /// The complete text is not one JSON document (rule T6).
    Parse,
    /// A limit of [`ArgsLimits`] was exceeded (rule S5).
    Limit,
}

/// An error about a call's arguments, recorded on the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgsError {
    pub kind: ArgsErrorKind,
    pub message: String,
    /// Byte offset into the argument text, where one applies.
    pub position: Option<usize>,
}

/// The best-effort value of an incomplete argument text, as repaired JSON:
/// `text[..cut] + suffix` is one well-formed JSON document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    /// Byte offset into the text where the usable prefix ends.
    pub cut: usize,
    /// The same offset in UTF-16 code units (what a JS string slices by).
    pub cut_utf16: usize,
    /// What closes the prefix: a quote for a string in progress, then brackets.
    pub suffix: String,
}

/// The argument text of one call, read as it streams.
///
/// ```
/// use agui_tool_calls::args::{ArgsLimits, ArgsReader};
///
/// let mut args = ArgsReader::new(ArgsLimits::default());
/// args.push(r#"{"city":"Par"#).unwrap();
/// args.push(r#"is"}"#).unwrap();
/// assert_eq!(args.text(), r#"{"city":"Paris"}"#);
/// assert_eq!(args.finish().unwrap()["city"], "Paris");
/// ```
#[derive(Clone, Debug)]
pub struct ArgsReader {
    limits: ArgsLimits,
    text: String,
}

impl ArgsReader {
    /// An empty argument text.
    pub fn new(limits: ArgsLimits) -> Self {
        ArgsReader {
            limits,
            text: String::new(),
        }
    }

    /// Appends one delta. Fails only when a limit is exceeded; the delta is
    /// then not appended.
    pub fn push(&mut self, delta: &str) -> Result<(), ArgsError> {
        if self.text.len() + delta.len() > self.limits.max_bytes {
            return Err(ArgsError {
                kind: ArgsErrorKind::Limit,
                message: format!(
                    "argument text exceeds the limit of {} bytes",
                    self.limits.max_bytes
                ),
                position: Some(self.text.len()),
            });
        }
        self.text.push_str(delta);
        Ok(())
    }

    /// The text so far: the concatenation of every delta (rule T4).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The best-effort value of the text so far, or `None` while nothing
    /// usable has arrived.
    pub fn partial(&self) -> Option<Partial> {
        None
    }

    /// The partial value as JSON text (`text[..cut] + suffix`).
    pub fn partial_json(&self) -> Option<String> {
        self.partial()
            .map(|p| format!("{}{}", &self.text[..p.cut], p.suffix))
    }

    /// Parses the complete text (at `TOOL_CALL_END`, rule T6).
    pub fn finish(&self) -> Result<Value, ArgsError> {
        serde_json::from_str(&self.text).map_err(|e| ArgsError {
            kind: ArgsErrorKind::Parse,
            message: e.to_string(),
            position: None,
        })
    }
}
