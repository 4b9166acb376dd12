//! The wgpu side: one software Vulkan device (lavapipe), error capture,
//! bind group layouts derived from the naga module, readback with a deadline.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::probe::Readback;

/// How long one GPU wait may take before the section is abandoned.
pub const GPU_TIMEOUT: Duration = Duration::from_secs(10);

/// Why GPU work did not produce its result; callers decide by variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuError {
    /// No adapter, or the device request failed.
    NoDevice(String),
    /// wgpu rejected the work (validation error scope), first lines of its message.
    Rejected(String),
    /// The GPU did not finish within [`GPU_TIMEOUT`]; the device is poisoned.
    TimedOut,
    /// Waiting for the GPU failed otherwise.
    Wait(String),
    /// Mapping a read-back buffer failed.
    Readback(String),
    /// The work asks for something this runner does not handle (a binding
    /// type, a format name, a resource of the wrong kind).
    Unsupported(String),
}

impl std::fmt::Display for GpuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GpuError::NoDevice(m) => write!(f, "no GPU device: {m}"),
            GpuError::Rejected(m) => write!(f, "{m}"),
            // wgpu's own words, as before the variant existed (known-failure lists quote them).
            GpuError::TimedOut => write!(f, "GPU wait failed: {}", wgpu::PollError::Timeout),
            GpuError::Wait(m) => write!(f, "GPU wait failed: {m}"),
            GpuError::Readback(m) => write!(f, "read-back failed: {m}"),
            GpuError::Unsupported(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for GpuError {}

/// A device plus the things the runner learnt about it.
pub struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub adapter_name: String,
    pub driver_info: String,
    pub features: wgpu::Features,
    /// Uncaptured errors (outside any error scope), drained by [`Gpu::take_errors`].
    errors: Arc<Mutex<Vec<String>>>,
    /// Set when a wait timed out: the device should be replaced.
    pub poisoned: bool,
    /// The tessellator's pipelines, compiled on first use
    /// ([`crate::tessellate::GpuTessellator::shared`]).
    pub(crate) tessellator: std::cell::OnceCell<crate::tessellate::GpuTessellator>,
    /// Formats this adapter can bind as read-write storage textures (WebGPU
    /// core allows only r32; adapter-specific format features add more).
    pub read_write_storage: Vec<wgpu::TextureFormat>,
}

impl Gpu {
    /// Opens the first adapter wgpu picks from the environment (`WGPU_BACKEND=vulkan`).
    pub fn new() -> Result<Gpu, GpuError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .map_err(|e| GpuError::NoDevice(format!("no GPU adapter: {e}")))?;
        let info = adapter.get_info();
        let wanted = wgpu::Features::FLOAT32_FILTERABLE
            | wgpu::Features::SHADER_F64
            | wgpu::Features::SHADER_INT64
            | wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES
            | wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER
            | wgpu::Features::VERTEX_WRITABLE_STORAGE
            | wgpu::Features::TEXTURE_ATOMIC
            | wgpu::Features::CLIP_DISTANCES
            | wgpu::Features::SUBGROUP
            | wgpu::Features::SHADER_EARLY_DEPTH_TEST
            | wgpu::Features::PRIMITIVE_INDEX
            | wgpu::Features::PASSTHROUGH_SHADERS;
        let features = adapter.features() & wanted;
        // The adapter's own limits: D3D allows 1024-thread groups and more bindings than WebGPU's defaults.
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("shader-runner"),
            required_features: features,
            required_limits: limits,
            ..Default::default()
        }))
        .map_err(|e| GpuError::NoDevice(format!("request_device failed: {e}")))?;
        let read_write_storage = {
            use wgpu::TextureFormat as T;
            let candidates = [T::Rgba32Float, T::Rgba32Uint, T::Rgba32Sint, T::Rg32Float, T::Rg32Uint, T::Rg32Sint];
            let adapter_specific = features.contains(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES);
            let rw = wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE;
            candidates
                .into_iter()
                .filter(|f| adapter_specific && adapter.get_texture_format_features(*f).flags.contains(rw))
                .chain([T::R32Float, T::R32Uint, T::R32Sint])
                .collect()
        };
        let errors: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(Vec::new()));
        let sink = errors.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            if let Ok(mut v) = sink.lock() {
                v.push(e.to_string());
            }
        }));
        Ok(Gpu {
            device,
            queue,
            adapter_name: info.name.clone(),
            driver_info: info.driver_info.clone(),
            features,
            errors,
            poisoned: false,
            tessellator: std::cell::OnceCell::new(),
            read_write_storage,
        })
    }

    /// Backend tags for `if(...)` / `todo(...)` qualifiers.
    pub fn tags(&self) -> Vec<String> {
        // Not "vulkan": vkd3d uses that tag for its own SPIR-V backend, which we do not run.
        let mut t = Vec::new();
        if self.adapter_name.contains("llvmpipe") {
            t.push("llvmpipe".into());
        }
        // "Mesa 22.3.6 (LLVM …)"
        if let Some(v) = self.driver_info.split_whitespace().nth(1) {
            let mut it = v.split('.').filter_map(|x| x.parse::<u32>().ok());
            if let (Some(a), Some(b)) = (it.next(), it.next()) {
                if (a, b) < (23, 3) {
                    t.push("mesa<23.3".into());
                }
            }
        }
        t
    }

    /// Errors reported outside error scopes since the last call.
    pub fn take_errors(&self) -> Vec<String> {
        self.errors.lock().map(|mut v| std::mem::take(&mut *v)).unwrap_or_default()
    }

    /// Runs `f` inside a validation error scope; returns its value or the first error.
    pub fn scoped<T>(&self, f: impl FnOnce() -> T) -> Result<T, GpuError> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let v = f();
        match pollster::block_on(scope.pop()) {
            Some(e) => Err(GpuError::Rejected(first_line(&e.to_string()))),
            None => Ok(v),
        }
    }

    /// Waits for all submitted work, at most [`GPU_TIMEOUT`].
    pub fn wait(&mut self) -> Result<(), GpuError> {
        match self.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: Some(GPU_TIMEOUT) }) {
            Ok(_) => Ok(()),
            Err(e) => {
                self.poisoned = true;
                Err(match e {
                    wgpu::PollError::Timeout => GpuError::TimedOut,
                    e => GpuError::Wait(e.to_string()),
                })
            }
        }
    }

    /// Copies `size` bytes of `src` to the CPU.
    pub fn read_buffer(&mut self, src: &wgpu::Buffer, size: u64) -> Result<Vec<u8>, GpuError> {
        let size = size.div_ceil(4) * 4;
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: size.max(4),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut enc = self.device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(src, 0, &staging, 0, size);
        self.queue.submit([enc.finish()]);
        self.map_and_read(&staging, size)
    }

    fn map_and_read(&mut self, staging: &wgpu::Buffer, size: u64) -> Result<Vec<u8>, GpuError> {
        let slice = staging.slice(..size);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.wait()?;
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(GpuError::Readback(format!("map failed: {e}"))),
            Err(_) => return Err(GpuError::Readback("map did not complete".into())),
        }
        let data =
            slice.get_mapped_range().map_err(|e| GpuError::Readback(format!("get_mapped_range: {e:?}")))?.to_vec();
        staging.unmap();
        Ok(data)
    }

    /// Reads layer `layer`, level 0 of a 2D texture into tightly packed rows.
    pub fn read_texture(&mut self, tex: &wgpu::Texture, texel_size: u32, layer: u32) -> Result<Readback, GpuError> {
        self.read_aspect(tex, wgpu::TextureAspect::All, texel_size, layer)
    }

    /// Level 0 of one aspect of `tex` (a depth-stencil texture's depth).
    pub fn read_aspect(
        &mut self,
        tex: &wgpu::Texture,
        aspect: wgpu::TextureAspect,
        texel_size: u32,
        layer: u32,
    ) -> Result<Readback, GpuError> {
        let (w, h) = (tex.width(), tex.height());
        let row = w * texel_size;
        let padded = row.div_ceil(256) * 256;
        let size = padded as u64 * h as u64;
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut enc = self.device.create_command_encoder(&Default::default());
        enc.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: tex,
                mip_level: 0,
                origin: wgpu::Origin3d { x: 0, y: 0, z: layer },
                aspect,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &staging,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(padded), rows_per_image: Some(h) },
            },
            wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        );
        self.queue.submit([enc.finish()]);
        let raw = self.map_and_read(&staging, size)?;
        let mut data = Vec::with_capacity((row * h) as usize);
        for y in 0..h as usize {
            data.extend_from_slice(&raw[y * padded as usize..y * padded as usize + row as usize]);
        }
        Ok(Readback { width: w, height: h, texel_size, data })
    }
}

pub fn first_line(s: &str) -> String {
    // wgpu errors are multi-line ("Validation Error\n\nCaused by:\n  …"): keep the informative lines.
    let parts: Vec<&str> =
        s.lines().map(str::trim).filter(|l| !l.is_empty() && *l != "Caused by:" && *l != "Validation Error").collect();
    parts.join(" / ")
}

/// wgpu texture format for a naga storage format.
pub fn storage_format(f: naga::StorageFormat) -> Option<wgpu::TextureFormat> {
    use naga::StorageFormat as S;
    use wgpu::TextureFormat as T;
    Some(match f {
        S::R32Float => T::R32Float,
        S::R32Uint => T::R32Uint,
        S::R32Sint => T::R32Sint,
        S::Rg32Float => T::Rg32Float,
        S::Rg32Uint => T::Rg32Uint,
        S::Rg32Sint => T::Rg32Sint,
        S::Rgba32Float => T::Rgba32Float,
        S::Rgba32Uint => T::Rgba32Uint,
        S::Rgba32Sint => T::Rgba32Sint,
        S::Rgba8Unorm => T::Rgba8Unorm,
        S::Rgba16Float => T::Rgba16Float,
        S::Rgba16Uint => T::Rgba16Uint,
        S::Rgba16Sint => T::Rgba16Sint,
        S::R16Float => T::R16Float,
        S::Rg16Float => T::Rg16Float,
        _ => return None,
    })
}

fn view_dim(dim: naga::ImageDimension, arrayed: bool) -> wgpu::TextureViewDimension {
    use naga::ImageDimension as D;
    use wgpu::TextureViewDimension as V;
    match (dim, arrayed) {
        (D::D1, _) => V::D1,
        (D::D2, false) => V::D2,
        (D::D2, true) => V::D2Array,
        (D::D3, _) => V::D3,
        (D::Cube, false) => V::Cube,
        (D::Cube, true) => V::CubeArray,
    }
}

/// One resource binding of a naga module, as wgpu wants it.
#[derive(Clone, Debug)]
pub struct ModuleBinding {
    pub group: u32,
    pub binding: u32,
    pub ty: wgpu::BindingType,
    /// For storage buffers: whether the shader may write.
    pub writable: bool,
}

/// Reads every bound global of `module` and turns its type into a wgpu binding type.
pub fn module_bindings(module: &naga::Module, filterable: bool) -> Result<Vec<ModuleBinding>, GpuError> {
    let mut out = Vec::new();
    for (_, gv) in module.global_variables.iter() {
        let Some(rb) = &gv.binding else { continue };
        let inner = &module.types[gv.ty].inner;
        let (ty, writable) = match gv.space {
            naga::AddressSpace::Uniform => (
                wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                false,
            ),
            naga::AddressSpace::Storage { access } => {
                let ro = !access.contains(naga::StorageAccess::STORE);
                (
                    wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { read_only: ro },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    !ro,
                )
            }
            naga::AddressSpace::Handle => match inner {
                naga::TypeInner::Sampler { comparison } => (
                    wgpu::BindingType::Sampler(if *comparison {
                        wgpu::SamplerBindingType::Comparison
                    } else if filterable {
                        wgpu::SamplerBindingType::Filtering
                    } else {
                        wgpu::SamplerBindingType::NonFiltering
                    }),
                    false,
                ),
                naga::TypeInner::Image { dim, arrayed, class } => {
                    let vd = view_dim(*dim, *arrayed);
                    match class {
                        naga::ImageClass::Sampled { kind, multi } => {
                            let st = match kind {
                                naga::ScalarKind::Float => {
                                    wgpu::TextureSampleType::Float { filterable: filterable && !multi }
                                }
                                naga::ScalarKind::Uint => wgpu::TextureSampleType::Uint,
                                naga::ScalarKind::Sint => wgpu::TextureSampleType::Sint,
                                k => return Err(GpuError::Unsupported(format!("sampled image of kind {k:?}"))),
                            };
                            (
                                wgpu::BindingType::Texture {
                                    sample_type: st,
                                    view_dimension: vd,
                                    multisampled: *multi,
                                },
                                false,
                            )
                        }
                        naga::ImageClass::Depth { multi } => (
                            wgpu::BindingType::Texture {
                                sample_type: wgpu::TextureSampleType::Depth,
                                view_dimension: vd,
                                multisampled: *multi,
                            },
                            false,
                        ),
                        naga::ImageClass::Storage { format, access } => {
                            let f = storage_format(*format)
                                .ok_or_else(|| GpuError::Unsupported(format!("storage format {format:?}")))?;
                            let acc = if access.contains(naga::StorageAccess::LOAD | naga::StorageAccess::STORE) {
                                wgpu::StorageTextureAccess::ReadWrite
                            } else if access.contains(naga::StorageAccess::STORE) {
                                wgpu::StorageTextureAccess::WriteOnly
                            } else {
                                wgpu::StorageTextureAccess::ReadOnly
                            };
                            (wgpu::BindingType::StorageTexture { access: acc, format: f, view_dimension: vd }, true)
                        }
                        other => return Err(GpuError::Unsupported(format!("image class {other:?}"))),
                    }
                }
                other => return Err(GpuError::Unsupported(format!("handle type {other:?}"))),
            },
            other => return Err(GpuError::Unsupported(format!("bound global in address space {other:?}"))),
        };
        out.push(ModuleBinding { group: rb.group, binding: rb.binding, ty, writable });
    }
    Ok(out)
}
