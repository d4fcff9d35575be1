//! A plain heapsort: O(n log n) like `sort_unstable`, without linking
//! core's quicksort and its sorting networks (about 1 KB of the wasm
//! module, gzip, per element type). It sorts the lists of call indices.

/// Sorts `v` in ascending order.
pub(crate) fn sort<T: Ord>(v: &mut [T]) {
    let n = v.len();
    for root in (0..n / 2).rev() {
        sift_down(v, root, n);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift_down(v, 0, end);
    }
}

/// Restores the max-heap below `root` within `v[..end]`.
fn sift_down<T: Ord>(v: &mut [T], mut root: usize, end: usize) {
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && v[child] < v[child + 1] {
            child += 1;
        }
        if v[root] >= v[child] {
            return;
        }
        v.swap(root, child);
        root = child;
    }
}

#[cfg(test)]
mod tests {
    use super::sort;

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
    fn sorts_keys_like_the_standard_sort() {
        let keys = ["b", "a", "", "ab", "é", "B", "aa", "a\u{0}"];
        let (mut ours, mut expected) = (keys.to_vec(), keys.to_vec());
        sort(&mut ours);
        expected.sort_unstable();
        assert_eq!(ours, expected);
    }
}
