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
