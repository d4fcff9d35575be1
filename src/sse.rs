//! A `text/event-stream` decoder, as the HTML standard specifies it, fed
//! with chunks split anywhere: inside a line, between CR and LF, inside a
//! UTF-8 sequence.
//!
//! ```
//! use agui_tool_calls::sse::SseDecoder;
//!
//! let mut decoder = SseDecoder::new();
//! let mut events = Vec::new();
//! decoder.push_bytes(b"data: {\"type\":", |e| events.push(e.data.to_owned()));
//! decoder.push_bytes(b"\"RUN_STARTED\"}\r\n\r\n", |e| events.push(e.data.to_owned()));
//! assert_eq!(events, [r#"{"type":"RUN_STARTED"}"#]);
//! ```

use crate::words::{has_byte, word_at};

/// One dispatched event: what `data:` lines carried, joined with LF.
#[derive(Debug, PartialEq, Eq)]
pub struct SseEvent<'a> {
    /// The `event:` field, or `message` when none was given.
    pub event_type: &'a str,
    /// The event's data lines, joined with LF.
    pub data: &'a str,
    /// The last event id seen so far (`id:`), which persists across events.
    pub last_event_id: &'a str,
    /// The line (from 1, a byte-order mark not counted) of the event's
    /// first `data:` field.
    pub line: usize,
}

/// What [`SseDecoder::read_bytes`] reports: each event, and each line the
/// standard ignores as no field of its own (not `data`, `event`, `id` or
/// `retry`, nor a comment), which a reader drops and a checker may flag:
/// a JSON Lines event in an event stream is one.
#[derive(Debug, PartialEq, Eq)]
pub enum SseItem<'a> {
    /// A dispatched event.
    Event(SseEvent<'a>),
    /// A line that sets no field: its number (from 1) and its text.
    Unknown(usize, &'a str),
}

/// What made the decoder stop: a line or an event's data grew past the
/// decoder's limit (rule S5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SseOverflow {
    /// A line (a `data:` line, a comment, any field) without its line end
    /// yet is longer than the limit.
    Line,
    /// The `data:` lines of one event, not yet ended by a blank line, hold
    /// more than the limit.
    Event,
}

/// Incremental decoder state. Memory is bounded by the limit given to
/// [`SseDecoder::with_limit`]: no line and no event's data grows past it.
/// Past it the decoder stops for good ([`SseDecoder::overflow`]), since
/// what follows a cut line cannot be read reliably.
#[derive(Clone, Debug, Default)]
pub struct SseDecoder {
    /// Most bytes a line or an event's data may hold; 0 means no limit.
    limit: usize,
    /// Set once a line or an event outgrew the limit; input is ignored then.
    overflow: Option<SseOverflow>,
    /// Up to three bytes of a UTF-8 sequence split across chunks.
    utf8_tail: Vec<u8>,
    /// Whether the byte-order mark has been looked for (first bytes only).
    started: bool,
    line: String,
    /// The previous chunk ended in CR: a leading LF now ends nothing new.
    after_cr: bool,
    data: String,
    event_type: String,
    last_event_id: String,
    /// Line ends read: the number of the last line read whole (from 1).
    lines: usize,
    /// The line of the first `data:` field of the event being read.
    event_line: usize,
}

impl SseDecoder {
    /// A decoder with no limit on lines and events.
    pub fn new() -> Self {
        Self::default()
    }

    /// A decoder that stops at the first line or event longer than `limit`
    /// bytes (0: no limit).
    ///
    /// ```
    /// use agui_tool_calls::sse::{SseDecoder, SseOverflow};
    ///
    /// let mut decoder = SseDecoder::with_limit(16);
    /// decoder.push_str("data: a line that never ends", |_| unreachable!());
    /// assert_eq!(decoder.overflow(), Some(SseOverflow::Line));
    /// ```
    pub fn with_limit(limit: usize) -> Self {
        SseDecoder {
            limit,
            ..Self::default()
        }
    }

    /// The limit the input ran into, if any: nothing is read after it.
    pub fn overflow(&self) -> Option<SseOverflow> {
        self.overflow
    }

    /// The limit given to [`SseDecoder::with_limit`] (0: none).
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Where the input read so far is cut: the line (from 1) of an event
    /// no blank line has ended yet (a `data:` line without its line end
    /// included), or of the line or event the decoder stopped at; 0 when
    /// every event read was dispatched.
    ///
    /// ```
    /// use agui_tool_calls::sse::SseDecoder;
    ///
    /// let mut decoder = SseDecoder::new();
    /// decoder.push_str(": hello\n\ndata: {\n", |_| unreachable!());
    /// assert_eq!(decoder.open_line(), 3);
    /// decoder.push_str("data: }\n\n", |e| assert_eq!((e.data, e.line), ("{\n}", 3)));
    /// assert_eq!(decoder.open_line(), 0);
    /// ```
    pub fn open_line(&self) -> usize {
        match self.overflow {
            Some(SseOverflow::Line) => self.lines.saturating_add(1),
            Some(SseOverflow::Event) => self.event_line,
            None if !self.data.is_empty() => self.event_line,
            None if data_value(&self.line).is_some() => self.lines.saturating_add(1),
            None => 0,
        }
    }

    /// Whether `len` more bytes would take a buffer of `held` bytes past
    /// the limit.
    fn exceeds(&self, held: usize, len: usize) -> bool {
        self.limit != 0 && held.saturating_add(len) > self.limit
    }

    /// Stops the decoder and frees what it buffered.
    fn stop(&mut self, overflow: SseOverflow) {
        self.overflow = Some(overflow);
        self.line = String::new();
        self.data = String::new();
        self.utf8_tail = Vec::new();
    }

    /// Feeds raw bytes; calls `dispatch` for every complete event.
    pub fn push_bytes(&mut self, bytes: &[u8], mut dispatch: impl FnMut(SseEvent<'_>)) {
        self.read_bytes(bytes, |item| {
            if let SseItem::Event(event) = item {
                dispatch(event);
            }
        });
    }

    /// [`SseDecoder::push_bytes`], also reporting the lines that set no
    /// field ([`SseItem::Unknown`]).
    ///
    /// ```
    /// use agui_tool_calls::sse::{SseDecoder, SseItem};
    ///
    /// let mut items = Vec::new();
    /// SseDecoder::new().read_bytes(b"{\"type\":\"X\"}\n: ok\ndata: 1\n\n", |item| {
    ///     items.push(match item {
    ///         SseItem::Event(e) => (e.line, e.data.to_owned()),
    ///         SseItem::Unknown(line, text) => (line, format!("unknown {text}")),
    ///     })
    /// });
    /// assert_eq!(items, [(1, r#"unknown {"type":"X"}"#.into()), (3, "1".into())]);
    /// ```
    pub fn read_bytes(&mut self, bytes: &[u8], mut dispatch: impl FnMut(SseItem<'_>)) {
        if self.overflow.is_some() {
            return;
        }
        if self.utf8_tail.is_empty() {
            self.decode(bytes, &mut dispatch);
        } else {
            let mut joined = std::mem::take(&mut self.utf8_tail);
            joined.extend_from_slice(bytes);
            self.decode(&joined, &mut dispatch);
        }
    }

    /// Decodes UTF-8 as the standard says: invalid sequences become U+FFFD,
    /// an incomplete one at the end waits for the next chunk.
    fn decode(&mut self, mut bytes: &[u8], dispatch: &mut impl FnMut(SseItem<'_>)) {
        while self.overflow.is_none() {
            match std::str::from_utf8(bytes) {
                Ok(text) => return self.read_str(text, dispatch),
                Err(e) => {
                    let (valid, rest) = bytes.split_at(e.valid_up_to());
                    if let Ok(valid) = std::str::from_utf8(valid) {
                        self.read_str(valid, dispatch);
                    }
                    match e.error_len() {
                        None => return self.utf8_tail.extend_from_slice(rest),
                        Some(len) => {
                            self.read_str("\u{FFFD}", dispatch);
                            bytes = &rest[len..];
                        }
                    }
                }
            }
        }
    }

    /// Feeds text (already decoded); calls `dispatch` for every complete event.
    pub fn push_str(&mut self, text: &str, mut dispatch: impl FnMut(SseEvent<'_>)) {
        self.read_str(text, &mut |item| {
            if let SseItem::Event(event) = item {
                dispatch(event);
            }
        });
    }

    fn read_str(&mut self, text: &str, dispatch: &mut impl FnMut(SseItem<'_>)) {
        if self.overflow.is_some() {
            return;
        }
        let mut text = text;
        if !self.started && !text.is_empty() {
            self.started = true;
            text = text.strip_prefix("\u{FEFF}").unwrap_or(text);
        }
        let mut rest = text;
        if self.after_cr && !rest.is_empty() {
            self.after_cr = false;
            rest = rest.strip_prefix("\n").unwrap_or(rest);
        }
        // `line_end` gives a char boundary (CR and LF are ASCII) and each
        // terminator is one byte, so the checked forms below never fail;
        // unlike `&rest[..end]`, they link no string-slicing panic (whose
        // message formatting costs the wasm module a kilobyte gzip).
        //
        // An event of one `data:` line, the common frame, is read in place:
        // its value waits in `single` for the line after it, and is copied
        // into `self.data` only if that line is not the blank line that
        // dispatches it (or the chunk ends first).
        let mut single: Option<&str> = None;
        while let Some((head, tail)) = line_end(rest).and_then(|end| rest.split_at_checked(end)) {
            if self.exceeds(self.line.len(), head.len()) {
                return self.stop(SseOverflow::Line);
            }
            self.lines = self.lines.saturating_add(1);
            rest = tail.get(1..).unwrap_or_default();
            if tail.as_bytes().first() == Some(&b'\r') {
                match rest.strip_prefix("\n") {
                    Some(after) => rest = after,
                    None => self.after_cr = rest.is_empty(),
                }
            }
            if self.line.is_empty() {
                // The whole line is in this chunk: read it in place.
                if let Some(data) = single.take() {
                    if head.is_empty() {
                        self.dispatch_data(data, dispatch);
                        continue;
                    }
                    self.append_data(data);
                } else if self.data.is_empty() {
                    if let Some(value) = data_value(head) {
                        self.event_line = self.lines;
                        if self.exceeds(0, value.len() + 1) {
                            return self.stop(SseOverflow::Event);
                        }
                        single = Some(value);
                        continue;
                    }
                }
                self.process_line(head, dispatch);
            } else {
                self.line.push_str(head);
                let mut line = std::mem::take(&mut self.line);
                self.process_line(&line, dispatch);
                if self.overflow.is_some() {
                    return;
                }
                line.clear();
                self.line = line; // keeps its capacity for the next line
            }
            if self.overflow.is_some() {
                return;
            }
        }
        if let Some(data) = single {
            self.append_data(data);
        }
        if self.exceeds(self.line.len(), rest.len()) {
            return self.stop(SseOverflow::Line);
        }
        self.line.push_str(rest);
    }

    /// Appends one `data:` line's value to the event's data, within the
    /// limit (checked before: [`SseDecoder::exceeds`]).
    fn append_data(&mut self, value: &str) {
        self.data.push_str(value);
        self.data.push('\n');
    }

    fn process_line(&mut self, line: &str, dispatch: &mut impl FnMut(SseItem<'_>)) {
        if line.is_empty() {
            return self.dispatch(dispatch);
        }
        if line.starts_with(':') {
            return; // a comment
        }
        if let Some(value) = data_value(line) {
            if self.data.is_empty() {
                self.event_line = self.lines;
            }
            if self.exceeds(self.data.len(), value.len() + 1) {
                return self.stop(SseOverflow::Event);
            }
            return self.append_data(value);
        }
        let (field, value) = match crate::split::split_once(line, b':') {
            Some((field, value)) => (field, value.strip_prefix(" ").unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "event" => {
                self.event_type.clear();
                self.event_type.push_str(value);
            }
            "id" if !value.bytes().any(|b| b == 0) => {
                self.last_event_id.clear();
                self.last_event_id.push_str(value);
            }
            // `retry` only concerns reconnection, which is the transport's.
            "retry" | "id" => {}
            _ => dispatch(SseItem::Unknown(self.lines, line)),
        }
    }

    fn dispatch(&mut self, dispatch: &mut impl FnMut(SseItem<'_>)) {
        if self.data.is_empty() {
            self.event_type.clear();
            return;
        }
        let mut data = std::mem::take(&mut self.data);
        self.dispatch_data(data.strip_suffix("\n").unwrap_or(&data), dispatch);
        data.clear();
        self.data = data; // keeps its capacity for the next event
    }

    /// Dispatches an event of `data` (its last LF removed).
    fn dispatch_data(&mut self, data: &str, dispatch: &mut impl FnMut(SseItem<'_>)) {
        let event_type = if self.event_type.is_empty() {
            "message"
        } else {
            &self.event_type
        };
        dispatch(SseItem::Event(SseEvent {
            event_type,
            data,
            last_event_id: &self.last_event_id,
            line: self.event_line,
        }));
        self.event_type.clear();
    }
}

/// The value of a `data:` line, if `line` is one.
fn data_value(line: &str) -> Option<&str> {
    // Compared as bytes: the `str` pattern forms are calls in the module.
    let (field, rest) = line.split_at_checked(4)?;
    if field.as_bytes() != b"data" {
        return None;
    }
    let skip = match rest.as_bytes() {
        // `data` alone is the field with an empty value.
        [] => 0,
        [b':', b' ', ..] => 2,
        [b':', ..] => 1,
        _ => return None,
    };
    rest.get(skip..)
}

/// The byte offset of the first CR or LF in `text`. A byte search: both
/// are ASCII, so the offset is a character boundary, and no character is
/// decoded on the way (a `char` search cost a quarter of each event). It
/// reads eight bytes at a time up to the word holding the line end: most
/// lines are an event's JSON text, and the byte loop cost a tenth of each.
fn line_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(word) = word_at(bytes, at) {
        if has_byte(word, b'\n') || has_byte(word, b'\r') {
            break;
        }
        at += 8;
    }
    let rest = bytes.get(at..)?;
    Some(at + rest.iter().position(|&b| b == b'\r' || b == b'\n')?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_in(chunks: &[&[u8]]) -> Vec<(String, String, String)> {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        for chunk in chunks {
            decoder.push_bytes(chunk, |e| {
                out.push((e.event_type.into(), e.data.into(), e.last_event_id.into()));
            });
        }
        out
    }

    fn data_of(chunks: &[&[u8]]) -> Vec<String> {
        decode_in(chunks).into_iter().map(|(_, d, _)| d).collect()
    }

    const RECORDED: &str = "\u{FEFF}: keep-alive\r\n\
        data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\r\n\r\n\
        event: message\nid: 7\n\
        data: {\"type\":\"TOOL_CALL_ARGS\",\n\
        data: \"delta\":\"h\u{e9}llo \u{1F600}\"}\n\n\
        retry: 1000\r\r\
        data:{\"type\":\"RUN_FINISHED\"}\r\r\
        data: dropped: no blank line ends it";

    fn recorded_events() -> Vec<String> {
        vec![
            r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#.into(),
            "{\"type\":\"TOOL_CALL_ARGS\",\n\"delta\":\"h\u{e9}llo \u{1F600}\"}".into(),
            r#"{"type":"RUN_FINISHED"}"#.into(),
        ]
    }

    #[test]
    fn e1_recorded_stream_decodes_in_one_chunk() {
        assert_eq!(data_of(&[RECORDED.as_bytes()]), recorded_events());
    }

    #[test]
    fn e1_every_split_point_gives_the_same_events() {
        let bytes = RECORDED.as_bytes();
        for split in 0..=bytes.len() {
            let (a, b) = bytes.split_at(split);
            assert_eq!(data_of(&[a, b]), recorded_events(), "split at byte {split}");
        }
    }

    #[test]
    fn e1_byte_at_a_time_gives_the_same_events() {
        let chunks: Vec<&[u8]> = RECORDED.as_bytes().chunks(1).collect();
        assert_eq!(data_of(&chunks), recorded_events());
    }

    #[test]
    fn e1_every_pair_of_split_points_gives_the_same_events() {
        let bytes = RECORDED.as_bytes();
        for i in 0..=bytes.len() {
            for j in i..=bytes.len() {
                let chunks = [&bytes[..i], &bytes[i..j], &bytes[j..]];
                assert_eq!(data_of(&chunks), recorded_events(), "splits at {i} and {j}");
            }
        }
    }

    #[test]
    fn e1_event_type_and_last_event_id_are_reported() {
        let events = decode_in(&[b"event: custom\nid: 42\ndata: x\n\ndata: y\n\n"]);
        assert_eq!(events[0], ("custom".into(), "x".into(), "42".into()));
        assert_eq!(events[1], ("message".into(), "y".into(), "42".into()));
    }

    #[test]
    fn e1_field_without_colon_and_empty_data_follow_the_standard() {
        // `data` alone appends an empty line; an event of empty data lines
        // still dispatches (its data is one LF less than the buffer).
        assert_eq!(data_of(&[b"data\ndata\n\n"]), ["\n"]);
        // No data at all: nothing dispatches.
        assert!(data_of(&[b"event: x\n\n"]).is_empty());
        // Only one leading space is removed from a value.
        assert_eq!(data_of(&[b"data:  two\n\n"]), [" two"]);
    }

    #[test]
    fn e1_invalid_utf8_becomes_replacement_character() {
        assert_eq!(data_of(&[b"data: a\xffb\n\n"]), ["a\u{FFFD}b"]);
        assert_eq!(data_of(&[b"data: a\xe2\x82", b"\n\n"]), ["a\u{FFFD}"]);
    }

    #[test]
    fn s5_a_line_without_end_stops_at_the_limit() {
        for head in ["data: ", ": comment ", "event: "] {
            let mut decoder = SseDecoder::with_limit(64);
            decoder.push_str(head, |_| unreachable!());
            for _ in 0..100 {
                decoder.push_str("aaaaaaaaaaaaaaaa", |_| unreachable!());
            }
            assert_eq!(decoder.overflow(), Some(SseOverflow::Line), "{head}");
            assert!(decoder.line.capacity() == 0 && decoder.data.capacity() == 0);
            // Stopped for good: a line end afterwards dispatches nothing.
            decoder.push_bytes(b"\n\ndata: x\n\n", |_| unreachable!());
        }
    }

    #[test]
    fn s5_data_lines_without_a_blank_line_stop_at_the_limit() {
        let mut decoder = SseDecoder::with_limit(64);
        for _ in 0..100 {
            decoder.push_str("data: aaaaaaaa\n", |_| unreachable!());
        }
        assert_eq!(decoder.overflow(), Some(SseOverflow::Event));
    }

    #[test]
    fn s5_a_line_and_an_event_at_the_limit_are_read() {
        // 64 bytes of line ("data: " + 58), 59 of data with its LF.
        let line = format!("data: {}", "x".repeat(58));
        let mut decoder = SseDecoder::with_limit(64);
        let mut got = Vec::new();
        decoder.push_str(&format!("{line}\n\n"), |e| got.push(e.data.len()));
        assert_eq!((got, decoder.overflow()), (vec![58], None));
        // One byte more is too long.
        let mut decoder = SseDecoder::with_limit(64);
        decoder.push_str(&format!("{line}x"), |_| unreachable!());
        assert_eq!(decoder.overflow(), Some(SseOverflow::Line));
    }

    #[test]
    fn line_end_finds_the_first_cr_or_lf_at_any_offset() {
        for len in 0..40 {
            for (at, end) in (0..len).flat_map(|at| [(at, b'\n'), (at, b'\r')]) {
                let mut text = vec![b'a'; len];
                text[at] = end;
                // A byte of every value before it but the two, the bytes
                // near them included (the word test must not match those).
                for (i, b) in text.iter_mut().take(at).enumerate() {
                    *b = [b'\x0b', b'\x0c', b'\x09', b'\x0e', b'\x7f', b'x'][i % 6];
                }
                let text = String::from_utf8(text).unwrap();
                assert_eq!(line_end(&text), Some(at), "{text:?}");
            }
            assert_eq!(line_end(&"a".repeat(len)), None);
        }
    }

    #[test]
    fn e1_single_data_lines_read_in_place_dispatch_as_buffered_ones() {
        // Frames of one data line, whole or split, followed by fields,
        // comments, more data or nothing: the same events either way.
        let text = "data: a\n\ndata: b\nid: 1\n\ndata: c\n: x\ndata: d\n\ndata: e\r\n\r\ndata: f\r\rdata\n\ndata: g";
        let all = decode_in(&[text.as_bytes()]);
        assert_eq!(
            all.iter().map(|(_, d, _)| d.as_str()).collect::<Vec<_>>(),
            ["a", "b", "c\nd", "e", "f", ""]
        );
        assert_eq!(all[1].2, "1");
        let bytes = text.as_bytes();
        for split in 0..=bytes.len() {
            let (a, b) = bytes.split_at(split);
            assert_eq!(decode_in(&[a, b]), all, "split at byte {split}");
        }
    }

    #[test]
    fn e1_data_lines_are_told_from_other_fields() {
        for (line, value) in [
            ("data", Some("")),
            ("data:", Some("")),
            ("data:x", Some("x")),
            ("data: x", Some("x")),
            ("data:  x", Some(" x")),
            ("data\u{e9}: x", None),
            ("datum: x", None),
            ("dat", None),
            ("", None),
            ("\u{e9}\u{e9}\u{e9}", None),
            ("event: data", None),
        ] {
            assert_eq!(data_value(line), value, "{line:?}");
        }
    }

    /// Every item `read_bytes` reports, as `(line, what)`: an event's
    /// data, or `?` and an unknown line's text.
    fn items_in(chunks: &[&[u8]]) -> (Vec<(usize, String)>, usize) {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        for chunk in chunks {
            decoder.read_bytes(chunk, |item| match item {
                SseItem::Event(e) => out.push((e.line, e.data.to_owned())),
                SseItem::Unknown(line, text) => out.push((line, format!("?{text}"))),
            });
        }
        (out, decoder.open_line())
    }

    #[test]
    fn e1_event_lines_are_counted_by_every_line_end_at_every_split_point() {
        let events = recorded_events();
        // LF, CRLF and lone CR each end one line; the byte-order mark is no line.
        let expected = (
            vec![
                (2, events[0].clone()),
                (6, events[1].clone()),
                (11, events[2].clone()),
            ],
            13, // "data: dropped", which no blank line ends
        );
        let bytes = RECORDED.as_bytes();
        assert_eq!(items_in(&[bytes]), expected);
        let chunks: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(items_in(&chunks), expected);
        for i in 0..=bytes.len() {
            for j in i..=bytes.len() {
                let chunks = [&bytes[..i], &bytes[i..j], &bytes[j..]];
                assert_eq!(items_in(&chunks), expected, "splits at {i} and {j}");
            }
        }
    }

    #[test]
    fn e1_lines_that_set_no_field_are_reported_with_their_line() {
        let text =
            "foo: bar\n{\"a\":1}\nretry: 5\nid: x\0y\n: c\nevent: e\ndata\ndata: 1\n\nfoo\r\n";
        let expected = vec![
            (1, "?foo: bar".to_owned()),
            (2, "?{\"a\":1}".to_owned()),
            (7, "\n1".to_owned()),
            (10, "?foo".to_owned()),
        ];
        let bytes = text.as_bytes();
        for split in 0..=bytes.len() {
            let (a, b) = bytes.split_at(split);
            assert_eq!(
                items_in(&[a, b]),
                (expected.clone(), 0),
                "split at byte {split}"
            );
        }
        // push_bytes reports the events alone.
        assert_eq!(data_of(&[bytes]), ["\n1"]);
    }

    #[test]
    fn e1_open_line_names_the_event_the_input_cut() {
        // No event open, then one open on its second data line, then a
        // data line without its line end, then a field line without one.
        assert_eq!(items_in(&[b"data: 1\n\n"]).1, 0);
        assert_eq!(items_in(&[b": c\ndata: 1\ndata: 2\n"]).1, 2);
        assert_eq!(items_in(&[b"\n\ndata: 1"]).1, 3);
        assert_eq!(items_in(&[b"data: 1\n\nevent: x"]).1, 0);
    }

    #[test]
    fn s5_open_line_names_the_line_or_event_the_limit_stopped() {
        let mut decoder = SseDecoder::with_limit(16);
        decoder.push_str("data: 1\n\n: c\nxxxxxxxxxxxxxxxxxxxxxxxx", |_| {});
        assert_eq!(
            (decoder.overflow(), decoder.open_line()),
            (Some(SseOverflow::Line), 4)
        );
        let mut decoder = SseDecoder::with_limit(16);
        decoder.push_str("\ndata: 12345\ndata: 12345\ndata: 12345\n", |_| {});
        assert_eq!(
            (decoder.overflow(), decoder.open_line()),
            (Some(SseOverflow::Event), 2)
        );
    }

    #[test]
    fn e1_id_with_nul_is_ignored() {
        let events = decode_in(&[b"id: a\0b\ndata: x\n\n"]);
        assert_eq!(events[0].2, "");
    }
}
