//! The most common change, text appended to one open call and nothing
//! else, as the JS layer reads it without a JSON record (`takeChange`).

use crate::{Changes, Tracker};

/// A header of six `f64` at a fixed address, `[version, index, text
/// address, append bytes, suffix bytes, cut]`, and the text: the appended
/// UTF-8 then the partial value's suffix (ASCII closers), at `text
/// address`. `cut` (UTF-16 units) is -1 with no partial value. Valid until
/// the tracker's next call. Nothing is serialised or parsed.
#[derive(Default)]
pub struct TextChange {
    header: Box<[f64; 6]>,
    text: String,
}

impl TextChange {
    /// Describes `changes` if they are text appended to one open call and
    /// nothing else; `false` (and nothing written) otherwise.
    pub fn fill(&mut self, tracker: &Tracker, changes: &Changes) -> bool {
        let Some(only) = changes.text_appended_only() else {
            return false;
        };
        let call = &tracker.calls()[only.index];
        let append = call.args_text().get(only.text_from..).unwrap_or_default();
        self.text.clear();
        self.text.push_str(append);
        let cut = call
            .partial_into(&mut self.text)
            .map_or(-1.0, |cut| cut as f64);
        *self.header = [
            tracker.version() as f64,
            only.index as f64,
            self.text.as_ptr() as usize as f64,
            append.len() as f64,
            (self.text.len() - append.len()) as f64,
            cut,
        ];
        true
    }

    /// The header and the text.
    pub fn parts(&self) -> (&[f64; 6], &[u8]) {
        (&self.header, self.text.as_bytes())
    }

    /// The address of the header in the module's memory.
    pub fn header_address(&self) -> usize {
        self.header.as_ptr() as usize
    }
}
