//! A call's argument text, and what can be read from it while it streams.
//!
//! [`ArgsReader`] keeps the text exactly as the deltas built it (rule T4) and
//! reads each byte once, as it arrives, with an incremental JSON scanner: a
//! delta costs time in proportion to its own length, whatever came before.
//! From the scanner's position it offers, at any time, a best-effort partial
//! value of the text so far ([`Partial`], rules in `docs/partial-json.md`) and,
//! at `TOOL_CALL_END`, the final parse (rule T6).

mod fields;
mod nesting;
mod scanner;
mod tail;

use crate::value::Value;

use crate::events::{JsonStr, REPLACEMENT};
use crate::quote::quoted;
pub use fields::PathStep;
pub use nesting::MAX_DEPTH_CEILING;
use scanner::{End, Reason, Scanner, Stop};
pub use tail::Tail;

/// Limits on one call's arguments (rule S5).
///
/// ```
/// use agui_tool_calls::args::ArgsLimits;
///
/// let limits = ArgsLimits::default();
/// assert_eq!(limits.max_bytes, 4 * 1024 * 1024);
/// assert_eq!(limits.max_depth, 64);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgsLimits {
    /// Most bytes of argument text one call may carry.
    pub max_bytes: usize,
    /// Deepest nesting of arrays and objects (`[]` is depth 1). Values above
    /// [`MAX_DEPTH_CEILING`] act as the ceiling.
    pub max_depth: usize,
}

impl Default for ArgsLimits {
    fn default() -> Self {
        ArgsLimits {
            max_bytes: 4 * 1024 * 1024,
            max_depth: 64,
        }
    }
}

/// Why arguments could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgsErrorKind {
    /// The complete text is not one JSON document (rule T6).
    Parse,
    /// A limit on arguments (`ArgsLimits`, from [`Limits`](crate::Limits)) was
    /// exceeded (rule S5).
    Limit,
}

/// An error about a call's arguments, recorded on the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgsError {
    /// Parse or limit.
    pub kind: ArgsErrorKind,
    /// What went wrong, for people.
    pub message: String,
    /// Byte offset into the argument text, where one applies.
    pub position: Option<usize>,
}

/// The best-effort value of an incomplete argument text, as repaired JSON:
/// `text[..cut] + suffix` is one well-formed JSON document.
///
/// ```
/// use agui_tool_calls::args::{ArgsLimits, ArgsReader};
///
/// let mut args = ArgsReader::new(ArgsLimits::default());
/// args.push(r#"{"tags":["a","b"],"note":"café 😀 and mo"#).unwrap();
/// let p = args.partial().unwrap();
/// assert_eq!(p.suffix, "\"}");
/// // A JS host slices its own copy of the text by `cut_utf16`.
/// let utf16: Vec<u16> = args.text().encode_utf16().collect();
/// assert_eq!(String::from_utf16(&utf16[..p.cut_utf16]).unwrap(), &args.text()[..p.cut]);
/// ```
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
/// assert_eq!(args.partial_json().unwrap(), r#"{"city":"Par"}"#);
/// args.push(r#"is","days":-"#).unwrap();
/// // A number is shown only once it can no longer change.
/// assert_eq!(args.partial_json().unwrap(), r#"{"city":"Paris"}"#);
/// args.push(r#"3}"#).unwrap();
/// assert_eq!(args.text(), r#"{"city":"Paris","days":-3}"#);
/// assert_eq!(args.finish().unwrap().get("days").and_then(|d| d.as_i64()), Some(-3));
/// ```
#[derive(Clone, Debug)]
pub struct ArgsReader {
    limits: ArgsLimits,
    text: String,
    scanner: Scanner,
    /// Where a delta was refused for the byte limit; later deltas are refused
    /// too, since the text would otherwise have a hole.
    refused_at: Option<usize>,
    /// A high surrogate that ended the last delta, waiting for the low one
    /// the next delta should begin with (a JS producer cut the pair).
    pending_high: Option<u16>,
}

impl ArgsReader {
    /// An empty argument text.
    pub fn new(limits: ArgsLimits) -> Self {
        let depth = limits.max_depth.min(MAX_DEPTH_CEILING);
        ArgsReader {
            limits,
            text: String::new(),
            // The ceiling (127) fits a u8.
            scanner: Scanner::new(depth as u8),
            refused_at: None,
            pending_high: None,
        }
    }

    /// Appends one delta as an event spells it (rule T4): a surrogate pair
    /// cut between two deltas is joined into its character; a half that
    /// stays alone becomes U+FFFD, as it would crossing from JS into UTF-8.
    /// A high surrogate at the end waits for the next delta or [`close`](Self::close).
    ///
    /// ```
    /// use agui_tool_calls::args::{ArgsLimits, ArgsReader};
    /// use agui_tool_calls::events::JsonStr;
    /// use std::borrow::Cow;
    ///
    /// let mut args = ArgsReader::new(ArgsLimits::default());
    /// let mut first = JsonStr::new(Cow::Borrowed("\"a"));
    /// first.high_last = Some(0xD83D);
    /// args.push_delta(&first).unwrap();
    /// assert_eq!(args.text(), "\"a");
    /// let mut second = JsonStr::new(Cow::Borrowed("\""));
    /// second.low_first = Some(0xDE00);
    /// args.push_delta(&second).unwrap();
    /// assert_eq!(args.text(), "\"a\u{1F600}\"");
    /// ```
    pub fn push_delta(&mut self, delta: &JsonStr) -> Result<(), ArgsError> {
        let pushed = match tail::head(self.pending_high.take(), delta.low_first) {
            None => self.push(&delta.text),
            // Rare: one small copy so the limit sees the delta whole.
            Some(c) => self.push(&format!("{c}{}", delta.text)),
        };
        self.pending_high = delta.high_last;
        pushed
    }

    /// The call's text is complete: a high surrogate still waiting for its
    /// other half becomes U+FFFD. Whether the text changed.
    pub fn close(&mut self) -> bool {
        self.pending_high.take().is_some()
            && self.push(REPLACEMENT.encode_utf8(&mut [0; 4])).is_ok()
    }

    /// What decides the bytes the next deltas append, for counting them
    /// before they are pushed ([`Tail`]).
    pub fn tail(&self) -> Tail {
        Tail {
            len: self.text.len(),
            max_bytes: self.limits.max_bytes,
            refused: self.refused_at.is_some(),
            pending_high: self.pending_high,
        }
    }

    /// Appends one delta and reads it. Fails only when the byte limit would
    /// be exceeded: the delta is then not appended, and every later
    /// non-empty delta is refused the same way. Text that is not JSON is
    /// never refused (rule T4); a syntax error or too deep nesting is
    /// recorded for [`finish`](Self::finish) and freezes the partial value.
    pub fn push(&mut self, delta: &str) -> Result<(), ArgsError> {
        if delta.is_empty() {
            return Ok(());
        }
        if self.tail().refuses(delta.len()) {
            self.refused_at.get_or_insert(self.text.len());
            return Err(self.byte_limit_error());
        }
        self.text.push_str(delta);
        self.scanner.feed(self.text.as_bytes());
        Ok(())
    }

    /// The text so far: the concatenation of every accepted delta (rule T4).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The best-effort value of the text so far, or `None` while nothing
    /// usable has arrived. O(nesting depth); the text is not copied.
    pub fn partial(&self) -> Option<Partial> {
        let cut = self.scanner.cut()?;
        Some(Partial {
            cut: cut.at,
            cut_utf16: cut.at_utf16,
            suffix: self.scanner.suffix(cut),
        })
    }

    /// [`ArgsReader::partial`] without allocating its suffix: the suffix is
    /// appended to `suffix`, and the cut returned in UTF-16 code units.
    ///
    /// ```
    /// use agui_tool_calls::args::{ArgsLimits, ArgsReader};
    ///
    /// let mut reader = ArgsReader::new(ArgsLimits::default());
    /// let mut suffix = String::from("kept:");
    /// assert_eq!(reader.partial_into(&mut suffix), None);
    /// reader.push(r#"{"a":["é"#);
    /// let partial = reader.partial().unwrap();
    /// assert_eq!(reader.partial_into(&mut suffix), Some(partial.cut_utf16));
    /// assert_eq!(suffix, format!("kept:{}", partial.suffix));
    /// assert_eq!(suffix, "kept:\"]}");
    /// ```
    pub fn partial_into(&self, suffix: &mut String) -> Option<usize> {
        let cut = self.scanner.cut()?;
        self.scanner.write_suffix(cut, suffix);
        Some(cut.at_utf16)
    }

    /// The partial value as JSON text (`text[..cut] + suffix`).
    pub fn partial_json(&self) -> Option<String> {
        self.partial()
            .map(|p| format!("{}{}", &self.text[..p.cut], p.suffix))
    }

    /// The limit the text ran into, if any: the byte limit (a refused delta)
    /// or the nesting limit (rule S5).
    pub fn limit_error(&self) -> Option<ArgsError> {
        if self.refused_at.is_some() {
            return Some(self.byte_limit_error());
        }
        match self.scanner.stop() {
            Some(stop) if stop.reason == Reason::TooDeep => Some(self.stop_error(stop)),
            _ => None,
        }
    }

    /// The syntax error that makes the text unable to become JSON, if one has
    /// been met (known before the end of the text).
    pub fn syntax_error(&self) -> Option<ArgsError> {
        match self.scanner.stop() {
            Some(stop) if stop.reason != Reason::TooDeep => Some(self.stop_error(stop)),
            _ => None,
        }
    }

    /// Parses the complete text (at `TOOL_CALL_END`, rule T6). Agrees with
    /// `serde_json::from_str` on validity and value; a limit met earlier is
    /// reported first. The reader stays usable: a reopened call pushes more
    /// deltas and finishes again (rule T7).
    pub fn finish(&self) -> Result<Value, ArgsError> {
        self.check()?;
        // Read by the tracker's own reader of checked JSON text (as tool
        // schemas are), not by serde_json's `Value` deserializer: the
        // check above agrees with serde_json on validity, depth and number
        // range, so this cannot fail on text it passed (and leaves only
        // JSON whitespace around the value).
        crate::events::json::value(crate::events::json::Raw::new(self.text.trim_ascii()))
            .map_err(|message| parse_error(format!("invalid JSON ({message})"), 0))
    }

    /// Whether [`finish`](Self::finish) would succeed, without building the
    /// value: the scanner read every byte as it arrived, so the answer
    /// costs nothing more at the end. The same error when it would fail.
    ///
    /// ```
    /// use agui_tool_calls::args::{ArgsLimits, ArgsReader};
    ///
    /// let mut args = ArgsReader::new(ArgsLimits::default());
    /// args.push(r#"{"n":1e400}"#).unwrap();
    /// assert_eq!(args.check().unwrap_err(), args.finish().unwrap_err());
    /// ```
    pub fn check(&self) -> Result<(), ArgsError> {
        if let Some(limit) = self.limit_error() {
            return Err(limit);
        }
        match self.scanner.end(self.text.as_bytes()) {
            End::Complete => Ok(()),
            End::Stopped(stop) => Err(self.stop_error(stop)),
            End::Incomplete { at, empty } => Err(parse_error(
                if empty {
                    format!("the argument text holds no JSON value (byte {at})")
                } else {
                    format!("the argument text ends inside the JSON value (byte {at})")
                },
                at,
            )),
        }
    }

    fn byte_limit_error(&self) -> ArgsError {
        ArgsError {
            kind: ArgsErrorKind::Limit,
            message: format!(
                "argument text exceeds the limit of {} bytes",
                self.limits.max_bytes
            ),
            position: self.refused_at,
        }
    }

    fn stop_error(&self, stop: Stop) -> ArgsError {
        if stop.reason == Reason::TooDeep {
            return ArgsError {
                kind: ArgsErrorKind::Limit,
                message: format!(
                    "arguments nest deeper than the limit of {} levels (byte {})",
                    self.limits.max_depth.min(MAX_DEPTH_CEILING),
                    stop.at
                ),
                position: Some(stop.at),
            };
        }
        let found = match (stop.reason, self.text.get(stop.at..)) {
            (Reason::NumberOutOfRange, _) | (_, None) => String::new(),
            (_, Some(rest)) => rest
                .chars()
                .next()
                .map(|c| format!(", found {}", quoted(c.encode_utf8(&mut [0; 4]))))
                .unwrap_or_default(),
        };
        parse_error(
            format!(
                "invalid JSON: {}{found} at byte {}",
                stop.reason.describe(),
                stop.at
            ),
            stop.at,
        )
    }
}

fn parse_error(message: String, at: usize) -> ArgsError {
    ArgsError {
        kind: ArgsErrorKind::Parse,
        message,
        position: Some(at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_stays_small() {
        // One reader lives in every call: its fixed state must stay small.
        let size = std::mem::size_of::<ArgsReader>();
        assert!(size <= 224, "ArgsReader is {size} bytes");
    }
}
