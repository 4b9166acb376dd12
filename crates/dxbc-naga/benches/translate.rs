//! DXBC → naga → SPIR-V / WGSL speed over ../shared/corpus/vkd3d and fxc.
//!
//! `cargo bench -p dxbc-naga --bench translate` prints criterion's time per
//! pass over every shader that translates, then the median per shader of
//! decode + lowering + validation + backend, measured shader by shader,
//! and the median of each of those stages alone.

use criterion::{black_box, criterion_group, Criterion, Throughput};
use std::path::PathBuf;

mod common;
use common::{median, median_each, walk};

const CORPORA: [&str; 2] = ["vkd3d", "fxc"];

fn translatable(corpus: &str) -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    walk(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(corpus), &mut files);
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
    // Some translatable shaders are refused by the WGSL writer (a target refusal).
    black_box(dxbc_naga::to_wgsl(&t).ok());
}

/// The median per shader of each stage alone: decode, lowering with
/// validation (`translate`), validation alone (the translated module
/// validated again), and each backend on a finished translation. Medians
/// of parts do not add up to the median of the whole.
fn split(files: &[Vec<u8>]) {
    let shaders: Vec<dxbc::Shader> = files.iter().map(|f| dxbc::Shader::parse(f).unwrap()).collect();
    let translations: Vec<dxbc_naga::Translation> =
        shaders.iter().map(|s| dxbc_naga::translate(s, &Default::default()).unwrap()).collect();
    let validate = |t: &dxbc_naga::Translation| {
        let mut v = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all());
        black_box(v.validate(&t.module).ok());
    };
    println!(
        "  split medians: decode {:.1} µs, lowering + validation {:.1} µs (validation alone {:.1} µs), SPIR-V writer {:.1} µs, WGSL writer {:.1} µs",
        median(files, |f| {
            black_box(dxbc::Shader::parse(f).ok());
        }) * 1e6,
        median_each(&shaders, |s| {
            black_box(dxbc_naga::translate(s, &Default::default()).ok());
        }) * 1e6,
        median_each(&translations, validate) * 1e6,
        median_each(&translations, |t| {
            black_box(dxbc_naga::to_spirv(t).ok());
        }) * 1e6,
        median_each(&translations, |t| {
            black_box(dxbc_naga::to_wgsl(t).ok());
        }) * 1e6,
    );
}

fn bench(c: &mut Criterion) {
    for corpus in CORPORA {
        let files = translatable(corpus);
        let mut g = c.benchmark_group(corpus);
        g.throughput(Throughput::Elements(files.len() as u64));
        g.bench_function("dxbc_to_spirv", |b| b.iter(|| files.iter().for_each(|f| to_spirv(f))));
        g.bench_function("dxbc_to_wgsl", |b| b.iter(|| files.iter().for_each(|f| to_wgsl(f))));
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(5));
    targets = bench
}

fn main() {
    benches();
    for corpus in CORPORA {
        let files = translatable(corpus);
        println!(
            "{corpus}: {} translatable shaders, median DXBC→SPIR-V {:.1} µs, median DXBC→WGSL {:.1} µs",
            files.len(),
            median(&files, to_spirv) * 1e6,
            median(&files, to_wgsl) * 1e6
        );
        split(&files);
    }
    Criterion::default().configure_from_args().final_summary();
}
