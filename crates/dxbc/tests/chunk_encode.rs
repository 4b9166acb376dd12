//! Every non-program chunk of every corpus file encodes back from its
//! decoded fields to exactly the stored payload: `encode(parse(p)) == p`.
//! The encoders compute counts, offsets and string positions themselves, so
//! this checks that they reproduce the compilers' layouts, not a copy.

use dxbc::chunks::{aon9::Aon9, ifce::Ifce, rdef::Rdef, sfi0::Sfi0, signature::Signature, stat::Stat};
use std::collections::BTreeMap;
use std::path::PathBuf;

mod common;
use common::collect;

/// The chunk's payload re-encoded from its decoded model; `None` for the
/// program chunk (encoded elsewhere) and `Some(Err)` when it does not decode.
fn reencode(tag: &[u8; 4], data: &[u8], base: usize) -> Option<dxbc::Result<Vec<u8>>> {
    Some(match tag {
        b"RDEF" => Rdef::parse(data, base).map(|c| c.encode()),
        b"ISGN" | b"OSGN" | b"OSG5" | b"PCSG" | b"ISG1" | b"OSG1" | b"PSG1" => {
            Signature::parse(*tag, data, base).map(|c| c.encode())
        }
        b"STAT" => Stat::parse(data, base).map(|c| c.encode()),
        b"SFI0" => Sfi0::parse(data, base).map(|c| c.encode()),
        b"IFCE" => Ifce::parse(data, base).map(|c| c.encode()),
        b"Aon9" => Aon9::parse(data, base).map(|c| c.encode()),
        b"SHDR" | b"SHEX" => return None,
        _ => Ok(data.to_vec()),
    })
}

#[derive(Default)]
struct Tally {
    chunks: usize,
    identical: usize,
    failures: Vec<String>,
}

fn check(sub: &str, expected: usize) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(sub);
    assert!(dir.is_dir(), "corpus directory {} is missing", dir.display());
    let mut files = Vec::new();
    collect(&dir, &mut files);
    assert_eq!(files.len(), expected, "unexpected number of shaders in {}", dir.display());
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let name = f.strip_prefix(&dir).unwrap_or(f).to_string_lossy().replace('/', "__");
        let c = dxbc::Container::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        for e in &c.chunks {
            let data = &bytes[e.data_range()];
            let Some(got) = reencode(&e.tag, data, e.offset + 8) else { continue };
            let t = tally.entry(e.fourcc()).or_default();
            t.chunks += 1;
            match got {
                Err(err) => t.failures.push(format!("{name}: does not decode: {err}")),
                Ok(got) if got == data => t.identical += 1,
                Ok(got) => {
                    // Developer aid: CHUNK_DUMP=dir writes both payloads for a byte diff.
                    if let Ok(d) = std::env::var("CHUNK_DUMP") {
                        let base = format!("{d}/{name}.{}", e.fourcc());
                        std::fs::write(format!("{base}.got"), &got).unwrap();
                        std::fs::write(format!("{base}.want"), data).unwrap();
                    }
                    let at = got.iter().zip(data).position(|(a, b)| a != b).unwrap_or(got.len().min(data.len()));
                    t.failures.push(format!(
                        "{name}: {} differs at payload byte {at:#x} (encoded {} bytes, stored {})",
                        e.fourcc(),
                        got.len(),
                        data.len()
                    ));
                }
            }
        }
    }
    let mut all = Vec::new();
    for (tag, t) in &tally {
        println!("{sub} {tag}: {}/{} chunks encode identically", t.identical, t.chunks);
        all.extend(t.failures.iter().take(20).cloned());
    }
    let failed: usize = tally.values().map(|t| t.failures.len()).sum();
    assert!(failed == 0, "{failed} chunks differ:\n{}", all.join("\n"));
}

#[test]
fn fxc_chunks_encode_identically() {
    check("fxc", 438);
}

#[test]
fn blobs_chunks_encode_identically() {
    check("blobs", 739);
}

#[test]
fn vkd3d_chunks_encode_identically() {
    check("vkd3d", 2239);
}
