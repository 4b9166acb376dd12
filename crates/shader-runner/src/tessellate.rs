//! The tessellator on the GPU: the WGSL port (`tessellator::wgsl`) run
//! through the shared executor. The vkd3d runner's hull/domain draws and
//! the GPU-vs-CPU tests both use [`encode`], so what is tested is what runs.

use crate::executor::{self, Bound};
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

/// Encodes the three passes (count, scan, generate) over `patch_constants`
/// (`params.record_words` words per patch). `params`' capacities are set
/// here from the per-patch bounds.
pub fn encode(
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
    let points = buffer("domain points", params.point_capacity as u64 * 16, storage | wgpu::BufferUsages::VERTEX);
    let indices = buffer("tessellated indices", params.index_capacity as u64 * 4, storage | wgpu::BufferUsages::INDEX);
    let storage_ty = |read_only| wgpu::BindingType::Buffer {
        ty: wgpu::BufferBindingType::Storage { read_only },
        has_dynamic_offset: false,
        min_binding_size: None,
    };
    fn entry(binding: u32, ty: wgpu::BindingType, buf: &wgpu::Buffer) -> Bound<'_> {
        Bound { group: 0, binding, visibility: wgpu::ShaderStages::COMPUTE, ty, resource: buf.as_entire_binding() }
    }
    let uniform_ty = wgpu::BindingType::Buffer {
        ty: wgpu::BufferBindingType::Uniform,
        has_dynamic_offset: false,
        min_binding_size: None,
    };
    let (bindings, module) = gpu.scoped(|| {
        let bindings = executor::bind(
            dev,
            &[
                entry(0, uniform_ty, &uniform),
                entry(1, storage_ty(true), patch_constants),
                entry(2, storage_ty(false), &table),
                entry(3, storage_ty(false), &points),
                entry(4, storage_ty(false), &indices),
            ],
        );
        let module = dev.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("tessellator"),
            source: wgpu::ShaderSource::Wgsl(wgsl::SOURCE.into()),
        });
        (bindings, module)
    })?;
    let pipelines = gpu.scoped(|| {
        ["count", "scan", "generate"].map(|e| executor::compute_pipeline(dev, &bindings.layout, &module, Some(e)))
    })?;
    let groups = params.workgroups();
    executor::encode_dispatch(encoder, &pipelines[0], &bindings, [groups, 1, 1]);
    executor::encode_dispatch(encoder, &pipelines[1], &bindings, [1, 1, 1]);
    executor::encode_dispatch(encoder, &pipelines[2], &bindings, [groups, 1, 1]);
    Ok(Tessellated { table, points, indices })
}

/// Reads `n` little-endian words of `buf`.
pub fn read_words(gpu: &mut Gpu, buf: &wgpu::Buffer, n: u64) -> Result<Vec<u32>, GpuError> {
    let bytes = gpu.read_buffer(buf, n * 4)?;
    Ok(bytes.chunks_exact(4).take(n as usize).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}
