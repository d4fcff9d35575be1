//! Change tracking: what changed since the binding last asked, so it can
//! rebuild only the changed parts of an immutable snapshot (rule N1) and
//! copy only the new part of each changed call's argument text.
//!
//! Bookkeeping is proportional to the changes: a call is marked dirty once
//! (a flag on the call plus an index in a list), never found by a scan.

use super::Tracker;
use std::ops::Range;

/// Dirty marks between two [`Tracker::take_changes`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Bookkeeping {
    /// Changed calls, each once, in the order they first changed.
    pub calls: Vec<usize>,
    /// Changed subagents, each once (rule A8).
    pub subagents: Vec<usize>,
    pub run: bool,
    pub violations_taken: usize,
    pub unmatched_taken: usize,
    pub fatal_taken: bool,
}

/// One changed call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallChange {
    /// Its index in [`Tracker::calls`].
    pub index: usize,
    /// The byte offset from which its argument text is new: the text only
    /// grows (rules T4, T7), so `&text[text_from..]` is all there is to send.
    pub text_from: usize,
    /// Only argument text was appended: every other field is as it was.
    pub text_only: bool,
}

/// What changed since the last [`Tracker::take_changes`].
///
/// ```
/// use agui_tool_calls::{Options, Tracker};
///
/// let mut t = Tracker::new(Options::default());
/// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
/// t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#).unwrap();
/// t.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\""}"#).unwrap();
/// let first = t.take_changes();
/// assert!(first.run);
/// assert_eq!(first.calls[0].text_from, 0);
///
/// t.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":":1}"}"#).unwrap();
/// let next = t.take_changes();
/// assert!(!next.run);
/// let text = t.calls()[next.calls[0].index].args_text();
/// assert_eq!(&text[next.calls[0].text_from..], ":1}");
/// assert!(t.take_changes().is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Changed calls, each once, in the order they first changed since the
    /// last take (not sorted by index).
    pub calls: Vec<CallChange>,
    /// Indices of the subagents changed since the last take, each once, in
    /// the order they first changed (rule A8).
    pub subagents: Vec<usize>,
    /// The run state changed.
    pub run: bool,
    /// Indices of the violations recorded since the last take.
    pub violations: Range<usize>,
    /// Earlier violations repeated since the last take: index and new count.
    pub violations_counted: Vec<(usize, u64)>,
    /// Indices of the unmatched results recorded since the last take.
    pub unmatched_results: Range<usize>,
    /// The stream stopped on a fatal violation since the last take.
    pub fatal: bool,
}

impl Changes {
    /// Nothing changed.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
            && self.subagents.is_empty()
            && !self.run
            && self.violations.is_empty()
            && self.violations_counted.is_empty()
            && self.unmatched_results.is_empty()
            && !self.fatal
    }

    /// The one changed call, when argument text appended to it is all that
    /// changed: the change the binding sends without a record.
    pub fn text_appended_only(&self) -> Option<CallChange> {
        let [only] = self.calls.as_slice() else {
            return None;
        };
        let quiet = !self.run
            && self.subagents.is_empty()
            && self.violations.is_empty()
            && self.violations_counted.is_empty()
            && self.unmatched_results.is_empty()
            && !self.fatal;
        (only.text_only && quiet).then_some(*only)
    }
}

impl Tracker {
    /// What changed since the last call, in time proportional to the
    /// changes; resets the marks.
    pub fn take_changes(&mut self) -> Changes {
        let mut changes = Changes::default();
        self.take_changes_into(&mut changes);
        changes
    }

    /// [`Tracker::take_changes`] into `changes`, reusing what it holds:
    /// a binding that takes changes after every event does not allocate
    /// a list for them each time.
    ///
    /// ```
    /// use agui_tool_calls::{Changes, Options, Tracker};
    ///
    /// let mut t = Tracker::new(Options::default());
    /// let mut changes = Changes::default();
    /// t.push_json(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#).unwrap();
    /// t.push_json(r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#).unwrap();
    /// t.take_changes_into(&mut changes);
    /// assert!(changes.run && !changes.calls[0].text_only);
    /// t.push_json(r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"[1"}"#).unwrap();
    /// t.take_changes_into(&mut changes);
    /// assert!(!changes.run && changes.calls.len() == 1 && changes.calls[0].text_only);
    /// t.take_changes_into(&mut changes);
    /// assert!(changes.is_empty());
    /// ```
    pub fn take_changes_into(&mut self, changes: &mut Changes) {
        let calls = &mut changes.calls;
        calls.clear();
        // Taken, then given back cleared: the dirty list keeps its capacity.
        let mut dirty = std::mem::take(&mut self.changes.calls);
        for &index in &dirty {
            let call = &mut self.calls[index];
            let text_only = !call.meta_dirty;
            call.dirty = false;
            call.meta_dirty = false;
            let len = call.args.text().len();
            calls.push(CallChange {
                index,
                text_from: call.taken_len,
                text_only,
            });
            call.taken_len = len;
        }
        dirty.clear();
        self.changes.calls = dirty;
        // The lists swapped, the taken one given back cleared (no `drain`,
        // whose guard is code of its own in the wasm module).
        changes.subagents.clear();
        std::mem::swap(&mut changes.subagents, &mut self.changes.subagents);
        for &index in &changes.subagents {
            self.subagents[index].dirty = false;
        }
        let book = &mut self.changes;
        let violations = book.violations_taken..self.violations.len();
        let violations_counted = self.violations.take_counted(book.violations_taken);
        book.violations_taken = self.violations.len();
        let unmatched_results = book.unmatched_taken..self.unmatched.len();
        book.unmatched_taken = self.unmatched.len();
        let fatal = self.fatal.is_some() && !book.fatal_taken;
        book.fatal_taken = self.fatal.is_some();
        changes.run = std::mem::take(&mut book.run);
        changes.violations = violations;
        changes.violations_counted = violations_counted;
        changes.unmatched_results = unmatched_results;
        changes.fatal = fatal;
    }
}
