//! Raw `text/event-stream` bytes, split at arbitrary points, into the
//! decoder and a tracker: the events dispatched and the tracker's state are
//! the same however the bytes are split, and text fed as `&str` agrees with
//! the same text fed as bytes.
//!
//! Input: one byte `n`, then `n % 8` split points of two bytes each, then
//! the stream (so a recorded `.sse` file behind a zero byte is a seed).

use crate::check::{check_partials, summary};
use agui_tool_calls::sse::SseDecoder;
use agui_tool_calls::{Options, Tracker};

type Dispatched = Vec<(String, String, String)>;

/// Feeds `chunks` through one decoder into one tracker.
fn feed<'a>(chunks: impl Iterator<Item = &'a [u8]>) -> (Dispatched, Tracker) {
    let mut decoder = SseDecoder::new();
    let mut tracker = Tracker::new(Options::default());
    let mut out = Vec::new();
    for chunk in chunks {
        decoder.push_bytes(chunk, |e| {
            out.push((e.event_type.into(), e.data.into(), e.last_event_id.into()));
            let _ = tracker.push_json(e.data);
        });
    }
    (out, tracker)
}

/// Checks what the module says on one input; a failure panics.
pub fn run(data: &[u8]) {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let points = usize::from(n % 8);
    if rest.len() < 2 * points {
        return;
    }
    let (cuts, stream) = rest.split_at(2 * points);
    let mut at: Vec<usize> = cuts
        .chunks(2)
        .map(|c| usize::from(u16::from_le_bytes([c[0], c[1]])) % (stream.len() + 1))
        .collect();
    at.sort_unstable();
    let mut chunks = Vec::new();
    let mut from = 0;
    for &to in &at {
        chunks.push(&stream[from..to]);
        from = to;
    }
    chunks.push(&stream[from..]);

    let (whole, whole_tracker) = feed(std::iter::once(stream));
    let (split, split_tracker) = feed(chunks.iter().copied());
    assert_eq!(whole, split, "split at {at:?}");
    assert_eq!(summary(&whole_tracker), summary(&split_tracker));
    check_partials(&split_tracker);

    // One byte at a time, for short streams (every split point at once).
    if stream.len() <= 512 {
        let (bytewise, _) = feed(stream.chunks(1));
        assert_eq!(whole, bytewise, "one byte at a time");
    }

    // Text already decoded reads the same as its bytes.
    if let Ok(text) = std::str::from_utf8(stream) {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        // Split points inside a character move to its start.
        let mut from = 0;
        for &to in at.iter().chain(std::iter::once(&text.len())) {
            let mut to = to;
            while !text.is_char_boundary(to) {
                to -= 1;
            }
            let to = to.max(from);
            decoder.push_str(&text[from..to], |e| {
                out.push((e.event_type.into(), e.data.into(), e.last_event_id.into()))
            });
            from = to;
        }
        assert_eq!(whole, out, "as text, split at {at:?}");
    }
}
