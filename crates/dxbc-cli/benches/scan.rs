//! `dxbc scan` throughput over the whole shared corpus (every `.dxbc` under
//! fxc, blobs and vkd3d), with the work the command does per container by
//! default: carving, SHA-256, decoding and facts, and the translation check
//! (`dxbc translate --to wgsl`), and the JSON line; only reading files and
//! printing are left out.
//!
//! `cargo bench -p dxbc-cli --bench scan` reports criterion's time per pass
//! with throughput in bytes (MB/s) and in shaders (shaders/s), for:
//! * `one buffer`: every file end to end with junk between them, scanned as
//!   one file (one thread: how a large archive is scanned);
//! * `files in parallel`: each file scanned on its own, spread over the
//!   cores with rayon as `dxbc scan FOLDER` does.
//!
//! (`cargo bench -p dxbc --bench carve` measures the same without SHA-256
//! and the translation check, i.e. `--no-translate`.)

use criterion::{criterion_group, Criterion, Throughput};
use dxbc_cli::scan::scan_bytes;
use rayon::prelude::*;
use std::hint::black_box;
use std::path::PathBuf;

fn load() -> Vec<Vec<u8>> {
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
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn bench(c: &mut Criterion) {
    let files = load();
    let mut joined = Vec::new();
    for (i, f) in files.iter().enumerate() {
        // Junk between files: deterministic bytes of varying length.
        joined.extend((0..(i * 37) % 251).map(|k| (k * 131 + i) as u8));
        joined.extend_from_slice(f);
    }
    let shaders = scan_bytes("corpus", &joined, true).lines.len() as u64;
    let file_bytes: u64 = files.iter().map(|f| f.len() as u64).sum();
    eprintln!("scan bench: {} files, {file_bytes} bytes ({} with junk), {shaders} shaders", files.len(), joined.len());
    let units = [
        ("bytes", Throughput::Bytes(joined.len() as u64), Throughput::Bytes(file_bytes)),
        ("shaders", Throughput::Elements(shaders), Throughput::Elements(shaders)),
    ];
    for (unit, one, parallel) in units {
        let mut g = c.benchmark_group(format!("scan corpus ({unit})"));
        g.sample_size(10);
        g.throughput(one);
        g.bench_function("one buffer", |b| b.iter(|| black_box(scan_bytes("corpus", black_box(&joined), true))));
        g.throughput(parallel);
        g.bench_function("files in parallel", |b| {
            b.iter(|| {
                let n: usize = files.par_iter().map(|f| scan_bytes("file", black_box(f), true).lines.len()).sum();
                black_box(n)
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion::criterion_main!(benches);
