//! What a tool call or a message carries for its producer alone (rule
//! F10): `encryptedValue` with its `encryptedValueType`
//! (`events/reasoning.mdx`), and `metadata`, merged key by key as the
//! events that build the item add to it (`basic/metadata.mdx`). The
//! tracker never reads any of it; it keeps it as delivered and gives it
//! back in the next run's history.

use super::json::{Fields, Raw};
use super::Opaque;
use crate::quote::quoted;
use crate::HashMap;

/// A call's or a message's opaque fields, each as the JSON text given
/// (the two encrypted ones are JSON strings, `metadata` an object).
///
/// ```
/// use agui_tool_calls::{Options, Tracker};
///
/// let mut t = Tracker::new(Options::default());
/// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
/// t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","metadata":{"a":1,"b":1}}"#).unwrap();
/// t.push_json(r#"{"type":"TOOL_CALL_END","toolCallId":"c1","metadata":{"b":2}}"#).unwrap();
/// t.push_json(r#"{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c1","encryptedValue":"sig"}"#).unwrap();
/// let kept = &t.call("c1").unwrap().kept;
/// assert_eq!(kept.metadata.as_ref().unwrap().get(), r#"{"a":1,"b":2}"#);
/// assert_eq!(kept.encrypted_value.as_ref().unwrap().get(), r#""sig""#);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kept {
    /// `encryptedValue`: the provider's artefact (a JSON string, as given).
    pub encrypted_value: Option<Opaque>,
    /// `encryptedValueType`: what kind of artefact it is; replaced with the
    /// value, removed when a new value comes without one.
    pub encrypted_value_type: Option<Opaque>,
    /// `metadata`: an object, the metadata of every event that built the
    /// item merged into it, last write winning per key, not recursing.
    pub metadata: Option<Opaque>,
}

impl Kept {
    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.encrypted_value.is_none() && self.metadata.is_none()
    }

    /// Merges an event's `metadata` (an object) into what is kept: as
    /// `{...kept, ...incoming}` in JS, so a key keeps its first place and
    /// takes its last value.
    pub(crate) fn merge(&mut self, incoming: &Opaque) {
        self.metadata = Some(match &self.metadata {
            None => incoming.clone(),
            Some(kept) => merged(kept, incoming),
        });
    }

    /// The bytes a merge of `incoming` may keep, at most: the merged text is
    /// never longer than both texts (rule S5 counts it as kept anew).
    pub(crate) fn merge_bytes(&self, incoming: &Opaque) -> usize {
        std::mem::size_of::<Opaque>()
            + incoming.get().len()
            + self.metadata.as_ref().map_or(0, |m| m.get().len())
    }

    /// The bytes of everything kept.
    pub(crate) fn bytes(&self) -> usize {
        let len = |o: &Option<Opaque>| o.as_ref().map_or(0, |o| o.get().len());
        3 * std::mem::size_of::<Opaque>()
            + len(&self.encrypted_value)
            + len(&self.encrypted_value_type)
            + len(&self.metadata)
    }
}

/// Two objects' texts merged: every key once, in the order first seen,
/// with its last value.
fn merged(kept: &Opaque, incoming: &Opaque) -> Opaque {
    let (Some(a), Some(b)) = (
        Fields::of(Raw::new(kept.get())),
        Fields::of(Raw::new(incoming.get())),
    ) else {
        return incoming.clone();
    };
    let mut order: Vec<(&str, Raw)> = Vec::new();
    // Found by a map, as an object may have many keys.
    let mut at: HashMap<String, usize> = HashMap::default();
    for (key, value) in a.entries().chain(b.entries()) {
        if let Some(&k) = at.get(key) {
            order[k].1 = value;
        } else {
            at.insert(key.to_owned(), order.len());
            order.push((key, value));
        }
    }
    let mut out = String::from("{");
    for (key, value) in order {
        if out.len() > 1 {
            out.push(',');
        }
        out.push_str(&quoted(key));
        out.push(':');
        out.push_str(value.get());
    }
    out.push('}');
    Opaque::from_text(out)
}
