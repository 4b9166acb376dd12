//! The fxc corpus as the unit tests read it, and the order the tests of
//! kept state (`writers`, `liveness`) visit it in.

use std::path::PathBuf;

/// Every `.dxbc` file of `../shared/corpus/fxc` with its bytes, in path
/// order. Panics, naming the folder, when the corpus is missing.
pub(crate) fn fxc_files() -> Vec<(PathBuf, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("corpus missing at {}: {e}", dir.display()));
    let mut files: Vec<(PathBuf, Vec<u8>)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "dxbc"))
        .filter_map(|p| Some((p.clone(), std::fs::read(&p).ok()?)))
        .collect();
    files.sort();
    files
}

/// Indices of `n` items sorted by size, visited largest, smallest, next
/// largest, …: each item follows one of a very different size, which is
/// what state kept from one item to the next must survive.
pub(crate) fn largest_then_smallest(n: usize) -> impl Iterator<Item = usize> {
    (0..n).map(move |i| if i % 2 == 0 { n - 1 - i / 2 } else { i / 2 })
}
