//! Assembler speed over fxc's listings.
//!
//! `cargo bench -p dxbc --bench asm` reports criterion's time to assemble
//! all 438 `.asm` files of ../shared/corpus/fxc into containers, then the
//! median time per listing, measured listing by listing (each repeated
//! until it runs above timer noise).

use criterion::{criterion_group, Criterion, Throughput};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

fn listings() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    let mut v: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus {} missing: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "asm"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(!v.is_empty(), "no listings in {}", dir.display());
    v.sort();
    v
}

fn bench(c: &mut Criterion) {
    let texts = listings();
    let mut g = c.benchmark_group("fxc");
    g.throughput(Throughput::Bytes(texts.iter().map(|t| t.len() as u64).sum()));
    g.bench_function("assemble", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(dxbc::asm::assemble(black_box(t)).unwrap());
            }
        })
    });
    g.finish();
}

fn median() {
    let texts = listings();
    let mut times: Vec<f64> = texts
        .iter()
        .map(|text| {
            let mut reps = 1u32;
            loop {
                let t = Instant::now();
                for _ in 0..reps {
                    black_box(dxbc::asm::assemble(black_box(text)).unwrap());
                }
                let el = t.elapsed().as_secs_f64();
                if el > 2e-3 {
                    return el / reps as f64;
                }
                reps *= 4;
            }
        })
        .collect();
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let lines: usize = texts.iter().map(|t| t.lines().count()).sum();
    println!(
        "fxc: {} listings ({lines} lines), median assemble {:.1} µs per listing",
        texts.len(),
        times[times.len() / 2] * 1e6
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}

fn main() {
    benches();
    median();
    Criterion::default().configure_from_args().final_summary();
}
