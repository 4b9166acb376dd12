//! Carving speed over the whole shared corpus (fxc, blobs, vkd3d).
//!
//! `cargo bench -p dxbc --bench carve` lays every corpus container end to
//! end with junk between them (one buffer, as an archive would be) and
//! reports criterion's time per pass with throughput in bytes (MB/s) and
//! in shaders (shaders/s), for:
//! * `carve`: finding and checksumming every container;
//! * `scan`: carving plus decoding each container and reading its
//!   [`dxbc::carve::Facts`], the work `dxbc scan --no-translate` does per
//!   file apart from hashing with SHA-256 and printing.
//!
//! Measured 2026-12-02 on the shared 2-core machine while other builds and
//! a fuzzer ran (so a floor): 3,416 containers, 4.3 MB with junk; carve
//! 52 MiB/s (43,000 shaders/s), carve + decode + facts 22.7 MiB/s (19,900
//! shaders/s). End to end, `dxbc scan --no-translate ../shared/corpus`
//! took 0.32 s and `dxbc scan` (with the translation check) 3.1 s.

use criterion::{criterion_group, Criterion, Throughput};
use std::hint::black_box;
use std::path::PathBuf;

fn load() -> Vec<u8> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("corpus {} missing: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() > 1000, "expected the whole corpus under {}", root.display());
    let mut data = Vec::new();
    for (i, p) in files.iter().enumerate() {
        // Junk between files: deterministic bytes of varying length.
        data.extend((0..(i * 37) % 251).map(|k| (k * 131 + i) as u8));
        data.extend(std::fs::read(p).unwrap());
    }
    data
}

fn bench(c: &mut Criterion) {
    let data = load();
    let n = dxbc::carve::carve(&data).found.len() as u64;
    for (unit, throughput) in [("bytes", Throughput::Bytes(data.len() as u64)), ("shaders", Throughput::Elements(n))] {
        let mut g = c.benchmark_group(format!("carve corpus ({unit})"));
        g.sample_size(10);
        g.throughput(throughput);
        g.bench_function("carve", |b| b.iter(|| black_box(dxbc::carve::carve(black_box(&data)))));
        g.bench_function("scan", |b| {
            b.iter(|| {
                for f in dxbc::carve::carve(black_box(&data)).found {
                    if let Ok(s) = dxbc::Shader::decode(&data[f.range()]) {
                        black_box(dxbc::carve::Facts::of(&s));
                    }
                }
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion::criterion_main!(benches);
