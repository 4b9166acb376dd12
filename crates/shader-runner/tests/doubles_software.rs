//! Software doubles, run: the translator's software binary64 functions
//! (`f64_add`, `f64_div`, …, as the WGSL a shader with doubles gets) run on
//! lavapipe over thousands of operand sets per dispatch, compared bit for
//! bit with Rust's f64 (IEEE binary64, round to nearest even, as D3D11
//! requires; NaN results compare as "is NaN": D3D leaves payloads open).
//! Operands come from proptest strategies biased to the hard cases, plus a
//! fixed table of known-hard ones.

use dxbc_naga::{SoftDouble as F, SoftDoubleShape as Shape};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRng, TestRunner};
use shader_runner::gpu::Gpu;
use wgpu::util::DeviceExt;

/// Operand sets per dispatch.
const BATCH: usize = 8192;
/// Dispatches per function.
const BATCHES: usize = 4;
/// Input words per operand set: three doubles.
const STRIDE: usize = 6;

fn gpu() -> Gpu {
    Gpu::new().expect("a Vulkan adapter (lavapipe: apt-get install mesa-vulkan-drivers)")
}

/// Operands biased to the hard cases: specials, denormals, extremes,
/// few-bit values (exact ties), all-ones fractions, random bit patterns.
fn operand() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => any::<u64>().prop_map(f64::from_bits),
        1 => prop::sample::select(vec![0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1.0, -1.0,
            f64::MAX, f64::MIN, f64::MIN_POSITIVE, f64::EPSILON, 0.5, 2.0, 3.0, 2147483647.5, -2147483648.5,
            4294967295.5, 4294967296.0]),
        2 => (any::<bool>(), 1u64..(1 << 52)).prop_map(|(s, m)| f64::from_bits(m | u64::from(s) << 63)),
        2 => (any::<bool>(), prop_oneof![2040u64..2047, 0u64..8, 1020u64..1060, 890u64..910], any::<u64>())
            .prop_map(|(s, e, m)| f64::from_bits(u64::from(s) << 63 | e << 52 | (m & ((1 << 52) - 1)))),
        2 => (any::<bool>(), 900u64..1150, 0u64..16, 0u32..52)
            .prop_map(|(s, e, m, sh)| f64::from_bits(u64::from(s) << 63 | e << 52 | ((m << sh) & ((1 << 52) - 1)))),
        1 => (any::<bool>(), 1u64..2047, any::<bool>())
            .prop_map(|(s, e, ones)| f64::from_bits(u64::from(s) << 63 | e << 52 | if ones { (1 << 52) - 1 } else { 1 })),
    ]
}

/// A 32-bit operand: random, f32 specials and denormals, integer extremes.
fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => any::<u32>(),
        1 => prop::sample::select(vec![0u32, 0x8000_0000, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0x7f80_0001,
            1, 0x807f_ffff, 0x7fff_ffff, u32::MAX, 0x3f80_0000]),
        1 => 1u32..0x0080_0000,
    ]
}

/// Known-hard operand sets (a, b, c).
fn hard_cases() -> Vec<(f64, f64, f64)> {
    let tiny = f64::from_bits(1);
    let e = f64::EPSILON;
    vec![
        (1.0, e / 2.0, 0.0),
        (1.0 + e, e / 2.0, 0.0),
        (f64::MAX, f64::MAX, -f64::MAX),
        (f64::MIN_POSITIVE, -f64::from_bits(0x000f_ffff_ffff_ffff), 0.0),
        (tiny, -tiny, 0.0),
        (-0.0, -0.0, -0.0),
        (-0.0, 0.0, 0.0),
        (1.0, -(1.0 - e / 2.0), 1.0),
        (tiny, 0.5, -0.0),
        (tiny, 1.5, 0.0),
        (1.0 + e, 1.0 - e, -1.0),
        (0.1, 10.0, -1.0),
        (1.0, 3.0, 0.0),
        (f64::MAX, tiny, 0.0),
        (1.0, 0.0, 0.0),
        (0.0, 0.0, 0.0),
        (f64::INFINITY, 0.0, 1.0),
        (f64::INFINITY, 1.0, f64::NEG_INFINITY),
        (3.0 * tiny, 2.0, tiny),
        (f64::from(f32::MAX) * (1.0 + e), 0.7e-45, 1.4e-45 * 1.5),
        (2147483647.5, -2147483648.9, 4294967295.9),
        (f64::NAN, 1.0, 2.0),
    ]
}

/// The function `f` and a compute shader calling it on `inp`, one operand
/// set per invocation, writing two result words per set.
fn shader(f: F) -> String {
    let lib = dxbc_naga::software_doubles_wgsl(&[f]).expect("the library writes as WGSL");
    let mut args = Vec::new();
    let mut d = 0;
    for s in f.args() {
        match s {
            Shape::Double => {
                args.push(format!("vec2<u32>(inp[{STRIDE}u * i + {}u], inp[{STRIDE}u * i + {}u])", 2 * d, 2 * d + 1));
                d += 1;
            }
            Shape::Word => args.push(format!("inp[{STRIDE}u * i]")),
        }
    }
    let store = match f.result() {
        Shape::Double => "outp[2u * i] = r.x;\n    outp[2u * i + 1u] = r.y;",
        Shape::Word => "outp[2u * i] = r;\n    outp[2u * i + 1u] = 0u;",
    };
    format!(
        "{lib}
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {{
    let i = id.x;
    if i >= arrayLength(&outp) / 2u {{
        return;
    }}
    let r = {}({});
    {store}
}}
",
        f.name(),
        args.join(", ")
    )
}

/// Runs `f` on the GPU over `sets` (STRIDE words each); two words back per set.
fn run(g: &mut Gpu, f: F, sets: &[u32]) -> Vec<u32> {
    let n = sets.len() / STRIDE;
    let module = g.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(f.name()),
        source: wgpu::ShaderSource::Wgsl(shader(f).into()),
    });
    let pipe = g.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: None,
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let inp = g.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(sets),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let size = (n * 8) as u64;
    let out = g.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let bg = g.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipe.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: inp.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 1, resource: out.as_entire_binding() },
        ],
    });
    let mut enc = g.device.create_command_encoder(&Default::default());
    {
        let mut p = enc.begin_compute_pass(&Default::default());
        p.set_pipeline(&pipe);
        p.set_bind_group(0, &bg, &[]);
        p.dispatch_workgroups(n.div_ceil(64) as u32, 1, 1);
    }
    g.queue.submit([enc.finish()]);
    let data = g.read_buffer(&out, size).expect("read back");
    bytemuck::cast_slice(&data).to_vec()
}

fn bits(d: f64) -> [u32; 2] {
    let b = d.to_bits();
    [b as u32, (b >> 32) as u32]
}

fn double(w: &[u32]) -> f64 {
    f64::from_bits(u64::from(w[0]) | u64::from(w[1]) << 32)
}

/// D3D `dmin`/`dmax`: a NaN operand loses; −0 orders below +0.
fn d3d_min_max(a: f64, b: f64, max: bool) -> f64 {
    let below = |x: f64, y: f64| x < y || (x == 0.0 && y == 0.0 && x.is_sign_negative() && y.is_sign_positive());
    // A NaN loses to a number; otherwise a when it is the one asked for.
    if b.is_nan() || (!a.is_nan() && below(a, b) != max) {
        a
    } else {
        b
    }
}

fn saturate(a: f64) -> f64 {
    if a.is_nan() || a <= 0.0 {
        0.0
    } else {
        a.min(1.0)
    }
}

/// What Rust's f64 says `f` gives for operand set (a, b, c, w): two result
/// words, and whether a NaN of any payload is the answer.
fn oracle(f: F, a: f64, b: f64, c: f64, w: u32) -> ([u32; 2], bool) {
    let d = |x: f64| (bits(x), x.is_nan());
    let m = |t: bool| ([if t { u32::MAX } else { 0 }, 0], false);
    match f {
        F::Add => d(a + b),
        F::Mul => d(a * b),
        F::Fma => d(a.mul_add(b, c)),
        F::Div => d(a / b),
        F::Rcp => d(1.0 / a),
        F::Min => d(d3d_min_max(a, b, false)),
        F::Max => d(d3d_min_max(a, b, true)),
        F::Saturate => d(saturate(a)),
        F::Eq => m(a == b),
        F::Ne => m(a != b),
        F::Lt => m(a < b),
        F::Ge => m(a >= b),
        // D3D flushes float32 denormals (sign kept).
        F::Dtof => {
            let f = a as f32;
            let f = if f.is_subnormal() { 0.0f32.copysign(f) } else { f };
            ([f.to_bits(), 0], a.is_nan())
        }
        // Rust's `as` saturates and sends NaN to 0, as D3D does.
        F::Dtoi => ([(a as i32) as u32, 0], false),
        F::Dtou => ([a as u32, 0], false),
        F::Ftod => d(f64::from(f32::from_bits(w))),
        F::Itod => d(f64::from(w as i32)),
        F::Utod => d(f64::from(w)),
    }
}

/// Operand sets for one dispatch: proptest draws (the first batch led by
/// the hard cases), with cancelling partners for add and fma.
fn batch(runner: &mut TestRunner, first: bool) -> Vec<(f64, f64, f64, u32)> {
    let mut v: Vec<(f64, f64, f64, u32)> =
        if first { hard_cases().into_iter().map(|(a, b, c)| (a, b, c, a.to_bits() as u32)).collect() } else { vec![] };
    let strat = (operand(), operand(), operand(), word(), any::<u8>());
    while v.len() < BATCH {
        let (a, mut b, mut c, w, twist) = strat.new_tree(runner).expect("a value").current();
        if twist % 4 == 0 {
            // Cancellation: b near −a; c near −a·b.
            b = f64::from_bits((-a).to_bits() ^ u64::from(twist >> 2));
            c = -(a * b);
        }
        v.push((a, b, c, w));
    }
    v
}

#[test]
fn software_doubles_on_the_gpu_match_rust_f64_bit_for_bit() {
    let mut g = gpu();
    let mut runner =
        TestRunner::new_with_rng(Config::default(), TestRng::deterministic_rng(Config::default().rng_algorithm));
    let mut total = 0;
    let mut report = Vec::new();
    for f in F::ALL {
        let mut wrong = Vec::new();
        for k in 0..BATCHES {
            let sets = batch(&mut runner, k == 0);
            let mut words = Vec::with_capacity(sets.len() * STRIDE);
            for &(a, b, c, w) in &sets {
                let first = match f.args()[0] {
                    Shape::Word => [w, 0],
                    Shape::Double => bits(a),
                };
                words.extend(first);
                words.extend(bits(b));
                words.extend(bits(c));
            }
            let got = run(&mut g, f, &words);
            for (i, &(a, b, c, w)) in sets.iter().enumerate() {
                let r = &got[2 * i..2 * i + 2];
                let (want, nan) = oracle(f, a, b, c, w);
                let is_nan = match (f, f.result()) {
                    (F::Dtof, _) => f32::from_bits(r[0]).is_nan(),
                    (_, Shape::Double) => double(r).is_nan(),
                    _ => false,
                };
                let ok = if nan { is_nan } else { r == want };
                if !ok {
                    wrong.push(format!(
                        "{}({a:e} [{:#x}], {b:e} [{:#x}], {c:e}, {w:#x}) = {:#x?}, want {want:#x?}",
                        f.name(),
                        a.to_bits(),
                        b.to_bits(),
                        r
                    ));
                }
            }
            total += sets.len();
        }
        if !wrong.is_empty() {
            report.push(format!("{}: {} wrong, e.g. {:#?}", f.name(), wrong.len(), &wrong[..wrong.len().min(5)]));
        }
    }
    assert!(report.is_empty(), "{report:#?}");
    assert_eq!(total, F::ALL.len() * BATCH * BATCHES);
}
