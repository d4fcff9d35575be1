//! What decides how many bytes a delta appends to a call's text.
//!
//! A delta's text is not all it appends: a high surrogate that ended the
//! previous delta joins the low one this delta begins with (4 bytes), or
//! becomes U+FFFD (3 bytes) when the other half is missing, and closing
//! the call turns a half still held into U+FFFD as well. The thread budget
//! (rule S5) must learn the bytes before anything is appended, so the
//! reader's state that decides them is copied out as a [`Tail`], and
//! [`ArgsReader`](super::ArgsReader) appends by the same two steps
//! ([`head`], [`Tail::refuses`]): the count and the text cannot disagree.

use crate::events::{json::pair, JsonStr, REPLACEMENT};

/// The end of a call's argument text, as far as what the next deltas
/// append depends on it: its length, whether a delta was refused for the
/// byte limit, and a high surrogate held for its pair.
///
/// ```
/// use agui_tool_calls::args::{ArgsLimits, ArgsReader};
/// use agui_tool_calls::events::JsonStr;
/// use std::borrow::Cow;
///
/// let mut reader = ArgsReader::new(ArgsLimits::default());
/// let mut high = JsonStr::new(Cow::Borrowed("\"a"));
/// high.high_last = Some(0xD83D);
/// let mut low = JsonStr::new(Cow::Borrowed(""));
/// low.low_first = Some(0xDE00);
/// let mut tail = reader.tail();
/// // The high half is held; the low one brings the whole character.
/// assert_eq!((tail.push_delta(&high), tail.push_delta(&low)), (2, 4));
/// reader.push_delta(&high).unwrap();
/// reader.push_delta(&low).unwrap();
/// assert_eq!(reader.text().len(), 6);
/// assert_eq!(reader.tail(), tail);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tail {
    pub(super) len: usize,
    pub(super) max_bytes: usize,
    pub(super) refused: bool,
    pub(super) pending_high: Option<u16>,
}

impl Tail {
    /// The tail of a new, empty reader whose limit is `max_bytes`.
    ///
    /// ```
    /// use agui_tool_calls::args::{ArgsLimits, ArgsReader, Tail};
    ///
    /// let limits = ArgsLimits::default();
    /// assert_eq!(Tail::new(limits.max_bytes), ArgsReader::new(limits).tail());
    /// ```
    pub fn new(max_bytes: usize) -> Self {
        Tail {
            len: 0,
            max_bytes,
            refused: false,
            pending_high: None,
        }
    }

    /// Moves past `delta` as [`ArgsReader::push_delta`](super::ArgsReader::push_delta)
    /// does; the bytes it appends (none when refused).
    pub fn push_delta(&mut self, delta: &JsonStr) -> usize {
        let head = head(self.pending_high.take(), delta.low_first);
        self.pending_high = delta.high_last;
        self.push(head.map_or(0, char::len_utf8) + delta.text.len())
    }

    /// Moves past the end of the call as [`ArgsReader::close`](super::ArgsReader::close)
    /// does; the bytes it appends.
    pub fn close(&mut self) -> usize {
        match self.pending_high.take() {
            Some(_) => self.push(REPLACEMENT.len_utf8()),
            None => 0,
        }
    }

    /// Whether appending `added` bytes is refused: after a refusal, or past
    /// the byte limit. An empty append never is.
    pub(super) fn refuses(&self, added: usize) -> bool {
        added > 0 && (self.refused || self.len + added > self.max_bytes)
    }

    fn push(&mut self, added: usize) -> usize {
        if self.refuses(added) {
            self.refused = true;
            return 0;
        }
        self.len += added;
        added
    }
}

/// What a delta begins with besides its text: the character a held high
/// surrogate and the delta's first low one make, U+FFFD for a half without
/// its other, or nothing.
pub(super) fn head(held: Option<u16>, low_first: Option<u16>) -> Option<char> {
    match (held, low_first) {
        (Some(high), Some(low)) => Some(pair(high, low)),
        (None, None) => None,
        _ => Some(REPLACEMENT),
    }
}
