//! Mutation sweep over the corpus: for a sample of real shaders, every
//! single-bit flip in the container header and in the first kilobyte of
//! every chunk, and truncation at every dword boundary. Decoding and
//! disassembling must never panic, and every error must point inside the
//! input.

use std::path::PathBuf;

fn sample(sub: &str, every: usize) -> Vec<(String, Vec<u8>)> {
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
        .iter()
        .step_by(every)
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(p).unwrap()))
        .collect()
}

/// Decodes and prints `bytes`; returns whether decoding reported a fault.
fn exercise(name: &str, bytes: &[u8], what: &str) -> bool {
    match dxbc::Shader::decode(bytes) {
        Err(e) => {
            assert!(e.offset() <= bytes.len(), "{name} {what}: error offset {:#x} past the end: {e}", e.offset());
            true
        }
        Ok(s) => {
            for e in &s.errors {
                assert!(e.offset() <= bytes.len(), "{name} {what}: error offset {:#x} past the end: {e}", e.offset());
            }
            let text = dxbc::listing::disassemble(&s);
            assert!(text.len() < 64 * bytes.len() + 65536, "{name} {what}: listing of {} bytes", text.len());
            if let Some(p) = &s.program {
                let _ = p.tokens();
            }
            let _ = s.rebuild();
            !s.errors.is_empty()
        }
    }
}

fn sweep(files: &[(String, Vec<u8>)]) -> (usize, usize) {
    let (mut runs, mut faults) = (0, 0);
    for (name, original) in files {
        let c = dxbc::Container::parse(original).expect("corpus file parses");
        // Regions to flip: the header and chunk table, then up to 1 KiB of each chunk.
        let mut regions = Vec::with_capacity(1 + c.chunks.len());
        regions.push(0..32 + 4 * c.chunks.len());
        for ch in &c.chunks {
            regions.push(ch.offset..(ch.offset + 8 + ch.size).min(ch.offset + 8 + 1024));
        }
        let mut bytes = original.clone();
        for r in regions {
            for i in r {
                for bit in 0..8 {
                    bytes[i] ^= 1 << bit;
                    faults += exercise(name, &bytes, &format!("bit {bit} of byte {i:#x}")) as usize;
                    runs += 1;
                    bytes[i] ^= 1 << bit;
                }
            }
        }
        for end in (0..original.len()).step_by(4) {
            faults += exercise(name, &original[..end], &format!("truncated at {end:#x}")) as usize;
            runs += 1;
        }
    }
    (runs, faults)
}

#[test]
fn bit_flips_and_truncations_in_fxc_corpus() {
    let files = sample("fxc", 10);
    let (runs, faults) = sweep(&files);
    println!("fxc: {} files, {runs} mutated inputs, {faults} reported a fault, none panicked", files.len());
    assert!(runs > 100_000);
}

#[test]
fn bit_flips_and_truncations_in_vkd3d_corpus() {
    let files = sample("vkd3d", 60);
    let (runs, faults) = sweep(&files);
    println!("vkd3d: {} files, {runs} mutated inputs, {faults} reported a fault, none panicked", files.len());
    assert!(runs > 50_000);
}
