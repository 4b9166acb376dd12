//! DXBC → WGSL speed of the geometry, hull and domain shaders of
//! ../shared/corpus/{fxc,blobs}, in the compute forms WebGPU runs them in.
//!
//! `cargo bench -p dxbc-naga --bench stages` prints criterion's time per
//! pass over every such shader that translates, then, per stage, the median
//! per shader of decode + lowering + validation + WGSL for every pass the
//! stage needs ([`StageForm::passes`]: a GS's compute pass and its draw, a
//! HS's control-point and patch-constant passes, a DS's vertex form).

use criterion::{black_box, criterion_group, Criterion, Throughput};
use dxbc_naga::StageForm;
use std::path::PathBuf;

mod common;
use common::{median, walk};

/// Every pass of `bytes` to WGSL; false when one is refused.
fn all_passes(bytes: &[u8]) -> bool {
    let Ok(s) = dxbc::Shader::parse(bytes) else { return false };
    let opts = Default::default();
    StageForm::passes(&s).iter().all(|&form| {
        dxbc_naga::translate_pipeline_stage(&s, &opts, form)
            .ok()
            .and_then(|t| dxbc_naga::to_wgsl(&t).ok())
            .map(black_box)
            .is_some()
    })
}

/// The stage's short name ("gs", "hs", "ds") or None for other stages.
fn stage(bytes: &[u8]) -> Option<&'static str> {
    use dxbc::spec::ProgramType as P;
    let s = dxbc::Shader::parse(bytes).ok()?;
    match P::from_u32(s.program.as_ref()?.version.program_type())? {
        P::GeometryShader => Some("gs"),
        P::HullShader => Some("hs"),
        P::DomainShader => Some("ds"),
        _ => None,
    }
}

/// (stage, bytes) of every GS/HS/DS whose passes all translate.
fn translatable() -> Vec<(&'static str, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    walk(&root.join("fxc"), &mut files);
    walk(&root.join("blobs"), &mut files);
    files.into_iter().filter_map(|f| Some((stage(&f)?, f))).filter(|(_, f)| all_passes(f)).collect()
}

fn bench(c: &mut Criterion) {
    let files = translatable();
    let mut g = c.benchmark_group("gs_hs_ds");
    g.throughput(Throughput::Elements(files.len() as u64));
    g.bench_function("dxbc_to_wgsl_all_passes", |b| b.iter(|| files.iter().for_each(|(_, f)| assert!(all_passes(f)))));
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
    for stage in ["gs", "hs", "ds"] {
        let of: Vec<&[u8]> = files.iter().filter(|(s, _)| *s == stage).map(|(_, f)| f.as_slice()).collect();
        println!(
            "{stage}: {} shaders, median DXBC→WGSL (every pass) {:.1} µs",
            of.len(),
            median(&of, |f| {
                all_passes(f);
            }) * 1e6
        );
    }
    Criterion::default().configure_from_args().final_summary();
}
