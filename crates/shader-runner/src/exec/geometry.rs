//! Draws with a geometry shader, through compute (`dxbc_naga::stages`):
//! the runner assembles the primitives and fills one input record per
//! assembled vertex from the vertex buffers and the input layout; the VS
//! runs as compute over those records, the GS as compute over its
//! primitives, and the draw pulls what the GS appended. Every pass goes
//! through the same executor as the other sections.

use super::*;
use dxbc_naga::stages::{REGISTER_STRIDE, WORKGROUP_SIZE};
use dxbc_naga::{OutputTopology, StageBufferRole, StageForm};

/// The draw of a geometry pass: its vertex shader and the records it pulls.
pub(super) struct Pulled {
    pub(super) naga: naga::Module,
    pub(super) module: wgpu::ShaderModule,
    pub(super) bindings: Vec<dxbc_naga::BindingEntry>,
    pub(super) topology: wgpu::PrimitiveTopology,
    /// The stage buffers the draw reads: the geometry pass's output; a
    /// domain shader's domain points, control points and patch constants.
    pub(super) records: Vec<(StageBufferRole, wgpu::Buffer)>,
    /// An index buffer (the tessellator's), drawn with the vertex count as
    /// the index count.
    pub(super) indices: Option<wgpu::Buffer>,
    /// The geometry shader writes SV_PrimitiveID, which the pixel shader
    /// then reads from the draw's varying.
    pub(super) writes_primitive_id: bool,
}

/// Most input records one draw may assemble (512 bytes each).
const MAX_RECORDS: u64 = 1 << 16;

/// An attribute's four register words as D3D's input assembler gives them:
/// the format's channels, then 0, 0, 0, 1 (1.0 for float formats).
fn attribute_words(format: Format, data: &[u32], at: usize) -> Option<[u32; 4]> {
    let (channels, float) = match format {
        Format::Rgba32Float => (4, true),
        Format::Rgba32Sint | Format::Rgba32Uint => (4, false),
        Format::Rg32Float => (2, true),
        Format::Rg32Sint | Format::Rg32Uint => (2, false),
        Format::R32Float => (1, true),
        Format::R32Sint | Format::R32Uint => (1, false),
        _ => return None,
    };
    let mut w = [0, 0, 0, if float { 1.0f32.to_bits() } else { 1 }];
    for (c, word) in w.iter_mut().enumerate().take(channels) {
        *word = data.get(at + c).copied().unwrap_or(0);
    }
    Some(w)
}

impl<'a> Wgpu<'a> {
    fn todo_gs(&self, what: String) -> OpErr {
        OpErr::Skip(Skip::todo(RunnerTodo::PipelineShape, format!("runner: {what}")))
    }

    /// The input records of the VS pass: one per assembled vertex and instance.
    pub(super) fn vertex_records(
        &self,
        st: &GpuState<'a>,
        vs: &Compiled,
        order: &[u32],
        instances: u32,
    ) -> Result<Vec<u32>, OpErr> {
        let stride_words = (REGISTER_STRIDE * 4) as usize;
        let records = order.len() * instances as usize;
        let mut words = vec![0u32; records * stride_words];
        // Offsets of the layout's elements in their slots (packed in order).
        let mut offsets: HashMap<u32, u32> = HashMap::new();
        let mut placed = Vec::new();
        for el in &st.input_layout {
            let off = offsets.entry(el.slot).or_insert(0);
            placed.push((el, *off));
            *off += el.format.texel_size();
        }
        let elements = vs.shader.input_signature.as_ref().map(|s| s.elements.clone()).unwrap_or_default();
        for e in &elements {
            let reg = e.register as usize;
            if reg >= REGISTER_STRIDE as usize {
                return Err(OpErr::Fail(format!("vertex input register v{reg}")));
            }
            let c0 = (e.mask as u32 & 0xf).trailing_zeros().min(3) as usize;
            enum Fill<'x> {
                VertexId,
                InstanceId,
                Attribute(&'x InputElement, u32, &'x [u32], u32),
            }
            let fill = match e.system_value {
                6 => Fill::VertexId,
                8 => Fill::InstanceId,
                0 => {
                    let found = placed
                        .iter()
                        .find(|(el, _)| el.name.eq_ignore_ascii_case(&e.name) && el.index == e.semantic_index);
                    let Some(&(el, off)) = found else {
                        return Err(OpErr::Skip(Skip::todo(
                            RunnerTodo::VertexInput,
                            format!("runner: vertex input {}{} not in the input layout", e.name, e.semantic_index),
                        )));
                    };
                    let Some(Resource { desc, .. }) = st.resources.get(&(ResKind::Vb, el.slot)) else {
                        return Err(OpErr::Skip(Skip::todo(
                            RunnerTodo::VertexInput,
                            format!("runner: no [vb {}]", el.slot),
                        )));
                    };
                    Fill::Attribute(el, off, &desc.data, offsets[&el.slot])
                }
                _ => return Err(self.todo_gs(format!("vertex input system value {}", e.system_value_name()))),
            };
            for inst in 0..instances {
                for (i, &v) in order.iter().enumerate() {
                    let r = inst as usize * order.len() + i;
                    let at = r * stride_words + reg * 4;
                    match &fill {
                        Fill::VertexId => words[at + c0] = v,
                        Fill::InstanceId => words[at + c0] = inst,
                        Fill::Attribute(el, off, data, stride) => {
                            let first = ((v * stride + off) / 4) as usize;
                            let w = attribute_words(el.format, data, first).ok_or_else(|| {
                                OpErr::Skip(Skip::todo(RunnerTodo::VertexInput, "runner: vertex format"))
                            })?;
                            words[at..at + 4].copy_from_slice(&w);
                        }
                    }
                }
            }
        }
        Ok(words)
    }

    pub(super) fn storage_buffer(&self, label: &str, bytes: u64, extra: wgpu::BufferUsages) -> wgpu::Buffer {
        self.gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes.max(16),
            usage: wgpu::BufferUsages::STORAGE | extra,
            mapped_at_creation: false,
        })
    }

    pub(super) fn run_compute(
        &self,
        st: &GpuState<'a>,
        naga_module: &naga::Module,
        module: &wgpu::ShaderModule,
        bindings: &[dxbc_naga::BindingEntry],
        buffers: &[(StageBufferRole, &wgpu::Buffer)],
        invocations: u64,
    ) -> Result<(), OpErr> {
        let groups = self.bind_groups(st, &[(naga_module, bindings, wgpu::ShaderStages::COMPUTE)], 1, buffers)?;
        let dev = &self.gpu.device;
        let pipeline = self
            .gpu
            .scoped(|| executor::compute_pipeline(dev, &groups.layout, module, None))
            .map_err(|e| OpErr::Fail(format!("compute pipeline creation failed: {e}")))?;
        let workgroups = invocations.div_ceil(WORKGROUP_SIZE as u64) as u32;
        self.gpu
            .scoped(|| {
                let mut enc = dev.create_command_encoder(&Default::default());
                executor::encode_dispatch(&mut enc, &pipeline, &groups, [workgroups, 1, 1]);
                self.gpu.queue.submit([enc.finish()]);
            })
            .map_err(|e| OpErr::Fail(format!("dispatch: {e}")))
    }

    /// The wgpu module of `t`: its naga module, its WGSL text or its
    /// SPIR-V words, as [`ModuleSource`] says.
    pub(super) fn wgpu_module(&self, t: &dxbc_naga::Translation, label: &str) -> Result<wgpu::ShaderModule, OpErr> {
        let source = match self.source {
            ModuleSource::Spirv => return self.spirv_module(t, label),
            ModuleSource::Naga => wgpu::ShaderSource::Naga(Cow::Owned(t.module.clone())),
            ModuleSource::Wgsl => wgpu::ShaderSource::Wgsl(Cow::Owned(dxbc_naga::to_wgsl(t).map_err(|e| match e {
                dxbc_naga::OutputError::Refused { limitation, detail, offset, .. } => OpErr::Skip(Skip::new(
                    Status::Unsupported(limitation),
                    format!("unsupported for WGSL: {detail} (at offset {offset:#x})"),
                )),
                e => OpErr::Fail(format!("WGSL writer: {e}")),
            })?)),
        };
        self.gpu
            .scoped(|| {
                self.gpu.device.create_shader_module(wgpu::ShaderModuleDescriptor { label: Some(label), source })
            })
            .map_err(|e| OpErr::Fail(format!("wgpu rejected the {label} module: {e}")))
    }

    /// The passthrough module of `t`'s SPIR-V words (its one entry point),
    /// as `dxbc translate --to spirv --no-y-flip` writes them.
    #[allow(unsafe_code)]
    fn spirv_module(&self, t: &dxbc_naga::Translation, label: &str) -> Result<wgpu::ShaderModule, OpErr> {
        // wgpu's Vulkan viewports have a negative height (y as D3D has it).
        let words = dxbc_naga::to_spirv_with(t, dxbc_naga::ClipSpaceY::AsD3d).map_err(|e| match e {
            dxbc_naga::OutputError::Refused { limitation, detail, offset, .. } => OpErr::Skip(Skip::new(
                Status::Unsupported(limitation),
                format!("unsupported for SPIR-V: {detail} (at offset {offset:#x})"),
            )),
            e => OpErr::Fail(format!("SPIR-V writer: {e}")),
        })?;
        let entry_points: Vec<wgpu::PassthroughShaderEntryPoint> = t
            .module
            .entry_points
            .iter()
            .map(|e| wgpu::PassthroughShaderEntryPoint { name: Cow::Owned(e.name.clone()), workgroup_size: (1, 1, 1) })
            .collect();
        let desc = wgpu::ShaderModuleDescriptorPassthrough {
            label: Some(label),
            entry_points: Cow::Owned(entry_points),
            spirv: Some(Cow::Owned(words)),
            ..Default::default()
        };
        self.gpu
            // SAFETY: the words passed `spirv-val` for Vulkan 1.1 in the
            // translator's tests (every corpus module); the module's
            // bindings are those of `t`, which the runner lays out itself.
            .scoped(|| unsafe { self.gpu.device.create_shader_module_passthrough(desc) })
            .map_err(|e| OpErr::Fail(format!("Vulkan rejected the {label} SPIR-V: {e}")))
    }

    /// VS as compute → GS as compute → the draw that pulls the GS output.
    pub(super) fn do_draw_gs(
        &mut self,
        st: &GpuState<'a>,
        topology: Topology,
        vertices: u32,
        instances: u32,
    ) -> Result<(), OpErr> {
        let gs = st.compiled(Stage::Geometry).ok_or_else(|| self.todo_gs("no geometry shader".into()))?;
        let writes_primitive_id = gs.shader.output_signature.as_ref().is_some_and(|s| {
            s.elements.iter().any(|e| {
                dxbc::spec::SignatureName::from_u32(e.system_value) == Some(dxbc::spec::SignatureName::PrimitiveId)
            })
        });
        let vs = st
            .compiled(Stage::Vertex)
            .ok_or_else(|| self.todo_gs("a geometry shader without a vertex shader".into()))?;
        let ps = st.compiled(Stage::Pixel).ok_or_else(|| self.todo_gs("no pixel shader".into()))?;
        let form =
            gs.translation.compute_form.clone().ok_or_else(|| OpErr::Fail("GS without a compute form".into()))?;
        let n = form.vertices_per_primitive;
        let order = topology
            .assemble(vertices, n)
            .ok_or_else(|| self.todo_gs(format!("{topology:?} into a geometry shader of {n}-vertex primitives")))?;
        let records = order.len() as u64 * instances as u64;
        if records > MAX_RECORDS {
            return Err(self.todo_gs(format!("{records} assembled vertices (at most {MAX_RECORDS})")));
        }
        if records == 0 {
            return Ok(());
        }
        let record_bytes = REGISTER_STRIDE as u64 * 16;
        // Pass 1: the vertex shader over the assembled vertices.
        let vs_form =
            dxbc_naga::translate_pipeline_stage(&vs.shader, &dxbc_naga::Options::default(), StageForm::Compute)
                .map_err(|e| match Skip::translation(&e) {
                    Skip { status: Status::Fail, detail } => OpErr::Fail(detail),
                    skip => OpErr::Skip(skip),
                })?;
        let words = self.vertex_records(st, vs, &order, instances)?;
        let vs_in = self.storage_buffer("vs records in", records * record_bytes, wgpu::BufferUsages::COPY_DST);
        self.gpu.queue.write_buffer(&vs_in, 0, bytemuck::cast_slice(&words));
        let vs_out = self.storage_buffer("vs records out", records * record_bytes, wgpu::BufferUsages::empty());
        let vs_module = self.wgpu_module(&vs_form, "vertex pass")?;
        let io = [(StageBufferRole::Input, &vs_in), (StageBufferRole::Output, &vs_out)];
        self.run_compute(st, &vs_form.module, &vs_module, &vs_form.bindings, &io, records)?;
        // Pass 2: the geometry shader per primitive and instance.
        let primitives = records / n as u64;
        let invocations = primitives * form.instances as u64;
        let capacity = invocations * form.max_list_vertices() as u64;
        if capacity > MAX_RECORDS * 4 {
            return Err(self.todo_gs(format!("{capacity} geometry output vertices")));
        }
        let gs_out = self.storage_buffer("gs records out", capacity.max(1) * record_bytes, wgpu::BufferUsages::empty());
        let count = self.storage_buffer("gs vertex count", 4, wgpu::BufferUsages::COPY_SRC);
        let io = [
            (StageBufferRole::Input, &vs_out),
            (StageBufferRole::Output, &gs_out),
            (StageBufferRole::VertexCount, &count),
        ];
        self.run_compute(st, &gs.translation.module, &gs.module, &gs.translation.bindings, &io, invocations)?;
        // Pass 3: the draw, with the pixel shader's interpolation.
        let options = dxbc_naga::Options {
            interpolation_from: Some(dxbc_naga::PixelInputs::of(&ps.shader).map_err(|e| OpErr::Fail(e.to_string()))?),
            ..Default::default()
        };
        let draw =
            dxbc_naga::translate_pipeline_stage(&gs.shader, &options, StageForm::DrawFromBuffer).map_err(|e| {
                match Skip::translation(&e) {
                    Skip { status: Status::Fail, detail } => OpErr::Fail(detail),
                    skip => OpErr::Skip(skip),
                }
            })?;
        // Each invocation owns a slot of `max_list_vertices` records and
        // culls what it leaves unwritten, so every slot is drawn whole, in
        // D3D's primitive order.
        let bytes = self.gpu.read_buffer(&count, 4).map_err(|e| OpErr::Fail(e.to_string()))?;
        let appended = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let drawn = if appended == 0 { 0 } else { capacity as u32 };
        let topology = match form.output_topology {
            Some(OutputTopology::PointList) => wgpu::PrimitiveTopology::PointList,
            Some(OutputTopology::LineList) => wgpu::PrimitiveTopology::LineList,
            _ => wgpu::PrimitiveTopology::TriangleList,
        };
        let pulled = Pulled {
            writes_primitive_id,
            module: self.wgpu_module(&draw, "geometry draw")?,
            naga: draw.module,
            bindings: draw.bindings,
            topology,
            records: vec![(StageBufferRole::Input, gs_out)],
            indices: None,
        };
        if drawn == 0 {
            return Ok(());
        }
        self.do_draw(st, Topology::TriangleList, drawn, 1, Some(&pulled))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_assemble_as_d3d_orders_their_triangles() {
        assert_eq!(Topology::TriangleStrip.assemble(5, 3), Some(vec![0, 1, 2, 1, 3, 2, 2, 3, 4]));
        assert_eq!(Topology::TriangleList.assemble(7, 3), Some((0..6).collect()));
        assert_eq!(Topology::PointList.assemble(2, 1), Some(vec![0, 1]));
        assert_eq!(Topology::PointList.assemble(2, 3), None);
    }

    #[test]
    fn attributes_fill_missing_components_as_the_input_assembler_does() {
        let one = 1.0f32.to_bits();
        assert_eq!(attribute_words(Format::Rg32Float, &[7, 8, 9], 1), Some([8, 9, 0, one]));
        assert_eq!(attribute_words(Format::R32Uint, &[5], 0), Some([5, 0, 0, 1]));
        assert_eq!(attribute_words(Format::Unknown, &[5], 0), None);
    }
}
