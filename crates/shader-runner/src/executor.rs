//! The one GPU executor: bind groups, pipelines, draws and dispatches. The
//! vkd3d runner ([`crate::exec`]) and the preview's reference renderer
//! ([`crate::preview`]) both describe their work with these types and run it
//! here, so a draw or a dispatch is built the same way on both paths.

/// One resource bound for a pipeline.
#[derive(Clone)]
pub struct Bound<'a> {
    /// Bind group.
    pub group: u32,
    /// Binding within the group.
    pub binding: u32,
    /// Stages that see it.
    pub visibility: wgpu::ShaderStages,
    /// Its layout type.
    pub ty: wgpu::BindingType,
    /// The resource.
    pub resource: wgpu::BindingResource<'a>,
}

/// Bind groups and the pipeline layout made of them.
pub struct Bindings {
    /// One group per index up to the highest used one (empty between).
    pub groups: Vec<wgpu::BindGroup>,
    /// The pipeline layout of those groups' layouts.
    pub layout: wgpu::PipelineLayout,
}

/// Creates the bind groups of `entries` (groups without entries between
/// used ones get an empty layout, as WebGPU requires every index bound).
pub fn bind(device: &wgpu::Device, entries: &[Bound]) -> Bindings {
    let count = entries.iter().map(|e| e.group + 1).max().unwrap_or(0);
    let mut layouts = Vec::new();
    let mut groups = Vec::new();
    for g in 0..count {
        let mine: Vec<&Bound> = entries.iter().filter(|e| e.group == g).collect();
        let layout_entries: Vec<wgpu::BindGroupLayoutEntry> = mine
            .iter()
            .map(|e| wgpu::BindGroupLayoutEntry { binding: e.binding, visibility: e.visibility, ty: e.ty, count: None })
            .collect();
        let layout =
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &layout_entries });
        let group_entries: Vec<wgpu::BindGroupEntry> =
            mine.iter().map(|e| wgpu::BindGroupEntry { binding: e.binding, resource: e.resource.clone() }).collect();
        groups.push(device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &layout,
            entries: &group_entries,
        }));
        layouts.push(layout);
    }
    let refs: Vec<Option<&wgpu::BindGroupLayout>> = layouts.iter().map(Some).collect();
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &refs,
        immediate_size: 0,
    });
    Bindings { groups, layout }
}

/// A render pipeline's description.
pub struct Pipeline<'a> {
    /// Vertex stage module and entry point (None: its only one).
    pub vertex: (&'a wgpu::ShaderModule, Option<&'a str>),
    /// Fragment stage module and entry point.
    pub fragment: (&'a wgpu::ShaderModule, Option<&'a str>),
    /// Vertex buffer layouts by slot.
    pub buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
    /// Primitive topology.
    pub topology: wgpu::PrimitiveTopology,
    /// Colour targets by location.
    pub targets: &'a [Option<wgpu::ColorTargetState>],
    /// Depth test, if any.
    pub depth: Option<wgpu::DepthStencilState>,
    /// Samples per pixel of the targets and the sample mask.
    pub multisample: wgpu::MultisampleState,
}

/// Creates a render pipeline with D3D's default rasterizer state:
/// clockwise triangles face front, no culling.
pub fn render_pipeline(device: &wgpu::Device, layout: &wgpu::PipelineLayout, p: &Pipeline) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("draw"),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: p.vertex.0,
            entry_point: p.vertex.1,
            compilation_options: Default::default(),
            buffers: p.buffers,
        },
        primitive: wgpu::PrimitiveState { topology: p.topology, front_face: wgpu::FrontFace::Cw, ..Default::default() },
        depth_stencil: p.depth.clone(),
        multisample: p.multisample,
        fragment: Some(wgpu::FragmentState {
            module: p.fragment.0,
            entry_point: p.fragment.1,
            compilation_options: Default::default(),
            targets: p.targets,
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// What one draw call reads and writes.
pub struct Draw<'a> {
    /// Colour attachments by location.
    pub color: &'a [Option<wgpu::RenderPassColorAttachment<'a>>],
    /// Depth attachment.
    pub depth: Option<wgpu::RenderPassDepthStencilAttachment<'a>>,
    /// Vertex buffers by slot.
    pub vertex_buffers: &'a [(u32, &'a wgpu::Buffer)],
    /// `uint32` index buffer and the number of indices drawn.
    pub indices: Option<(&'a wgpu::Buffer, u32)>,
    /// Indexed-indirect arguments: the indices drawn are the count a pass
    /// wrote there (then the count of `indices` is unused).
    pub indirect: Option<&'a wgpu::Buffer>,
    /// Vertices drawn when not indexed.
    pub vertices: u32,
    /// Instances drawn.
    pub instances: u32,
}

/// Records one draw of `pipeline` with `bindings`.
pub fn encode_draw(encoder: &mut wgpu::CommandEncoder, pipeline: &wgpu::RenderPipeline, bindings: &Bindings, d: &Draw) {
    let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("draw"),
        color_attachments: d.color,
        depth_stencil_attachment: d.depth.clone(),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    pass.set_pipeline(pipeline);
    for (i, g) in bindings.groups.iter().enumerate() {
        pass.set_bind_group(i as u32, g, &[]);
    }
    for (slot, b) in d.vertex_buffers {
        pass.set_vertex_buffer(*slot, b.slice(..));
    }
    match (d.indices, d.indirect) {
        (Some((ib, _)), Some(arguments)) => {
            pass.set_index_buffer(ib.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed_indirect(arguments, 0);
        }
        (Some((ib, count)), None) => {
            pass.set_index_buffer(ib.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..count, 0, 0..d.instances);
        }
        (None, _) => pass.draw(0..d.vertices, 0..d.instances),
    }
}

/// Creates a compute pipeline.
pub fn compute_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    entry: Option<&str>,
) -> wgpu::ComputePipeline {
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("dispatch"),
        layout: Some(layout),
        module,
        entry_point: entry,
        compilation_options: Default::default(),
        cache: None,
    })
}

/// Records one dispatch of `pipeline` with `bindings`.
pub fn encode_dispatch(
    encoder: &mut wgpu::CommandEncoder,
    pipeline: &wgpu::ComputePipeline,
    bindings: &Bindings,
    groups: [u32; 3],
) {
    let mut pass = encoder.begin_compute_pass(&Default::default());
    pass.set_pipeline(pipeline);
    for (i, g) in bindings.groups.iter().enumerate() {
        pass.set_bind_group(i as u32, g, &[]);
    }
    pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
}
