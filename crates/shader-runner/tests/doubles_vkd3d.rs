//! vkd3d's d3d12 double tests (the `ps_d*_code` / `ps_*tod_code` pixel
//! shaders in the blobs corpus: every double opcode), each run on lavapipe
//! with native f64 (the translation's module) and with software doubles
//! (`DoubleMode::Software`) over many constant-buffer values: the render
//! targets must hold the same bits.
//!
//! Operands are finite doubles of moderate exponent, zeros and small
//! integers and halves (for the conversions), and the f32 results of `dtof`
//! reach the denormal range (both paths flush them, as D3D does for
//! float32). Double denormals and NaNs are left to the bit-exact proptests
//! against Rust's f64: lavapipe's native f64 path may flush double
//! denormals and returns its own NaN payloads, neither of which D3D fixes.

use shader_runner::gpu::Gpu;
use std::borrow::Cow;

const SETS: usize = 96;

struct Prng(u64);
impl Prng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn double(&mut self) -> f64 {
        let bits = self.next();
        match bits % 8 {
            0 => [0.0, -0.0, 1.0, -1.0, 0.5, 2.0][(bits >> 8) as usize % 6],
            1 | 2 => ((bits >> 8) as i64 % (1 << 34)) as f64 / 4.0,
            _ => {
                let exp = 1023 - 200 + (bits >> 52) % 400;
                f64::from_bits((bits & 0x800F_FFFF_FFFF_FFFF) | (exp << 52))
            }
        }
    }
}

fn formats(t: &dxbc_naga::Translation) -> Option<Vec<(u32, wgpu::TextureFormat, u32)>> {
    use wgpu::TextureFormat as F;
    let mut v = Vec::new();
    for o in &t.outputs {
        let Some(l) = o.location else { continue };
        let f = match (o.scalar.as_str(), o.components) {
            ("u32", 1) => F::R32Uint,
            ("u32", 2) => F::Rg32Uint,
            ("u32", 4) => F::Rgba32Uint,
            ("i32", 1) => F::R32Sint,
            ("i32", 2) => F::Rg32Sint,
            ("i32", 4) => F::Rgba32Sint,
            ("f32", 1) => F::R32Float,
            ("f32", 2) => F::Rg32Float,
            ("f32", 4) => F::Rgba32Float,
            _ => return None,
        };
        v.push((l, f, 4 * o.components));
    }
    Some(v)
}

/// Renders one pixel with `t`'s module and each constant-buffer content in
/// `cbs`; returns each render target's bytes per set.
fn render(g: &mut Gpu, t: &dxbc_naga::Translation, cbs: &[Vec<u32>]) -> Vec<Vec<Vec<u8>>> {
    let targets = formats(t).expect("render-target formats");
    let vs = g.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(
            "@vertex fn main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
                 let p = array(vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
                 return vec4(p[i], 0.0, 1.0);
             }"
            .into(),
        ),
    });
    let fs = g.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Naga(Cow::Owned(t.module.clone())),
    });
    let max_loc = targets.iter().map(|t| t.0).max().unwrap_or(0);
    let mut color = vec![None; max_loc as usize + 1];
    for &(l, f, _) in &targets {
        color[l as usize] = Some(wgpu::ColorTargetState { format: f, blend: None, write_mask: wgpu::ColorWrites::ALL });
    }
    let pipe = g.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: None,
        layout: None,
        vertex: wgpu::VertexState {
            module: &vs,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &fs,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            targets: &color,
        }),
        multiview_mask: None,
        cache: None,
    });
    let size = |e: &dxbc_naga::BindingEntry| match e.kind {
        dxbc_naga::BindingKind::UniformBuffer { size_bytes } => u64::from(size_bytes),
        ref k => panic!("unexpected binding {k:?}"),
    };
    let bufs: Vec<(u32, u32, wgpu::Buffer)> = t
        .bindings
        .iter()
        .map(|e| {
            let b = g.device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: size(e).max(16),
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            (e.group, e.binding, b)
        })
        .collect();
    let groups: std::collections::BTreeSet<u32> = bufs.iter().map(|b| b.0).collect();
    let bind_groups: Vec<(u32, wgpu::BindGroup)> = groups
        .iter()
        .map(|&gi| {
            let entries: Vec<wgpu::BindGroupEntry> = bufs
                .iter()
                .filter(|b| b.0 == gi)
                .map(|b| wgpu::BindGroupEntry { binding: b.1, resource: b.2.as_entire_binding() })
                .collect();
            let bg = g.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &pipe.get_bind_group_layout(gi),
                entries: &entries,
            });
            (gi, bg)
        })
        .collect();
    let textures: Vec<(wgpu::Texture, u32)> = targets
        .iter()
        .map(|&(_, f, texel)| {
            let tex = g.device.create_texture(&wgpu::TextureDescriptor {
                label: None,
                size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: f,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            });
            (tex, texel)
        })
        .collect();
    let mut out = Vec::new();
    for cb in cbs {
        for (_, _, b) in &bufs {
            let n = (b.size() as usize / 4).min(cb.len());
            g.queue.write_buffer(b, 0, bytemuck::cast_slice(&cb[..n]));
        }
        let views: Vec<wgpu::TextureView> = textures.iter().map(|t| t.0.create_view(&Default::default())).collect();
        let mut attachments = vec![None; color.len()];
        for (k, &(l, _, _)) in targets.iter().enumerate() {
            attachments[l as usize] = Some(wgpu::RenderPassColorAttachment {
                view: &views[k],
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::BLACK), store: wgpu::StoreOp::Store },
            });
        }
        let mut enc = g.device.create_command_encoder(&Default::default());
        {
            let mut p = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                color_attachments: &attachments,
                ..Default::default()
            });
            p.set_pipeline(&pipe);
            for (gi, bg) in &bind_groups {
                p.set_bind_group(*gi, bg, &[]);
            }
            p.draw(0..3, 0..1);
        }
        g.queue.submit([enc.finish()]);
        let mut set = Vec::new();
        for (tex, texel) in &textures {
            set.push(g.read_texture(tex, *texel, 0).expect("read back").data);
        }
        out.push(set);
    }
    out
}

#[test]
fn vkd3d_double_tests_agree_between_native_and_software_doubles() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/blobs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus {} missing: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("vkd3d_d3d12_ps_") && n.ends_with(".dxbc")
        })
        .collect();
    files.sort();
    let mut g = Gpu::new().expect("a Vulkan adapter (lavapipe: apt-get install mesa-vulkan-drivers)");
    let mut rng = Prng(0x2545_F491_4F6C_DD1D);
    let (mut ran, mut differ) = (Vec::new(), Vec::new());
    for f in &files {
        let shader = dxbc::Shader::parse(&std::fs::read(f).unwrap()).unwrap();
        let Ok(native) = dxbc_naga::translate(&shader, &Default::default()) else { continue };
        if native.software_doubles().is_none() {
            continue;
        }
        let options = dxbc_naga::Options { doubles: dxbc_naga::DoubleMode::Software, ..Default::default() };
        let soft = dxbc_naga::translate(&shader, &options).expect("software translation");
        let words = native.bindings.iter().map(|e| match e.kind {
            dxbc_naga::BindingKind::UniformBuffer { size_bytes } => size_bytes as usize / 4,
            _ => 0,
        });
        let words = words.max().unwrap_or(0).max(4);
        let cbs: Vec<Vec<u32>> = (0..SETS)
            .map(|_| {
                (0..words / 2)
                    .flat_map(|_| {
                        let b = rng.double().to_bits();
                        [b as u32, (b >> 32) as u32]
                    })
                    .collect()
            })
            .collect();
        let a = render(&mut g, &native, &cbs);
        let b = render(&mut g, &soft, &cbs);
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        for (k, (x, y)) in a.iter().zip(&b).enumerate() {
            if x != y {
                differ.push(format!("{name} set {k}: cb {:#x?}: native {x:?}, software {y:?}", &cbs[k]));
            }
        }
        ran.push(name);
    }
    eprintln!("{} vkd3d double tests × {SETS} constant buffers: {ran:?}", ran.len());
    assert!(differ.is_empty(), "{} differ: {:#?}", differ.len(), &differ[..differ.len().min(8)]);
    // Every double opcode's test ran (dadd … utod, and the *_2 variants).
    assert!(ran.len() >= 20, "only {} ran: {ran:?}", ran.len());
}
