//! Draws with hull and domain shaders, through compute
//! (`dxbc_naga::stages`, `hull.rs` and `domain.rs`): the runner fills one
//! input record per control point of every patch (patch `p`, point `i` is
//! vertex `p × n + i` of the patch list) from the vertex buffers; the VS
//! runs as compute over them, the hull shader's control-point pass and
//! patch-constant pass as compute, the tessellator as compute
//! ([`crate::tessellate`], the WGSL port of crates/tessellator), and the
//! draw runs the domain shader as its vertex shader over the domain points,
//! indexed by the tessellator's index list, then the pixel shader. The
//! tessellator's totals are read back for the draw's index count (as the
//! geometry draw reads its vertex count). Every pass goes through the same
//! executor as the other sections.

use super::geometry::Pulled;
use super::*;
use dxbc_naga::stages::TessOutputPrimitive;
use dxbc_naga::stages::REGISTER_STRIDE;
use dxbc_naga::{StageBufferRole, StageForm};

/// Most patches one draw may tessellate (each may produce up to
/// `tessellator::wgsl::MAX_PATCH_POINTS` points).
const MAX_PATCHES: u64 = 256;

/// Most control point records one draw may assemble (512 bytes each).
const MAX_CONTROL_POINTS: u64 = 1 << 14;

fn translation_error(e: &dxbc_naga::TranslateError) -> OpErr {
    match Skip::translation(e) {
        Skip { status: Status::Fail, detail } => OpErr::Fail(detail),
        skip => OpErr::Skip(skip),
    }
}

impl<'a> Wgpu<'a> {
    fn todo_tess(&self, what: String) -> OpErr {
        OpErr::Skip(Skip::todo(RunnerTodo::PipelineShape, format!("runner: {what}")))
    }

    /// VS as compute → hull control-point and patch-constant passes →
    /// tessellator → the domain shader's draw over the domain points.
    pub(super) fn do_draw_tess(
        &mut self,
        st: &GpuState<'a>,
        topology: Topology,
        vertices: u32,
        instances: u32,
    ) -> Result<(), OpErr> {
        if st.current.contains_key(&Stage::Geometry) {
            return Err(self.todo_tess("a geometry shader after a domain shader".into()));
        }
        let hs =
            st.compiled(Stage::Hull).ok_or_else(|| self.todo_tess("a domain shader without a hull shader".into()))?;
        let ds =
            st.compiled(Stage::Domain).ok_or_else(|| self.todo_tess("a hull shader without a domain shader".into()))?;
        let vs =
            st.compiled(Stage::Vertex).ok_or_else(|| self.todo_tess("tessellation without a vertex shader".into()))?;
        let ps = st.compiled(Stage::Pixel).ok_or_else(|| self.todo_tess("no pixel shader".into()))?;
        let form =
            hs.translation.compute_form.clone().ok_or_else(|| OpErr::Fail("HS without a compute form".into()))?;
        let tess = form.tessellation.clone().ok_or_else(|| OpErr::Fail("HS without tessellation parameters".into()))?;
        let n = tess.input_control_points;
        let out = tess.output_control_points;
        let Topology::Patch(size) = topology else {
            return Err(self.todo_tess(format!("{topology:?} into a hull shader (D3D needs a patch list)")));
        };
        if size != n || n == 0 {
            return Err(self.todo_tess(format!("a {size}-point patch list into a hull shader of {n} input points")));
        }
        let patches = (vertices / n) as u64 * instances as u64;
        if patches == 0 {
            return Ok(());
        }
        if patches > MAX_PATCHES || patches * (n.max(out) as u64) > MAX_CONTROL_POINTS {
            return Err(self.todo_tess(format!("{patches} patches (at most {MAX_PATCHES})")));
        }
        let params = tess.gpu_params(patches as u32).ok_or_else(|| {
            self.todo_tess("a hull shader without a declared domain, partitioning or output primitive".into())
        })?;
        let record_bytes = REGISTER_STRIDE as u64 * 16;
        let options = dxbc_naga::Options { doubles: self.doubles, ..Default::default() };
        // Pass 1: the vertex shader over the control points.
        let vs_form = dxbc_naga::translate_pipeline_stage(&vs.shader, &options, StageForm::Compute)
            .map_err(|e| translation_error(&e))?;
        let order: Vec<u32> = (0..(vertices / n) * n).collect();
        let words = self.vertex_records(st, vs, &order, instances)?;
        let records = order.len() as u64 * instances as u64;
        let vs_in = self.storage_buffer("vs records in", records * record_bytes, wgpu::BufferUsages::COPY_DST);
        self.gpu.queue.write_buffer(&vs_in, 0, bytemuck::cast_slice(&words));
        let vs_out = self.storage_buffer("vs records out", records * record_bytes, wgpu::BufferUsages::empty());
        let vs_module = self.wgpu_module(&vs_form, "vertex pass")?;
        let io = [(StageBufferRole::Input, &vs_in), (StageBufferRole::Output, &vs_out)];
        self.run_compute(st, &vs_form.module, &vs_module, &vs_form.bindings, &io, records)?;
        // Pass 2: the control-point phase, per patch and output point.
        let cps = self.storage_buffer(
            "control points",
            patches * out.max(1) as u64 * record_bytes,
            wgpu::BufferUsages::empty(),
        );
        let pcs = self.storage_buffer("patch constants", patches * record_bytes, wgpu::BufferUsages::empty());
        let io = [
            (StageBufferRole::Input, &vs_out),
            (StageBufferRole::ControlPoints, &cps),
            (StageBufferRole::PatchConstants, &pcs),
        ];
        if out > 0 {
            self.run_compute(
                st,
                &hs.translation.module,
                &hs.module,
                &hs.translation.bindings,
                &io,
                patches * out as u64,
            )?;
        }
        // Pass 3: the fork and join phases, per patch.
        let pc_form = dxbc_naga::translate_pipeline_stage(&hs.shader, &options, StageForm::PatchConstant)
            .map_err(|e| translation_error(&e))?;
        let pc_module = self.wgpu_module(&pc_form, "patch-constant pass")?;
        self.run_compute(st, &pc_form.module, &pc_module, &pc_form.bindings, &io, patches)?;
        // Pass 5 (translated first: the read-back below needs the GPU alone):
        // the domain shader as the vertex shader of the draw.
        let options = dxbc_naga::Options {
            interpolation_from: Some(dxbc_naga::PixelInputs::of(&ps.shader).map_err(|e| OpErr::Fail(e.to_string()))?),
            ..options
        };
        let draw = dxbc_naga::translate_pipeline_stage(&ds.shader, &options, StageForm::DrawFromBuffer)
            .map_err(|e| translation_error(&e))?;
        // Pass 4: the tessellator, and its totals for the draw's index count.
        let mut params = params;
        let gpu = &*self.gpu;
        let fail = |e: crate::gpu::GpuError| OpErr::Fail(format!("tessellator: {e}"));
        let tessellator = crate::tessellate::GpuTessellator::shared(gpu).map_err(fail)?;
        let mut enc = gpu.device.create_command_encoder(&Default::default());
        let tessellated = tessellator.encode(gpu, &mut enc, &mut params, &pcs).map_err(fail)?;
        gpu.queue.submit([enc.finish()]);
        let table = crate::tessellate::read_words(self.gpu, &tessellated.table, (patches + 1) * 4)
            .map_err(|e| OpErr::Fail(e.to_string()))?;
        let total_indices = table.get(patches as usize * 4 + 1).copied().unwrap_or(0);
        let drawn = total_indices.min(params.index_capacity);
        let topology = match tess.output_primitive {
            Some(TessOutputPrimitive::Point) => wgpu::PrimitiveTopology::PointList,
            Some(TessOutputPrimitive::Line) => wgpu::PrimitiveTopology::LineList,
            _ => wgpu::PrimitiveTopology::TriangleList,
        };
        let pulled = Pulled {
            writes_primitive_id: false,
            module: self.wgpu_module(&draw, "domain draw")?,
            naga: draw.module,
            bindings: draw.bindings,
            topology,
            records: vec![
                (StageBufferRole::DomainPoints, tessellated.points),
                (StageBufferRole::ControlPoints, cps),
                (StageBufferRole::PatchConstants, pcs),
            ],
            indices: Some(tessellated.indices),
        };
        if drawn == 0 {
            return Ok(());
        }
        self.do_draw(st, Topology::TriangleList, drawn, 1, Some(&pulled))
    }
}
