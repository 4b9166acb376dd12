//! DXBC instructions per second: every pixel shader of the vkd3d corpus
//! that the interpreter runs, executed over a 2×2 quad with zeroed inputs
//! and default resources; the throughput counts executed instructions
//! (summed over the four lanes).

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn walk(d: &Path, out: &mut Vec<Vec<u8>>) {
    for e in std::fs::read_dir(d).unwrap_or_else(|e| panic!("corpus {} missing: {e}", d.display())).flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "dxbc") {
            out.push(std::fs::read(&p).unwrap());
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut files = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/vkd3d"), &mut files);
    let limits = dxbc_interp::Limits { budget: 10_000_000 };
    // Pixel shaders that compile and run to the end with default inputs.
    let mut runnable = Vec::new();
    let mut total = 0u64;
    for f in &files {
        let Ok(s) = dxbc::Shader::parse(f) else { continue };
        let Ok(code) = dxbc_interp::compile_shader(&s) else { continue };
        if code.stage != dxbc::spec::ProgramType::PixelShader {
            continue;
        }
        let mut b = dxbc_interp::default_bindings(&code);
        if let Ok(stats) = dxbc_interp::run_default(&code, &mut b, limits) {
            total += stats.instructions;
            runnable.push((code, b));
        }
    }
    eprintln!("{} pixel shaders, {total} instructions per pass", runnable.len());
    let mut g = c.benchmark_group("interp");
    g.throughput(Throughput::Elements(total));
    g.bench_function("vkd3d_ps_quads", |bch| {
        bch.iter(|| {
            for (code, b) in runnable.iter_mut() {
                let _ = dxbc_interp::run_default(code, b, limits);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
