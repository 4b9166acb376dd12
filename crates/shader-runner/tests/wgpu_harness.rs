//! The wgpu side of the runner, proven on hand-written WGSL (no translator):
//! a compute shader fills a storage buffer, a full-screen draw fills an
//! rgba32float target; both are read back and probed.

use shader_runner::gpu::Gpu;
use shader_runner::parse::{Expect, Probe, ProbeTarget};
use shader_runner::probe::{check, Readback};

fn gpu() -> Gpu {
    Gpu::new().expect("a Vulkan adapter (lavapipe: apt-get install mesa-vulkan-drivers)")
}

#[test]
fn compute_then_render_end_to_end() {
    let mut g = gpu();

    // Compute: out[i] = i * i + 7.
    let cs = g.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(
            "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
             @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
                 out[id.x] = id.x * id.x + 7u;
             }"
            .into(),
        ),
    });
    let buf = g.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 256 * 4,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let pipe = g.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: None,
        layout: None,
        module: &cs,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let bg = g.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipe.get_bind_group_layout(0),
        entries: &[wgpu::BindGroupEntry { binding: 0, resource: buf.as_entire_binding() }],
    });
    let mut enc = g.device.create_command_encoder(&Default::default());
    {
        let mut p = enc.begin_compute_pass(&Default::default());
        p.set_pipeline(&pipe);
        p.set_bind_group(0, &bg, &[]);
        p.dispatch_workgroups(4, 1, 1);
    }
    g.queue.submit([enc.finish()]);
    let data = g.read_buffer(&buf, 256 * 4).unwrap();
    let rb = Readback { width: 256, height: 1, texel_size: 4, data };
    for i in [0u32, 1, 100, 255] {
        let p = Probe {
            target: ProbeTarget::Uav(0),
            rect: (i, 0, i + 1, 1),
            layer: 0,
            expect: Expect::U32(vec![i * i + 7], false),
        };
        check(&p, &rb).unwrap();
    }
    let wrong =
        Probe { target: ProbeTarget::Uav(0), rect: (3, 0, 4, 1), layer: 0, expect: Expect::U32(vec![0], false) };
    assert!(check(&wrong, &rb).is_err());

    // Render: a big triangle, colour = (x, y, 0.5, 1) of the pixel centre / 100.
    let src = "
        @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
            var p = array<vec2<f32>, 3>(vec2(-2.0, -2.0), vec2(-2.0, 4.0), vec2(4.0, -2.0));
            return vec4<f32>(p[i], 0.0, 1.0);
        }
        @fragment fn fs(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
            return vec4<f32>(pos.x / 100.0, pos.y / 100.0, 0.5, 1.0);
        }";
    let m = g.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(src.into()),
    });
    let tex = g.device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d { width: 64, height: 48, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba32Float,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let rp = g.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: None,
        layout: None,
        vertex: wgpu::VertexState {
            module: &m,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &m,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::TextureFormat::Rgba32Float.into())],
        }),
        multiview_mask: None,
        cache: None,
    });
    let view = tex.create_view(&Default::default());
    let mut enc = g.device.create_command_encoder(&Default::default());
    {
        let mut p = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: None,
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::BLACK), store: wgpu::StoreOp::Store },
            })],
            ..Default::default()
        });
        p.set_pipeline(&rp);
        p.draw(0..3, 0..1);
    }
    g.queue.submit([enc.finish()]);
    let rb = g.read_texture(&tex, 16, 0).unwrap();
    assert_eq!((rb.width, rb.height), (64, 48));
    let at = |x: u32, y: u32| Probe {
        target: ProbeTarget::Rtv(0),
        rect: (x, y, x + 1, y + 1),
        layer: 0,
        expect: Expect::F32(vec![(x as f32 + 0.5) / 100.0, (y as f32 + 0.5) / 100.0, 0.5, 1.0], 1),
    };
    for (x, y) in [(0, 0), (63, 0), (0, 47), (63, 47), (10, 20)] {
        check(&at(x, y), &rb).unwrap();
    }
    assert!(g.take_errors().is_empty());
}
