//! A small ordered set of call indices (the open calls, the answers not yet
//! delivered): a sorted `Vec`. These sets hold a handful of calls at a time,
//! and one ordered-set type less keeps the wasm module smaller.

/// Call indices, iterated in ascending order (which is first-start order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Indices(Vec<usize>);

impl Indices {
    /// Adds `i`; false when it was there already.
    pub(crate) fn insert(&mut self, i: usize) -> bool {
        match self.0.binary_search(&i) {
            Ok(_) => false,
            Err(at) => {
                self.0.insert(at, i);
                true
            }
        }
    }

    /// Removes `i`; false when it was not there.
    pub(crate) fn remove(&mut self, i: &usize) -> bool {
        match self.0.binary_search(i) {
            Ok(at) => {
                self.0.remove(at);
                true
            }
            Err(_) => false,
        }
    }

    pub(crate) fn contains(&self, i: &usize) -> bool {
        self.0.binary_search(i).is_ok()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a> IntoIterator for &'a Indices {
    type Item = &'a usize;
    type IntoIter = std::slice::Iter<'a, usize>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Sorts `v` in ascending order (the crate's one sort, `heapsort`).
pub(crate) fn sort(v: &mut [usize]) {
    crate::heapsort::sort_by(v, |a, b| a < b);
}

#[cfg(test)]
mod tests {
    use super::{sort, Indices};

    #[test]
    fn sorts_like_the_standard_sort() {
        // Every list of up to 7 items over 0..4, and some longer ones.
        let mut lists: Vec<Vec<usize>> = vec![vec![]];
        for _ in 0..7 {
            let longer: Vec<Vec<usize>> = lists
                .iter()
                .filter(|l| l.len() < 7)
                .flat_map(|l| (0..4).map(move |x| [l.clone(), vec![x]].concat()))
                .collect();
            lists.extend(longer);
        }
        lists.push((0..1000).rev().chain(0..1000).collect());
        lists.push((0..1000).map(|i| (i * 7919) % 1009).collect());
        for list in lists {
            let (mut ours, mut expected) = (list.clone(), list.clone());
            sort(&mut ours);
            expected.sort_unstable();
            assert_eq!(ours, expected, "{list:?}");
        }
    }

    #[test]
    fn keeps_indices_sorted_and_unique() {
        let mut set = Indices::default();
        assert!(set.insert(5) && set.insert(1) && set.insert(3));
        assert!(!set.insert(3));
        assert_eq!((&set).into_iter().copied().collect::<Vec<_>>(), [1, 3, 5]);
        assert!(set.remove(&3) && !set.remove(&3));
        assert!(set.contains(&5) && !set.contains(&3));
        assert!(!set.is_empty());
    }
}
