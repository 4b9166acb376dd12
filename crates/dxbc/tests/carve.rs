//! Carving against the shared corpus: every fxc and blob container, laid
//! end to end among seeded random junk and decoys, comes back at its exact
//! offset with a valid checksum; decoys are rejected or reported invalid.

use dxbc::carve::{carve, Checksum, ProgramKind, Reject};
use std::path::PathBuf;

fn corpus_files() -> Vec<Vec<u8>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut out = Vec::new();
    for dir in ["fxc", "blobs"] {
        let d = root.join(dir);
        let mut names: Vec<_> = std::fs::read_dir(&d)
            .unwrap_or_else(|e| panic!("corpus folder {} is missing: {e}", d.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "dxbc"))
            .collect();
        names.sort();
        out.extend(names.iter().map(|p| std::fs::read(p).unwrap()));
    }
    assert!(out.len() > 1000, "expected the whole corpus, found {} files", out.len());
    out
}

/// xorshift64*: a seeded generator, so every run builds the same input.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn junk(&mut self, out: &mut Vec<u8>, n: usize) {
        out.extend((0..n).map(|_| self.next() as u8));
    }
}

#[test]
fn every_corpus_container_comes_back_at_its_offset_among_junk_and_decoys() {
    let files = corpus_files();
    let mut rng = Rng(0x5eed_dbc0_1234_5678);
    let mut data = Vec::new();
    let mut expected = Vec::new();
    let (mut decoys, mut small, mut past_end) = (0, 0, 0);
    for (i, f) in files.iter().enumerate() {
        // Junk of any length (so containers land at every alignment).
        let n = rng.below(200);
        rng.junk(&mut data, n);
        match i % 5 {
            // The magic in text.
            0 => data.extend_from_slice(b"compiled to DXBC by fxc; "),
            // The magic with an impossible size (smaller than its header).
            1 => {
                data.extend_from_slice(b"DXBC");
                rng.junk(&mut data, 16);
                data.extend_from_slice(&[1, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]);
            }
            // The magic with a size past the end of the input.
            2 => {
                data.extend_from_slice(b"DXBC");
                rng.junk(&mut data, 16);
                data.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0xf0, 0x03, 1, 0, 0, 0]);
            }
            _ => {}
        }
        decoys += usize::from(i % 5 < 3);
        small += usize::from(i % 5 == 1);
        past_end += usize::from(i % 5 == 2);
        expected.push((data.len(), f.len()));
        data.extend_from_slice(f);
    }
    // A truncated container ends the input.
    let last = &files[0];
    data.extend_from_slice(&last[..last.len() / 2]);
    decoys += 1;
    past_end += 1;

    let r = carve(&data);
    let got: Vec<(usize, usize)> = r.found.iter().map(|f| (f.offset, f.size)).collect();
    assert_eq!(got.len(), expected.len());
    assert_eq!(got, expected);
    assert!(r.found.iter().all(|f| f.checksum == Checksum::Valid && f.parent.is_none()));
    assert!(r.found.iter().all(|f| f.program == ProgramKind::Dxbc));
    for (f, (at, _)) in r.found.iter().zip(&expected) {
        assert_eq!(&data[f.range()], &data[*at..*at + f.size]);
    }
    assert_eq!(r.rejected.iter().sum::<usize>(), decoys);
    assert_eq!(r.rejected_for(Reject::Truncated), past_end);
    assert_eq!(r.rejected_for(Reject::ImplausibleSize), small);
}

#[test]
fn a_flipped_byte_is_reported_invalid_or_rejected_never_valid() {
    let files = corpus_files();
    let mut rng = Rng(42);
    let (mut invalid, mut rejected) = (0, 0);
    for f in files.iter().step_by(7) {
        let mut data = vec![0xAAu8; 13];
        data.extend_from_slice(f);
        data.extend_from_slice(&[0x55; 9]);
        // Any byte after the stored checksum (bytes 4..20 are not hashed).
        let at = 13 + 20 + rng.below(f.len() - 20);
        data[at] ^= 1 << rng.below(8);
        let r = carve(&data);
        match r.found.iter().find(|x| x.offset == 13) {
            Some(x) => {
                assert_eq!(x.checksum, Checksum::Invalid, "flip at {at}");
                assert_eq!(x.size, f.len());
                invalid += 1;
            }
            None => rejected += 1,
        }
        assert!(r.found.iter().all(|x| x.checksum != Checksum::Valid));
    }
    // Most flips land in payloads: the container stays plausible and is reported.
    assert!(invalid > rejected, "{invalid} invalid, {rejected} rejected");
}

#[test]
fn an_effect_built_by_our_encoder_yields_its_shaders_nested() {
    let files = corpus_files();
    // An fx_4_0 effect: one FX10 chunk whose payload embeds whole shaders
    // (see dxbc::carve's notes on the layout).
    let mut payload = vec![0u8; 60];
    let mut inner = Vec::new();
    for f in &files[..3] {
        payload.extend_from_slice(&(f.len() as u32).to_le_bytes());
        inner.push(payload.len());
        payload.extend_from_slice(f);
    }
    let effect = dxbc::container::write_container(1, &[(*b"FX10", &payload)]);
    let r = carve(&effect);
    assert_eq!(r.found.len(), 4);
    assert_eq!(r.found[0].program, ProgramKind::Effect);
    for (k, at) in inner.iter().enumerate() {
        let f = &r.found[k + 1];
        assert_eq!((f.offset, f.parent, f.checksum), (at + 44, Some(0), Checksum::Valid));
        assert_eq!(&effect[f.range()], &files[k][..]);
    }
}
