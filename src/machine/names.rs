//! A set of names (ids, tool names).
//!
//! Kept as a map of the type of the tracker's id index (the value unused):
//! one hash-table instantiation serves both in the wasm module, where a
//! `HashSet<String>` would add its own.

use crate::HashMap;

/// A set of names.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names(HashMap<String, usize>);

impl Names {
    /// Adds `name`; false when it was there already.
    pub(crate) fn insert(&mut self, name: String) -> bool {
        self.0.insert(name, 0).is_none()
    }

    /// Adds `name` when given, copied only when new.
    pub(crate) fn note(&mut self, name: Option<&str>) {
        if let Some(name) = name.filter(|n| !self.contains(n)) {
            self.insert(name.to_owned());
        }
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

/// Message owners, interned: `0` is the parent agent, `i + 1` the `i`-th
/// subagent seen. Message tables keep an owner as its number, so they too
/// are maps of the id index's type rather than `HashMap<String,
/// Option<String>>`, a hash-table instantiation of its own (size).
#[derive(Clone, Debug, Default)]
pub(crate) struct Owners {
    names: Vec<String>,
    index: HashMap<String, usize>,
}

impl Owners {
    /// The number of `owner`, interning it when new.
    pub(crate) fn id(&mut self, owner: Option<String>) -> usize {
        let Some(name) = owner else { return 0 };
        if let Some(&id) = self.index.get(name.as_str()) {
            return id;
        }
        self.names.push(name.clone());
        self.index.insert(name, self.names.len());
        self.names.len()
    }

    /// The owner numbered `id`; `None` for the parent agent.
    pub(crate) fn name(&self, id: usize) -> Option<&str> {
        id.checked_sub(1).map(|i| self.names[i].as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::{Names, Owners};

    #[test]
    fn a1_owners_interned_parent_apart() {
        let mut owners = Owners::default();
        assert_eq!(owners.id(None), 0);
        let a = owners.id(Some("a".into()));
        let empty = owners.id(Some(String::new()));
        assert_ne!(a, 0);
        assert_ne!(empty, 0);
        assert_eq!(owners.id(Some("a".into())), a);
        assert_eq!(owners.name(0), None);
        assert_eq!(owners.name(a), Some("a"));
        assert_eq!(owners.name(empty), Some(""));
        assert_eq!(owners.names.len(), 2);
    }

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
