//! Damaged containers decode as far as they can.
//!
//! For every 10th corpus file (fxc, blobs, vkd3d, sorted by path) the test
//! makes damaged copies: truncated at every chunk boundary ±4 bytes, with
//! each chunk-table offset in turn pointed outside the file, far outside it,
//! or off dword alignment, and with garbage after the end. A chunk is *intact* in a damaged copy when its
//! table slot and all its bytes are unchanged. The outside truth is the
//! original file: every intact chunk must still be listed with the same
//! table entry, and every intact chunk that decoded cleanly in the original
//! must decode to the same model (compared through its full `Debug` text).
//! The damage itself must be reported with the right kind and chunk, and
//! every error offset must lie in the input (a `Truncated` error may name
//! the first missing byte, one past the end).

use dxbc::container::ChunkEntry;
use dxbc::{ErrorKind, Shader};
use std::path::PathBuf;

mod common;
use common::collect;

fn sample(sub: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(sub);
    assert!(dir.is_dir(), "corpus directory {} is missing", dir.display());
    let mut files = Vec::new();
    collect(&dir, &mut files);
    assert!(!files.is_empty(), "no .dxbc files under {}", dir.display());
    files.sort();
    files.iter().step_by(10).map(|p| (p.display().to_string(), std::fs::read(p).unwrap())).collect()
}

/// The decoded model of the chunk `c` as `Debug` text, when `c` is the chunk
/// of its kind that [`Shader::decode`] keeps (the first) and decoding it met
/// no fault; `None` for chunks that are only listed.
fn decoded(s: &Shader, c: &ChunkEntry) -> Option<String> {
    let group: &[&[u8; 4]] = match &c.tag {
        b"RDEF" => &[b"RDEF"],
        b"ISGN" | b"ISG1" => &[b"ISGN", b"ISG1"],
        b"OSGN" | b"OSG5" | b"OSG1" => &[b"OSGN", b"OSG5", b"OSG1"],
        b"PCSG" | b"PSG1" => &[b"PCSG", b"PSG1"],
        b"SHDR" | b"SHEX" => &[b"SHDR", b"SHEX"],
        b"STAT" => &[b"STAT"],
        b"SFI0" => &[b"SFI0"],
        b"IFCE" => &[b"IFCE"],
        b"Aon9" => &[b"Aon9"],
        _ => return None,
    };
    let first = s.container.chunks.iter().find(|d| group.contains(&&d.tag))?;
    if first.offset != c.offset || s.errors.iter().any(|e| e.chunk().is_some_and(|r| r.offset == c.offset)) {
        return None;
    }
    let text = match &c.tag {
        b"RDEF" => format!("{:?}", s.rdef.as_ref()?),
        b"ISGN" | b"ISG1" => format!("{:?}", s.input_signature.as_ref()?),
        b"OSGN" | b"OSG5" | b"OSG1" => format!("{:?}", s.output_signature.as_ref()?),
        b"PCSG" | b"PSG1" => format!("{:?}", s.patch_constant_signature.as_ref()?),
        b"SHDR" | b"SHEX" => format!("{:?}", s.program.as_ref()?),
        b"STAT" => format!("{:?}", s.stat.as_ref()?),
        b"SFI0" => format!("{:?}", s.sfi0.as_ref()?),
        b"IFCE" => format!("{:?}", s.ifce.as_ref()?),
        _ => format!("{:?}", s.aon9.as_ref()?),
    };
    Some(text)
}

#[derive(Default)]
struct Tally {
    inputs: usize,
    intact: usize,
    listed: usize,
    intact_decoded: usize,
    still_decoded: usize,
    errors: usize,
}

/// Decodes `bytes`, checks the intact chunks (`intact[i]` for original
/// chunk i) against the original, and returns the decoded shader.
fn check(
    name: &str,
    what: &str,
    bytes: &[u8],
    original: &Shader,
    models: &[Option<String>],
    intact: &[bool],
    t: &mut Tally,
) -> Shader {
    let s = Shader::decode(bytes).unwrap_or_else(|e| panic!("{name} {what}: hard error {e}"));
    t.inputs += 1;
    t.errors += s.errors.len();
    for e in &s.errors {
        // Inside the input; only "ran out of bytes" may name the first byte
        // that is missing, one past the last.
        let inside = e.offset() < bytes.len() || (e.kind() == ErrorKind::Truncated && e.offset() == bytes.len());
        assert!(inside, "{name} {what}: error offset outside the {}-byte input: {e:?}", bytes.len());
    }
    for (i, c) in original.container.chunks.iter().enumerate().filter(|(i, _)| intact[*i]) {
        t.intact += 1;
        let same = s.container.chunks.iter().find(|d| d.table_offset == c.table_offset);
        assert_eq!(same, Some(c), "{name} {what}: intact chunk {} not listed as it was", c.fourcc());
        t.listed += 1;
        if let Some(model) = &models[i] {
            t.intact_decoded += 1;
            let now = decoded(&s, c);
            assert_eq!(now.as_ref(), Some(model), "{name} {what}: intact chunk {} decodes differently", c.fourcc());
            t.still_decoded += 1;
        }
    }
    s
}

fn truncations(name: &str, original: &[u8], s: &Shader, models: &[Option<String>], t: &mut Tally) {
    let mut cuts: Vec<usize> = Vec::new();
    for c in &s.container.chunks {
        for b in [c.offset, c.range().end] {
            cuts.extend((b.saturating_sub(4)..=b + 4).filter(|&n| n < original.len()));
        }
    }
    cuts.sort();
    cuts.dedup();
    for n in cuts {
        let bytes = &original[..n];
        let what = format!("truncated to {n} bytes");
        if n < 32 {
            let e = Shader::decode(bytes).err().unwrap_or_else(|| panic!("{name} {what}: decoded"));
            assert!(matches!(e.kind(), ErrorKind::Truncated | ErrorKind::NotDxbc), "{name} {what}: {e:?}");
            continue;
        }
        let intact: Vec<bool> =
            s.container.chunks.iter().map(|c| c.range().end <= n && c.table_offset + 4 <= n).collect();
        let d = check(name, &what, bytes, s, models, &intact, t);
        let first = d.errors.first().unwrap_or_else(|| panic!("{name} {what}: no error"));
        assert_eq!((first.kind(), first.offset()), (ErrorKind::Truncated, 0x18), "{name} {what}: {first}");
        // Every chunk cut or dropped by the truncation is reported as truncated.
        for c in s.container.chunks.iter().filter(|c| c.range().end > n && c.table_offset + 4 <= n) {
            let named = d
                .errors
                .iter()
                .any(|e| e.kind() == ErrorKind::Truncated && e.chunk().is_some_and(|r| r.offset == c.offset));
            assert!(named, "{name} {what}: chunk {} at {:#x} not reported as truncated", c.fourcc(), c.offset);
        }
    }
}

fn bad_offsets(name: &str, original: &[u8], s: &Shader, models: &[Option<String>], t: &mut Tally) {
    for (slot, c) in s.container.chunks.iter().enumerate() {
        let len = original.len();
        let cases = [
            (len + 0x40, ErrorKind::OutOfBounds, "outside the file"),
            (0xffff_fff0, ErrorKind::OutOfBounds, "far outside the file"),
            (c.offset + 2, ErrorKind::Misaligned, "misaligned"),
        ];
        for (to, kind, how) in cases {
            let mut bytes = original.to_vec();
            bytes[c.table_offset..c.table_offset + 4].copy_from_slice(&(to as u32).to_le_bytes());
            let what = format!("slot {slot} ({}) {how}", c.fourcc());
            let intact: Vec<bool> = (0..s.container.chunks.len()).map(|i| i != slot).collect();
            let d = check(name, &what, &bytes, s, models, &intact, t);
            let reported =
                d.container.errors.iter().any(|e| {
                    e.kind() == kind && e.offset() == c.table_offset && e.chunk().is_some_and(|r| r.slot == slot)
                });
            assert!(reported, "{name} {what}: not reported as {kind}: {:?}", d.errors);
        }
    }
}

fn garbage_after_the_end(name: &str, original: &[u8], s: &Shader, models: &[Option<String>], t: &mut Tally) {
    let mut bytes = original.to_vec();
    bytes.extend_from_slice(&[0xab; 12]);
    let intact = vec![true; s.container.chunks.len()];
    let d = check(name, "with 12 bytes of garbage after the end", &bytes, s, models, &intact, t);
    let kinds: Vec<_> = d.errors.iter().map(|e| (e.kind(), e.offset())).collect();
    assert_eq!(kinds, [(ErrorKind::SizeMismatch, 0x18)], "{name}: {:?}", d.errors);
}

fn measure(sub: &str) -> Tally {
    let mut t = Tally::default();
    let files = sample(sub);
    for (name, bytes) in &files {
        let s = Shader::decode(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(s.container.errors.is_empty(), "{name}: corpus container is damaged: {:?}", s.container.errors);
        let models: Vec<Option<String>> = s.container.chunks.iter().map(|c| decoded(&s, c)).collect();
        truncations(name, bytes, &s, &models, &mut t);
        bad_offsets(name, bytes, &s, &models, &mut t);
        garbage_after_the_end(name, bytes, &s, &models, &mut t);
    }
    println!(
        "{sub}: {} files, {} damaged inputs, {} errors reported; intact chunks listed {}/{}, \
         intact decoded chunks still decoding identically {}/{}",
        files.len(),
        t.inputs,
        t.errors,
        t.listed,
        t.intact,
        t.still_decoded,
        t.intact_decoded
    );
    // The checks in `check` already fail on the first miss; these state the figure.
    assert_eq!(t.listed, t.intact, "{sub}: 100 % of intact chunks are listed");
    assert_eq!(t.still_decoded, t.intact_decoded, "{sub}: 100 % of intact chunks decode as before");
    assert!(t.intact_decoded > 0 && t.inputs > files.len());
    t
}

#[test]
fn fxc_damaged_containers_keep_every_intact_chunk() {
    measure("fxc");
}

#[test]
fn blobs_damaged_containers_keep_every_intact_chunk() {
    measure("blobs");
}

#[test]
fn vkd3d_damaged_containers_keep_every_intact_chunk() {
    measure("vkd3d");
}

/// The case from the bug report: a file cut at 1,500 bytes still lists the
/// chunks before the cut and decodes them, and the program decodes as far as
/// its bytes go.
#[test]
fn truncated_file_lists_and_decodes_the_chunks_before_the_cut() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    let mut files = Vec::new();
    collect(&dir, &mut files);
    files.sort();
    // The first fxc shader whose program starts before byte 1,500 and ends after it.
    let (bytes, s) = files
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .find_map(|b| {
            let s = Shader::decode(&b).ok()?;
            let p = s.container.chunks.iter().find(|c| &c.tag == b"SHEX" || &c.tag == b"SHDR")?;
            (p.offset + 64 < 1500 && p.range().end > 1500 && s.container.chunks.len() >= 5).then_some((b, s))
        })
        .expect("an fxc shader whose program spans byte 1,500");
    let d = Shader::decode(&bytes[..1500]).expect("a truncated container still decodes");
    let before: Vec<&ChunkEntry> = s.container.chunks.iter().filter(|c| c.range().end <= 1500).collect();
    for c in &before {
        assert!(d.container.chunks.contains(c), "{} missing", c.fourcc());
    }
    assert_eq!(d.errors[0].kind(), ErrorKind::Truncated);
    let (full, cut) = (s.program.as_ref().unwrap(), d.program.as_ref().unwrap());
    assert!(!cut.instructions.is_empty(), "the cut program decodes its first instructions");
    assert!(cut.instructions.len() < full.instructions.len());
    for (a, b) in cut.instructions.iter().zip(&full.instructions).take(cut.instructions.len() - 1) {
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
}
