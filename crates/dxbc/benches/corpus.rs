//! Decode and disassembly speed over the shader corpus.
//!
//! `cargo bench -p dxbc --bench corpus` reports, for ../shared/corpus/vkd3d
//! (2,239 shaders) and ../shared/corpus/fxc (438):
//! * criterion's time per pass over the whole set, with throughput in bytes
//!   (decode) or shaders (disassembly);
//! * then the median time per shader, measured shader by shader (each
//!   shader timed over enough repetitions to be above timer noise).

use criterion::{criterion_group, Criterion, Throughput};
// Not criterion's stable `black_box`: it copies its argument with a volatile
// read, which for a decoded `Shader` (about 1.8 KB by value) cost a third of
// the time measured for decoding. `std::hint::black_box` keeps the result
// opaque to the optimiser without copying it.
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

fn load(sub: &str) -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(sub);
    let mut v = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("corpus {} missing: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                v.push(std::fs::read(&p).unwrap());
            }
        }
    }
    assert!(!v.is_empty(), "no shaders in {}", dir.display());
    v
}

fn bench(c: &mut Criterion) {
    for sub in ["vkd3d", "fxc"] {
        let files = load(sub);
        let bytes: u64 = files.iter().map(|f| f.len() as u64).sum();
        let shaders: Vec<dxbc::Shader> = files.iter().map(|f| dxbc::Shader::decode(f).unwrap()).collect();
        let mut g = c.benchmark_group(sub);
        g.throughput(Throughput::Bytes(bytes));
        g.bench_function("decode", |b| {
            b.iter(|| {
                for f in &files {
                    black_box(dxbc::Shader::decode(black_box(f)).unwrap());
                }
            })
        });
        g.throughput(Throughput::Elements(files.len() as u64));
        g.bench_function("disassemble", |b| {
            b.iter(|| {
                for s in &shaders {
                    black_box(dxbc::listing::disassemble(black_box(s)));
                }
            })
        });
        g.bench_function("decode+disassemble", |b| {
            b.iter(|| {
                for f in &files {
                    let s = dxbc::Shader::decode(black_box(f)).unwrap();
                    black_box(dxbc::listing::disassemble(&s));
                }
            })
        });
        g.finish();
    }
}

/// Median over shaders of the per-shader time of `f`.
fn median_per_shader(files: &[Vec<u8>], f: impl Fn(&[u8])) -> f64 {
    let mut times: Vec<f64> = files
        .iter()
        .map(|file| {
            let mut reps = 1u32;
            loop {
                let t = Instant::now();
                for _ in 0..reps {
                    f(black_box(file));
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
    times[times.len() / 2]
}

fn medians() {
    for sub in ["vkd3d", "fxc"] {
        let files = load(sub);
        let total: usize = files.iter().map(|f| f.len()).sum();
        let dec = median_per_shader(&files, |b| {
            black_box(dxbc::Shader::decode(b).unwrap());
        });
        let dis = median_per_shader(&files, |b| {
            let s = dxbc::Shader::decode(b).unwrap();
            black_box(dxbc::listing::disassemble(&s));
        });
        let t = Instant::now();
        let mut n = 0;
        while t.elapsed().as_secs_f64() < 1.0 {
            for f in &files {
                black_box(dxbc::Shader::decode(black_box(f)).unwrap());
            }
            n += 1;
        }
        let mbps = (total * n) as f64 / t.elapsed().as_secs_f64() / 1e6;
        println!(
            "{sub}: {} shaders, median decode {:.2} µs, median decode+disassemble {:.2} µs, decode throughput {:.0} MB/s",
            files.len(),
            dec * 1e6,
            dis * 1e6,
            mbps
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}

fn main() {
    benches();
    medians();
    Criterion::default().configure_from_args().final_summary();
}
