//! Native doubles, run: fxc's `BasicCompute11` raw-buffer sample (`dadd` of
//! two structures' doubles, plus their int and float) translated to a naga
//! module with f64, run on lavapipe through SPIR-V, and compared bit for bit
//! with Rust's f64 addition (the outside truth: IEEE binary64, round to
//! nearest even, as D3D11 requires of `dadd`).

use shader_runner::gpu::Gpu;
use std::borrow::Cow;
use wgpu::util::DeviceExt;

const FILE: &str = "fxc/dxdecompiler_basiccompute11_basiccompute11_raw_double.dxbc";
/// Elements: one thread group of one thread each.
const N: usize = 256;

/// A deterministic spread of doubles: normal values over a wide exponent
/// range, both signs, exact ties for rounding, infinities and zeros.
fn operands() -> Vec<(f64, f64)> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut v = vec![
        (1.0, 2f64.powi(-53)),
        (1.0, 3.0 * 2f64.powi(-53)),
        (-0.0, 0.0),
        (-0.0, -0.0),
        (f64::INFINITY, 1.0),
        (f64::MAX, f64::MAX),
        (0.1, 0.2),
        (1e300, -1e300),
    ];
    while v.len() < N {
        // Exponents within ±200 keep sums normal (lavapipe may flush f64 denormals).
        let mut d = || {
            let bits = next();
            let exp = 1023 - 200 + (bits >> 52) % 400;
            f64::from_bits((bits & 0x800F_FFFF_FFFF_FFFF) | (exp << 52))
        };
        v.push((d(), d()));
    }
    v
}

fn words(i: i32, f: f32, d: f64) -> [u32; 4] {
    let b = d.to_bits();
    [i as u32, f.to_bits(), b as u32, (b >> 32) as u32]
}

#[test]
fn dadd_on_the_gpu_matches_rust_f64_bit_for_bit() {
    run_dadd(dxbc_naga::DoubleMode::Native);
}

/// The same shader with software doubles (`f64_add` on u32 pairs), through
/// the same device: the same bits.
#[test]
fn software_dadd_on_the_gpu_matches_rust_f64_bit_for_bit() {
    run_dadd(dxbc_naga::DoubleMode::Software);
}

fn run_dadd(doubles: dxbc_naga::DoubleMode) {
    let path = format!("{}/../../../shared/corpus/{FILE}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("corpus file {path} missing: {e}"));
    let shader = dxbc::Shader::parse(&bytes).unwrap();
    let options = dxbc_naga::Options { doubles, ..Default::default() };
    let t = dxbc_naga::translate(&shader, &options).expect("translates");
    assert_eq!(t.refusal(dxbc_naga::Language::Spirv), None);
    assert_eq!(t.refusal(dxbc_naga::Language::Wgsl), None);
    // Software: no 64-bit conversion (to f64 or u64) anywhere in the module.
    let wide = |f: &naga::Function| {
        f.expressions.iter().any(|(_, e)| matches!(e, naga::Expression::As { convert: Some(8), .. }))
    };
    let has_64 =
        t.module.functions.iter().any(|(_, f)| wide(f)) || t.module.entry_points.iter().any(|ep| wide(&ep.function));
    assert_eq!(has_64, doubles == dxbc_naga::DoubleMode::Native);

    let g = Gpu::new().expect("a Vulkan adapter (lavapipe: apt-get install mesa-vulkan-drivers)");
    assert!(
        g.features.contains(wgpu::Features::SHADER_F64 | wgpu::Features::SHADER_INT64),
        "the adapter lacks shaderFloat64/shaderInt64: {:?}",
        g.features
    );
    let ops = operands();
    let mut a = Vec::new();
    let mut b = Vec::new();
    for (k, &(x, y)) in ops.iter().enumerate() {
        a.extend(words(k as i32 * 7 - 300, k as f32 * 0.5, x));
        b.extend(words(1000 - k as i32, 1.25, y));
    }
    let storage = |data: &[u32]| {
        g.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytemuck::cast_slice(data),
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    let (t0, t1) = (storage(&a), storage(&b));
    let out = g.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: (N * 16) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let module = g.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Naga(Cow::Owned(t.module.clone())),
    });
    let pipe = g.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: None,
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    // Bind each register where the translation's binding map put it.
    let mut groups = std::collections::BTreeMap::<u32, Vec<wgpu::BindGroupEntry>>::new();
    for e in &t.bindings {
        let buf = match (e.class, e.register) {
            (dxbc_naga::RegisterClass::ShaderResource, 0) => &t0,
            (dxbc_naga::RegisterClass::ShaderResource, 1) => &t1,
            (dxbc_naga::RegisterClass::UnorderedAccess, 0) => &out,
            other => panic!("unexpected binding {other:?}"),
        };
        groups
            .entry(e.group)
            .or_default()
            .push(wgpu::BindGroupEntry { binding: e.binding, resource: buf.as_entire_binding() });
    }
    let last = *groups.keys().max().unwrap();
    let bind_groups: Vec<wgpu::BindGroup> = (0..=last)
        .map(|gi| {
            g.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &pipe.get_bind_group_layout(gi),
                entries: groups.get(&gi).map_or(&[][..], |v| v.as_slice()),
            })
        })
        .collect();
    let mut enc = g.device.create_command_encoder(&Default::default());
    {
        let mut p = enc.begin_compute_pass(&Default::default());
        p.set_pipeline(&pipe);
        for (gi, bg) in bind_groups.iter().enumerate() {
            p.set_bind_group(gi as u32, bg, &[]);
        }
        p.dispatch_workgroups(N as u32, 1, 1);
    }
    g.queue.submit([enc.finish()]);
    let mut g = g;
    let data = g.read_buffer(&out, (N * 16) as u64).expect("read back");
    let got: &[u32] = bytemuck::cast_slice(&data);
    let mut wrong = Vec::new();
    for (k, &(x, y)) in ops.iter().enumerate() {
        let w = &got[4 * k..4 * k + 4];
        let d = f64::from_bits(u64::from(w[2]) | (u64::from(w[3]) << 32));
        let want = x + y;
        if d.to_bits() != want.to_bits() {
            wrong.push(format!("{x:e} + {y:e}: got {d:e} ({:#x}), want {want:e} ({:#x})", d.to_bits(), want.to_bits()));
        }
        // The 32-bit halves of the structure (iadd, add) ride along.
        assert_eq!(w[0] as i32, (k as i32 * 7 - 300) + (1000 - k as i32), "int of element {k}");
        assert_eq!(f32::from_bits(w[1]), k as f32 * 0.5 + 1.25, "float of element {k}");
    }
    assert!(wrong.is_empty(), "{} of {N} sums differ: {:#?}", wrong.len(), &wrong[..wrong.len().min(10)]);
}
