//! The shader corpus for the library's tests, read in place from
//! `../shared/corpus`; a missing corpus fails loudly.

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

/// One corpus file, by its path under the corpus (`fxc/NAME.dxbc`).
pub fn file(rel: &str) -> Vec<u8> {
    let p = root().join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("corpus file {} is missing: {e}", p.display()))
}

/// Every fxc corpus shader, by name, in name order.
pub fn fxc() -> Vec<(String, Vec<u8>)> {
    let dir = root().join("fxc");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus missing at {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "dxbc"))
        .collect();
    files.sort();
    assert!(files.len() >= 400, "expected the fxc corpus, found {} files", files.len());
    files
        .into_iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect()
}
