//! The native reference renderer for the explorer's live preview: runs a
//! [`preview_model::plan::Plan`] with wgpu exactly as the browser runs it
//! with WebGPU (same modules, bindings, bytes, draw or dispatch), and
//! returns the read-backs in plan order. Comparing the two tells a
//! translation problem (both wrong) from a browser or driver one (they differ).

use crate::executor;
use crate::gpu::{first_line, Gpu, GpuError};
use preview_model::plan::{Plan, Readback, Resource, StageBinding};
use wgpu::util::DeviceExt;

fn texture_format(name: &str) -> Result<wgpu::TextureFormat, GpuError> {
    use wgpu::TextureFormat as F;
    Ok(match name {
        "rgba8unorm" => F::Rgba8Unorm,
        "rgba32float" => F::Rgba32Float,
        "rgba32uint" => F::Rgba32Uint,
        "rgba32sint" => F::Rgba32Sint,
        "r32float" => F::R32Float,
        "r32uint" => F::R32Uint,
        "r32sint" => F::R32Sint,
        "depth16unorm" => F::Depth16Unorm,
        "depth32float" => F::Depth32Float,
        "rgba16uint" => F::Rgba16Uint,
        "rgba16sint" => F::Rgba16Sint,
        other => return Err(GpuError::Unsupported(format!("plan names an unknown texture format {other}"))),
    })
}

fn vertex_format(name: &str) -> Result<wgpu::VertexFormat, GpuError> {
    use wgpu::VertexFormat as V;
    Ok(match name {
        "float32" => V::Float32,
        "float32x2" => V::Float32x2,
        "float32x3" => V::Float32x3,
        "float32x4" => V::Float32x4,
        "uint32" => V::Uint32,
        "uint32x2" => V::Uint32x2,
        "uint32x3" => V::Uint32x3,
        "uint32x4" => V::Uint32x4,
        "sint32" => V::Sint32,
        "sint32x2" => V::Sint32x2,
        "sint32x3" => V::Sint32x3,
        "sint32x4" => V::Sint32x4,
        other => return Err(GpuError::Unsupported(format!("plan names an unknown vertex format {other}"))),
    })
}

fn view_dimension(name: &str) -> wgpu::TextureViewDimension {
    use wgpu::TextureViewDimension as D;
    match name {
        "1d" => D::D1,
        "2d-array" => D::D2Array,
        "3d" => D::D3,
        "cube" => D::Cube,
        "cube-array" => D::CubeArray,
        _ => D::D2,
    }
}

fn dimension(name: &str) -> wgpu::TextureDimension {
    match name {
        "1d" => wgpu::TextureDimension::D1,
        "3d" => wgpu::TextureDimension::D3,
        _ => wgpu::TextureDimension::D2,
    }
}

/// Size and row pitch of a texture's texels in a blob.
#[derive(Clone, Copy)]
struct Shape {
    width: u32,
    height: u32,
    layers: u32,
    bytes_per_row: u32,
}

/// Creates a texture, fills it from `texels` and makes its view.
fn upload_texture(
    gpu: &Gpu,
    label: &str,
    format: wgpu::TextureFormat,
    (dim, view): (&str, &str),
    s: Shape,
    usage: wgpu::TextureUsages,
    texels: &[u8],
) -> (wgpu::Texture, wgpu::TextureView) {
    let tex = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: s.width, height: s.height, depth_or_array_layers: s.layers },
        mip_level_count: 1,
        sample_count: 1,
        dimension: dimension(dim),
        format,
        usage: usage | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    gpu.queue.write_texture(
        tex.as_image_copy(),
        texels,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(s.bytes_per_row), rows_per_image: Some(s.height) },
        tex.size(),
    );
    let v =
        tex.create_view(&wgpu::TextureViewDescriptor { dimension: Some(view_dimension(view)), ..Default::default() });
    (tex, v)
}

/// A multisampled texture whose every sample holds `source`'s texel
/// (the plan's fill module: entry points `vs` and `fs`).
fn fill_multisampled(
    gpu: &Gpu,
    module: &wgpu::ShaderModule,
    format: wgpu::TextureFormat,
    s: Shape,
    samples: u32,
    source: &wgpu::TextureView,
) -> wgpu::Texture {
    let dev = &gpu.device;
    let depth = format.is_depth_stencil_format();
    let tex = dev.create_texture(&wgpu::TextureDescriptor {
        label: Some("multisampled input"),
        size: wgpu::Extent3d { width: s.width, height: s.height, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let color = [Some(wgpu::ColorTargetState { format, blend: None, write_mask: wgpu::ColorWrites::ALL })];
    let pipeline = dev.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("fill"),
        layout: None,
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: Default::default(),
        depth_stencil: depth.then(|| wgpu::DepthStencilState {
            format,
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::Always),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState { count: samples, ..Default::default() },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: if depth { &[] } else { &color },
        }),
        multiview_mask: None,
        cache: None,
    });
    let bg = dev.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(source) }],
    });
    let view = tex.create_view(&Default::default());
    let mut enc = dev.create_command_encoder(&Default::default());
    {
        let ops = wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT), store: wgpu::StoreOp::Store };
        let color_att =
            [Some(wgpu::RenderPassColorAttachment { view: &view, depth_slice: None, resolve_target: None, ops })];
        let mut pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("fill"),
            color_attachments: if depth { &[] } else { &color_att },
            depth_stencil_attachment: depth.then_some(wgpu::RenderPassDepthStencilAttachment {
                view: &view,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Store }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bg, &[]);
        pass.draw(0..3, 0..1);
    }
    gpu.queue.submit([enc.finish()]);
    tex
}

enum Held {
    Buffer(wgpu::Buffer),
    Texture(wgpu::Texture, wgpu::TextureView),
    Sampler(wgpu::Sampler),
}

/// Runs `plan` once and returns every read-back of [`Plan::readbacks`], in order.
pub fn run(gpu: &mut Gpu, plan: &Plan) -> Result<Vec<Vec<u8>>, GpuError> {
    let dev = gpu.device.clone();
    let stage_vis = match plan.stage {
        // A domain shader is the draw's vertex stage.
        preview_model::Stage::Vertex | preview_model::Stage::Domain => wgpu::ShaderStages::VERTEX,
        preview_model::Stage::Pixel => wgpu::ShaderStages::FRAGMENT,
        _ => wgpu::ShaderStages::COMPUTE,
    };
    let built = gpu.scoped(|| -> Result<_, GpuError> {
        let modules: Vec<wgpu::ShaderModule> = plan
            .modules
            .iter()
            .map(|m| {
                dev.create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(m.stage),
                    source: wgpu::ShaderSource::Wgsl(m.code.as_str().into()),
                })
            })
            .collect();
        // Resources and their layout types, in plan order.
        let mut held: Vec<Held> = Vec::new();
        let mut types: Vec<wgpu::BindingType> = Vec::new();
        for e in &plan.entries {
            let (ty, h) = match &e.resource {
                Resource::Buffer { kind, blob } => {
                    let bytes = &plan.blobs[*blob];
                    let (ty, usage) = match *kind {
                        "uniform" => (wgpu::BufferBindingType::Uniform, wgpu::BufferUsages::UNIFORM),
                        "storage" => {
                            (wgpu::BufferBindingType::Storage { read_only: false }, wgpu::BufferUsages::STORAGE)
                        }
                        _ => (wgpu::BufferBindingType::Storage { read_only: true }, wgpu::BufferUsages::STORAGE),
                    };
                    let buf = dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some(&e.register),
                        contents: bytes,
                        usage: usage | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                    });
                    (
                        wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None },
                        Held::Buffer(buf),
                    )
                }
                Resource::Texture {
                    blob,
                    format,
                    dimension: dim,
                    view_dimension: vd,
                    sample_type,
                    width,
                    height,
                    depth_or_layers,
                    bytes_per_row,
                    samples,
                    source_format,
                    fill,
                } => {
                    let shape = Shape {
                        width: *width,
                        height: *height,
                        layers: *depth_or_layers,
                        bytes_per_row: *bytes_per_row,
                    };
                    let (tex, view) = match (source_format, fill) {
                        (Some(src), Some(m)) => {
                            let (source, source_view) = upload_texture(
                                gpu,
                                &e.register,
                                texture_format(src)?,
                                (dim, vd),
                                shape,
                                wgpu::TextureUsages::TEXTURE_BINDING,
                                &plan.blobs[*blob],
                            );
                            let ms = fill_multisampled(
                                gpu,
                                &modules[*m],
                                texture_format(format)?,
                                shape,
                                *samples,
                                &source_view,
                            );
                            drop(source);
                            let v = ms.create_view(&Default::default());
                            (ms, v)
                        }
                        _ => upload_texture(
                            gpu,
                            &e.register,
                            texture_format(format)?,
                            (dim, vd),
                            shape,
                            wgpu::TextureUsages::TEXTURE_BINDING,
                            &plan.blobs[*blob],
                        ),
                    };
                    let st = match *sample_type {
                        "uint" => wgpu::TextureSampleType::Uint,
                        "sint" => wgpu::TextureSampleType::Sint,
                        "depth" => wgpu::TextureSampleType::Depth,
                        "unfilterable-float" => wgpu::TextureSampleType::Float { filterable: false },
                        _ => wgpu::TextureSampleType::Float { filterable: true },
                    };
                    (
                        wgpu::BindingType::Texture {
                            sample_type: st,
                            view_dimension: view_dimension(vd),
                            multisampled: *samples > 1,
                        },
                        Held::Texture(tex, view),
                    )
                }
                Resource::StorageTexture {
                    blob,
                    format,
                    dimension: dim,
                    view_dimension: vd,
                    width,
                    height,
                    depth_or_layers,
                    bytes_per_row,
                } => {
                    let format = texture_format(format)?;
                    let shape = Shape {
                        width: *width,
                        height: *height,
                        layers: *depth_or_layers,
                        bytes_per_row: *bytes_per_row,
                    };
                    let (tex, view) = upload_texture(
                        gpu,
                        &e.register,
                        format,
                        (dim, vd),
                        shape,
                        wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC,
                        &plan.blobs[*blob],
                    );
                    (
                        wgpu::BindingType::StorageTexture {
                            access: wgpu::StorageTextureAccess::ReadWrite,
                            format,
                            view_dimension: view_dimension(vd),
                        },
                        Held::Texture(tex, view),
                    )
                }
                Resource::Sampler { filter, address, compare } => {
                    let f = if *filter == "nearest" { wgpu::FilterMode::Nearest } else { wgpu::FilterMode::Linear };
                    let mf = if *filter == "nearest" {
                        wgpu::MipmapFilterMode::Nearest
                    } else {
                        wgpu::MipmapFilterMode::Linear
                    };
                    let a = match *address {
                        "clamp-to-edge" => wgpu::AddressMode::ClampToEdge,
                        "mirror-repeat" => wgpu::AddressMode::MirrorRepeat,
                        _ => wgpu::AddressMode::Repeat,
                    };
                    let s = dev.create_sampler(&wgpu::SamplerDescriptor {
                        label: Some(&e.register),
                        address_mode_u: a,
                        address_mode_v: a,
                        address_mode_w: a,
                        mag_filter: f,
                        min_filter: f,
                        mipmap_filter: mf,
                        compare: compare.map(|_| wgpu::CompareFunction::LessEqual),
                        ..Default::default()
                    });
                    let ty = if compare.is_some() {
                        wgpu::SamplerBindingType::Comparison
                    } else {
                        wgpu::SamplerBindingType::Filtering
                    };
                    (wgpu::BindingType::Sampler(ty), Held::Sampler(s))
                }
            };
            types.push(ty);
            held.push(h);
        }
        // The stage buffers of the passes through compute (zeros unless given).
        let stage_buffers: Vec<wgpu::Buffer> = plan
            .passes
            .iter()
            .flat_map(|p| &p.buffers)
            .map(|b| {
                // Storage buffers may also feed the draw as its indices or its indirect arguments.
                let usage = if b.uniform {
                    wgpu::BufferUsages::UNIFORM
                } else {
                    wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDEX | wgpu::BufferUsages::INDIRECT
                };
                let buf = dev.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(b.label),
                    size: b.size,
                    usage: usage | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: false,
                });
                if let Some(blob) = b.blob {
                    gpu.queue.write_buffer(&buf, 0, &plan.blobs[blob]);
                }
                buf
            })
            .collect();
        Ok((modules, held, types, stage_buffers))
    });
    let (modules, held, types, stage_buffers) = built.and_then(|r| r)?;
    // By entry, in plan order (each names its user shader).
    let bound: Vec<executor::Bound> = plan
        .entries
        .iter()
        .zip(&held)
        .zip(&types)
        .map(|((e, h), ty)| executor::Bound {
            group: e.group,
            binding: e.binding,
            visibility: match &plan.passes {
                // A user domain shader is the draw's vertex stage; every other
                // user shader of passes runs as compute.
                Some(p) if p.draw_entries && p.draw_shader == e.shader => wgpu::ShaderStages::VERTEX,
                Some(_) => wgpu::ShaderStages::COMPUTE,
                None => stage_vis,
            },
            ty: *ty,
            resource: match h {
                Held::Buffer(b) => b.as_entire_binding(),
                Held::Texture(_, v) => wgpu::BindingResource::TextureView(v),
                Held::Sampler(s) => wgpu::BindingResource::Sampler(s),
            },
        })
        .collect();
    // The entries of one user shader (a pipeline has several).
    let entries_of = |shader: u32| -> Vec<executor::Bound> {
        plan.entries.iter().zip(&bound).filter(|(e, _)| e.shader == shader).map(|(_, b)| b.clone()).collect()
    };
    // A pass's stage buffers, where the plan binds them.
    let stage_bound = |list: &[StageBinding], visibility: wgpu::ShaderStages| -> Vec<executor::Bound> {
        list.iter()
            .map(|b| executor::Bound {
                group: b.group,
                binding: b.binding,
                visibility,
                ty: wgpu::BindingType::Buffer {
                    ty: if b.uniform {
                        wgpu::BufferBindingType::Uniform
                    } else {
                        wgpu::BufferBindingType::Storage { read_only: !b.writable }
                    },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                resource: stage_buffers[b.buffer].as_entire_binding(),
            })
            .collect()
    };
    let bindings = gpu.scoped(|| match &plan.passes {
        // The draw after passes through compute reads their output, and
        // the shader's own resources when it is the user's (a domain shader).
        Some(p) => {
            let mut list: Vec<executor::Bound> = if p.draw_entries { entries_of(p.draw_shader) } else { Vec::new() };
            list.extend(stage_bound(&p.draw_buffers, wgpu::ShaderStages::VERTEX));
            executor::bind(&dev, &list)
        }
        None => executor::bind(&dev, &bound),
    })?;
    let mut passes = Vec::new();
    for p in plan.passes.iter().flat_map(|p| &p.compute) {
        let mut list: Vec<executor::Bound> = if p.shader_entries { entries_of(p.shader) } else { Vec::new() };
        list.extend(stage_bound(&p.buffers, wgpu::ShaderStages::COMPUTE));
        let made = gpu.scoped(|| {
            let b = executor::bind(&dev, &list);
            let pipeline = executor::compute_pipeline(&dev, &b.layout, &modules[p.module], Some(&p.entry));
            (pipeline, b)
        })?;
        passes.push((made, p.workgroups));
    }

    let mut targets: Vec<wgpu::Texture> = Vec::new();
    let submitted = gpu.scoped(|| -> Result<(), GpuError> {
        let mut enc = dev.create_command_encoder(&Default::default());
        for ((pipeline, b), groups) in &passes {
            executor::encode_dispatch(&mut enc, pipeline, b, *groups);
        }
        if let Some(draw) = &plan.draw {
            let attrs: Vec<wgpu::VertexAttribute> = draw
                .attributes
                .iter()
                .map(|a| {
                    Ok(wgpu::VertexAttribute {
                        format: vertex_format(a.format)?,
                        offset: a.offset as u64,
                        shader_location: a.location,
                    })
                })
                .collect::<Result<_, GpuError>>()?;
            let formats: Vec<wgpu::TextureFormat> =
                draw.targets.iter().map(|t| texture_format(t.format)).collect::<Result<_, _>>()?;
            let max_loc = draw.targets.iter().map(|t| t.location + 1).max().unwrap_or(0);
            let color_states: Vec<Option<wgpu::ColorTargetState>> = (0..max_loc)
                .map(|l| {
                    draw.targets.iter().position(|t| t.location == l).map(|i| wgpu::ColorTargetState {
                        format: formats[i],
                        blend: None,
                        write_mask: wgpu::ColorWrites::ALL,
                    })
                })
                .collect();
            let topology = match draw.topology {
                "triangle-strip" => wgpu::PrimitiveTopology::TriangleStrip,
                "line-list" => wgpu::PrimitiveTopology::LineList,
                "line-strip" => wgpu::PrimitiveTopology::LineStrip,
                "point-list" => wgpu::PrimitiveTopology::PointList,
                _ => wgpu::PrimitiveTopology::TriangleList,
            };
            let buffers = if attrs.is_empty() {
                vec![]
            } else {
                vec![Some(wgpu::VertexBufferLayout {
                    array_stride: draw.stride as u64,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &attrs,
                })]
            };
            let pipeline = executor::render_pipeline(
                &dev,
                &bindings.layout,
                &executor::Pipeline {
                    vertex: (&modules[draw.vertex_module], Some(&plan.modules[draw.vertex_module].entry)),
                    fragment: (&modules[draw.fragment_module], Some(&plan.modules[draw.fragment_module].entry)),
                    buffers: &buffers,
                    topology,
                    targets: &color_states,
                    multisample: Default::default(),
                    depth: draw.depth.map(|test| wgpu::DepthStencilState {
                        format: wgpu::TextureFormat::Depth32Float,
                        depth_write_enabled: Some(true),
                        depth_compare: Some(if test == "always" {
                            wgpu::CompareFunction::Always
                        } else {
                            wgpu::CompareFunction::Less
                        }),
                        stencil: Default::default(),
                        bias: Default::default(),
                    }),
                },
            );
            let size = wgpu::Extent3d { width: plan.width, height: plan.height, depth_or_array_layers: 1 };
            for f in &formats {
                targets.push(dev.create_texture(&wgpu::TextureDescriptor {
                    label: Some("target"),
                    size,
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: *f,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
                    view_formats: &[],
                }));
            }
            let views: Vec<wgpu::TextureView> = targets.iter().map(|t| t.create_view(&Default::default())).collect();
            let depth = draw.depth.map(|_| {
                dev.create_texture(&wgpu::TextureDescriptor {
                    label: Some("depth"),
                    size,
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: wgpu::TextureFormat::Depth32Float,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
            });
            let depth_view = depth.as_ref().map(|d| d.create_view(&Default::default()));
            let attachments: Vec<Option<wgpu::RenderPassColorAttachment>> = (0..max_loc)
                .map(|l| {
                    draw.targets.iter().position(|t| t.location == l).map(|i| wgpu::RenderPassColorAttachment {
                        view: &views[i],
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                            store: wgpu::StoreOp::Store,
                        },
                    })
                })
                .collect();
            let vb = (!draw.attributes.is_empty()).then(|| {
                dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("vertices"),
                    contents: &plan.blobs[draw.vertex_blob],
                    usage: wgpu::BufferUsages::VERTEX,
                })
            });
            let ib = draw.index_blob.map(|b| {
                dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("indices"),
                    contents: &plan.blobs[b],
                    usage: wgpu::BufferUsages::INDEX,
                })
            });
            let vertex_buffers: Vec<(u32, &wgpu::Buffer)> = vb.iter().map(|b| (0, b)).collect();
            let d = executor::Draw {
                color: &attachments,
                depth: depth_view.as_ref().map(|v| wgpu::RenderPassDepthStencilAttachment {
                    view: v,
                    depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Store }),
                    stencil_ops: None,
                }),
                vertex_buffers: &vertex_buffers,
                indices: match plan.passes.as_ref().and_then(|p| p.draw_indices) {
                    Some(i) => stage_buffers.get(i).map(|ib| (ib, 0)),
                    None => ib.as_ref().map(|ib| (ib, draw.index_count)),
                },
                indirect: plan.passes.as_ref().and_then(|p| p.draw_indirect).and_then(|i| stage_buffers.get(i)),
                vertices: draw.vertex_count,
                instances: 1,
            };
            executor::encode_draw(&mut enc, &pipeline, &bindings, &d);
        } else if let Some((module, g)) = plan.dispatch {
            let pipeline =
                executor::compute_pipeline(&dev, &bindings.layout, &modules[module], Some(&plan.modules[module].entry));
            executor::encode_dispatch(&mut enc, &pipeline, &bindings, g);
        }
        gpu.queue.submit([enc.finish()]);
        Ok(())
    });
    submitted.and_then(|r| r)?;
    gpu.wait()?;
    let errs = gpu.take_errors();
    if let Some(e) = errs.first() {
        return Err(GpuError::Rejected(first_line(e)));
    }

    let mut out = Vec::with_capacity(plan.readbacks.len());
    for r in &plan.readbacks {
        match r {
            Readback::Target { index, .. } => {
                let t = targets
                    .get(*index)
                    .ok_or_else(|| GpuError::Unsupported("plan reads a target it does not draw".into()))?;
                out.push(gpu.read_texture(t, 16, 0)?.data);
            }
            Readback::Buffer { entry, .. } => match &held[*entry] {
                Held::Buffer(b) => out.push(gpu.read_buffer(b, b.size())?),
                _ => return Err(GpuError::Unsupported("plan reads back a non-buffer as a buffer".into())),
            },
            Readback::StorageTexture { entry } => match &held[*entry] {
                Held::Texture(t, _) => {
                    let mut all = Vec::new();
                    // Layer by layer (or slice by slice in 3D), rows tight.
                    for z in 0..t.depth_or_array_layers() {
                        all.extend(gpu.read_texture(t, 4, z)?.data);
                    }
                    out.push(all);
                }
                _ => return Err(GpuError::Unsupported("plan reads back a non-texture as a storage texture".into())),
            },
        }
    }
    Ok(out)
}
