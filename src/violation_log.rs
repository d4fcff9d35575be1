//! Where a tracker keeps its violations, bounded: a stream that repeats one
//! warning (80,000 events of one unknown type) makes one entry with a
//! count, and one that produces ever new ones keeps the first
//! [`MAX_KEPT_VIOLATIONS`] and counts the rest in a last entry. Recording
//! costs the same whatever was recorded before.

use crate::violation::{Severity, Violation};
use crate::HashMap;

/// Distinct violations kept individually; later distinct ones are counted
/// in one more entry ([`OVERFLOW_CODE`]). A fatal violation is always kept.
pub const MAX_KEPT_VIOLATIONS: usize = 1000;

/// The rule of the entry that counts violations past the cap (rule S5:
/// what a stream may make the tracker hold is bounded).
pub const OVERFLOW_CODE: &str = "S5";

/// The longest message kept, in bytes; a longer one is cut (at a character
/// boundary) and marked with `…`, so no entry holds what the stream sent.
pub const MAX_MESSAGE_BYTES: usize = 1024;

/// The violations of one tracker, in the order first recorded.
#[derive(Clone, Debug, Default)]
pub struct ViolationLog {
    entries: Vec<Violation>,
    /// Each kept entry by its [`shape_of`].
    by_shape: HashMap<String, usize>,
    /// The overflow entry's index, once there is one.
    overflow: Option<usize>,
    /// Entries whose count grew since the last [`ViolationLog::take_counted`]
    /// (an index may repeat).
    counted: Vec<usize>,
    /// Each entry's count as last reported by `take_counted`.
    reported: Vec<u64>,
}

impl ViolationLog {
    /// Every entry, in the order first recorded.
    pub fn entries(&self) -> &[Violation] {
        &self.entries
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No violation recorded.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Records `v`: a repeat raises its first occurrence's count; past the
    /// cap a new non-fatal one is only counted.
    pub fn record(&mut self, mut v: Violation) {
        cut_message(&mut v.message);
        if v.severity == Severity::Fatal {
            return self.keep(v);
        }
        let shape = shape_of(&v);
        if let Some(&i) = self.by_shape.get(&shape) {
            return self.count(i);
        }
        if self.by_shape.len() < MAX_KEPT_VIOLATIONS {
            self.by_shape.insert(shape, self.entries.len());
            return self.keep(v);
        }
        if let Some(i) = self.overflow {
            self.count(i);
        } else {
            self.overflow = Some(self.entries.len());
            self.keep(overflow_entry(v.event_index));
        }
    }

    /// Indices below `before` whose count changed since the last take,
    /// each once, with the new count (later entries are new: sent whole).
    pub fn take_counted(&mut self, before: usize) -> Vec<(usize, u64)> {
        let mut out = Vec::new();
        for i in std::mem::take(&mut self.counted) {
            let count = self.entries[i].count;
            if self.reported[i] != count {
                self.reported[i] = count;
                if i < before {
                    out.push((i, count));
                }
            }
        }
        out
    }

    fn keep(&mut self, v: Violation) {
        self.reported.push(v.count);
        self.entries.push(v);
    }

    fn count(&mut self, i: usize) {
        let entry = &mut self.entries[i];
        entry.count = entry.count.saturating_add(1);
        self.counted.push(i);
    }
}

/// What makes two violations repeats of one: the rule, the severity, the
/// message (which names no event index), the call and message named, and
/// the field.
/// One string (fields joined by NUL, which no id or message holds
/// unescaped), so the map shares the code of the tracker's other maps.
fn shape_of(v: &Violation) -> String {
    let mut shape = String::with_capacity(v.message.len() + 16);
    for part in [
        v.code,
        v.severity.as_str(),
        &v.message,
        v.tool_call_id.as_deref().unwrap_or_default(),
        v.message_id.as_deref().unwrap_or_default(),
        v.path.as_deref().unwrap_or_default(),
    ] {
        shape.push_str(part);
        shape.push('\0');
    }
    shape
}

fn overflow_entry(event_index: usize) -> Violation {
    let message = format!(
        "more than {MAX_KEPT_VIOLATIONS} distinct violations; \
         this one and every later new one are counted here, not kept"
    );
    Violation::new(OVERFLOW_CODE, Severity::Warning, event_index, message)
}

fn cut_message(message: &mut String) {
    crate::quote::cut(message, MAX_MESSAGE_BYTES);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(index: usize, what: &str) -> Violation {
        let message = format!("unknown event type {what}");
        Violation::new("E3", Severity::Warning, index, message)
    }

    #[test]
    fn repeats_are_counted_on_their_first_occurrence() {
        let mut log = ViolationLog::default();
        for i in 0..5 {
            log.record(warning(i, "X"));
        }
        log.record(warning(5, "Y"));
        assert_eq!(log.len(), 2);
        assert_eq!(log.entries()[0].count, 5);
        assert_eq!(log.entries()[0].event_index, 0);
        assert_eq!(log.entries()[1].count, 1);
        assert_eq!(log.take_counted(0), vec![]);
        log.record(warning(6, "X"));
        log.record(warning(7, "X"));
        assert_eq!(log.take_counted(2), vec![(0, 7)]);
        assert_eq!(log.take_counted(2), vec![]);
    }

    #[test]
    fn s5_distinct_violations_past_the_cap_are_counted_in_one_entry() {
        let mut log = ViolationLog::default();
        for i in 0..MAX_KEPT_VIOLATIONS + 50 {
            log.record(warning(i, &i.to_string()));
        }
        assert_eq!(log.len(), MAX_KEPT_VIOLATIONS + 1);
        let last = &log.entries()[MAX_KEPT_VIOLATIONS];
        assert_eq!((last.code, last.count), (OVERFLOW_CODE, 50));
        assert_eq!(last.event_index, MAX_KEPT_VIOLATIONS);
        log.record(Violation::new("E2", Severity::Fatal, 9999, "bad"));
        assert_eq!(log.entries().last().unwrap().code, "E2");
    }

    #[test]
    fn long_messages_are_cut_at_a_character_boundary() {
        let mut log = ViolationLog::default();
        log.record(warning(0, &"é".repeat(2000)));
        let message = &log.entries()[0].message;
        assert!(message.len() <= MAX_MESSAGE_BYTES + '…'.len_utf8());
        assert!(message.ends_with('…'));
    }
}
