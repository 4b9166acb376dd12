//! `dxbc::spans` over the whole corpus (fxc, blobs, vkd3d): the leaves tile
//! every file, every leaf's value is what the bytes at its offset say, every
//! leaf has an explanation, and every byte of a file that decoded cleanly is
//! a field or padding (none `unreferenced` or `undecoded`). Then truncated
//! and bit-flipped files still tile.
//! Prints leaf counts per chunk kind and the time `leaves` takes on the
//! largest file (`cargo test -p dxbc --release --test spans_corpus -- --nocapture`).

use dxbc::spans::{leaves, Kind, Leaf, Spans, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn corpus(sub: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(sub);
    assert!(dir.is_dir(), "corpus directory {} is missing", dir.display());
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Asserts that `s` tiles `0..len`: sorted, contiguous, non-empty leaves.
fn assert_tiles(s: &Spans, len: usize, what: &str) {
    let mut end = 0;
    for l in &s.leaves {
        assert!(l.len > 0, "{what}: empty leaf {}", l.path);
        assert_eq!(l.offset, end, "{what}: {} at {:#x}, expected {:#x} (gap or overlap)", l.path, l.offset, end);
        end = l.offset + l.len;
    }
    assert_eq!(end, len, "{what}: leaves end at {end:#x}, the file at {len:#x}");
}

/// Re-reads the bytes a leaf covers and compares them with its value.
fn check_value(l: &Leaf, bytes: &[u8], what: &str) {
    let b = &bytes[l.range()];
    match &l.value {
        Value::Number(v) => {
            assert!(matches!(l.len, 1 | 2 | 4 | 8), "{what}: number {} of {} bytes", l.path, l.len);
            let mut w = [0u8; 8];
            w[..l.len].copy_from_slice(b);
            assert_eq!(u64::from_le_bytes(w), *v, "{what}: {} at {:#x}", l.path, l.offset);
        }
        Value::Text(t) if l.path.ends_with("/fourcc") || l.path == "header/magic" => {
            // A FourCC: four bytes, no terminator.
            assert_eq!(l.len, 4, "{what}: {}", l.path);
            assert_eq!(&dxbc::container::fourcc_text(&[b[0], b[1], b[2], b[3]]), t, "{what}: {}", l.path);
        }
        Value::Text(t) => {
            let nul = b.iter().position(|&c| c == 0).unwrap();
            assert_eq!(nul, l.len - 1, "{what}: string {} must end at its first NUL", l.path);
            let text: String = b[..nul].iter().map(|&c| c as char).collect();
            assert_eq!(&text, t, "{what}: {} at {:#x}", l.path, l.offset);
        }
        Value::Bytes => {}
    }
}

/// Chunk kind of a leaf: the first path component without its `#k` repeat mark.
fn kind_of(l: &Leaf) -> String {
    let head = l.path.split('/').next().unwrap_or("");
    let head = head.split('#').next().unwrap_or(head);
    if head.starts_with("chunk_table") || head == "header" {
        "container".into()
    } else {
        head.into()
    }
}

#[derive(Default)]
struct Tally {
    leaves: usize,
    unreferenced_bytes: usize,
    padding_bytes: usize,
}

#[test]
fn leaves_tile_and_match_the_bytes_on_the_whole_corpus() {
    let mut per_kind: BTreeMap<String, Tally> = BTreeMap::new();
    let (mut files, mut total, mut shared) = (0usize, 0usize, 0usize);
    let mut largest: Option<(usize, PathBuf)> = None;
    for sub in ["fxc", "blobs", "vkd3d"] {
        for path in corpus(sub) {
            let bytes = std::fs::read(&path).unwrap();
            let what = path.display().to_string();
            let s = dxbc::Shader::decode(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
            let sp = leaves(&s);
            assert_tiles(&sp, bytes.len(), &what);
            assert!(sp.overlaps.is_empty(), "{what}: overlapping claims {:?}", sp.overlaps);
            for l in &sp.leaves {
                check_value(l, &bytes, &what);
                assert!(!l.explanation.is_empty(), "{what}: {} has no explanation", l.path);
                // Only chunks with a fault may hold undecoded bytes.
                if l.kind == Kind::Undecoded {
                    assert!(
                        s.errors.iter().any(|e| e.offset() + 1 >= l.offset && e.offset() <= l.offset + l.len),
                        "{what}: {} is undecoded but no fault lies in its chunk",
                        l.path
                    );
                }
                let t = per_kind.entry(kind_of(l)).or_default();
                t.leaves += 1;
                match l.kind {
                    Kind::Unreferenced => t.unreferenced_bytes += l.len,
                    Kind::Padding => t.padding_bytes += l.len,
                    _ => {}
                }
            }
            if s.errors.is_empty() {
                // Every byte of a clean corpus file is a field or padding.
                let unnamed = sp.leaves.iter().find(|l| matches!(l.kind, Kind::Undecoded | Kind::Unreferenced));
                assert!(unnamed.is_none(), "{what}: {:?}", unnamed.map(|l| (&l.path, l.offset, l.len)));
            }
            files += 1;
            total += sp.leaves.len();
            shared += sp.shared;
            if largest.as_ref().is_none_or(|(n, _)| bytes.len() > *n) {
                largest = Some((bytes.len(), path.clone()));
            }
        }
    }
    assert_eq!(files, 438 + 739 + 2239, "corpus file count");
    println!("{:<12} {:>9} {:>12} {:>12}", "kind", "leaves", "unref bytes", "pad bytes");
    for (k, t) in &per_kind {
        println!("{k:<12} {:>9} {:>12} {:>12}", t.leaves, t.unreferenced_bytes, t.padding_bytes);
    }
    println!("{files} files, {total} leaves, {shared} shared claims");
    let (n, path) = largest.unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let s = dxbc::Shader::decode(&bytes).unwrap();
    let t = std::time::Instant::now();
    let runs = 20;
    let mut count = 0;
    for _ in 0..runs {
        count = leaves(&s).leaves.len();
    }
    println!("largest file {} ({n} bytes, {count} leaves): leaves() {:?} each", path.display(), t.elapsed() / runs);
}

fn dword(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as usize
}

/// `bytes` cut at `cut` with the size fields patched so that the container
/// still parses and the chunk decoders, not the container check, meet the
/// cut: chunks reaching past it shrink, and table entries of chunks whose
/// header is gone point at the first chunk instead (a repeated chunk).
fn truncated(bytes: &[u8], cut: usize) -> Vec<u8> {
    let mut v = bytes[..cut].to_vec();
    v[0x18..0x1c].copy_from_slice(&(cut as u32).to_le_bytes());
    let count = dword(bytes, 0x1c);
    let first = dword(bytes, 0x20);
    for i in 0..count {
        let slot = 0x20 + 4 * i;
        if slot + 4 > cut {
            break;
        }
        let at = dword(bytes, slot);
        if at + 8 <= cut {
            let size = dword(bytes, at + 4).min(cut - at - 8) as u32;
            v[at + 4..at + 8].copy_from_slice(&size.to_le_bytes());
        } else {
            v[slot..slot + 4].copy_from_slice(&(first as u32).to_le_bytes());
        }
    }
    v
}

#[test]
fn truncated_and_bit_flipped_files_still_tile() {
    let mut files: Vec<PathBuf> = corpus("fxc").into_iter().step_by(10).collect();
    files.extend(corpus("blobs").into_iter().step_by(50));
    files.extend(corpus("vkd3d").into_iter().step_by(100));
    let (mut runs, mut faulty, mut overlaps) = (0, 0, 0);
    for path in &files {
        let original = std::fs::read(path).unwrap();
        let what = path.display().to_string();
        let mut seed = 0x9e37_79b9u32;
        let mut variants: Vec<Vec<u8>> = Vec::new();
        for cut in (32..original.len()).step_by(original.len() / 24 + 1) {
            // As cut (the container reports the short chunk and goes on),
            // and with the size fields patched to agree with the cut.
            variants.push(original[..cut].to_vec());
            variants.push(truncated(&original, cut));
        }
        for _ in 0..48 {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let mut v = original.clone();
            let bit = (seed >> 8) as usize % (v.len() * 8);
            if (0x18 * 8..0x1c * 8).contains(&bit) {
                continue;
            }
            v[bit / 8] ^= 1 << (bit % 8);
            variants.push(v);
        }
        for v in variants {
            let Ok(s) = dxbc::Shader::decode(&v) else { continue };
            let sp = leaves(&s);
            assert_tiles(&sp, v.len(), &what);
            for l in &sp.leaves {
                check_value(l, &v, &what);
            }
            runs += 1;
            faulty += usize::from(!s.errors.is_empty());
            overlaps += sp.overlaps.len();
        }
    }
    assert!(runs > 3000, "only {runs} damaged variants decoded far enough to test");
    assert!(faulty > 1000, "only {faulty} damaged variants met a fault inside a chunk");
    println!(
        "{runs} damaged variants tiled, {faulty} with faults inside chunks, {overlaps} overlapping claims dropped"
    );
}

/// Every SM2 instruction dword of an Aon9 chunk links to the line fxc
/// printed for that instruction: the line at that index after the level-9
/// version line of the `.asm` starts with the instruction's mnemonic.
#[test]
fn level9_links_point_at_fxc_listing_lines() {
    let (mut files, mut checked) = (0, 0);
    for path in corpus("fxc") {
        let bytes = std::fs::read(&path).unwrap();
        let s = dxbc::Shader::decode(&bytes).unwrap();
        if s.aon9.is_none() {
            continue;
        }
        let asm = std::fs::read_to_string(path.with_extension("asm")).unwrap();
        let lines: Vec<&str> = asm.lines().collect();
        let start = lines.iter().position(|l| *l == "// Level9 shader bytecode:").unwrap() + 2;
        for l in leaves(&s).leaves.iter().filter(|l| l.path.starts_with("Aon9/program/instructions[")) {
            let Some(dxbc::spans::Link::Level9Line(n)) = l.link else {
                panic!("{}: {} has no line", path.display(), l.path)
            };
            if l.path.ends_with("/token") {
                let line = lines[start + n];
                assert!(
                    line.trim_start().starts_with(l.meaning.as_ref()),
                    "{}: {} links to {line:?}, expected {}",
                    path.display(),
                    l.path,
                    l.meaning
                );
                checked += 1;
            }
        }
        assert!(lines[start].starts_with("    vs_") || lines[start].starts_with("    ps_"), "{}", path.display());
        files += 1;
    }
    assert!(files > 20 && checked > 200, "{files} files, {checked} instructions");
    println!("{files} level-9 listings, {checked} instruction links checked");
}
