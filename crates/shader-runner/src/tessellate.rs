//! The tessellator on the GPU: the WGSL port (`tessellator::wgsl`) run
//! through the shared executor. The vkd3d runner's hull/domain draws and
//! the GPU-vs-CPU tests both use [`GpuTessellator::encode`], so what is tested is what runs.

use crate::executor;
use crate::gpu::{Gpu, GpuError};
use tessellator::wgsl::{self, Params};

/// The buffers one tessellation dispatch writes.
pub struct Tessellated {
    /// `vec4<u32>` per patch (points, indices, first point, first index),
    /// then the totals (points, indices).
    pub table: wgpu::Buffer,
    /// Domain points: `vec4<u32>` (u, v, w bits, patch).
    pub points: wgpu::Buffer,
    /// Indices (global point numbers).
    pub indices: wgpu::Buffer,
}

/// The tessellator's three compute pipelines (count, scan, generate),
/// made once and reused for every dispatch: lavapipe compiles each
/// pipeline with LLVM, which costs far more than running it.
pub struct GpuTessellator {
    group_layout: wgpu::BindGroupLayout,
    layout: wgpu::PipelineLayout,
    pipelines: [wgpu::ComputePipeline; 3],
}

fn storage_ty(read_only: bool) -> wgpu::BindingType {
    wgpu::BindingType::Buffer {
        ty: wgpu::BufferBindingType::Storage { read_only },
        has_dynamic_offset: false,
        min_binding_size: None,
    }
}

/// The bindings of [`wgsl::SOURCE`], as the module documentation lists them.
fn binding_types() -> [wgpu::BindingType; 5] {
    let uniform = wgpu::BindingType::Buffer {
        ty: wgpu::BufferBindingType::Uniform,
        has_dynamic_offset: false,
        min_binding_size: None,
    };
    [uniform, storage_ty(true), storage_ty(false), storage_ty(false), storage_ty(false)]
}

impl GpuTessellator {
    /// Compiles the module and its three pipelines.
    pub fn new(gpu: &Gpu) -> Result<GpuTessellator, GpuError> {
        let dev = &gpu.device;
        gpu.scoped(|| {
            let entries: Vec<wgpu::BindGroupLayoutEntry> = binding_types()
                .into_iter()
                .enumerate()
                .map(|(i, ty)| wgpu::BindGroupLayoutEntry {
                    binding: i as u32,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty,
                    count: None,
                })
                .collect();
            let group_layout = dev.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("tessellator"),
                entries: &entries,
            });
            let layout = dev.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("tessellator"),
                bind_group_layouts: &[Some(&group_layout)],
                immediate_size: 0,
            });
            let module = dev.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("tessellator"),
                source: wgpu::ShaderSource::Wgsl(wgsl::SOURCE.into()),
            });
            let pipelines =
                ["count", "scan", "generate"].map(|e| executor::compute_pipeline(dev, &layout, &module, Some(e)));
            GpuTessellator { group_layout, layout, pipelines }
        })
    }

    /// The device's tessellator, compiled once (lavapipe spends seconds
    /// compiling the three pipelines).
    pub fn shared(gpu: &Gpu) -> Result<&GpuTessellator, GpuError> {
        if let Some(t) = gpu.tessellator.get() {
            return Ok(t);
        }
        let t = GpuTessellator::new(gpu)?;
        Ok(gpu.tessellator.get_or_init(|| t))
    }

    /// Encodes the three passes (count, scan, generate) over
    /// `patch_constants` (`params.record_words` words per patch).
    /// `params`' capacities are set here from the per-patch bounds.
    pub fn encode(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        params: &mut Params,
        patch_constants: &wgpu::Buffer,
    ) -> Result<Tessellated, GpuError> {
        let dev = &gpu.device;
        params.point_capacity = params.patches.saturating_mul(wgsl::MAX_PATCH_POINTS);
        params.index_capacity = params.patches.saturating_mul(wgsl::MAX_PATCH_INDICES);
        let buffer = |label: &str, bytes: u64, usage: wgpu::BufferUsages| {
            dev.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes.max(16),
                usage,
                mapped_at_creation: false,
            })
        };
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let uniform = buffer("tessellator params", 64, wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST);
        gpu.queue.write_buffer(&uniform, 0, bytemuck::cast_slice(&params.words()));
        let table = buffer("patch table", (params.patches as u64 + 1) * 16, storage);
        let points = buffer("domain points", params.point_capacity as u64 * 16, storage);
        let indices =
            buffer("tessellated indices", params.index_capacity as u64 * 4, storage | wgpu::BufferUsages::INDEX);
        let group = gpu.scoped(|| {
            let resources = [&uniform, patch_constants, &table, &points, &indices];
            let entries: Vec<wgpu::BindGroupEntry> = resources
                .iter()
                .enumerate()
                .map(|(i, b)| wgpu::BindGroupEntry { binding: i as u32, resource: b.as_entire_binding() })
                .collect();
            dev.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("tessellator"),
                layout: &self.group_layout,
                entries: &entries,
            })
        })?;
        let bindings = executor::Bindings { groups: vec![group], layout: self.layout.clone() };
        let groups = params.workgroups();
        executor::encode_dispatch(encoder, &self.pipelines[0], &bindings, [groups, 1, 1]);
        executor::encode_dispatch(encoder, &self.pipelines[1], &bindings, [1, 1, 1]);
        executor::encode_dispatch(encoder, &self.pipelines[2], &bindings, [groups, 1, 1]);
        Ok(Tessellated { table, points, indices })
    }
}

/// Reads `n` little-endian words of `buf`.
pub fn read_words(gpu: &mut Gpu, buf: &wgpu::Buffer, n: u64) -> Result<Vec<u32>, GpuError> {
    let bytes = gpu.read_buffer(buf, n * 4)?;
    Ok(bytes.chunks_exact(4).take(n as usize).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}
