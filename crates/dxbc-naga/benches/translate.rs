//! DXBC → naga → SPIR-V / WGSL speed over ../shared/corpus/vkd3d.
//!
//! `cargo bench -p dxbc-naga --bench translate` prints criterion's time per
//! pass over every shader that translates, then the median per shader of
//! decode + lowering + validation + backend, measured shader by shader.

use criterion::{black_box, criterion_group, Criterion, Throughput};
use std::path::PathBuf;

mod common;
use common::{median, walk};

fn translatable() -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    walk(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/vkd3d"), &mut files);
    files
        .into_iter()
        .filter(|f| dxbc::Shader::parse(f).ok().is_some_and(|s| dxbc_naga::translate(&s, &Default::default()).is_ok()))
        .collect()
}

fn to_spirv(bytes: &[u8]) {
    let s = dxbc::Shader::parse(bytes).unwrap();
    let t = dxbc_naga::translate(&s, &Default::default()).unwrap();
    black_box(dxbc_naga::to_spirv(&t).ok());
}

fn to_wgsl(bytes: &[u8]) {
    let s = dxbc::Shader::parse(bytes).unwrap();
    let t = dxbc_naga::translate(&s, &Default::default()).unwrap();
    black_box(dxbc_naga::to_wgsl(&t).unwrap());
}

fn bench(c: &mut Criterion) {
    let files = translatable();
    let mut g = c.benchmark_group("vkd3d");
    g.throughput(Throughput::Elements(files.len() as u64));
    g.bench_function("dxbc_to_spirv", |b| b.iter(|| files.iter().for_each(|f| to_spirv(f))));
    g.bench_function("dxbc_to_wgsl", |b| b.iter(|| files.iter().for_each(|f| to_wgsl(f))));
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(5));
    targets = bench
}

fn main() {
    benches();
    let files = translatable();
    println!(
        "vkd3d: {} translatable shaders, median DXBC→SPIR-V {:.1} µs, median DXBC→WGSL {:.1} µs",
        files.len(),
        median(&files, to_spirv) * 1e6,
        median(&files, to_wgsl) * 1e6
    );
    Criterion::default().configure_from_args().final_summary();
}
