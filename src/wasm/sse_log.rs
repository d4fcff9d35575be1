//! What `feedSse` keeps for the JS layer to take: the events an application
//! listens to (`onEvent`), or, for the stream checker, where each event and
//! each line that sets no field is (rule E1's framing, as the core's
//! decoder found it: the checker re-frames nothing). Either is JSON array
//! entries in one buffer, each after a comma, taken as one array.

use crate::quote::head;
use crate::sse::SseItem;
use crate::wire::{json_number, json_string};

/// Bytes of a line that sets no field kept to quote it: enough to tell
/// a JSON Lines event from stray text.
const UNKNOWN_HEAD: usize = 40;

/// What a log keeps, as `new`'s `log` numbers it: nothing (0), each
/// accepted event's data (1), each event's line and each line that sets
/// no field (2, the arm that is neither), and each event's data after its
/// line too (3).
const OFF: u8 = 0;
const EVENTS: u8 = 1;
const LINES_AND_DATA: u8 = 3;

/// One `WasmTracker`'s log, its kind chosen when it is made.
pub(super) struct SseLog {
    kind: u8,
    /// The entries since the last take, each after a comma.
    entries: Vec<u8>,
}

impl SseLog {
    /// The log `new`'s `log` asks for.
    pub(super) fn new(kind: u8) -> Self {
        SseLog {
            kind,
            entries: Vec::new(),
        }
    }

    /// Notes what the decoder read, `accepted` by the tracker or not.
    pub(super) fn note(&mut self, item: SseItem<'_>, accepted: bool) {
        let out = &mut self.entries;
        match (self.kind, item) {
            (OFF, _) => {}
            (EVENTS, SseItem::Event(e)) => {
                // Each was read as one JSON value: it is its own entry.
                if accepted {
                    out.push(b',');
                    out.extend_from_slice(e.data.as_bytes());
                }
            }
            (EVENTS, SseItem::Unknown(..)) => {}
            (kind, SseItem::Event(e)) => {
                out.push(b',');
                json_number(out, e.line as u64);
                if kind == LINES_AND_DATA {
                    out.push(b',');
                    json_string(out, e.data);
                }
            }
            (_, SseItem::Unknown(line, text)) => {
                out.extend_from_slice(b",-");
                json_number(out, line as u64);
                out.push(b',');
                json_string(out, head(text, UNKNOWN_HEAD));
            }
        }
    }

    /// The entries since the last call, as one JSON array, `first` (when
    /// given) before them. `takeEvents`: the accepted events. `takeLines`:
    /// first the line where the input is cut (0 for none), then for each
    /// event its line (and its data as a string, when kept), for each line
    /// that sets no field its line negated and its first bytes as a string.
    pub(super) fn take(&mut self, first: Option<usize>) -> String {
        let mut out = vec![b'['];
        if let Some(n) = first {
            json_number(&mut out, n as u64);
        }
        // With no first entry, the first entry's comma goes.
        let skip = usize::from(first.is_none());
        out.extend_from_slice(self.entries.get(skip..).unwrap_or_default());
        self.entries.clear();
        out.push(b']');
        // Every piece is UTF-8: digits, punctuation, JSON strings, `str`s.
        String::from_utf8(out).unwrap_or_default()
    }
}
