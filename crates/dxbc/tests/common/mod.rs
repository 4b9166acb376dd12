//! Helpers shared by the corpus tests.

use std::path::{Path, PathBuf};

/// Appends every `.dxbc` file under `dir`, recursively, to `out`.
pub fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "dxbc") {
            out.push(p);
        }
    }
}

/// Every `.dxbc` file of corpus `sub` (`fxc`, `blobs`, `vkd3d`) in
/// `../shared/corpus`, sorted; fails loudly when the corpus is missing or
/// holds fewer than `at_least` files.
#[allow(dead_code)] // each test binary uses its own share of these helpers
pub fn corpus_files(sub: &str, at_least: usize) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(sub);
    let mut files = Vec::new();
    collect(&dir, &mut files);
    files.sort();
    assert!(files.len() >= at_least, "{}: {} files, expected at least {at_least}", dir.display(), files.len());
    files
}
