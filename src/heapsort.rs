//! A plain heapsort, the crate's one sort: O(n log n) whatever the input,
//! like `sort_unstable`, without linking core's quicksort and its sorting
//! networks (1 KB of the wasm module, gzip) into the module. Its users sort
//! call indices and the members of a JSON object as it is read.

/// Sorts `v` so that no item is `less` than the one before it. Not stable.
///
/// ```text
/// sort_by(&mut [3, 1, 2], |a, b| a < b) -> [1, 2, 3]
/// ```
pub(crate) fn sort_by<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = v.len();
    for root in (0..n / 2).rev() {
        sift_down(v, root, n, &less);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift_down(v, 0, end, &less);
    }
}

/// Restores the max-heap below `root` within `v[..end]`.
fn sift_down<T>(v: &mut [T], mut root: usize, end: usize, less: &impl Fn(&T, &T) -> bool) {
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && less(&v[child], &v[child + 1]) {
            child += 1;
        }
        if !less(&v[root], &v[child]) {
            return;
        }
        v.swap(root, child);
        root = child;
    }
}
