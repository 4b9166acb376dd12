//! Resources as plain data the caller owns: buffers, textures, samplers and
//! constant buffers, bound to slots. Texels are held as register bits (four
//! 32-bit words, missing components already filled with D3D's defaults
//! 0, 0, 0, 1), so a load hands back exactly what a shader register holds.

use std::collections::BTreeMap;

/// How the stored words of a typed resource read as numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// float32 bits.
    Float,
    /// Unsigned normalised with `bits` bits per component, stored as float32 bits.
    Unorm(u8),
    /// Signed normalised, stored as float32 bits.
    Snorm(u8),
    /// Unsigned integer.
    Uint,
    /// Signed integer.
    Sint,
}

impl Channel {
    /// Converts a value a shader stores to what the format keeps (D3D11
    /// 3.2.3: float to UNORM clamps to [0, 1], scales and rounds to the
    /// nearest integer; NaN becomes 0).
    pub fn store(self, bits: u32) -> u32 {
        match self {
            Channel::Float | Channel::Uint | Channel::Sint => bits,
            Channel::Unorm(n) => {
                let v = f32::from_bits(bits);
                let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
                let max = ((1u64 << n) - 1) as f32;
                ((v * max + 0.5).floor() / max).to_bits()
            }
            Channel::Snorm(n) => {
                let v = f32::from_bits(bits);
                let v = if v.is_nan() { 0.0 } else { v.clamp(-1.0, 1.0) };
                let max = ((1u64 << (n - 1)) - 1) as f32;
                let q = (v * max).round();
                (q / max).max(-1.0).to_bits()
            }
        }
    }
}

/// Dimension of a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexDim {
    /// 1D.
    Tex1d,
    /// 2D (also each slice of an array).
    Tex2d,
    /// Volume.
    Tex3d,
    /// Cube map (six 2D faces, layers 0..6).
    Cube,
}

/// A texture: mip chain of texels.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// Dimension.
    pub dim: TexDim,
    /// Texels per row at level 0.
    pub width: u32,
    /// Rows at level 0 (1 for 1D).
    pub height: u32,
    /// Slices at level 0 (3D only; 1 otherwise).
    pub depth: u32,
    /// Array layers (1 when not an array; 6 per cube).
    pub layers: u32,
    /// Samples per texel (1 unless multisampled; sample 0 is what loads read).
    pub samples: u32,
    /// Number format.
    pub channel: Channel,
    /// Components the format has (1 to 4).
    pub components: u8,
    /// Levels, each `layers` slices of `w * h * d` texels, row-major.
    pub levels: Vec<Vec<[u32; 4]>>,
}

impl Texture {
    /// A one-level 2D texture from texels (row-major).
    pub fn new_2d(width: u32, height: u32, channel: Channel, components: u8, texels: Vec<[u32; 4]>) -> Texture {
        Texture {
            dim: TexDim::Tex2d,
            width,
            height,
            depth: 1,
            layers: 1,
            samples: 1,
            channel,
            components,
            levels: vec![texels],
        }
    }

    /// Size of `level` as (w, h, d).
    pub fn level_size(&self, level: u32) -> (u32, u32, u32) {
        let s = |n: u32| n.checked_shr(level).unwrap_or(0).max(1);
        let d = if self.dim == TexDim::Tex3d { s(self.depth) } else { 1 };
        (s(self.width), if self.dim == TexDim::Tex1d { 1 } else { s(self.height) }, d)
    }

    /// The texel at integer coordinates, or `None` out of range.
    pub fn texel(&self, level: u32, x: i32, y: i32, z: i32, layer: u32) -> Option<[u32; 4]> {
        let (w, h, d) = self.level_size(level);
        if x < 0 || y < 0 || z < 0 || x as u32 >= w || y as u32 >= h || z as u32 >= d || layer >= self.layers {
            return None;
        }
        let slice = w as usize * h as usize * d as usize;
        let i = layer as usize * slice + (z as usize * h as usize + y as usize) * w as usize + x as usize;
        self.levels.get(level as usize)?.get(i).copied()
    }

    /// Writes a texel (a typed UAV store), converting to the format; out
    /// of range is dropped.
    pub fn store(&mut self, level: u32, x: i32, y: i32, z: i32, layer: u32, v: [u32; 4]) {
        let (w, h, d) = self.level_size(level);
        if x < 0 || y < 0 || z < 0 || x as u32 >= w || y as u32 >= h || z as u32 >= d || layer >= self.layers {
            return;
        }
        let slice = w as usize * h as usize * d as usize;
        let i = layer as usize * slice + (z as usize * h as usize + y as usize) * w as usize + x as usize;
        let (channel, n) = (self.channel, self.components as usize);
        if let Some(t) = self.levels.get_mut(level as usize).and_then(|l| l.get_mut(i)) {
            for c in 0..n.min(4) {
                t[c] = channel.store(v[c]);
            }
        }
    }
}

/// A buffer: typed, raw or structured views all read its 32-bit words.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Buffer {
    /// Contents.
    pub words: Vec<u32>,
    /// Bytes per structure (structured views), 0 otherwise.
    pub stride: u32,
    /// For typed views: the format's number kind and component count.
    pub typed: Option<(Channel, u8)>,
    /// The hidden counter of `imm_atomic_alloc` / `imm_atomic_consume`.
    pub counter: u32,
}

impl Buffer {
    /// The typed element `i` (missing components 0, 0, 0, 1), or `None` out of range.
    pub fn element(&self, i: u32) -> Option<[u32; 4]> {
        let (ch, n) = self.typed?;
        let n = n.clamp(1, 4) as usize;
        let start = (i as usize).checked_mul(n)?;
        let w = self.words.get(start..start + n)?;
        let one = match ch {
            Channel::Uint | Channel::Sint => 1,
            _ => 1.0f32.to_bits(),
        };
        let mut v = [0, 0, 0, one];
        v[..n].copy_from_slice(w);
        Some(v)
    }

    /// Number of typed elements (or of structures, or of bytes for raw views).
    pub fn element_count(&self) -> u32 {
        let bytes = self.words.len() as u64 * 4;
        match self.typed {
            Some((_, n)) => (self.words.len() / n.clamp(1, 4) as usize) as u32,
            None if self.stride > 0 => (bytes / self.stride as u64) as u32,
            None => bytes.min(u32::MAX as u64) as u32,
        }
    }
}

/// A resource bound to a `t#` or `u#` slot.
#[derive(Clone, Debug, PartialEq)]
pub enum Resource {
    /// A buffer.
    Buffer(Buffer),
    /// A texture.
    Texture(Texture),
}

/// Texture addressing (D3D11_TEXTURE_ADDRESS_MODE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Address {
    /// Repeat.
    Wrap,
    /// Repeat, mirrored every other time.
    Mirror,
    /// Clamp to the edge texel.
    Clamp,
    /// Outside is the border colour.
    Border,
    /// Mirror once around 0, then clamp.
    MirrorOnce,
}

/// A comparison function (samplers, depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// Never passes.
    Never,
    /// `ref < texel`.
    Less,
    /// `ref == texel`.
    Equal,
    /// `ref <= texel`.
    LessEqual,
    /// `ref > texel`.
    Greater,
    /// `ref != texel`.
    NotEqual,
    /// `ref >= texel`.
    GreaterEqual,
    /// Always passes.
    Always,
}

impl Compare {
    /// Whether `a` op `b` holds.
    pub fn test(self, a: f32, b: f32) -> bool {
        match self {
            Compare::Never => false,
            Compare::Less => a < b,
            Compare::Equal => a == b,
            Compare::LessEqual => a <= b,
            Compare::Greater => a > b,
            Compare::NotEqual => a != b,
            Compare::GreaterEqual => a >= b,
            Compare::Always => true,
        }
    }
}

/// Sampler state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampler {
    /// Minification filter is linear.
    pub min_linear: bool,
    /// Magnification filter is linear.
    pub mag_linear: bool,
    /// Filtering between mip levels is linear.
    pub mip_linear: bool,
    /// u, v, w addressing.
    pub address: [Address; 3],
    /// Border colour.
    pub border: [f32; 4],
    /// Comparison function of a comparison sampler.
    pub compare: Option<Compare>,
    /// Added to the computed level of detail.
    pub lod_bias: f32,
    /// Smallest level of detail used.
    pub min_lod: f32,
    /// Largest level of detail used.
    pub max_lod: f32,
}

impl Default for Sampler {
    /// D3D11's default sampler state: trilinear, clamp, border 0, no comparison.
    fn default() -> Sampler {
        Sampler {
            min_linear: true,
            mag_linear: true,
            mip_linear: true,
            address: [Address::Clamp; 3],
            border: [0.0; 4],
            compare: None,
            lod_bias: 0.0,
            min_lod: f32::MIN,
            max_lod: f32::MAX,
        }
    }
}

/// Everything a run can read or write, by slot.
#[derive(Clone, Debug, Default)]
pub struct Bindings {
    /// Constant buffers `cb#` as 32-bit words (4 per vec4).
    pub cbs: BTreeMap<u32, Vec<u32>>,
    /// Shader resources `t#`.
    pub srvs: BTreeMap<u32, Resource>,
    /// Unordered access views `u#`.
    pub uavs: BTreeMap<u32, Resource>,
    /// Samplers `s#`.
    pub samplers: BTreeMap<u32, Sampler>,
    /// Sample count `sampleinfo` reports for the rasterizer.
    pub rasterizer_samples: u32,
}
