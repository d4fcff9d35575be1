//! The argument reader against `serde_json`: the text fed in arbitrary
//! deltas agrees with `serde_json::from_str` on validity and value; every
//! partial value is well formed, only grows, and stays put after an error;
//! the cut is the same however the text was split.
//!
//! Input: one byte (low 4 bits: how many split points; high bits: the depth
//! limit), the split points (two bytes each), then the text (read as UTF-8,
//! invalid sequences replaced; a split inside a character moves to its
//! start).

use crate::tree::Tree;
use agui_tool_calls::args::{ArgsErrorKind, ArgsLimits, ArgsReader, Partial};
use serde_json::Value;

/// Checks one partial value against the text and returns it as a tree.
fn well_formed(text: &str, p: &Partial) -> Tree {
    assert!(text.is_char_boundary(p.cut), "cut {} in {text:?}", p.cut);
    assert_eq!(text[..p.cut].encode_utf16().count(), p.cut_utf16);
    let json = format!("{}{}", &text[..p.cut], p.suffix);
    match Tree::parse(&json) {
        Ok(tree) => tree,
        Err(e) => panic!("partial {json:?} of {text:?} is not JSON: {e}"),
    }
}

/// Checks what the module says on one input; a failure panics.
pub fn run(data: &[u8]) {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let points = usize::from(n & 15);
    let max_depth = [64, 3, 127, 1][usize::from(n >> 4) % 4];
    if rest.len() < 2 * points {
        return;
    }
    let (cuts, bytes) = rest.split_at(2 * points);
    let text = String::from_utf8_lossy(bytes);
    let mut at: Vec<usize> = cuts
        .chunks(2)
        .map(|c| {
            let mut at = usize::from(u16::from_le_bytes([c[0], c[1]])) % (text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        })
        .collect();
    at.push(text.len());
    at.sort_unstable();

    let limits = ArgsLimits {
        max_bytes: usize::MAX,
        max_depth,
    };
    let mut reader = ArgsReader::new(limits);
    let mut shown: Option<(Partial, Tree)> = None;
    let mut from = 0;
    for &to in &at {
        let stopped = reader.syntax_error().is_some() || reader.limit_error().is_some();
        reader.push(&text[from..to]).expect("no byte limit");
        from = to;
        assert_eq!(reader.text(), &text[..to], "the text is the deltas joined");
        let partial = reader.partial();
        if stopped {
            // After an error the partial value stays what it was.
            assert_eq!(partial, shown.as_ref().map(|(p, _)| p.clone()));
            continue;
        }
        match (&shown, partial) {
            (Some(_), None) => panic!("a partial value disappeared at byte {to} of {text:?}"),
            (_, None) => {}
            (old, Some(p)) => {
                let tree = well_formed(reader.text(), &p);
                if let Some((old_p, old_tree)) = old {
                    assert!(p.cut >= old_p.cut, "the cut moved back");
                    assert!(
                        old_tree.grows_into(&tree),
                        "{old_tree:?} -> {tree:?} at byte {to} of {text:?}"
                    );
                }
                shown = Some((p, tree));
            }
        }
    }

    // The same text in one delta: the same cut, errors and final parse.
    let mut whole = ArgsReader::new(limits);
    whole.push(&text).expect("no byte limit");
    assert_eq!(whole.partial(), reader.partial(), "split at {at:?}");
    assert_eq!(whole.syntax_error(), reader.syntax_error());
    assert_eq!(whole.limit_error(), reader.limit_error());
    let finished = reader.finish();
    assert_eq!(finished, whole.finish());
    // What the tracker keeps at the end, decided without the value.
    assert_eq!(
        reader.check(),
        finished.as_ref().map(drop).map_err(Clone::clone)
    );

    let serde = serde_json::from_str::<Value>(&text);
    match &finished {
        Ok(value) => {
            assert!(
                serde.as_ref().is_ok_and(|theirs| theirs == value),
                "serde_json disagrees on {text:?}: {serde:?}, {value:?}"
            );
            // A complete container is shown whole.
            if value.is_object() || value.is_array() {
                let p = reader
                    .partial()
                    .expect("a complete document has a partial value");
                let shown: Value = serde_json::from_str(&format!("{}{}", &text[..p.cut], p.suffix))
                    .expect("well formed");
                assert_eq!(&shown, value);
            }
        }
        Err(e) if e.kind == ArgsErrorKind::Parse => {
            assert!(
                serde.is_err(),
                "{text:?} refused ({}) but serde_json reads it",
                e.message
            );
            if let Some(at) = e.position {
                assert!(at <= text.len());
            }
        }
        // Too deep for the limit: serde_json may still read it.
        Err(_) => {}
    }
}
