//! The WGSL tessellator (`tessellator::wgsl`) on lavapipe against the CPU
//! tessellator, the specification: for every domain, partitioning and
//! output primitive and a spread of factors (uniform, non-uniform edges,
//! fractional, out of range, culling, NaN), every patch's domain points
//! and indices must be identical, bit for bit.

use shader_runner::gpu::Gpu;
use shader_runner::tessellate;
use tessellator::wgsl::{Params, NO_WORD};
use tessellator::{tessellate, Domain, OutputPrimitive, Partitioning, TessFactors};

/// Words per patch-constant record in the test: the factors sit at scattered
/// words, as a patch-constant signature may place them.
const RECORD_WORDS: u32 = 12;
const WORDS: [u32; 6] = [5, 0, 9, 2, 11, 7];

fn spread() -> Vec<f32> {
    vec![
        1.0, 1.0001, 1.5, 2.0, 2.5, 3.0, 3.99, 4.0, 4.25, 5.0, 6.5, 7.0, 8.0, 9.75, 12.7, 16.0, 17.0, 31.1, 33.0, 47.3,
        63.0, 63.5, 64.0, 100.0,
    ]
}

/// Factor sets of one domain, as the six factor slots of [`Params`].
fn factor_sets(domain: Domain) -> Vec<[f32; 6]> {
    let s = spread();
    let mut v = Vec::new();
    let specials = [0.0, -1.0, -0.0, f32::NAN, f32::INFINITY, 0.5, 1e-40];
    match domain {
        Domain::Tri => {
            for &f in &s {
                v.push([f, f, f, f, 0.0, 0.0]);
            }
            for (i, &a) in s.iter().enumerate() {
                let b = s[(i * 7 + 3) % s.len()];
                let c = s[(i * 5 + 11) % s.len()];
                v.push([a, b, c, s[(i * 3 + 1) % s.len()], 0.0, 0.0]);
                v.push([a, b, c, 1.0, 0.0, 0.0]);
            }
            for &x in &specials {
                v.push([x, 3.0, 4.0, 5.0, 0.0, 0.0]);
                v.push([2.0, 3.0, 4.0, x, 0.0, 0.0]);
            }
        }
        Domain::Quad => {
            for &f in &s {
                v.push([f, f, f, f, f, f]);
            }
            for (i, &a) in s.iter().enumerate() {
                let b = s[(i * 7 + 3) % s.len()];
                let c = s[(i * 5 + 11) % s.len()];
                let d = s[(i * 11 + 5) % s.len()];
                v.push([a, b, c, d, s[(i * 3 + 1) % s.len()], s[(i * 13 + 2) % s.len()]]);
                v.push([a, b, c, d, 1.0, 1.0]);
                v.push([1.0, 1.0, 1.0, 1.0, a, b]);
            }
            for &x in &specials {
                v.push([x, 3.0, 4.0, 5.0, 2.0, 2.0]);
                v.push([2.0, 3.0, 4.0, 5.0, x, 7.0]);
            }
        }
        Domain::Isoline => {
            for (i, &a) in s.iter().enumerate() {
                v.push([a, s[(i * 7 + 3) % s.len()], 0.0, 0.0, 0.0, 0.0]);
                v.push([1.0, a, 0.0, 0.0, 0.0, 0.0]);
            }
            for &x in &specials {
                v.push([x, 3.0, 0.0, 0.0, 0.0, 0.0]);
                v.push([3.0, x, 0.0, 0.0, 0.0, 0.0]);
            }
        }
    }
    v
}

fn cpu_factors(domain: Domain, f: &[f32; 6]) -> TessFactors {
    match domain {
        Domain::Tri => TessFactors::Tri { edges: [f[0], f[1], f[2]], inside: f[3] },
        Domain::Quad => TessFactors::Quad { edges: [f[0], f[1], f[2], f[3]], inside: [f[4], f[5]] },
        Domain::Isoline => TessFactors::isoline_from_sv([f[0], f[1]]),
    }
}

#[test]
fn gpu_tessellator_matches_the_cpu_tessellator() {
    let mut gpu = Gpu::new().expect("a Vulkan adapter (lavapipe)");
    let tessellator = tessellate::GpuTessellator::new(&gpu).expect("the tessellator module compiles");
    let (mut patches_checked, mut points_checked, mut indices_checked) = (0usize, 0usize, 0usize);
    for domain in [Domain::Tri, Domain::Quad, Domain::Isoline] {
        let prims: &[OutputPrimitive] = match domain {
            Domain::Isoline => &[OutputPrimitive::Point, OutputPrimitive::Line],
            _ => &[OutputPrimitive::Point, OutputPrimitive::TriangleCw, OutputPrimitive::TriangleCcw],
        };
        let sets = factor_sets(domain);
        let mut records = vec![0u32; sets.len() * RECORD_WORDS as usize];
        for (p, f) in sets.iter().enumerate() {
            for (slot, &x) in f.iter().enumerate() {
                records[p * RECORD_WORDS as usize + WORDS[slot] as usize] = x.to_bits();
            }
        }
        let consts = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: records.len() as u64 * 4,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        gpu.queue.write_buffer(&consts, 0, bytemuck::cast_slice(&records));
        for partitioning in Partitioning::ALL {
            for &primitive in prims {
                let mut factor_words = WORDS;
                if domain == Domain::Isoline {
                    factor_words[2..].fill(NO_WORD);
                }
                let mut params = Params {
                    domain,
                    partitioning,
                    primitive,
                    patches: sets.len() as u32,
                    record_words: RECORD_WORDS,
                    point_capacity: 0,
                    index_capacity: 0,
                    factor_words,
                };
                let mut enc = gpu.device.create_command_encoder(&Default::default());
                let out = tessellator.encode(&gpu, &mut enc, &mut params, &consts).expect("tessellator passes");
                gpu.queue.submit([enc.finish()]);
                let table = tessellate::read_words(&mut gpu, &out.table, (sets.len() as u64 + 1) * 4).unwrap();
                let total = &table[sets.len() * 4..];
                let points = tessellate::read_words(&mut gpu, &out.points, total[0] as u64 * 4).unwrap();
                let indices = tessellate::read_words(&mut gpu, &out.indices, total[1] as u64).unwrap();
                for (p, f) in sets.iter().enumerate() {
                    let want = tessellate(partitioning, primitive, &cpu_factors(domain, f)).unwrap();
                    let row = &table[p * 4..p * 4 + 4];
                    let what = format!("{domain:?} {partitioning:?} {primitive:?} factors {f:?}");
                    assert_eq!((row[0] as usize, row[1] as usize), (want.points.len(), want.indices.len()), "{what}");
                    let (first_point, first_index) = (row[2] as usize, row[3] as usize);
                    for (k, pt) in want.points.iter().enumerate() {
                        let got = &points[(first_point + k) * 4..(first_point + k) * 4 + 4];
                        let w = [pt.u.to_bits(), pt.v.to_bits(), pt.w.to_bits(), p as u32];
                        assert_eq!(got, w, "{what}: point {k}");
                    }
                    let got: Vec<u32> = indices[first_index..first_index + want.indices.len()]
                        .iter()
                        .map(|&i| i - first_point as u32)
                        .collect();
                    assert_eq!(got, want.indices, "{what}: indices");
                    patches_checked += 1;
                    points_checked += want.points.len();
                    indices_checked += want.indices.len();
                }
            }
        }
    }
    eprintln!("GPU = CPU on {patches_checked} patches: {points_checked} points, {indices_checked} indices");
    assert!(patches_checked > 1000);
}

/// The GPU tessellator reads each factor from the word `factors_of` (the
/// CPU path) reads it from, for every hull shader of the fxc corpus.
#[test]
fn gpu_params_read_the_factor_words_factors_of_reads() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("corpus {} missing: {e}", dir.display()));
    let mut checked = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        if !path.to_string_lossy().ends_with("_hs.dxbc") {
            continue;
        }
        let shader = dxbc::Shader::parse(&std::fs::read(&path).unwrap()).unwrap();
        let Ok(t) = dxbc_naga::translate_pipeline_stage(&shader, &Default::default(), dxbc_naga::StageForm::Compute)
        else {
            continue;
        };
        let Some(tess) = t.compute_form.and_then(|f| f.tessellation) else { continue };
        let Some(params) = tess.gpu_params(1) else { continue };
        // Distinct values in every word of the record.
        let words: Vec<u32> = (0..params.record_words).map(|w| (2.0 + w as f32 * 0.5).to_bits()).collect();
        let read = |slot: usize| {
            let w = params.factor_words[slot];
            words.get(w as usize).map_or(0.0, |&b| f32::from_bits(b))
        };
        let gpu = match params.domain {
            Domain::Isoline => TessFactors::isoline_from_sv([read(0), read(1)]),
            Domain::Tri => TessFactors::Tri { edges: [read(0), read(1), read(2)], inside: read(3) },
            Domain::Quad => {
                TessFactors::Quad { edges: [read(0), read(1), read(2), read(3)], inside: [read(4), read(5)] }
            }
        };
        assert_eq!(Some(gpu), tess.factors_of(&words), "{}", path.display());
        checked += 1;
    }
    eprintln!("{checked} hull shaders: GPU factor words = CPU factor words");
    assert!(checked >= 10, "only {checked} hull shaders checked");
}
