//! What the compute tests on lavapipe share.

use shader_runner::executor;
use shader_runner::gpu::{self, Gpu};

/// Runs `t` as the page runs it, through its WGSL, as one workgroup of a
/// compute shader whose one binding is a storage buffer of `size` bytes
/// (zeroed), and gives back the buffer's bytes.
pub fn run_with_one_buffer(t: &dxbc_naga::Translation, size: u64) -> Vec<u8> {
    let wgsl = dxbc_naga::to_wgsl(t).expect("WGSL");
    let mut g = Gpu::new().expect("a Vulkan adapter (lavapipe)");
    let module = g.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let buf = g.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let bindings = gpu::module_bindings(&t.module, false).unwrap();
    assert_eq!(bindings.len(), 1, "one binding");
    let b = &bindings[0];
    let bound = [executor::Bound {
        group: b.group,
        binding: b.binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: b.ty,
        resource: buf.as_entire_binding(),
    }];
    let bound = executor::bind(&g.device, &bound);
    let pipeline = executor::compute_pipeline(&g.device, &bound.layout, &module, None);
    let mut enc = g.device.create_command_encoder(&Default::default());
    executor::encode_dispatch(&mut enc, &pipeline, &bound, [1, 1, 1]);
    g.queue.submit([enc.finish()]);
    g.read_buffer(&buf, size).unwrap()
}
