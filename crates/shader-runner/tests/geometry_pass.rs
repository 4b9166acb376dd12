//! A corpus geometry shader's compute pass on lavapipe, checked by hand:
//! nbody's particle GS expands each point into a camera-facing quad of
//! ±10 units (a 4-vertex triangle strip). With the identity view-projection
//! and the identity inverse view in cb0, the corners of point P are
//! P + (∓10, ±10, 0); the strip becomes the triangles (v0, v1, v2) and
//! (v1, v3, v2), as D3D orders a strip's odd triangle.

use dxbc_naga::stages::REGISTER_STRIDE;
use dxbc_naga::{StageBufferRole, StageForm};
use shader_runner::executor;
use shader_runner::gpu::{self, Gpu};
use std::path::PathBuf;

fn floats(v: &[f32]) -> Vec<u32> {
    v.iter().map(|f| f.to_bits()).collect()
}

#[test]
fn particle_gs_expands_points_to_quads() {
    let f = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/fxc/slimshader_nbodygravitycs11_particledraw_gs.dxbc");
    let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("corpus file {} missing: {e}", f.display()));
    let shader = dxbc::Shader::parse(&bytes).unwrap();
    let t = dxbc_naga::translate_pipeline_stage(&shader, &Default::default(), StageForm::Compute).unwrap();
    let form = t.compute_form.clone().unwrap();
    assert_eq!((form.vertices_per_primitive, form.max_vertices, form.max_list_vertices()), (1, 4, 6));
    let mut g = Gpu::new().expect("a Vulkan adapter (lavapipe)");
    let module = g.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(t.module.clone())),
    });
    // Two points: positions and colours in registers 0 and 1 of their records.
    let points = [([1.0f32, 2.0, 3.0], [0.25f32, 0.5, 0.75, 1.0]), ([-4.0, 5.0, 0.5], [1.0, 0.0, 0.0, 1.0])];
    let stride = (REGISTER_STRIDE * 4) as usize;
    let mut records = vec![0u32; stride * points.len()];
    for (i, (p, c)) in points.iter().enumerate() {
        records[i * stride..i * stride + 3].copy_from_slice(&floats(p));
        records[i * stride + 4..i * stride + 8].copy_from_slice(&floats(c));
    }
    // cb0: rows 0-3 the identity view-projection, rows 4-5 the inverse view's right and up.
    let mut cb = vec![0.0f32; 24];
    for r in 0..4 {
        cb[r * 4 + r] = 1.0;
    }
    cb[16] = 1.0;
    cb[21] = 1.0;
    let storage = |size: u64, usage: wgpu::BufferUsages| {
        g.device.create_buffer(&wgpu::BufferDescriptor { label: None, size, usage, mapped_at_creation: false })
    };
    let copy = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let input = storage(records.len() as u64 * 4, wgpu::BufferUsages::STORAGE | copy);
    let capacity = points.len() as u64 * form.max_list_vertices() as u64;
    let output = storage(capacity * stride as u64 * 4, wgpu::BufferUsages::STORAGE | copy);
    let count = storage(4, wgpu::BufferUsages::STORAGE | copy);
    let uniform = storage(cb.len() as u64 * 4, wgpu::BufferUsages::UNIFORM | copy);
    g.queue.write_buffer(&input, 0, bytemuck::cast_slice(&records));
    g.queue.write_buffer(&uniform, 0, bytemuck::cast_slice(&cb));
    let mut bound = Vec::new();
    for b in gpu::module_bindings(&t.module, false).unwrap() {
        let entry = t.bindings.iter().find(|e| (e.group, e.binding) == (b.group, b.binding)).unwrap();
        let buffer = match entry.kind {
            dxbc_naga::BindingKind::StageBuffer { role: StageBufferRole::Input, .. } => &input,
            dxbc_naga::BindingKind::StageBuffer { role: StageBufferRole::Output, .. } => &output,
            dxbc_naga::BindingKind::StageBuffer { role: StageBufferRole::VertexCount, .. } => &count,
            dxbc_naga::BindingKind::UniformBuffer { .. } => &uniform,
            ref k => panic!("unexpected binding {k:?}"),
        };
        bound.push(executor::Bound {
            group: b.group,
            binding: b.binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: b.ty,
            resource: buffer.as_entire_binding(),
        });
    }
    let bindings = executor::bind(&g.device, &bound);
    let pipeline = executor::compute_pipeline(&g.device, &bindings.layout, &module, None);
    let mut enc = g.device.create_command_encoder(&Default::default());
    executor::encode_dispatch(&mut enc, &pipeline, &bindings, [1, 1, 1]);
    g.queue.submit([enc.finish()]);
    let n = u32::from_le_bytes(g.read_buffer(&count, 4).unwrap()[..4].try_into().unwrap());
    assert_eq!(n, 12, "two quads of two triangles");
    let words: Vec<u32> = bytemuck::cast_slice(&g.read_buffer(&output, capacity * stride as u64 * 4).unwrap()).to_vec();
    let vertex = |i: usize| {
        let r = &words[i * stride..];
        let f = |k: usize| f32::from_bits(r[k]);
        ((f(0), f(1)), [f(4), f(5), f(6), f(7)], [f(8), f(9), f(10), f(11)])
    };
    // Triangles as written (each appended whole), in any order across invocations.
    let mut got: Vec<String> =
        (0..4).map(|t| format!("{:?}", (0..3).map(|k| vertex(t * 3 + k)).collect::<Vec<_>>())).collect();
    got.sort();
    let mut want = Vec::new();
    for (p, c) in &points {
        let corner = |u: f32, v: f32| {
            let (dx, dy) = (if u == 0.0 { -10.0 } else { 10.0 }, if v == 0.0 { 10.0 } else { -10.0 });
            ((u, v), *c, [p[0] + dx, p[1] + dy, p[2], 1.0])
        };
        let q = [corner(0.0, 0.0), corner(1.0, 0.0), corner(0.0, 1.0), corner(1.0, 1.0)];
        want.push(format!("{:?}", vec![q[0], q[1], q[2]]));
        want.push(format!("{:?}", vec![q[1], q[3], q[2]]));
    }
    want.sort();
    assert_eq!(got, want);
}
