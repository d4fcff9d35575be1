//! The crate's hash map, of ids and names to indices: a small open-
//! addressing table over a list of entries, hashed by the salted hasher
//! (`crate::hashing`).
//!
//! In place of the standard library's (hashbrown's) table, whose code for
//! the one instantiation the crate uses was about 4 KB of the wasm module:
//! this one is about a third of that. The entries are a `Vec` (iterated in
//! the order they were added, a removal moving the last into its place);
//! the slots hold each entry's position plus one (0: empty), linear
//! probing, at most half of them used, so a lookup ends at the first
//! empty slot. A removal shifts the slots after it back rather than
//! leaving a tombstone, so no sequence of inserts and removals can make
//! lookups slower. Keys the agent chooses cannot collide on purpose: the
//! hash is salted with bits the agent cannot know.
//!
//! ```text
//! insert("c1", 0), insert("c2", 1), remove("c1") -> entries [("c2", 1)]
//! ```

use crate::hashing::Salted;
use std::borrow::Borrow;
use std::hash::{BuildHasher, Hash};

/// A map from `K` (`String` here: ids, names) to `V`.
#[derive(Clone, Debug)]
pub(crate) struct HashMap<K, V> {
    entries: Vec<(K, V)>,
    /// A power of two long (or empty), each an entry's position plus one.
    slots: Vec<u32>,
    hasher: Salted,
}

impl<K, V> Default for HashMap<K, V> {
    fn default() -> Self {
        HashMap {
            entries: Vec::new(),
            slots: Vec::new(),
            hasher: Salted::default(),
        }
    }
}

impl<K: Hash + Eq, V> HashMap<K, V> {
    /// The slot of `key` at or after its home slot: its own, or the empty
    /// one that ends its probe.
    fn slot<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> usize
    where
        K: Borrow<Q>,
    {
        let mask = self.slots.len() - 1;
        let mut at = self.hasher.hash_one(key) as usize & mask;
        loop {
            match self.slots[at] {
                0 => return at,
                e if self.entries[e as usize - 1].0.borrow() == key => return at,
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// The position of `key`'s entry.
    fn position<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
    {
        if self.entries.is_empty() {
            return None;
        }
        (self.slots[self.slot(key)] as usize).checked_sub(1)
    }

    /// The value of `key`.
    pub(crate) fn get<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.position(key).map(|e| &self.entries[e].1)
    }

    /// Whether `key` has a value.
    pub(crate) fn contains_key<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.position(key).is_some()
    }

    /// Sets `key` to `value`; the value it had.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        if let Some(e) = self.position(&key) {
            return Some(std::mem::replace(&mut self.entries[e].1, value));
        }
        self.push(key, value);
        None
    }

    /// The value of `key`, made by `value` if it has none.
    pub(crate) fn get_or_insert_with(&mut self, key: K, value: impl FnOnce() -> V) -> &mut V {
        let e = if let Some(e) = self.position(&key) {
            e
        } else {
            self.push(key, value());
            self.entries.len() - 1
        };
        &mut self.entries[e].1
    }

    /// Adds an entry whose key is not in the map.
    fn push(&mut self, key: K, value: V) {
        // At most half the slots used: a probe meets an empty one soon.
        if 2 * (self.entries.len() + 1) > self.slots.len() {
            self.grow();
        }
        let at = self.slot(&key);
        self.entries.push((key, value));
        self.slots[at] = self.entries.len() as u32;
    }

    /// Twice the slots (8 at first), every entry placed again.
    fn grow(&mut self) {
        let len = (2 * self.slots.len()).max(8);
        self.slots = vec![0; len];
        for e in 0..self.entries.len() {
            let at = self.slot(&self.entries[e].0);
            self.slots[at] = e as u32 + 1;
        }
    }

    /// Removes `key`; the value it had.
    pub(crate) fn remove<Q: Hash + Eq + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        if self.entries.is_empty() {
            return None;
        }
        let at = self.slot(key);
        let e = (self.slots[at] as usize).checked_sub(1)?;
        self.unslot(at);
        // The last entry moves into the removed one's place: its slot follows.
        let last = self.entries.len() - 1;
        if e != last {
            let moved = self.slot::<K>(&self.entries[last].0);
            self.slots[moved] = e as u32 + 1;
        }
        Some(self.entries.swap_remove(e).1)
    }

    /// Empties slot `at`, moving back each later slot of its run whose
    /// home is not between the hole and it (backward-shift deletion).
    fn unslot(&mut self, mut hole: usize) {
        let mask = self.slots.len() - 1;
        let mut at = hole;
        loop {
            at = (at + 1) & mask;
            let e = self.slots[at];
            if e == 0 {
                break;
            }
            let ideal = self.hasher.hash_one(&self.entries[e as usize - 1].0) as usize & mask;
            // Cyclically, `ideal` in (hole, at]: the entry is found without passing the hole.
            if (at.wrapping_sub(ideal) & mask) < (at.wrapping_sub(hole) & mask) {
                continue;
            }
            self.slots[hole] = e;
            hole = at;
        }
        self.slots[hole] = 0;
    }

    /// The number of entries.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Removes every entry; the slots stay.
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.slots.fill(0);
    }

    /// The keys, in no order to rely on.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values, in no order to rely on.
    pub(crate) fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::HashMap;

    /// Random inserts and removals over a few keys, against the standard
    /// library's map, checking every key after each step.
    #[test]
    fn agrees_with_the_standard_map() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for keys in [3, 17, 300] {
            let mut ours: HashMap<String, usize> = HashMap::default();
            let mut theirs = std::collections::HashMap::new();
            for step in 0..20_000 {
                let key = format!("k{}", next() % keys);
                match next() % 4 {
                    0 => assert_eq!(ours.remove(key.as_str()), theirs.remove(&key)),
                    1 => assert_eq!(
                        *ours.get_or_insert_with(key.clone(), || step),
                        *theirs.entry(key).or_insert(step)
                    ),
                    _ => assert_eq!(ours.insert(key.clone(), step), theirs.insert(key, step)),
                }
                assert_eq!(ours.len(), theirs.len());
                if step % 97 == 0 {
                    for k in 0..keys {
                        let key = format!("k{k}");
                        assert_eq!(
                            ours.get(key.as_str()),
                            theirs.get(&key),
                            "{key} at step {step}"
                        );
                    }
                    let mut values: Vec<usize> = ours.values().copied().collect();
                    let mut expected: Vec<usize> = theirs.values().copied().collect();
                    values.sort_unstable();
                    expected.sort_unstable();
                    assert_eq!(values, expected);
                }
            }
        }
    }

    #[test]
    fn clear_keeps_it_usable() {
        let mut map: HashMap<String, usize> = HashMap::default();
        for i in 0..100 {
            map.insert(format!("{i}"), i);
        }
        map.clear();
        assert!(map.len() == 0 && map.get("5").is_none());
        map.insert("5".into(), 5);
        assert_eq!(map.get("5"), Some(&5));
        assert!(map.contains_key("5") && !map.contains_key("6"));
    }
}
