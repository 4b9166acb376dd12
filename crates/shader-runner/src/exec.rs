//! The GPU runner: the [`Backend`] that runs a `.shader_test` file's shaders
//! translated by dxbc-naga on wgpu. The walk of the file (sections, state,
//! probes, statuses) is [`crate::walk`]'s, shared with the interpreter's runner.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

use crate::executor;

mod geometry;
mod tessellation;
use crate::gpu::{self, Gpu, ModuleBinding};
use crate::manifest::Row;
use crate::parse::{self, Dim, Format, InputElement, Require, ResourceDesc, SamplerDesc, Stage, Topology};
use crate::probe::Readback;
use crate::walk::Avail;
use crate::walk::{Backend, Declared, OpErr, ResKind, State, Walker};
use crate::{Capability, RunnerTodo, Skip, Status};
use dxbc_naga::{RegisterClass, Translation};
use geometry::Pulled;

/// A translated shader and its wgpu module.
pub struct Compiled {
    shader: dxbc::Shader,
    translation: Translation,
    module: wgpu::ShaderModule,
}

/// A created GPU resource.
pub enum GpuRes {
    Buffer(wgpu::Buffer, u64),
    Texture(wgpu::Texture, wgpu::TextureFormat),
}

/// A declared resource on the GPU.
type Resource = Declared<GpuRes>;

/// Capabilities this runner provides (`[require]` words).
fn cap_supported(cap: &str, gpu: &Gpu) -> bool {
    match cap {
        "float64" => gpu.features.contains(wgpu::Features::SHADER_F64),
        "int64" => gpu.features.contains(wgpu::Features::SHADER_INT64),
        // Run through compute (dxbc_naga::stages): VS and GS as compute passes, then a draw.
        "geometry-shader" => true,
        // Run through compute too: VS, hull passes and the tessellator as
        // compute, the domain shader as the vertex shader of the draw.
        "tessellation-shader" => true,
        _ => false,
    }
}

/// The backend tags a file's lines are evaluated with. vkd3d gates its
/// tessellation draws with `if(!llvmpipe)` because llvmpipe's own
/// tessellation stages crash; here no draw reaches them (hull, tessellator
/// and domain run as compute and as a vertex shader), so under a
/// `tessellation-shader` requirement the `llvmpipe` tag does not hold.
fn tags_for(mut tags: Vec<String>, require: &Require) -> Vec<String> {
    if require.caps.iter().any(|c| c == "tessellation-shader") {
        tags.retain(|t| t != "llvmpipe");
    }
    tags
}

fn uav_load_supported(fmt: &str, gpu: &Gpu) -> bool {
    // Read-write storage textures: r32float, r32uint, r32sint in WebGPU
    // core; wider formats where the adapter's format features allow them.
    let format = match Format::parse(fmt) {
        Some((Format::R32Typeless, _)) => return true,
        Some((f, _)) => wgpu_format(f),
        None => None,
    };
    format.is_some_and(|f| gpu.read_write_storage.contains(&f))
}

fn wgpu_format(f: Format) -> Option<wgpu::TextureFormat> {
    use wgpu::TextureFormat as T;
    Some(match f {
        Format::Rgba32Float => T::Rgba32Float,
        Format::Rgba32Sint => T::Rgba32Sint,
        Format::Rgba32Uint => T::Rgba32Uint,
        Format::Rg32Float => T::Rg32Float,
        Format::Rg32Sint => T::Rg32Sint,
        Format::Rg32Uint => T::Rg32Uint,
        Format::R32Float => T::R32Float,
        Format::R32Sint => T::R32Sint,
        Format::R32Uint | Format::R32Typeless => T::R32Uint,
        Format::R32FloatShadow | Format::Unknown => return None,
    })
}

fn vertex_format(f: Format) -> Option<wgpu::VertexFormat> {
    use wgpu::VertexFormat as V;
    Some(match f {
        Format::Rgba32Float => V::Float32x4,
        Format::Rgba32Sint => V::Sint32x4,
        Format::Rgba32Uint => V::Uint32x4,
        Format::Rg32Float => V::Float32x2,
        Format::Rg32Sint => V::Sint32x2,
        Format::Rg32Uint => V::Uint32x2,
        Format::R32Float => V::Float32,
        Format::R32Sint => V::Sint32,
        Format::R32Uint | Format::R32Typeless => V::Uint32,
        _ => return None,
    })
}

/// What wgpu is given for a translated shader (`--source`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ModuleSource {
    /// The translator's naga module; wgpu writes its SPIR-V.
    #[default]
    Naga,
    /// The WGSL text the page runs and the CLI prints
    /// ([`dxbc_naga::to_wgsl`]), which wgpu parses: a shader WGSL cannot
    /// express is `Unsupported`.
    Wgsl,
    /// The SPIR-V words the CLI writes for a viewport of negative height,
    /// as wgpu's are (`dxbc translate --to spirv --no-y-flip`,
    /// [`dxbc_naga::to_spirv_with`], the post-pass included), passed to
    /// Vulkan as they are (wgpu's `PASSTHROUGH_SHADERS`): the shaders whose
    /// words need the post-pass run too.
    Spirv,
}

/// The GPU as a [`Backend`]: dxbc-naga's translation on wgpu.
pub struct Wgpu<'a> {
    gpu: &'a mut Gpu,
    /// How the translator represents doubles (`--doubles`).
    doubles: dxbc_naga::DoubleMode,
    /// What wgpu is given (`--source`).
    source: ModuleSource,
    builtin_vs: std::cell::RefCell<HashMap<String, wgpu::ShaderModule>>,
}

/// The pipeline state a GPU pass builds up.
type GpuState<'a> = State<Wgpu<'a>>;

/// A pass of the GPU runner over one test file at one shader model.
pub type Pass<'a> = Walker<'a, Wgpu<'a>>;

impl<'a> Walker<'a, Wgpu<'a>> {
    /// A pass whose shaders are translated with `doubles` and given to
    /// wgpu as `source` says.
    pub fn with_translation(
        gpu: &'a mut Gpu,
        test_dir: &'a Path,
        rows: &'a [Row],
        sm: u32,
        deadline: Instant,
        doubles: dxbc_naga::DoubleMode,
        source: ModuleSource,
    ) -> Pass<'a> {
        Walker::new(Wgpu { gpu, doubles, source, builtin_vs: Default::default() }, test_dir, rows, sm, deadline)
    }
}

impl<'a> Backend for Wgpu<'a> {
    type Compiled = Compiled;
    type Resource = GpuRes;
    /// A depth32float texture.
    type Depth = wgpu::Texture;

    /// vkd3d's tags for this adapter, less `llvmpipe` under a tessellation requirement.
    fn tags(&self, require: Option<&Require>) -> Vec<String> {
        match require {
            Some(r) => tags_for(self.gpu.tags(), r),
            None => self.gpu.tags(),
        }
    }

    fn missing(&self, r: &Require) -> Option<Skip> {
        for c in &r.caps {
            if !cap_supported(c, self.gpu) {
                return Some(Skip::missing(
                    Capability::from_word(c),
                    format!("requires '{c}', which this runner does not provide"),
                ));
            }
        }
        for f in &r.uav_load_formats {
            if !uav_load_supported(f, self.gpu) {
                return Some(Skip::missing(
                    Capability::TypedUavLoad,
                    format!("requires typed UAV loads of {f} (not in WebGPU core, nor on this adapter)"),
                ));
            }
        }
        None
    }

    fn compile(&mut self, shader: dxbc::Shader, stage: Stage) -> Result<Compiled, Avail> {
        self.compile_shader(shader, stage)
    }

    fn create_resource(&mut self, kind: ResKind, desc: &ResourceDesc) -> Result<GpuRes, Skip> {
        Wgpu::create_resource(self, kind, desc)
    }

    fn create_depth(&mut self, desc: &ResourceDesc) -> Result<wgpu::Texture, Skip> {
        self.create_dsv(desc)
    }

    fn clear_rtv(&mut self, target: &mut GpuRes, c: [f32; 4]) {
        let GpuRes::Texture(tex, _) = target else { return };
        let view = tex.create_view(&Default::default());
        let mut enc = self.gpu.device.create_command_encoder(&Default::default());
        {
            let _p = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("clear"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: c[0] as f64,
                            g: c[1] as f64,
                            b: c[2] as f64,
                            a: c[3] as f64,
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
        }
        self.gpu.queue.submit([enc.finish()]);
    }

    fn clear_dsv(&mut self, tex: &mut wgpu::Texture, v: f32) {
        let view = tex.create_view(&Default::default());
        let mut enc = self.gpu.device.create_command_encoder(&Default::default());
        {
            let _p = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("clear dsv"),
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &view,
                    depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(v), store: wgpu::StoreOp::Store }),
                    stencil_ops: None,
                }),
                ..Default::default()
            });
        }
        self.gpu.queue.submit([enc.finish()]);
    }

    fn copy(&mut self, st: &mut GpuState<'a>, from: (ResKind, u32), to: (ResKind, u32)) -> Result<(), OpErr> {
        self.copy_resource(st, from, to)
    }

    fn read_resource(&mut self, res: &Resource, layer: u32) -> Result<Readback, OpErr> {
        let texel = res.desc.element_size();
        match &res.res {
            Err(e) => Err(OpErr::Skip(e.clone())),
            Ok(GpuRes::Buffer(b, size)) => {
                let data = self.gpu.read_buffer(b, *size).map_err(|e| OpErr::Fail(e.to_string()))?;
                let width = (size / texel as u64) as u32;
                Ok(Readback { width, height: 1, texel_size: texel, data })
            }
            Ok(GpuRes::Texture(t, _)) => {
                let t = if t.sample_count() > 1 { self.resolve(t)? } else { t.clone() };
                self.gpu.read_texture(&t, texel, layer).map_err(|e| OpErr::Fail(e.to_string()))
            }
        }
    }

    fn read_depth(&mut self, t: &wgpu::Texture, layer: u32) -> Result<Readback, OpErr> {
        self.gpu.read_aspect(t, wgpu::TextureAspect::DepthOnly, 4, layer).map_err(|e| OpErr::Fail(e.to_string()))
    }

    fn draw(
        &mut self,
        st: &mut GpuState<'a>,
        topology: Topology,
        vertices: u32,
        instances: u32,
        _quad: bool,
    ) -> Result<(), OpErr> {
        if [Stage::Hull, Stage::Domain].iter().any(|s| st.current.contains_key(s)) {
            self.do_draw_tess(st, topology, vertices, instances)
        } else if st.current.contains_key(&Stage::Geometry) {
            self.do_draw_gs(st, topology, vertices, instances)
        } else {
            self.do_draw(st, topology, vertices, instances, None)
        }
    }

    fn dispatch(&mut self, st: &mut GpuState<'a>, [x, y, z]: [u32; 3]) -> Result<(), OpErr> {
        self.do_dispatch(st, x, y, z)
    }

    fn lost(&self) -> bool {
        self.gpu.poisoned
    }
}

impl<'a> Wgpu<'a> {
    fn compile_shader(&mut self, shader: dxbc::Shader, stage: Stage) -> Result<Compiled, Avail> {
        let options = dxbc_naga::Options { doubles: self.doubles, ..Default::default() };
        // A geometry shader runs as its compute pass, a hull shader as its
        // control-point pass, a domain shader as the vertex shader over the
        // domain points (dxbc_naga::stages).
        let form = match stage {
            Stage::Geometry | Stage::Hull => dxbc_naga::StageForm::Compute,
            Stage::Domain => dxbc_naga::StageForm::DrawFromBuffer,
            _ => dxbc_naga::StageForm::Native,
        };
        let translation = dxbc_naga::translate_pipeline_stage(&shader, &options, form).map_err(|e| {
            let skip = Skip::translation(&e);
            match skip.status {
                Status::Fail => Avail::Fail(skip.detail),
                _ => Avail::Skip(skip),
            }
        })?;
        // With naga's words (wgpu writes them from the module), a shader
        // whose words need the post-pass cannot run as it means.
        let post_pass = || match self.source {
            ModuleSource::Spirv => None,
            ModuleSource::Naga | ModuleSource::Wgsl => Skip::spirv_post_pass(&translation),
        };
        if let Some(skip) = Skip::spirv_refusal(&translation).or_else(post_pass) {
            return Err(Avail::Skip(skip));
        }
        let want = match stage {
            Stage::Pixel => Some(naga::ShaderStage::Fragment),
            Stage::Vertex | Stage::Domain => Some(naga::ShaderStage::Vertex),
            Stage::Compute | Stage::Geometry | Stage::Hull => Some(naga::ShaderStage::Compute),
            _ => None,
        };
        if want != Some(translation.stage) {
            return Err(Avail::Fail(format!(
                "runner: {} stage cannot run (translated as {:?})",
                stage.short(),
                translation.stage
            )));
        }
        let sm = self.wgpu_module(&translation, "translated").map_err(|e| match e {
            OpErr::Skip(s) => Avail::Skip(s),
            OpErr::Fail(f) => Avail::Fail(f),
        })?;
        Ok(Compiled { shader, translation, module: sm })
    }

    fn create_resource(&self, kind: ResKind, d: &ResourceDesc) -> Result<GpuRes, Skip> {
        let dev = &self.gpu.device;
        let is_buffer = kind == ResKind::Vb
            || matches!(d.dim, None | Some(Dim::Buffer) | Some(Dim::RawBuffer) | Some(Dim::CounterBuffer));
        if is_buffer {
            let bytes: Vec<u8> = bytemuck::cast_slice(&d.data).to_vec();
            let declared = d.width as u64 * if d.dim == Some(Dim::RawBuffer) { 1 } else { d.element_size() as u64 };
            // Exact size (rounded to 4 bytes): D3D reads past the end return 0.
            let size = (bytes.len() as u64).max(declared).max(4).div_ceil(4) * 4;
            let mut usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
            // Only vertex buffers: wgpu makes a VERTEX buffer 4 bytes longer,
            // which a shader's arrayLength would see (reads past the end must return 0).
            if kind == ResKind::Vb {
                usage |= wgpu::BufferUsages::VERTEX;
            }
            let buf = dev.create_buffer(&wgpu::BufferDescriptor {
                label: Some("buffer"),
                size,
                usage,
                mapped_at_creation: false,
            });
            self.gpu.queue.write_buffer(&buf, 0, &bytes);
            return Ok(GpuRes::Buffer(buf, size));
        }
        if d.format == Format::R32FloatShadow && kind == ResKind::Srv {
            return self.create_depth_texture(d);
        }
        let format = wgpu_format(d.format).ok_or_else(|| {
            Skip::todo(RunnerTodo::ResourceFormat, format!("runner: texture format {:?} not supported", d.format))
        })?;
        let (dimension, layers) = match d.dim {
            Some(Dim::Tex2d) => (wgpu::TextureDimension::D2, 1),
            Some(Dim::Tex2dArray) | Some(Dim::Cube) => (wgpu::TextureDimension::D2, d.depth),
            Some(Dim::Tex3d) => (wgpu::TextureDimension::D3, d.depth),
            Some(Dim::Tex2dMs(samples)) => return self.create_multisampled(kind, d, format, samples),
            _ => unreachable!(),
        };
        let mut usage =
            wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::TEXTURE_BINDING;
        match kind {
            ResKind::Uav => usage |= wgpu::TextureUsages::STORAGE_BINDING,
            ResKind::Rtv => usage |= wgpu::TextureUsages::RENDER_ATTACHMENT,
            _ => {}
        }
        let levels = d.levels.max(1);
        let tex = self
            .gpu
            .scoped(|| {
                dev.create_texture(&wgpu::TextureDescriptor {
                    label: Some("texture"),
                    size: wgpu::Extent3d { width: d.width, height: d.height, depth_or_array_layers: layers },
                    mip_level_count: levels,
                    sample_count: 1,
                    dimension,
                    format,
                    usage,
                    view_formats: &[],
                })
            })
            .map_err(|e| Skip::todo(RunnerTodo::ResourceFormat, format!("runner: texture creation failed: {e}")))?;
        // Data is level by level (each level all layers/slices), tightly packed.
        let ts = d.format.texel_size() as usize;
        let mut off = 0usize;
        let words: &[u8] = bytemuck::cast_slice(&d.data);
        for level in 0..levels {
            if off >= words.len() {
                break;
            }
            let w = (d.width >> level).max(1);
            let h = (d.height >> level).max(1);
            let z = if dimension == wgpu::TextureDimension::D3 { (layers >> level).max(1) } else { layers };
            let n = w as usize * h as usize * z as usize * ts;
            let mut chunk = words[off..(off + n).min(words.len())].to_vec();
            chunk.resize(n, 0);
            off += n;
            self.gpu.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &tex,
                    mip_level: level,
                    origin: wgpu::Origin3d::ZERO,
                    aspect: wgpu::TextureAspect::All,
                },
                &chunk,
                wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(w * ts as u32), rows_per_image: Some(h) },
                wgpu::Extent3d { width: w, height: h, depth_or_array_layers: z },
            );
        }
        Ok(GpuRes::Texture(tex, format))
    }

    /// An `r32-float-shadow` shader resource: a depth32float texture, which
    /// comparison sampling needs. WebGPU cannot copy texels into one, so each
    /// level and layer is drawn from an r32float copy of the data with the
    /// texels as depth (the preview's fill pass for depth inputs).
    fn create_depth_texture(&self, d: &ResourceDesc) -> Result<GpuRes, Skip> {
        let layers = match d.dim {
            Some(Dim::Tex2d) => 1,
            Some(Dim::Tex2dArray) | Some(Dim::Cube) => d.depth,
            _ => {
                return Err(Skip::todo(
                    RunnerTodo::ResourceFormat,
                    "runner: r32-float-shadow is supported for 2D textures and arrays only",
                ))
            }
        };
        let dev = &self.gpu.device;
        let levels = d.levels.max(1);
        let size = wgpu::Extent3d { width: d.width, height: d.height, depth_or_array_layers: layers };
        let texture = |format, usage| {
            dev.create_texture(&wgpu::TextureDescriptor {
                label: Some("depth texture"),
                size,
                mip_level_count: levels,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let filled = self
            .gpu
            .scoped(|| {
                let depth = wgpu::TextureFormat::Depth32Float;
                let tex = texture(depth, wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT);
                let src = texture(
                    wgpu::TextureFormat::R32Float,
                    wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                );
                let words: &[u8] = bytemuck::cast_slice(&d.data);
                let mut off = 0usize;
                for level in 0..levels {
                    let (w, h) = ((d.width >> level).max(1), (d.height >> level).max(1));
                    let n = w as usize * h as usize * layers as usize * 4;
                    let mut chunk = words.get(off..(off + n).min(words.len())).unwrap_or_default().to_vec();
                    chunk.resize(n, 0);
                    off += n;
                    self.gpu.queue.write_texture(
                        wgpu::TexelCopyTextureInfo {
                            texture: &src,
                            mip_level: level,
                            origin: wgpu::Origin3d::ZERO,
                            aspect: wgpu::TextureAspect::All,
                        },
                        &chunk,
                        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(w * 4), rows_per_image: Some(h) },
                        wgpu::Extent3d { width: w, height: h, depth_or_array_layers: layers },
                    );
                }
                let module = dev.create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some("depth fill"),
                    source: wgpu::ShaderSource::Wgsl(preview_model::plan::fill_wgsl("depth").into()),
                });
                let pipeline = dev.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some("depth fill"),
                    layout: None,
                    vertex: wgpu::VertexState {
                        module: &module,
                        entry_point: Some("vs"),
                        compilation_options: Default::default(),
                        buffers: &[],
                    },
                    primitive: Default::default(),
                    depth_stencil: Some(wgpu::DepthStencilState {
                        format: depth,
                        depth_write_enabled: Some(true),
                        depth_compare: Some(wgpu::CompareFunction::Always),
                        stencil: Default::default(),
                        bias: Default::default(),
                    }),
                    multisample: Default::default(),
                    fragment: Some(wgpu::FragmentState {
                        module: &module,
                        entry_point: Some("fs"),
                        compilation_options: Default::default(),
                        targets: &[],
                    }),
                    multiview_mask: None,
                    cache: None,
                });
                let one = |t: &wgpu::Texture, level, layer| {
                    t.create_view(&wgpu::TextureViewDescriptor {
                        dimension: Some(wgpu::TextureViewDimension::D2),
                        base_mip_level: level,
                        mip_level_count: Some(1),
                        base_array_layer: layer,
                        array_layer_count: Some(1),
                        ..Default::default()
                    })
                };
                let mut enc = dev.create_command_encoder(&Default::default());
                for level in 0..levels {
                    for layer in 0..layers {
                        let source = one(&src, level, layer);
                        let bg = dev.create_bind_group(&wgpu::BindGroupDescriptor {
                            label: None,
                            layout: &pipeline.get_bind_group_layout(0),
                            entries: &[wgpu::BindGroupEntry {
                                binding: 0,
                                resource: wgpu::BindingResource::TextureView(&source),
                            }],
                        });
                        let target = one(&tex, level, layer);
                        let mut pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                            label: Some("depth fill"),
                            color_attachments: &[],
                            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                                view: &target,
                                depth_ops: Some(wgpu::Operations {
                                    load: wgpu::LoadOp::Clear(0.0),
                                    store: wgpu::StoreOp::Store,
                                }),
                                stencil_ops: None,
                            }),
                            ..Default::default()
                        });
                        pass.set_pipeline(&pipeline);
                        pass.set_bind_group(0, &bg, &[]);
                        pass.draw(0..3, 0..1);
                    }
                }
                self.gpu.queue.submit([enc.finish()]);
                tex
            })
            .map_err(|e| Skip::todo(RunnerTodo::ResourceFormat, format!("runner: depth texture fill failed: {e}")))?;
        Ok(GpuRes::Texture(filled, wgpu::TextureFormat::Depth32Float))
    }

    /// A `2dms` texture: samples are written by draws into it (a render
    /// target) or by a copy from one; the CPU cannot write samples.
    fn create_multisampled(
        &self,
        kind: ResKind,
        d: &ResourceDesc,
        format: wgpu::TextureFormat,
        samples: u32,
    ) -> Result<GpuRes, Skip> {
        if !d.data.is_empty() {
            return Err(Skip::todo(RunnerTodo::Multisampling, "runner: data for a multisampled texture"));
        }
        if kind == ResKind::Uav {
            return Err(Skip::todo(RunnerTodo::Multisampling, "runner: multisampled UAVs do not exist in D3D11"));
        }
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::COPY_DST;
        self.gpu
            .scoped(|| {
                self.gpu.device.create_texture(&wgpu::TextureDescriptor {
                    label: Some("multisampled texture"),
                    size: wgpu::Extent3d { width: d.width, height: d.height, depth_or_array_layers: 1 },
                    mip_level_count: 1,
                    sample_count: samples,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage,
                    view_formats: &[],
                })
            })
            .map(|t| GpuRes::Texture(t, format))
            .map_err(|e| Skip::todo(RunnerTodo::Multisampling, format!("runner: {samples}-sample {format:?}: {e}")))
    }

    /// A one-sample texture bound where the shader declares `Texture2DMS`:
    /// WebGPU binds only multisampled textures there, so the texels go to
    /// sample 0 of a 4-sample copy and the other samples stay 0, what D3D
    /// returns for a sample index past a one-sample resource's count.
    fn multisampled_stand_in(&self, t: &wgpu::Texture) -> Result<wgpu::Texture, OpErr> {
        let kind = match t.format().sample_type(None, Some(self.gpu.features)) {
            Some(wgpu::TextureSampleType::Uint) => "u32",
            Some(wgpu::TextureSampleType::Sint) => "i32",
            Some(wgpu::TextureSampleType::Float { .. }) => "f32",
            _ => {
                return Err(OpErr::Skip(Skip::todo(
                    RunnerTodo::Multisampling,
                    format!("runner: {:?} bound as a multisampled texture", t.format()),
                )))
            }
        };
        let dev = &self.gpu.device;
        self.gpu
            .scoped(|| {
                let ms = dev.create_texture(&wgpu::TextureDescriptor {
                    label: Some("multisampled stand-in"),
                    size: wgpu::Extent3d { width: t.width(), height: t.height(), depth_or_array_layers: 1 },
                    mip_level_count: 1,
                    sample_count: preview_model::plan::MULTISAMPLE_COUNT,
                    dimension: wgpu::TextureDimension::D2,
                    format: t.format(),
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
                    view_formats: &[],
                });
                let source = t.create_view(&wgpu::TextureViewDescriptor {
                    dimension: Some(wgpu::TextureViewDimension::D2),
                    base_mip_level: 0,
                    mip_level_count: Some(1),
                    base_array_layer: 0,
                    array_layer_count: Some(1),
                    ..Default::default()
                });
                let wgsl = preview_model::plan::fill_wgsl(kind);
                self.full_screen_pass(&wgsl, &source, &ms, preview_model::plan::MULTISAMPLE_COUNT, 1);
                ms
            })
            .map_err(|e| OpErr::Fail(format!("runner: multisampled stand-in: {e}")))
    }

    /// Draws one full-screen triangle of `wgsl` (entry points `vs`, `fs`,
    /// its one binding the texture `source`) into `target`, cleared to 0
    /// first, with `samples` per pixel and the sample `mask`.
    fn full_screen_pass(
        &self,
        wgsl: &str,
        source: &wgpu::TextureView,
        target: &wgpu::Texture,
        samples: u32,
        mask: u64,
    ) {
        let dev = &self.gpu.device;
        let module = dev.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("full-screen pass"),
            source: wgpu::ShaderSource::Wgsl(Cow::Owned(wgsl.to_string())),
        });
        let pipeline = dev.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("full-screen pass"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState { count: samples, mask, alpha_to_coverage_enabled: false },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(target.format().into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        let bg = dev.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(source) }],
        });
        let view = target.create_view(&Default::default());
        let mut enc = dev.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("full-screen pass"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bg, &[]);
            pass.draw(0..3, 0..1);
        }
        self.gpu.queue.submit([enc.finish()]);
    }

    /// A multisampled float render target resolved the way D3D's
    /// ResolveSubresource does for float formats: the mean of the samples.
    fn resolve(&self, t: &wgpu::Texture) -> Result<wgpu::Texture, OpErr> {
        if !matches!(t.format().sample_type(None, Some(self.gpu.features)), Some(wgpu::TextureSampleType::Float { .. }))
        {
            return Err(OpErr::Skip(Skip::todo(
                RunnerTodo::Multisampling,
                format!("runner: D3D cannot resolve a multisampled {:?} target", t.format()),
            )));
        }
        let dev = &self.gpu.device;
        self.gpu
            .scoped(|| {
                let out = dev.create_texture(&wgpu::TextureDescriptor {
                    label: Some("resolved"),
                    size: wgpu::Extent3d { width: t.width(), height: t.height(), depth_or_array_layers: 1 },
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: t.format(),
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
                    view_formats: &[],
                });
                self.full_screen_pass(RESOLVE_WGSL, &t.create_view(&Default::default()), &out, 1, !0);
                out
            })
            .map_err(|e| OpErr::Fail(format!("runner: resolve: {e}")))
    }

    /// `copy`: the whole of one texture into another of the same size,
    /// format and sample count.
    fn copy_resource(&self, st: &GpuState<'a>, from: (ResKind, u32), to: (ResKind, u32)) -> Result<(), OpErr> {
        let texture = |k| match st.resources.get(&k) {
            Some(Resource { res: Ok(GpuRes::Texture(t, _)), .. }) => Ok(t.clone()),
            Some(Resource { res: Err(e), .. }) => Err(OpErr::Skip(e.clone())),
            _ => Err(OpErr::Skip(Skip::todo(RunnerTodo::TestCommand, "runner: copy between buffers or undeclared"))),
        };
        let (src, dst) = (texture(from)?, texture(to)?);
        if src.size() != dst.size() || src.sample_count() != dst.sample_count() || src.format() != dst.format() {
            return Err(OpErr::Skip(Skip::todo(RunnerTodo::TestCommand, "runner: copy between unlike textures")));
        }
        self.gpu
            .scoped(|| {
                let mut enc = self.gpu.device.create_command_encoder(&Default::default());
                enc.copy_texture_to_texture(src.as_image_copy(), dst.as_image_copy(), src.size());
                self.gpu.queue.submit([enc.finish()]);
            })
            .map_err(|e| OpErr::Fail(format!("copy: {e}")))
    }

    /// The `[dsv]` depth target (depth32float, the format vkd3d's tests probe as f32).
    fn create_dsv(&self, d: &ResourceDesc) -> Result<wgpu::Texture, Skip> {
        if d.dim != Some(Dim::Tex2d) {
            return Err(Skip::todo(RunnerTodo::DepthStencil, "runner: depth targets other than 2D"));
        }
        self.gpu
            .scoped(|| {
                self.gpu.device.create_texture(&wgpu::TextureDescriptor {
                    label: Some("dsv"),
                    size: wgpu::Extent3d { width: d.width, height: d.height, depth_or_array_layers: 1 },
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: wgpu::TextureFormat::Depth32Float,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
                    view_formats: &[],
                })
            })
            .map_err(|e| Skip::todo(RunnerTodo::DepthStencil, format!("runner: depth target creation failed: {e}")))
    }

    /// Copies the bits of level 0, layer 0 of `from` into `to` (same size
    /// and texel size, any formats) through a buffer.
    fn copy_bits(&self, from: &wgpu::Texture, to: &wgpu::Texture) -> Result<(), OpErr> {
        let texel = from.format().block_copy_size(None).unwrap_or(4);
        let (w, h) = (from.width().min(to.width()), from.height().min(to.height()));
        let bytes_per_row =
            (w * texel).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let dev = &self.gpu.device;
        self.gpu
            .scoped(|| {
                let buffer = dev.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("bits"),
                    size: bytes_per_row as u64 * h as u64,
                    usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                let layout = wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(bytes_per_row),
                    rows_per_image: Some(h),
                };
                let size = wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 };
                let mut enc = dev.create_command_encoder(&Default::default());
                enc.copy_texture_to_buffer(
                    from.as_image_copy(),
                    wgpu::TexelCopyBufferInfo { buffer: &buffer, layout },
                    size,
                );
                enc.copy_buffer_to_texture(
                    wgpu::TexelCopyBufferInfo { buffer: &buffer, layout },
                    to.as_image_copy(),
                    size,
                );
                self.gpu.queue.submit([enc.finish()]);
            })
            .map_err(|e| OpErr::Fail(format!("render target copy: {e}")))
    }

    /// Builds bind groups for the given translated stages; `samples` is the
    /// render target's sample count (the rasterizer's `sampleinfo`).
    fn bind_groups(
        &self,
        st: &GpuState<'a>,
        stages: &[(&naga::Module, &[dxbc_naga::BindingEntry], wgpu::ShaderStages)],
        samples: u32,
        stage_buffers: &[(dxbc_naga::StageBufferRole, &wgpu::Buffer)],
    ) -> Result<executor::Bindings, OpErr> {
        let filterable = self.gpu.features.contains(wgpu::Features::FLOAT32_FILTERABLE);
        // (group, binding) → (binding, visibility, register class & number, uniform size)
        let mut merged: BTreeMap<(u32, u32), MergedBinding> = BTreeMap::new();
        for (module, bindings, vis) in stages {
            let mb = gpu::module_bindings(module, filterable)
                .map_err(|e| OpErr::Skip(Skip::todo(RunnerTodo::Binding, format!("runner: {e}"))))?;
            for b in mb {
                let entry =
                    bindings.iter().find(|e| e.group == b.group && e.binding == b.binding).ok_or_else(|| {
                        OpErr::Fail(format!(
                            "binding @group({}) @binding({}) missing from Translation.bindings",
                            b.group, b.binding
                        ))
                    })?;
                let size = match entry.kind {
                    dxbc_naga::BindingKind::UniformBuffer { size_bytes } => size_bytes,
                    _ => 0,
                };
                let k = (b.group, b.binding);
                match merged.get_mut(&k) {
                    Some(m) => {
                        m.1 |= *vis;
                        m.4 = m.4.max(size);
                    }
                    None => {
                        let emulated = match entry.kind {
                            dxbc_naga::BindingKind::UavCounter => Emulated::UavCounter,
                            dxbc_naga::BindingKind::RasterizerSampleCount => Emulated::SampleCount,
                            dxbc_naga::BindingKind::StageBuffer { role, .. } => Emulated::Stage(role),
                            _ => Emulated::No,
                        };
                        merged.insert(k, (b, *vis, entry.class, entry.register, size, emulated));
                    }
                }
            }
        }
        // Owned objects the bind group entries borrow.
        enum Held {
            Buf(wgpu::Buffer),
            View(wgpu::TextureView),
            Sampler(wgpu::Sampler),
        }
        let mut held: Vec<((u32, u32), wgpu::ShaderStages, wgpu::BindingType, Held)> = Vec::new();
        {
            for (&(group, binding), (mb, vis, class, reg, size, emulated)) in &merged {
                let h = match (class, mb.ty) {
                    // The rasterizer's sample count: the draw's.
                    _ if *emulated == Emulated::SampleCount => {
                        let buf = self.gpu.device.create_buffer(&wgpu::BufferDescriptor {
                            label: Some("rasterizer sample count"),
                            size: 16,
                            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                            mapped_at_creation: false,
                        });
                        self.gpu.queue.write_buffer(&buf, 0, bytemuck::cast_slice(&[samples, 0, 0, 0]));
                        Held::Buf(buf)
                    }
                    // A compute form's stage buffer: the pass's own.
                    _ if matches!(emulated, Emulated::Stage(_)) => {
                        let Emulated::Stage(role) = *emulated else { unreachable!() };
                        let found = stage_buffers.iter().find(|(r, _)| *r == role);
                        let (_, buf) =
                            found.ok_or_else(|| OpErr::Fail(format!("runner: no {} buffer", role.name())))?;
                        Held::Buf((*buf).clone())
                    }
                    // The translator's emulated UAV counter: one u32, D3D's
                    // initial count 0 (wgpu zero-fills new buffers).
                    _ if *emulated == Emulated::UavCounter => {
                        let buf = self.gpu.device.create_buffer(&wgpu::BufferDescriptor {
                            label: Some("uav counter"),
                            size: 4,
                            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                            mapped_at_creation: false,
                        });
                        Held::Buf(buf)
                    }
                    (RegisterClass::ConstantBuffer, _) => {
                        let size = (*size as usize).max(16).div_ceil(16) * 16;
                        let mut words = vec![0u32; size / 4];
                        if *reg == 0 {
                            let n = st.uniforms.len().min(words.len());
                            words[..n].copy_from_slice(&st.uniforms[..n]);
                        }
                        let buf = self.gpu.device.create_buffer(&wgpu::BufferDescriptor {
                            label: Some("cb"),
                            size: size as u64,
                            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                            mapped_at_creation: false,
                        });
                        self.gpu.queue.write_buffer(&buf, 0, bytemuck::cast_slice(&words));
                        Held::Buf(buf)
                    }
                    (RegisterClass::Sampler, _) => {
                        let s = st.samplers.get(reg).cloned().unwrap_or(SamplerDesc {
                            filter: [false; 3],
                            address: ["clamp".into(), "clamp".into(), "clamp".into()],
                            comparison: None,
                        });
                        Held::Sampler(self.make_sampler(&s)?)
                    }
                    (cls, ty) => {
                        let kind = if *cls == RegisterClass::UnorderedAccess { ResKind::Uav } else { ResKind::Srv };
                        let res = st.resources.get(&(kind, *reg)).ok_or_else(|| {
                            OpErr::Skip(Skip::todo(
                                RunnerTodo::Binding,
                                format!(
                                    "runner: shader binds {}{reg} but the test declares no [{} {reg}]",
                                    if kind == ResKind::Uav { "u" } else { "t" },
                                    if kind == ResKind::Uav { "uav" } else { "srv" }
                                ),
                            ))
                        })?;
                        match (&res.res, ty) {
                            (Err(e), _) => return Err(OpErr::Skip(e.clone())),
                            (Ok(GpuRes::Buffer(b, _)), wgpu::BindingType::Buffer { .. }) => Held::Buf(b.clone()),
                            (Ok(GpuRes::Texture(t, _)), wgpu::BindingType::Texture { multisampled: true, .. }) => {
                                if t.sample_count() > 1 {
                                    Held::View(t.create_view(&Default::default()))
                                } else {
                                    Held::View(self.multisampled_stand_in(t)?.create_view(&Default::default()))
                                }
                            }
                            (Ok(GpuRes::Texture(t, _)), _) if t.sample_count() > 1 => {
                                return Err(OpErr::Skip(Skip::todo(
                                    RunnerTodo::Multisampling,
                                    format!("runner: multisampled {kind:?} {reg} bound as {ty:?}"),
                                )))
                            }
                            (Ok(GpuRes::Texture(t, _)), wgpu::BindingType::Texture { view_dimension, .. })
                            | (Ok(GpuRes::Texture(t, _)), wgpu::BindingType::StorageTexture { view_dimension, .. }) => {
                                let mut vd = wgpu::TextureViewDescriptor {
                                    dimension: Some(view_dimension),
                                    ..Default::default()
                                };
                                if matches!(ty, wgpu::BindingType::StorageTexture { .. }) {
                                    vd.mip_level_count = Some(1);
                                }
                                Held::View(t.create_view(&vd))
                            }
                            (Ok(GpuRes::Buffer(..)), _) => {
                                return Err(OpErr::Skip(Skip::todo(
                                    RunnerTodo::Binding,
                                    format!("runner: {kind:?} {reg} is a buffer but the shader binds it as {ty:?}"),
                                )))
                            }
                            (Ok(GpuRes::Texture(..)), _) => {
                                return Err(OpErr::Skip(Skip::todo(
                                    RunnerTodo::Binding,
                                    format!("runner: {kind:?} {reg} is a texture but the shader binds it as {ty:?}"),
                                )))
                            }
                        }
                    }
                };
                held.push(((group, binding), *vis, mb.ty, h));
            }
        }
        let mut bound: Vec<executor::Bound> = held
            .iter()
            .map(|((group, binding), visibility, ty, h)| executor::Bound {
                group: *group,
                binding: *binding,
                visibility: *visibility,
                ty: *ty,
                resource: match h {
                    Held::Buf(buf) => buf.as_entire_binding(),
                    Held::View(v) => wgpu::BindingResource::TextureView(v),
                    Held::Sampler(s) => wgpu::BindingResource::Sampler(s),
                },
            })
            .collect();
        // wgpu numbers a group's Vulkan descriptors by their order in its
        // layout, and tells a naga module so; SPIR-V passed as it is keeps
        // the translator's binding numbers. Unseen samplers at every unused
        // number below the highest make the two numberings the same.
        let filler = (self.source == ModuleSource::Spirv).then(|| self.gpu.device.create_sampler(&Default::default()));
        if let Some(filler) = &filler {
            let mut used: std::collections::BTreeMap<u32, std::collections::BTreeSet<u32>> = Default::default();
            for b in &bound {
                used.entry(b.group).or_default().insert(b.binding);
            }
            for (group, bindings) in used {
                let top = bindings.last().copied().unwrap_or(0);
                for binding in (0..top).filter(|b| !bindings.contains(b)) {
                    bound.push(executor::Bound {
                        group,
                        binding,
                        visibility: wgpu::ShaderStages::NONE,
                        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                        resource: wgpu::BindingResource::Sampler(filler),
                    });
                }
            }
            bound.sort_by_key(|b| (b.group, b.binding));
        }
        self.gpu
            .scoped(|| executor::bind(&self.gpu.device, &bound))
            .map_err(|e| OpErr::Fail(format!("bind group: {e}")))
    }

    fn make_sampler(&self, s: &SamplerDesc) -> Result<wgpu::Sampler, OpErr> {
        let am = |a: &str| -> Result<wgpu::AddressMode, OpErr> {
            Ok(match a {
                "clamp" => wgpu::AddressMode::ClampToEdge,
                "wrap" => wgpu::AddressMode::Repeat,
                "mirror" => wgpu::AddressMode::MirrorRepeat,
                "border" if self.gpu.features.contains(wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER) => {
                    wgpu::AddressMode::ClampToBorder
                }
                other => {
                    return Err(OpErr::Skip(Skip::todo(
                        RunnerTodo::SamplerState,
                        format!("runner: sampler address mode '{other}' not supported"),
                    )))
                }
            })
        };
        let fm = |l: bool| if l { wgpu::FilterMode::Linear } else { wgpu::FilterMode::Nearest };
        let mfm = |l: bool| if l { wgpu::MipmapFilterMode::Linear } else { wgpu::MipmapFilterMode::Nearest };
        let compare = s.comparison.as_deref().map(|c| match c {
            "never" => wgpu::CompareFunction::Never,
            "less" => wgpu::CompareFunction::Less,
            "equal" => wgpu::CompareFunction::Equal,
            "less equal" => wgpu::CompareFunction::LessEqual,
            "greater" => wgpu::CompareFunction::Greater,
            "not equal" => wgpu::CompareFunction::NotEqual,
            "greater equal" => wgpu::CompareFunction::GreaterEqual,
            _ => wgpu::CompareFunction::Always,
        });
        let border = if s.address.iter().any(|a| a == "border") {
            Some(wgpu::SamplerBorderColor::TransparentBlack)
        } else {
            None
        };
        Ok(self.gpu.device.create_sampler(&wgpu::SamplerDescriptor {
            label: None,
            address_mode_u: am(&s.address[0])?,
            address_mode_v: am(&s.address[1])?,
            address_mode_w: am(&s.address[2])?,
            mag_filter: fm(s.filter[1]),
            min_filter: fm(s.filter[0]),
            mipmap_filter: mfm(s.filter[2]),
            compare,
            border_color: border,
            ..Default::default()
        }))
    }

    /// WGSL for the built-in vertex stage: position from the quad buffer, zeros
    /// for every other input the pixel shader reads (vkd3d's default leaves them undefined).
    fn builtin_vs_source(ps: &naga::Module) -> Result<String, OpErr> {
        let ep = ps.entry_points.first().ok_or_else(|| OpErr::Fail("pixel shader module has no entry point".into()))?;
        let mut outs: Vec<(u32, String, String)> = Vec::new();
        let mut visit = |binding: &Option<naga::Binding>, ty: naga::Handle<naga::Type>| -> Result<(), OpErr> {
            if let Some(naga::Binding::Location { location, interpolation, sampling, .. }) = binding {
                let t = wgsl_type(&ps.types[ty].inner).ok_or_else(|| {
                    OpErr::Skip(Skip::todo(RunnerTodo::Specialisation, "runner: unusual pixel shader input type"))
                })?;
                let mut attr = String::new();
                if let Some(i) = interpolation {
                    let k = match i {
                        naga::Interpolation::Perspective => "perspective",
                        naga::Interpolation::Linear => "linear",
                        naga::Interpolation::Flat => "flat",
                        naga::Interpolation::PerVertex => {
                            return Err(OpErr::Skip(Skip::todo(RunnerTodo::Specialisation, "runner: per-vertex input")))
                        }
                    };
                    let s = match sampling {
                        Some(naga::Sampling::Center) => ", center",
                        Some(naga::Sampling::Centroid) => ", centroid",
                        Some(naga::Sampling::Sample) => ", sample",
                        Some(naga::Sampling::First) => ", first",
                        Some(naga::Sampling::Either) => ", either",
                        None => "",
                    };
                    attr = format!("@interpolate({k}{s}) ");
                }
                outs.push((*location, attr, t));
            }
            Ok(())
        };
        for arg in &ep.function.arguments {
            if let naga::TypeInner::Struct { members, .. } = &ps.types[arg.ty].inner {
                for m in members {
                    visit(&m.binding, m.ty)?;
                }
            } else {
                visit(&arg.binding, arg.ty)?;
            }
        }
        let mut s = String::from("struct VsOut {\n    @builtin(position) pos: vec4<f32>,\n");
        for (loc, attr, t) in &outs {
            s += &format!("    @location({loc}) {attr}v{loc}: {t},\n");
        }
        s += "};\n@vertex\nfn main(@location(0) p: vec2<f32>) -> VsOut {\n    var o: VsOut;\n    o.pos = vec4<f32>(p, 0.0, 1.0);\n    return o;\n}\n";
        Ok(s)
    }

    /// The module for this draw or dispatch, specialised by the translator as
    /// a D3D driver links stages: typed views take the bound resources'
    /// formats (DXBC declares only the component type), and a vertex shader
    /// takes its pixel shader's interpolation (D3D decides it there alone).
    /// Re-translates with those options; no module is modified here.
    fn link(
        &self,
        st: &GpuState<'a>,
        c: &Compiled,
        ps: Option<&Compiled>,
        primitive_id_from_geometry: bool,
    ) -> Result<(naga::Module, wgpu::ShaderModule), OpErr> {
        let mut typed_formats = Vec::new();
        for b in &c.translation.bindings {
            let (kind, class) = match b.kind {
                dxbc_naga::BindingKind::TypedBuffer { writable: false, .. } => {
                    (ResKind::Srv, dxbc_naga::RegisterClass::ShaderResource)
                }
                dxbc_naga::BindingKind::TypedBuffer { writable: true, .. }
                | dxbc_naga::BindingKind::StorageTexture { .. } => {
                    (ResKind::Uav, dxbc_naga::RegisterClass::UnorderedAccess)
                }
                _ => continue,
            };
            let Some(res) = st.resources.get(&(kind, b.register)) else { continue };
            if let Some(f) = typed_format(res.desc.format).filter(|f| f.channels() > 1) {
                typed_formats.push((class, b.register, f));
            }
        }
        let interpolation_from = match ps {
            Some(ps) => Some(dxbc_naga::PixelInputs::of(&ps.shader).map_err(|e| OpErr::Fail(e.to_string()))?),
            None => None,
        };
        let options = dxbc_naga::Options {
            typed_formats,
            interpolation_from,
            doubles: self.doubles,
            primitive_id_from_geometry,
            ..Default::default()
        };
        if options == (dxbc_naga::Options { doubles: self.doubles, ..Default::default() }) {
            return Ok((c.translation.module.clone(), c.module.clone()));
        }
        let translation = dxbc_naga::translate(&c.shader, &options).map_err(|e| match Skip::translation(&e) {
            Skip { status: Status::Fail, detail } => OpErr::Fail(detail),
            skip => OpErr::Skip(skip),
        })?;
        let m = self.wgpu_module(&translation, "specialised")?;
        Ok((translation.module, m))
    }

    /// The draw's sample count: every attachment has the pipeline's.
    fn target_samples(&self, st: &GpuState<'a>) -> Result<u32, OpErr> {
        let mut counts: Vec<u32> = st
            .resources
            .iter()
            .filter(|(k, _)| k.0 == ResKind::Rtv)
            .filter_map(|(_, r)| match &r.res {
                Ok(GpuRes::Texture(t, _)) => Some(t.sample_count()),
                _ => None,
            })
            .chain(st.dsv.iter().flatten().map(|t| t.sample_count()))
            .collect();
        counts.dedup();
        match counts.as_slice() {
            [] => Ok(1),
            [n] => Ok(*n),
            _ => {
                Err(OpErr::Skip(Skip::todo(RunnerTodo::Multisampling, "runner: targets with different sample counts")))
            }
        }
    }

    fn do_draw(
        &mut self,
        st: &GpuState<'a>,
        topology: Topology,
        vertices: u32,
        instances: u32,
        pulled: Option<&Pulled>,
    ) -> Result<(), OpErr> {
        let ps = st
            .compiled(Stage::Pixel)
            .ok_or_else(|| OpErr::Skip(Skip::todo(RunnerTodo::PipelineShape, "runner: no pixel shader")))?;
        // A geometry pass's draw pulls its vertices instead of the user VS.
        let vs = if pulled.is_some() { None } else { st.compiled(Stage::Vertex) };
        let (ps_naga, ps_wgpu) = self.link(st, ps, None, pulled.is_some_and(|p| p.writes_primitive_id))?;
        let vs_linked = match vs {
            Some(v) => Some(self.link(st, v, Some(ps), false)?),
            None => None,
        };
        let mut stages = vec![(&ps_naga, &ps.translation.bindings[..], wgpu::ShaderStages::FRAGMENT)];
        if let (Some(v), Some((vn, _))) = (vs, &vs_linked) {
            stages.push((vn, &v.translation.bindings[..], wgpu::ShaderStages::VERTEX));
        }
        let samples = self.target_samples(st)?;
        let mut stage_buffers = Vec::new();
        if let Some(p) = pulled {
            stages.push((&p.naga, &p.bindings[..], wgpu::ShaderStages::VERTEX));
            stage_buffers.extend(p.records.iter().map(|(role, b)| (*role, b)));
        }
        let groups = self.bind_groups(st, &stages, samples, &stage_buffers)?;
        // WebGPU needs the output type to agree with the target's format
        // class; D3D copies the bits as they are. A target of another class
        // is drawn through a stand-in of the shader's class with the same
        // channels, its bits copied in before and out after.
        let mut stand_ins: HashMap<u32, wgpu::Texture> = HashMap::new();
        for (loc, kind) in output_kinds(&ps.translation.module) {
            if let Some(Resource { res: Ok(GpuRes::Texture(t, f)), .. }) = st.resources.get(&(ResKind::Rtv, loc)) {
                let Some(format) = same_bits_format(*f, kind) else {
                    return Err(OpErr::Skip(Skip::todo(
                        RunnerTodo::ResourceFormat,
                        format!("runner: render target {loc} is {f:?} but the shader writes {kind:?}"),
                    )));
                };
                if format != *f && t.sample_count() > 1 {
                    return Err(OpErr::Skip(Skip::todo(
                        RunnerTodo::Multisampling,
                        format!("runner: multisampled render target {loc} is {f:?} but the shader writes {kind:?}"),
                    )));
                }
                if format != *f {
                    let stand_in = self.gpu.device.create_texture(&wgpu::TextureDescriptor {
                        label: Some("render target stand-in"),
                        size: wgpu::Extent3d { width: t.width(), height: t.height(), depth_or_array_layers: 1 },
                        mip_level_count: 1,
                        sample_count: 1,
                        dimension: wgpu::TextureDimension::D2,
                        format,
                        usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                            | wgpu::TextureUsages::COPY_SRC
                            | wgpu::TextureUsages::COPY_DST,
                        view_formats: &[],
                    });
                    self.copy_bits(t, &stand_in)?;
                    stand_ins.insert(loc, stand_in);
                }
            }
        }
        // Vertex stage.
        let builtin_module;
        let (vs_module, vb_layouts): (&wgpu::ShaderModule, VertexBufferLayouts) = match (pulled, vs) {
            (Some(p), _) => (&p.module, Vec::new()),
            (None, Some(v)) => {
                let mut per_slot: BTreeMap<u32, (u64, Vec<wgpu::VertexAttribute>)> = BTreeMap::new();
                let mut offsets: HashMap<u32, u64> = HashMap::new();
                let mut placed: Vec<(u32, u64, &InputElement)> = Vec::new();
                for el in &st.input_layout {
                    let off = offsets.entry(el.slot).or_insert(0);
                    placed.push((el.slot, *off, el));
                    *off += el.format.texel_size() as u64;
                }
                for (slot, stride) in &offsets {
                    per_slot.insert(*slot, (*stride, Vec::new()));
                }
                for inp in &v.translation.inputs {
                    let Some(loc) = inp.location else { continue };
                    let found = placed
                        .iter()
                        .find(|(_, _, e)| e.name.eq_ignore_ascii_case(&inp.semantic) && e.index == inp.semantic_index);
                    let Some((slot, off, el)) = found else {
                        return Err(OpErr::Skip(Skip::todo(
                            RunnerTodo::VertexInput,
                            format!(
                                "runner: vertex input {}{} not in the input layout",
                                inp.semantic, inp.semantic_index
                            ),
                        )));
                    };
                    let vf = vertex_format(el.format)
                        .ok_or_else(|| OpErr::Skip(Skip::todo(RunnerTodo::VertexInput, "runner: vertex format")))?;
                    let vf = retype_vertex_format(vf, &inp.scalar);
                    per_slot.get_mut(slot).unwrap().1.push(wgpu::VertexAttribute {
                        format: vf,
                        offset: *off,
                        shader_location: loc,
                    });
                }
                (&vs_linked.as_ref().unwrap().1, per_slot.into_iter().map(|(s, (st, a))| (s, st, a)).collect())
            }
            (None, None) => {
                let src = Self::builtin_vs_source(&ps.translation.module)?;
                if !self.builtin_vs.borrow().contains_key(&src) {
                    let m = self
                        .gpu
                        .scoped(|| {
                            self.gpu.device.create_shader_module(wgpu::ShaderModuleDescriptor {
                                label: Some("builtin vs"),
                                source: wgpu::ShaderSource::Wgsl(Cow::Owned(src.clone())),
                            })
                        })
                        .map_err(|e| OpErr::Fail(format!("runner: built-in vertex shader: {e}")))?;
                    self.builtin_vs.borrow_mut().insert(src.clone(), m);
                }
                builtin_module = self.builtin_vs.borrow()[&src].clone();
                let attrs = vec![wgpu::VertexAttribute {
                    format: wgpu::VertexFormat::Float32x2,
                    offset: 0,
                    shader_location: 0,
                }];
                (&builtin_module, vec![(0, 8, attrs)])
            }
        };
        // Fragment targets: one per pixel shader output location.
        let ep = &ps.translation.module.entry_points[0];
        let mut out_locs: Vec<u32> = Vec::new();
        if let Some(res) = &ep.function.result {
            match (&res.binding, &ps.translation.module.types[res.ty].inner) {
                (Some(naga::Binding::Location { location, .. }), _) => out_locs.push(*location),
                (None, naga::TypeInner::Struct { members, .. }) => {
                    for m in members {
                        if let Some(naga::Binding::Location { location, .. }) = &m.binding {
                            out_locs.push(*location);
                        }
                    }
                }
                _ => {}
            }
        }
        let rt_slots: Vec<u32> = st.resources.keys().filter(|k| k.0 == ResKind::Rtv).map(|k| k.1).collect();
        let max_slot = rt_slots.iter().chain(out_locs.iter()).copied().max().unwrap_or(0);
        let mut targets: Vec<Option<wgpu::ColorTargetState>> = Vec::new();
        let mut views: Vec<Option<wgpu::TextureView>> = Vec::new();
        let mut extent = (640u32, 480u32);
        for slot in 0..=max_slot {
            match st.resources.get(&(ResKind::Rtv, slot)) {
                Some(Resource { res: Ok(GpuRes::Texture(t, f)), .. }) => {
                    let write =
                        if out_locs.contains(&slot) { wgpu::ColorWrites::ALL } else { wgpu::ColorWrites::empty() };
                    let (t, f) = match stand_ins.get(&slot) {
                        Some(s) => (s, s.format()),
                        None => (t, *f),
                    };
                    targets.push(Some(wgpu::ColorTargetState { format: f, blend: None, write_mask: write }));
                    views.push(Some(t.create_view(&wgpu::TextureViewDescriptor {
                        dimension: Some(wgpu::TextureViewDimension::D2),
                        base_array_layer: 0,
                        array_layer_count: Some(1),
                        ..Default::default()
                    })));
                    if slot == 0 || views.iter().flatten().count() == 1 {
                        extent = (t.width(), t.height());
                    }
                }
                Some(Resource { res: Err(e), .. }) => return Err(OpErr::Skip(e.clone())),
                _ => {
                    if out_locs.contains(&slot) {
                        // D3D discards writes to unbound targets.
                    }
                    targets.push(None);
                    views.push(None);
                }
            }
        }
        let prim = match topology {
            _ if pulled.is_some() => pulled.map_or(wgpu::PrimitiveTopology::TriangleList, |p| p.topology),
            Topology::TriangleList => wgpu::PrimitiveTopology::TriangleList,
            Topology::TriangleStrip => wgpu::PrimitiveTopology::TriangleStrip,
            Topology::PointList => wgpu::PrimitiveTopology::PointList,
            Topology::Patch(_) => {
                return Err(OpErr::Skip(Skip::todo(RunnerTodo::VertexInput, "runner: patch lists need tessellation")))
            }
        };
        let vb_descs: Vec<Option<wgpu::VertexBufferLayout>> = {
            let max = vb_layouts.iter().map(|l| l.0).max();
            let mut v: Vec<Option<wgpu::VertexBufferLayout>> = Vec::new();
            if let Some(max) = max {
                for s in 0..=max {
                    v.push(vb_layouts.iter().find(|l| l.0 == s).map(|l| wgpu::VertexBufferLayout {
                        array_stride: l.1,
                        step_mode: wgpu::VertexStepMode::Vertex,
                        attributes: &l.2,
                    }));
                }
            }
            v
        };
        let dsv = match &st.dsv {
            Some(Ok(t)) => Some(t.create_view(&Default::default())),
            _ => None,
        };
        let dev = &self.gpu.device;
        let pipeline = self
            .gpu
            .scoped(|| {
                executor::render_pipeline(
                    dev,
                    &groups.layout,
                    &executor::Pipeline {
                        vertex: (vs_module, None),
                        fragment: (&ps_wgpu, None),
                        buffers: &vb_descs,
                        topology: prim,
                        targets: &targets,
                        multisample: wgpu::MultisampleState {
                            count: samples,
                            mask: st.sample_mask as u64,
                            alpha_to_coverage_enabled: false,
                        },
                        depth: dsv.as_ref().map(|_| wgpu::DepthStencilState {
                            format: wgpu::TextureFormat::Depth32Float,
                            depth_write_enabled: Some(true),
                            depth_compare: Some(compare_function(st.depth_compare)),
                            stencil: Default::default(),
                            bias: Default::default(),
                        }),
                    },
                )
            })
            .map_err(|e| OpErr::Fail(format!("render pipeline creation failed: {e}")))?;
        let mut vbufs: Vec<(u32, wgpu::Buffer)> = Vec::new();
        for (slot, _, _) in &vb_layouts {
            match st.resources.get(&(ResKind::Vb, *slot)) {
                Some(Resource { res: Ok(GpuRes::Buffer(b, _)), .. }) => vbufs.push((*slot, b.clone())),
                _ => return Err(OpErr::Skip(Skip::todo(RunnerTodo::VertexInput, format!("runner: no [vb {slot}]")))),
            }
        }
        let attachments: Vec<Option<wgpu::RenderPassColorAttachment>> = views
            .iter()
            .map(|v| {
                v.as_ref().map(|view| wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
                })
            })
            .collect();
        let _ = extent;
        let vertex_buffers: Vec<(u32, &wgpu::Buffer)> = vbufs.iter().map(|(slot, b)| (*slot, b)).collect();
        self.gpu
            .scoped(|| {
                let mut enc = dev.create_command_encoder(&Default::default());
                let draw = executor::Draw {
                    color: &attachments,
                    depth: dsv.as_ref().map(|view| wgpu::RenderPassDepthStencilAttachment {
                        view,
                        depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store }),
                        stencil_ops: None,
                    }),
                    vertex_buffers: &vertex_buffers,
                    indices: pulled.and_then(|p| p.indices.as_ref()).map(|b| (b, vertices)),
                    indirect: None,
                    vertices,
                    instances,
                };
                executor::encode_draw(&mut enc, &pipeline, &groups, &draw);
                self.gpu.queue.submit([enc.finish()]);
            })
            .map_err(|e| OpErr::Fail(format!("draw: {e}")))?;
        for (slot, stand_in) in &stand_ins {
            if let Some(Resource { res: Ok(GpuRes::Texture(t, _)), .. }) = st.resources.get(&(ResKind::Rtv, *slot)) {
                self.copy_bits(stand_in, t)?;
            }
        }
        self.gpu.wait().map_err(|e| OpErr::Fail(e.to_string()))?;
        let errs = self.gpu.take_errors();
        if let Some(e) = errs.first() {
            return Err(OpErr::Fail(format!("wgpu: {}", gpu::first_line(e))));
        }
        Ok(())
    }

    fn do_dispatch(&mut self, st: &GpuState<'a>, x: u32, y: u32, z: u32) -> Result<(), OpErr> {
        let cs = st
            .compiled(Stage::Compute)
            .ok_or_else(|| OpErr::Skip(Skip::todo(RunnerTodo::PipelineShape, "runner: no compute shader")))?;
        let (cs_naga, cs_wgpu) = self.link(st, cs, None, false)?;
        // No rasterizer: a sample count of 1 (fxc allows sampleinfo of the
        // rasterizer in pixel shaders only).
        let groups =
            self.bind_groups(st, &[(&cs_naga, &cs.translation.bindings[..], wgpu::ShaderStages::COMPUTE)], 1, &[])?;
        let dev = &self.gpu.device;
        let pipeline = self
            .gpu
            .scoped(|| executor::compute_pipeline(dev, &groups.layout, &cs_wgpu, None))
            .map_err(|e| OpErr::Fail(format!("compute pipeline creation failed: {e}")))?;
        self.gpu
            .scoped(|| {
                let mut enc = dev.create_command_encoder(&Default::default());
                executor::encode_dispatch(&mut enc, &pipeline, &groups, [x, y, z]);
                self.gpu.queue.submit([enc.finish()]);
            })
            .map_err(|e| OpErr::Fail(format!("dispatch: {e}")))?;
        self.gpu.wait().map_err(|e| OpErr::Fail(e.to_string()))?;
        let errs = self.gpu.take_errors();
        if let Some(e) = errs.first() {
            return Err(OpErr::Fail(format!("wgpu: {}", gpu::first_line(e))));
        }
        Ok(())
    }
}

/// The vertex format with the shader's scalar kind (D3D reinterprets; WebGPU needs them to agree).
fn retype_vertex_format(f: wgpu::VertexFormat, scalar: &str) -> wgpu::VertexFormat {
    use wgpu::VertexFormat as V;
    let n = match f {
        V::Float32 | V::Uint32 | V::Sint32 => 1,
        V::Float32x2 | V::Uint32x2 | V::Sint32x2 => 2,
        V::Float32x3 | V::Uint32x3 | V::Sint32x3 => 3,
        _ => 4,
    };
    match (scalar, n) {
        ("u32", 1) => V::Uint32,
        ("u32", 2) => V::Uint32x2,
        ("u32", 3) => V::Uint32x3,
        ("u32", _) => V::Uint32x4,
        ("i32", 1) => V::Sint32,
        ("i32", 2) => V::Sint32x2,
        ("i32", 3) => V::Sint32x3,
        ("i32", _) => V::Sint32x4,
        ("f32", 1) => V::Float32,
        ("f32", 2) => V::Float32x2,
        ("f32", 3) => V::Float32x3,
        ("f32", _) => V::Float32x4,
        _ => f,
    }
}

fn wgsl_type(t: &naga::TypeInner) -> Option<String> {
    let sc = |s: &naga::Scalar| -> Option<&'static str> {
        Some(match (s.kind, s.width) {
            (naga::ScalarKind::Float, 4) => "f32",
            (naga::ScalarKind::Uint, 4) => "u32",
            (naga::ScalarKind::Sint, 4) => "i32",
            _ => return None,
        })
    };
    match t {
        naga::TypeInner::Scalar(s) => Some(sc(s)?.to_string()),
        naga::TypeInner::Vector { size, scalar } => Some(format!("vec{}<{}>", *size as u8, sc(scalar)?)),
        _ => None,
    }
}

/// The translator's view format for a test resource format.
fn typed_format(f: Format) -> Option<dxbc_naga::TypedFormat> {
    use dxbc_naga::TypedFormat as T;
    Some(match f {
        Format::Rgba32Float => T::Rgba32Float,
        Format::Rgba32Sint => T::Rgba32Sint,
        Format::Rgba32Uint => T::Rgba32Uint,
        Format::Rg32Float => T::Rg32Float,
        Format::Rg32Sint => T::Rg32Sint,
        Format::Rg32Uint => T::Rg32Uint,
        Format::R32Float => T::R32Float,
        Format::R32Sint => T::R32Sint,
        Format::R32Uint | Format::R32Typeless => T::R32Uint,
        _ => return None,
    })
}

/// The 32-bit-per-channel format with `format`'s channels and component
/// `kind` (None for other formats).
fn same_bits_format(format: wgpu::TextureFormat, kind: naga::ScalarKind) -> Option<wgpu::TextureFormat> {
    use naga::ScalarKind as K;
    use wgpu::TextureFormat as T;
    let channels = match format {
        T::R32Float | T::R32Uint | T::R32Sint => 1,
        T::Rg32Float | T::Rg32Uint | T::Rg32Sint => 2,
        T::Rgba32Float | T::Rgba32Uint | T::Rgba32Sint => 4,
        _ => return None,
    };
    Some(match (channels, kind) {
        (1, K::Float) => T::R32Float,
        (1, K::Uint) => T::R32Uint,
        (1, K::Sint) => T::R32Sint,
        (2, K::Float) => T::Rg32Float,
        (2, K::Uint) => T::Rg32Uint,
        (2, K::Sint) => T::Rg32Sint,
        (_, K::Float) => T::Rgba32Float,
        (_, K::Uint) => T::Rgba32Uint,
        (_, K::Sint) => T::Rgba32Sint,
        _ => return None,
    })
}

/// Scalar kind written to each output location.
fn output_kinds(m: &naga::Module) -> Vec<(u32, naga::ScalarKind)> {
    let mut out = Vec::new();
    let Some(r) = m.entry_points.first().and_then(|e| e.function.result.as_ref()) else { return out };
    let kind = |ty: naga::Handle<naga::Type>| match &m.types[ty].inner {
        naga::TypeInner::Scalar(s) | naga::TypeInner::Vector { scalar: s, .. } => Some(s.kind),
        _ => None,
    };
    match (&r.binding, &m.types[r.ty].inner) {
        (Some(naga::Binding::Location { location, .. }), _) => {
            if let Some(k) = kind(r.ty) {
                out.push((*location, k));
            }
        }
        (None, naga::TypeInner::Struct { members, .. }) => {
            for mm in members {
                if let (Some(naga::Binding::Location { location, .. }), Some(k)) = (&mm.binding, kind(mm.ty)) {
                    out.push((*location, k));
                }
            }
        }
        _ => {}
    }
    out
}

/// A binding of the merged stages: the module's binding, the stages that
/// use it, the D3D register class and number, a uniform buffer's size, and
/// which emulation binding it is, if one.
type MergedBinding = (ModuleBinding, wgpu::ShaderStages, RegisterClass, u32, u32, Emulated);

/// The translator's emulation bindings the runner fills itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Emulated {
    No,
    /// A UAV counter ([`dxbc_naga::BindingKind::UavCounter`]).
    UavCounter,
    /// The rasterizer's sample count ([`dxbc_naga::BindingKind::RasterizerSampleCount`]).
    SampleCount,
    /// A compute form's stage buffer ([`dxbc_naga::BindingKind::StageBuffer`]).
    Stage(dxbc_naga::StageBufferRole),
}
/// Vertex buffers: slot, stride and attributes.
type VertexBufferLayouts = Vec<(u32, u64, Vec<wgpu::VertexAttribute>)>;

/// D3D's resolve of a float target: the mean of each pixel's samples.
const RESOLVE_WGSL: &str = "@group(0) @binding(0) var src: texture_multisampled_2d<f32>;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let p = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(p * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
    let n = textureNumSamples(src);
    var sum = vec4<f32>(0.0);
    for (var i = 0u; i < n; i++) {
        sum += textureLoad(src, vec2<u32>(p.xy), i);
    }
    return sum / f32(n);
}
";

/// The depth test of a `depth` command; without one the test always passes
/// (and still writes depth).
fn compare_function(c: Option<parse::Compare>) -> wgpu::CompareFunction {
    use parse::Compare as C;
    use wgpu::CompareFunction as F;
    match c {
        None | Some(C::Always) => F::Always,
        Some(C::Never) => F::Never,
        Some(C::Less) => F::Less,
        Some(C::Equal) => F::Equal,
        Some(C::LessEqual) => F::LessEqual,
        Some(C::Greater) => F::Greater,
        Some(C::NotEqual) => F::NotEqual,
        Some(C::GreaterEqual) => F::GreaterEqual,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::QualEnv;

    #[test]
    fn llvmpipe_does_not_hold_under_a_tessellation_requirement() {
        let tags = || vec!["llvmpipe".to_string(), "mesa<23.3".to_string()];
        let tess = Require { caps: vec!["tessellation-shader".into()], ..Default::default() };
        let other = Require { caps: vec!["geometry-shader".into()], ..Default::default() };
        assert_eq!(tags_for(tags(), &tess), vec!["mesa<23.3".to_string()]);
        assert_eq!(tags_for(tags(), &other), tags());
        let env = QualEnv { sm: 50, tags: tags_for(tags(), &tess) };
        let line = "if(!llvmpipe) todo(glsl | mvk & vulkan) draw 3 control point patch list 3";
        assert!(parse::parse_test_line(1, line, &env).unwrap().is_some());
        let env = QualEnv { sm: 50, tags: tags_for(tags(), &other) };
        assert!(parse::parse_test_line(1, line, &env).unwrap().is_none());
    }

    /// A stand-in target keeps the bits: same texel size and channels as the
    /// test's target, of the shader's component class (wgpu's format tables).
    #[test]
    fn stand_in_formats_keep_the_texel_bits_and_take_the_shader_class() {
        use wgpu::TextureFormat as T;
        let formats = [
            T::R32Float,
            T::R32Uint,
            T::R32Sint,
            T::Rg32Float,
            T::Rg32Uint,
            T::Rg32Sint,
            T::Rgba32Float,
            T::Rgba32Uint,
            T::Rgba32Sint,
        ];
        for f in formats {
            for (kind, sample) in [
                (naga::ScalarKind::Float, wgpu::TextureSampleType::Float { filterable: false }),
                (naga::ScalarKind::Uint, wgpu::TextureSampleType::Uint),
                (naga::ScalarKind::Sint, wgpu::TextureSampleType::Sint),
            ] {
                let s = same_bits_format(f, kind).unwrap();
                assert_eq!(s.block_copy_size(None), f.block_copy_size(None), "{f:?} {kind:?}");
                assert_eq!(s.components(), f.components(), "{f:?} {kind:?}");
                assert_eq!(s.sample_type(None, None), Some(sample), "{f:?} {kind:?}");
                // A target of the shader's class is used as it is.
                if f.sample_type(None, None) == Some(sample) {
                    assert_eq!(s, f);
                }
            }
        }
        assert_eq!(same_bits_format(T::Rgba8Unorm, naga::ScalarKind::Uint), None);
        assert_eq!(same_bits_format(T::R32Float, naga::ScalarKind::Bool), None);
    }
}
