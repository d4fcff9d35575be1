//! A set of names (ids, tool names).
//!
//! Kept as a map of the type of the tracker's id index (the value unused):
//! one hash-table instantiation serves both in the wasm module, where a
//! `HashSet<String>` would add its own.

use std::collections::HashMap;

/// A set of names.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names(HashMap<String, usize>);

impl Names {
    /// Adds `name`; false when it was there already.
    pub(crate) fn insert(&mut self, name: String) -> bool {
        self.0.insert(name, 0).is_none()
    }

    pub(crate) fn contains(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::Names;

    #[test]
    fn holds_each_name_once() {
        let mut names = Names::default();
        assert!(names.insert("a".into()) && names.insert("b".into()));
        assert!(!names.insert("a".into()));
        assert!(names.contains("a") && !names.contains("c"));
        assert_eq!(names.len(), 2);
        names.clear();
        assert!(!names.contains("a") && names.len() == 0);
    }
}
