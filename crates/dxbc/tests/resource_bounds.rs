//! Resource bounds: counts and sizes read from a file never make decoding or
//! printing allocate more than a small multiple of the input.
//!
//! The documented bound (README, "Limits"): decoding, printing the listing,
//! walking every token and rebuilding together allocate at most
//! `BOUND_FACTOR` bytes per input byte plus `BOUND_SLACK`, at peak. A
//! counting allocator measures the peak for crafted hostile files and for
//! every real shader in the fxc corpus.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

const BOUND_FACTOR: usize = 64;
const BOUND_SLACK: usize = 256 << 10;

struct Counting;
static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(l.size(), Relaxed) + l.size();
        PEAK.fetch_max(now, Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        CURRENT.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        if new > l.size() {
            let now = CURRENT.fetch_add(new - l.size(), Relaxed) + new - l.size();
            PEAK.fetch_max(now, Relaxed);
        } else {
            CURRENT.fetch_sub(l.size() - new, Relaxed);
        }
        unsafe { System.realloc(p, l, new) }
    }
}

// The only unsafe code in the project: a test-only allocator wrapper that
// forwards to the system allocator and counts bytes.
#[global_allocator]
static ALLOC: Counting = Counting;

/// Tests share the global counters: run them one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// Peak bytes allocated while fully exercising `input`.
fn peak_for(input: &[u8]) -> usize {
    let base = CURRENT.load(Relaxed);
    PEAK.store(base, Relaxed);
    if let Ok(s) = dxbc::Shader::decode(input) {
        let text = dxbc::listing::disassemble(&s);
        std::hint::black_box(&text);
        if let Some(p) = &s.program {
            std::hint::black_box(p.tokens());
        }
        std::hint::black_box(s.rebuild());
    }
    PEAK.load(Relaxed) - base
}

fn assert_bounded(name: &str, input: &[u8]) -> usize {
    let peak = peak_for(input);
    let bound = BOUND_FACTOR * input.len() + BOUND_SLACK;
    assert!(peak <= bound, "{name}: {peak} bytes allocated for a {}-byte input (bound {bound})", input.len());
    peak
}

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A container around the given chunks (checksum left zero: decoding does
/// not require it).
fn container(chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let parts: Vec<([u8; 4], &[u8])> = chunks.iter().map(|(t, d)| (**t, d.as_slice())).collect();
    dxbc::container::write_container(1, &parts)
}

fn shex(body: &[u32]) -> Vec<u8> {
    let mut w = vec![0x50, 0];
    w.extend_from_slice(body);
    w[1] = w.len() as u32;
    le(&w)
}

#[test]
fn hostile_counts_and_sizes() {
    let _g = SERIAL.lock().unwrap();
    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    // Chunk count far beyond the table.
    let mut c = container(&[(b"SHEX", shex(&[0x0100003e]))]);
    c[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
    cases.push(("chunk count 0xffffffff", c));
    // Program length token of 4 billion dwords.
    let mut p = shex(&[0x0100003e]);
    p[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    cases.push(("program length 0xffffffff", container(&[(b"SHEX", p)])));
    // Immediate constant buffer claiming 4 billion dwords.
    cases.push(("icb length 0xffffffff", container(&[(b"SHEX", shex(&[53 | 3 << 11, u32::MAX, 0, 0]))])));
    // Instruction length past the end, and a long-length declaration of 4 billion.
    cases.push(("instruction length 127", container(&[(b"SHEX", shex(&[0x7f00_0036, 0]))])));
    cases.push(("function table length 0xffffffff", container(&[(b"SHEX", shex(&[145 | 1 << 31, u32::MAX, 0]))])));
    // Indexable temp of 4 billion registers (a number, never an allocation).
    cases.push(("indexable temp 0xffffffff", container(&[(b"SHEX", shex(&[0x0400_0069, 0, u32::MAX, 4]))])));
    // Relative indices nested deeply.
    let mut nested = vec![0x0000_0036 | 40 << 24];
    for _ in 0..39 {
        nested.push(0x0010_0001 | 2 << 22 | 2);
    }
    cases.push(("nested relative indices", container(&[(b"SHEX", shex(&nested))])));
    // Signature with 4 billion elements; RDEF with huge counts and wild string offsets.
    cases.push(("signature count 0xffffffff", container(&[(b"ISGN", le(&[u32::MAX, 8]))])));
    cases.push((
        "rdef counts 0xffffffff",
        container(&[(b"RDEF", le(&[u32::MAX, 28, u32::MAX, 28, 0xFFFF_0500, 0, 0xFFFF_FF00]))]),
    ));
    cases.push(("aon9 garbage counts", container(&[(b"Aon9", le(&[u32::MAX; 16]))])));
    for (name, input) in &cases {
        let peak = assert_bounded(name, input);
        println!("{name}: {} input bytes, peak {peak} bytes allocated", input.len());
    }
}

#[test]
fn real_shaders_stay_within_the_bound() {
    let _g = SERIAL.lock().unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    assert!(dir.is_dir(), "corpus directory {} is missing", dir.display());
    let mut worst = (0.0f64, String::new());
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "dxbc") {
            let bytes = std::fs::read(&p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let peak = assert_bounded(&name, &bytes);
            let ratio = peak as f64 / bytes.len() as f64;
            if ratio > worst.0 {
                worst = (ratio, name);
            }
            n += 1;
        }
    }
    assert_eq!(n, 438);
    println!("worst peak/input ratio over the fxc corpus: {:.1} ({})", worst.0, worst.1);
}
