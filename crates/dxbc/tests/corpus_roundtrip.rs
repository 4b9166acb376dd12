//! Every .dxbc under ../shared/corpus decodes without error, rebuilds
//! byte-identically, and carries a valid checksum.

use std::path::PathBuf;

mod common;
use common::collect;

fn check(sub: &str, expected: usize) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(sub);
    assert!(dir.is_dir(), "corpus directory {} is missing", dir.display());
    let mut files = Vec::new();
    collect(&dir, &mut files);
    assert_eq!(files.len(), expected, "unexpected number of shaders in {}", dir.display());
    let mut failures = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        match dxbc::Shader::parse(&bytes) {
            Err(e) => failures.push(format!("{name}: {e}")),
            Ok(s) => {
                if !s.checksum_ok() {
                    failures.push(format!("{name}: stored checksum does not verify"));
                }
                if s.program.is_none() {
                    failures.push(format!("{name}: no program chunk decoded"));
                }
                if s.rebuild() != bytes {
                    failures.push(format!("{name}: rebuild differs"));
                }
            }
        }
    }
    println!("{sub}: {}/{} decode, verify and rebuild identically", files.len() - failures.len(), files.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn fxc_corpus_round_trips() {
    check("fxc", 438);
}

#[test]
fn blobs_corpus_round_trips() {
    check("blobs", 739);
}

#[test]
fn vkd3d_corpus_round_trips() {
    check("vkd3d", 2239);
}
