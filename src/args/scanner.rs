//! The incremental JSON scanner: reads each byte of the argument text once,
//! remembers where it stands between deltas, and tracks the last safe cut.
//!
//! A *safe cut* is a prefix `text[..at]` that becomes one well-formed JSON
//! document when a quote (if a string value is in progress) and the closers
//! of the containers open at that point are appended. The cut advances only
//! at the end of a complete thing: an opening bracket in value position, a
//! closing bracket, a string value's closing quote, a complete literal, a
//! number once a delimiter ends it, or a whole character of a string value.
//! Every closing bracket advances it, so the containers open at the cut are
//! always the outermost ones open now: the suffix is computed, not stored.

use super::nesting::{Container, Nesting};

/// Where the scanner is inside a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Escape {
    /// Between characters.
    None,
    /// After `\`.
    Backslash,
    /// Inside `\uXXXX`: `digits` read so far; `low` = the second half of a pair.
    Hex { digits: u8, value: u16, low: bool },
    /// After a high surrogate escape: its low half must follow, `\` first.
    AwaitBackslash,
    /// After the `\` of the low half: `u` must follow.
    AwaitU,
}

/// Where the scanner is inside a number (`-?int(.frac)?([eE][+-]?exp)?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpInt,
}

impl Num {
    /// Whether the digits so far form a whole number.
    fn is_complete(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::ExpInt)
    }

    /// The state after one more byte, or `None` if the byte ends the number.
    fn next(self, b: u8) -> Option<Num> {
        Some(match (self, b) {
            (Num::Minus, b'0') => Num::Zero,
            (Num::Minus, b'1'..=b'9') | (Num::Int, b'0'..=b'9') => Num::Int,
            (Num::Zero | Num::Int, b'.') => Num::Dot,
            (Num::Dot | Num::Frac, b'0'..=b'9') => Num::Frac,
            (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Num::Exp,
            (Num::Exp, b'+' | b'-') => Num::ExpSign,
            (Num::Exp | Num::ExpSign | Num::ExpInt, b'0'..=b'9') => Num::ExpInt,
            _ => return None,
        })
    }
}

/// What the scanner expects next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// A value: at the start, after `:`, after `,` in an array.
    Value,
    /// Just after `[`: a value or `]`.
    ArrayStart,
    /// Just after `{`: a key or `}`.
    ObjectStart,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value: `,` or a closer, or only whitespace at the top level.
    AfterValue,
    /// Inside a string; `key` = it is an object key.
    Str {
        key: bool,
        escape: Escape,
    },
    Number(Num),
    /// Inside `true`, `false` or `null`: the bytes still expected.
    Literal {
        rest: &'static [u8],
    },
}

/// Why the scanner stopped reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    ExpectedValue,
    ExpectedKey,
    ExpectedColon,
    ExpectedCommaOr(Container),
    TrailingCharacters,
    ControlCharacter,
    InvalidEscape,
    InvalidHexEscape,
    LoneSurrogate,
    InvalidNumber,
    NumberOutOfRange,
    InvalidLiteral,
    /// Nesting deeper than the reader's limit (a limit, not a syntax error).
    TooDeep,
}

impl Reason {
    /// What went wrong, in words.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Reason::ExpectedValue => "expected a JSON value",
            Reason::ExpectedKey => "expected a string key",
            Reason::ExpectedColon => "expected `:` after the key",
            Reason::ExpectedCommaOr(Container::Array) => "expected `,` or `]`",
            Reason::ExpectedCommaOr(Container::Object) => "expected `,` or `}`",
            Reason::TrailingCharacters => "unexpected text after the end of the JSON value",
            Reason::ControlCharacter => "unescaped control character in a string",
            Reason::InvalidEscape => "invalid escape in a string",
            Reason::InvalidHexEscape => "invalid hex digit in a \\u escape",
            Reason::LoneSurrogate => "unpaired surrogate in a \\u escape",
            Reason::InvalidNumber => "invalid number",
            Reason::NumberOutOfRange => "number out of range",
            Reason::InvalidLiteral => "invalid literal (expected true, false or null)",
            Reason::TooDeep => "nesting deeper than the limit",
        }
    }
}

/// Where and why the scanner stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stop {
    pub(crate) reason: Reason,
    /// Byte offset of the offending byte (of the number, for one out of range).
    pub(crate) at: usize,
}

/// A safe cut: see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cut {
    pub(crate) at: usize,
    pub(crate) at_utf16: usize,
    /// How many containers are open at the cut.
    depth: u8,
    /// A string value is open at the cut (the suffix starts with a quote).
    in_string: bool,
}

/// How the text ends, for the final parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// One whole JSON document (as far as syntax goes).
    Complete,
    /// Stopped before the end of the text.
    Stopped(Stop),
    /// The text ends inside the document; `empty` = no value began at all.
    Incomplete { at: usize, empty: bool },
}

/// The scanner of one argument text.
#[derive(Clone, Debug)]
pub(crate) struct Scanner {
    state: State,
    nesting: Nesting,
    /// Bytes read so far (the offset of the next byte).
    pos: usize,
    /// The same offset in UTF-16 code units.
    utf16: usize,
    /// The last committed cut; the live one inside a string value is `pos`.
    cut: Option<Cut>,
    /// Where the number in progress began.
    number_start: usize,
    max_depth: u8,
    stop: Option<Stop>,
}

/// JSON whitespace.
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// UTF-16 code units a UTF-8 byte adds: one per character, two for a
/// four-byte character (a surrogate pair), counted on its leading byte.
fn utf16_units(b: u8) -> usize {
    usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0)
}

fn hex_value(b: u8) -> Option<u16> {
    crate::digits::hex_digit(b).map(u16::from)
}

/// Whether the number text is within the range of an `f64`, asked of the
/// reader that reads the final text (`crate::number`), so both agree at
/// the boundary.
fn number_is_finite(text: &[u8]) -> bool {
    std::str::from_utf8(text).is_ok_and(crate::number::finite)
}

impl Scanner {
    /// A scanner before the first byte. `max_depth` is already capped.
    pub(crate) fn new(max_depth: u8) -> Self {
        Scanner {
            state: State::Value,
            nesting: Nesting::default(),
            pos: 0,
            utf16: 0,
            cut: None,
            number_start: 0,
            max_depth,
            stop: None,
        }
    }

    /// Reads `text` from where the last call stopped. `text` only ever grows
    /// by appending, so each byte is read once.
    pub(crate) fn feed(&mut self, text: &[u8]) {
        while self.pos < text.len() && self.stop.is_none() {
            if self.in_plain_string() {
                self.skip_plain(text);
                if self.pos == text.len() {
                    break;
                }
            }
            let b = text[self.pos];
            self.step(b, text);
            if self.stop.is_none() {
                self.pos += 1;
                self.utf16 += utf16_units(b);
            }
        }
    }

    /// Why reading stopped, if it did.
    pub(crate) fn stop(&self) -> Option<Stop> {
        self.stop
    }

    /// The safe cut of the text read so far.
    pub(crate) fn cut(&self) -> Option<Cut> {
        if self.stop.is_none() && self.in_plain_value_string() {
            return Some(self.here(true));
        }
        self.cut
    }

    /// What closes the prefix at `cut`: O(depth).
    pub(crate) fn suffix(&self, cut: Cut) -> String {
        let mut suffix = String::with_capacity(usize::from(cut.depth) + 1);
        self.write_suffix(cut, &mut suffix);
        suffix
    }

    /// [`Scanner::suffix`], appended to `out`.
    pub(crate) fn write_suffix(&self, cut: Cut, out: &mut String) {
        if cut.in_string {
            out.push('"');
        }
        self.nesting.closers(usize::from(cut.depth), out);
    }

    /// How the text (all of it read) ends.
    pub(crate) fn end(&self, text: &[u8]) -> End {
        if let Some(stop) = self.stop {
            return End::Stopped(stop);
        }
        let top_level = self.nesting.depth() == 0;
        match self.state {
            State::AfterValue if top_level => End::Complete,
            State::Number(n) if top_level && n.is_complete() => {
                if number_is_finite(&text[self.number_start..self.pos]) {
                    End::Complete
                } else {
                    End::Stopped(Stop {
                        reason: Reason::NumberOutOfRange,
                        at: self.number_start,
                    })
                }
            }
            state => End::Incomplete {
                at: self.pos,
                empty: top_level && state == State::Value,
            },
        }
    }

    fn in_plain_string(&self) -> bool {
        matches!(
            self.state,
            State::Str {
                escape: Escape::None,
                ..
            }
        )
    }

    fn in_plain_value_string(&self) -> bool {
        self.state
            == State::Str {
                key: false,
                escape: Escape::None,
            }
    }

    /// Skips the run of ordinary string bytes at `pos` in one go.
    fn skip_plain(&mut self, text: &[u8]) {
        let rest = &text[self.pos..];
        let run = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            .unwrap_or(rest.len());
        self.utf16 += rest[..run].iter().map(|&b| utf16_units(b)).sum::<usize>();
        self.pos += run;
    }

    /// A cut at the current position (before the current byte).
    fn here(&self, in_string: bool) -> Cut {
        Cut {
            at: self.pos,
            at_utf16: self.utf16,
            depth: self.nesting.depth() as u8,
            in_string,
        }
    }

    /// A cut just after the current (ASCII) byte, outside any string.
    fn after_this_byte(&self) -> Cut {
        Cut {
            at: self.pos + 1,
            at_utf16: self.utf16 + 1,
            ..self.here(false)
        }
    }

    fn fail(&mut self, reason: Reason) {
        self.fail_at(reason, self.pos);
    }

    fn fail_at(&mut self, reason: Reason, at: usize) {
        // Freeze the partial where it stands: the live cut of a string value
        // becomes the committed one.
        self.cut = self.cut();
        self.stop = Some(Stop { reason, at });
    }

    /// A value ended at `cut`.
    fn complete_value(&mut self, cut: Cut) {
        self.cut = Some(cut);
        self.state = State::AfterValue;
    }

    fn step(&mut self, b: u8, text: &[u8]) {
        match self.state {
            State::Value => self.value(b),
            State::ArrayStart if b == b']' => self.close(Container::Array),
            State::ArrayStart => self.value(b),
            State::ObjectStart => self.key(b, true),
            State::Key => self.key(b, false),
            State::Colon => match b {
                b':' => self.state = State::Value,
                b if is_ws(b) => {}
                _ => self.fail(Reason::ExpectedColon),
            },
            State::AfterValue => self.after_value(b),
            State::Str { key, escape } => self.string(key, escape, b),
            State::Number(n) => self.number(n, b, text),
            State::Literal { rest } => self.literal(rest, b),
        }
    }

    fn value(&mut self, b: u8) {
        match b {
            b'{' => self.open(Container::Object),
            b'[' => self.open(Container::Array),
            b'"' => {
                self.state = State::Str {
                    key: false,
                    escape: Escape::None,
                }
            }
            b'-' => self.start_number(Num::Minus),
            b'0' => self.start_number(Num::Zero),
            b'1'..=b'9' => self.start_number(Num::Int),
            b't' => self.state = State::Literal { rest: b"rue" },
            b'f' => self.state = State::Literal { rest: b"alse" },
            b'n' => self.state = State::Literal { rest: b"ull" },
            b if is_ws(b) => {}
            _ => self.fail(Reason::ExpectedValue),
        }
    }

    fn key(&mut self, b: u8, may_close: bool) {
        match b {
            b'"' => {
                self.state = State::Str {
                    key: true,
                    escape: Escape::None,
                }
            }
            b'}' if may_close => self.close(Container::Object),
            b if is_ws(b) => {}
            _ => self.fail(Reason::ExpectedKey),
        }
    }

    fn after_value(&mut self, b: u8) {
        if is_ws(b) {
            return;
        }
        match self.nesting.top() {
            None => self.fail(Reason::TrailingCharacters),
            Some(Container::Object) if b == b',' => self.state = State::Key,
            Some(Container::Array) if b == b',' => self.state = State::Value,
            Some(open) if b == open.closer() => self.close(open),
            Some(open) => self.fail(Reason::ExpectedCommaOr(open)),
        }
    }

    fn open(&mut self, container: Container) {
        if self.nesting.depth() >= usize::from(self.max_depth) {
            self.fail(Reason::TooDeep);
            return;
        }
        self.nesting.push(container);
        self.state = match container {
            Container::Array => State::ArrayStart,
            Container::Object => State::ObjectStart,
        };
        self.cut = Some(self.after_this_byte());
    }

    fn close(&mut self, container: Container) {
        debug_assert_eq!(self.nesting.top(), Some(container));
        self.nesting.pop();
        self.complete_value(self.after_this_byte());
    }

    fn string(&mut self, key: bool, escape: Escape, b: u8) {
        let next = match escape {
            Escape::None => match b {
                b'"' if key => {
                    self.state = State::Colon;
                    return;
                }
                b'"' => {
                    self.complete_value(self.after_this_byte());
                    return;
                }
                b'\\' => {
                    if !key {
                        // The partial keeps the text before the escape until
                        // the escape (and its surrogate pair) is whole.
                        self.cut = Some(self.here(true));
                    }
                    Escape::Backslash
                }
                0..=0x1F => return self.fail(Reason::ControlCharacter),
                _ => Escape::None,
            },
            Escape::Backslash => match b {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Escape::None,
                b'u' => Escape::Hex {
                    digits: 0,
                    value: 0,
                    low: false,
                },
                _ => return self.fail(Reason::InvalidEscape),
            },
            Escape::Hex { digits, value, low } => {
                let Some(digit) = hex_value(b) else {
                    return self.fail(Reason::InvalidHexEscape);
                };
                let value = value << 4 | digit;
                if digits < 3 {
                    Escape::Hex {
                        digits: digits + 1,
                        value,
                        low,
                    }
                } else {
                    match self.after_hex(value, low) {
                        Some(next) => next,
                        None => return self.fail(Reason::LoneSurrogate),
                    }
                }
            }
            Escape::AwaitBackslash if b == b'\\' => Escape::AwaitU,
            Escape::AwaitU if b == b'u' => Escape::Hex {
                digits: 0,
                value: 0,
                low: true,
            },
            Escape::AwaitBackslash | Escape::AwaitU => return self.fail(Reason::LoneSurrogate),
        };
        self.state = State::Str { key, escape: next };
    }

    /// The string state after a whole `\uXXXX`, or `None` for a surrogate
    /// out of place (the final parse refuses unpaired surrogates).
    fn after_hex(&self, value: u16, low: bool) -> Option<Escape> {
        let is_high = (0xD800..=0xDBFF).contains(&value);
        let is_low = (0xDC00..=0xDFFF).contains(&value);
        match (low, is_high, is_low) {
            (true, _, true) => Some(Escape::None),
            (true, _, false) | (false, _, true) => None,
            (false, true, _) => Some(Escape::AwaitBackslash),
            (false, false, false) => Some(Escape::None),
        }
    }

    fn start_number(&mut self, n: Num) {
        self.number_start = self.pos;
        self.state = State::Number(n);
    }

    fn number(&mut self, n: Num, b: u8, text: &[u8]) {
        if let Some(next) = n.next(b) {
            self.state = State::Number(next);
        } else if !n.is_complete() {
            self.fail(Reason::InvalidNumber);
        } else if !number_is_finite(&text[self.number_start..self.pos]) {
            self.fail_at(Reason::NumberOutOfRange, self.number_start);
        } else {
            // The number ends before this byte, which is read as what follows
            // the value.
            self.complete_value(self.here(false));
            self.after_value(b);
        }
    }

    fn literal(&mut self, rest: &'static [u8], b: u8) {
        match rest.split_first() {
            Some((&expected, [])) if b == expected => self.complete_value(self.after_this_byte()),
            Some((&expected, rest)) if b == expected => self.state = State::Literal { rest },
            _ => self.fail(Reason::InvalidLiteral),
        }
    }
}
