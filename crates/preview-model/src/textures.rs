//! Textures and samplers for the preview: a default image for every SRV
//! texture, generated here so the web app and the native reference
//! renderer see the same pixels, and a default sampler for every `s#`.
//!
//! Images are plain `width × height × layers` pixel arrays in one of a few
//! formats, stored as the bytes WebGPU's `writeTexture` takes (rows tightly
//! packed, layers one after another). Patterns are deterministic functions
//! of the pixel coordinates — the noise is an integer hash, not a random
//! generator — so a permalink reproduces the picture exactly.
//!
//! Format choice follows the texture's return type: float, unorm and snorm
//! textures get `rgba8unorm` (filterable everywhere; `rgba32float` needs a
//! WebGPU feature to be filtered), integer textures `rgba32uint` /
//! `rgba32sint`. A user image replaces the pattern and is converted to the
//! slot's format.

use dxbc::chunks::rdef::{Rdef, ResourceBinding};
use dxbc::spec::{ReturnType, ShaderInputType, SrvDimension, SHADER_INPUT_FLAGS_FIELDS};
use serde::Serialize;

/// Largest width, height or layer count [`generate`] accepts; larger requests are clamped.
pub const MAX_TEXTURE_EXTENT: u32 = 4096;

/// Pixel format of an [`Image`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TextureFormat {
    /// 4 × u8, normalised.
    Rgba8Unorm,
    /// 4 × f32.
    Rgba32Float,
    /// 4 × u32.
    Rgba32Uint,
    /// 4 × i32.
    Rgba32Sint,
    /// 1 × f32 (typed UAVs, as the translator binds them).
    R32Float,
    /// 1 × u32.
    R32Uint,
    /// 1 × i32.
    R32Sint,
}

impl TextureFormat {
    /// Bytes per pixel.
    pub fn bytes_per_pixel(self) -> usize {
        match self {
            TextureFormat::Rgba8Unorm | TextureFormat::R32Float | TextureFormat::R32Uint | TextureFormat::R32Sint => 4,
            _ => 16,
        }
    }

    /// Channels per pixel.
    pub fn channels(self) -> usize {
        match self {
            TextureFormat::R32Float | TextureFormat::R32Uint | TextureFormat::R32Sint => 1,
            _ => 4,
        }
    }

    /// The WebGPU `GPUTextureFormat` string.
    pub fn webgpu_name(self) -> &'static str {
        match self {
            TextureFormat::Rgba8Unorm => "rgba8unorm",
            TextureFormat::Rgba32Float => "rgba32float",
            TextureFormat::Rgba32Uint => "rgba32uint",
            TextureFormat::Rgba32Sint => "rgba32sint",
            TextureFormat::R32Float => "r32float",
            TextureFormat::R32Uint => "r32uint",
            TextureFormat::R32Sint => "r32sint",
        }
    }

    /// The sampled format for a `D3D_RESOURCE_RETURN_TYPE` (sint, uint, others float).
    pub fn for_return_type(return_type: u32) -> TextureFormat {
        match ReturnType::from_u32(return_type) {
            Some(ReturnType::Sint) => TextureFormat::Rgba32Sint,
            Some(ReturnType::Uint) => TextureFormat::Rgba32Uint,
            _ => TextureFormat::Rgba8Unorm,
        }
    }

    /// The one-channel storage format for a typed UAV's return type.
    pub fn storage_for_return_type(return_type: u32) -> TextureFormat {
        match ReturnType::from_u32(return_type) {
            Some(ReturnType::Sint) => TextureFormat::R32Sint,
            Some(ReturnType::Uint) => TextureFormat::R32Uint,
            _ => TextureFormat::R32Float,
        }
    }
}

/// Pixels: `width × height × layers` (layers are array layers, cube faces
/// or 3D depth slices), rows tightly packed, little-endian.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Array layers, cube faces (6) or depth slices.
    pub layers: u32,
    /// Pixel format.
    pub format: TextureFormat,
    /// `width * height * layers * format.bytes_per_pixel()` bytes.
    #[serde(skip)]
    pub data: Vec<u8>,
}

impl Image {
    /// Bytes per row (for `writeTexture`'s `bytesPerRow`).
    pub fn bytes_per_row(&self) -> u32 {
        self.width * self.format.bytes_per_pixel() as u32
    }

    /// An RGBA8 image from user pixels; `None` when `pixels` is not
    /// `width * height * 4` bytes or a side is 0 or above [`MAX_TEXTURE_EXTENT`].
    pub fn from_rgba8(width: u32, height: u32, pixels: Vec<u8>) -> Option<Image> {
        let ok = (1..=MAX_TEXTURE_EXTENT).contains(&width)
            && (1..=MAX_TEXTURE_EXTENT).contains(&height)
            && pixels.len() == width as usize * height as usize * 4;
        ok.then_some(Image { width, height, layers: 1, format: TextureFormat::Rgba8Unorm, data: pixels })
    }

    /// Channel values of pixel `i` as floats (unorm 0..1, integers as their value).
    pub fn texel(&self, i: usize) -> [f32; 4] {
        let bpp = self.format.bytes_per_pixel();
        let p = &self.data[i * bpp..(i + 1) * bpp];
        let word = |k: usize| u32::from_le_bytes([p[4 * k], p[4 * k + 1], p[4 * k + 2], p[4 * k + 3]]);
        match self.format {
            TextureFormat::Rgba8Unorm => [0, 1, 2, 3].map(|k| p[k] as f32 / 255.0),
            TextureFormat::Rgba32Float => [0, 1, 2, 3].map(|k| f32::from_bits(word(k))),
            TextureFormat::Rgba32Uint => [0, 1, 2, 3].map(|k| word(k) as f32),
            TextureFormat::Rgba32Sint => [0, 1, 2, 3].map(|k| word(k) as i32 as f32),
            TextureFormat::R32Float => [f32::from_bits(word(0)), 0.0, 0.0, 1.0],
            TextureFormat::R32Uint => [word(0) as f32, 0.0, 0.0, 1.0],
            TextureFormat::R32Sint => [word(0) as i32 as f32, 0.0, 0.0, 1.0],
        }
    }

    /// The same picture in `format` with `layers` layers (layer 0 repeated
    /// when the image has fewer). Unorm ↔ integer conversion maps 0..1 to 0..255.
    pub fn convert(&self, format: TextureFormat, layers: u32) -> Image {
        let layers = layers.clamp(1, MAX_TEXTURE_EXTENT);
        let per_layer = self.width as usize * self.height as usize;
        let mut data = Vec::with_capacity(per_layer * layers as usize * format.bytes_per_pixel());
        for l in 0..layers as usize {
            let src = if l < self.layers as usize { l } else { 0 };
            for i in 0..per_layer {
                let mut t = self.texel(src * per_layer + i);
                if self.format == TextureFormat::Rgba8Unorm && is_integer(format) {
                    t = t.map(|x| (x * 255.0).round());
                } else if is_integer(self.format) && !is_integer(format) {
                    t = t.map(|x| x / 255.0);
                }
                put(&mut data, format, t);
            }
        }
        Image { width: self.width, height: self.height, layers, format, data }
    }

    /// Pixels for display: RGBA8 whatever the format. Floats are clamped to
    /// 0..1; integers are scaled so the largest magnitude present is white;
    /// one-channel formats are shown grey.
    pub fn to_display_rgba8(&self) -> Vec<u8> {
        let n = self.width as usize * self.height as usize * self.layers as usize;
        let texels: Vec<[f32; 4]> = (0..n).map(|i| self.texel(i)).collect();
        let scale = if is_integer(self.format) {
            let m = texels.iter().flat_map(|t| t.iter().take(self.format.channels())).fold(0f32, |a, x| a.max(x.abs()));
            if m > 0.0 {
                1.0 / m
            } else {
                1.0
            }
        } else {
            1.0
        };
        let mut out = Vec::with_capacity(n * 4);
        for t in texels {
            let px = if self.format.channels() == 1 { [t[0], t[0], t[0], 1.0] } else { t };
            let px = if is_integer(self.format) { [px[0] * scale, px[1] * scale, px[2] * scale, 1.0] } else { px };
            out.extend(px.map(unorm8));
        }
        out
    }
}

fn is_integer(f: TextureFormat) -> bool {
    matches!(f, TextureFormat::Rgba32Uint | TextureFormat::Rgba32Sint | TextureFormat::R32Uint | TextureFormat::R32Sint)
}

fn unorm8(x: f32) -> u8 {
    if x.is_nan() {
        0
    } else {
        (x.clamp(0.0, 1.0) * 255.0).round() as u8
    }
}

/// Appends one pixel of `t` (channel values as floats) in `format`.
fn put(out: &mut Vec<u8>, format: TextureFormat, t: [f32; 4]) {
    let n = format.channels();
    match format {
        TextureFormat::Rgba8Unorm => out.extend(t.map(unorm8)),
        TextureFormat::Rgba32Float | TextureFormat::R32Float => t[..n].iter().for_each(|x| out.extend(x.to_le_bytes())),
        TextureFormat::Rgba32Uint | TextureFormat::R32Uint => {
            t[..n].iter().for_each(|x| out.extend((x.max(0.0) as u32).to_le_bytes()))
        }
        TextureFormat::Rgba32Sint | TextureFormat::R32Sint => {
            t[..n].iter().for_each(|x| out.extend((*x as i32).to_le_bytes()))
        }
    }
}

/// A generated picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Pattern {
    /// 8 × 8 squares, light and dark grey, one warm square per layer for orientation.
    Checker,
    /// Red across, green down, blue on the diagonal.
    Gradient,
    /// Smooth deterministic value noise (greyscale, alpha 1).
    Noise,
    /// A flat tangent-space normal map: (0.5, 0.5, 1).
    FlatNormal,
    /// Opaque white.
    White,
}

impl Pattern {
    /// Every pattern, in the order a picker lists them.
    pub const ALL: [Pattern; 5] =
        [Pattern::Checker, Pattern::Gradient, Pattern::Noise, Pattern::FlatNormal, Pattern::White];

    /// Stable lower-case name (used in permalinks and labels).
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Checker => "checker",
            Pattern::Gradient => "gradient",
            Pattern::Noise => "noise",
            Pattern::FlatNormal => "flat-normal",
            Pattern::White => "white",
        }
    }

    /// The pattern named `name`.
    pub fn from_name(name: &str) -> Option<Pattern> {
        Pattern::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The default pattern for a texture named `name`: normal maps get a
    /// flat normal, noise and gradient/ramp/LUT textures their namesake,
    /// everything else the checker.
    pub fn for_texture_name(name: &str) -> Pattern {
        let n = name.to_ascii_lowercase();
        if n.contains("normal") || n.contains("bump") {
            Pattern::FlatNormal
        } else if n.contains("noise") || n.contains("random") || n.contains("dither") {
            Pattern::Noise
        } else if n.contains("gradient") || n.contains("ramp") || n.contains("lut") {
            Pattern::Gradient
        } else {
            Pattern::Checker
        }
    }

    /// RGBA of pixel (x, y) of layer `layer` in a `w × h` image, 0..1.
    pub fn texel(self, x: u32, y: u32, layer: u32, w: u32, h: u32) -> [f32; 4] {
        let u = (x as f32 + 0.5) / w as f32;
        let v = (y as f32 + 0.5) / h as f32;
        match self {
            Pattern::Checker => {
                let cx = x * 8 / w.max(1);
                let cy = y * 8 / h.max(1);
                if (cx, cy) == (layer % 8, 0) {
                    return [0.95, 0.55, 0.25, 1.0];
                }
                let g = if (cx + cy) % 2 == 0 { 0.85 } else { 0.25 };
                [g, g, g, 1.0]
            }
            Pattern::Gradient => [u, v, (u + v) * 0.5, 1.0],
            Pattern::Noise => {
                let g = value_noise(u * 8.0, v * 8.0, layer) * 0.5
                    + value_noise(u * 16.0, v * 16.0, layer + 101) * 0.3
                    + value_noise(u * 32.0, v * 32.0, layer + 202) * 0.2;
                [g, g, g, 1.0]
            }
            Pattern::FlatNormal => [0.5, 0.5, 1.0, 1.0],
            Pattern::White => [1.0; 4],
        }
    }
}

/// A 32-bit integer hash (xorshift-multiply rounds) of a lattice point.
fn hash(x: i32, y: i32, seed: u32) -> u32 {
    let mut h =
        (x as u32).wrapping_mul(0x8da6_b343) ^ (y as u32).wrapping_mul(0xd816_3841) ^ seed.wrapping_mul(0xcb1a_b31f);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297a_2d39);
    h ^ (h >> 15)
}

/// Value noise in 0..1: hashed lattice values, smoothstep-interpolated.
fn value_noise(x: f32, y: f32, seed: u32) -> f32 {
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let (sx, sy) = (fx * fx * (3.0 - 2.0 * fx), fy * fy * (3.0 - 2.0 * fy));
    let (ix, iy) = (x0 as i32, y0 as i32);
    let l = |dx: i32, dy: i32| (hash(ix + dx, iy + dy, seed) >> 8) as f32 / (1u32 << 24) as f32;
    let top = l(0, 0) + (l(1, 0) - l(0, 0)) * sx;
    let bottom = l(0, 1) + (l(1, 1) - l(0, 1)) * sx;
    top + (bottom - top) * sy
}

/// Generates `pattern` at `width × height × layers` in `format` (sides
/// clamped to 1..=[`MAX_TEXTURE_EXTENT`]).
pub fn generate(pattern: Pattern, width: u32, height: u32, layers: u32, format: TextureFormat) -> Image {
    let (w, h, l) =
        (width.clamp(1, MAX_TEXTURE_EXTENT), height.clamp(1, MAX_TEXTURE_EXTENT), layers.clamp(1, MAX_TEXTURE_EXTENT));
    let mut data = Vec::with_capacity(w as usize * h as usize * l as usize * format.bytes_per_pixel());
    let integer = is_integer(format);
    for layer in 0..l {
        for y in 0..h {
            for x in 0..w {
                let t = pattern.texel(x, y, layer, w, h).map(|c| if integer { (c * 255.0).round() } else { c });
                put(&mut data, format, t);
            }
        }
    }
    Image { width: w, height: h, layers: l, format, data }
}

/// Shape of a texture binding (`D3D_SRV_DIMENSION` / `D3D_UAV_DIMENSION` folded together).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TextureDimension {
    /// `Texture1D`.
    D1,
    /// `Texture1DArray`.
    D1Array,
    /// `Texture2D`.
    D2,
    /// `Texture2DArray`.
    D2Array,
    /// `Texture2DMS` (cannot be uploaded; must be rendered into).
    D2Ms,
    /// `Texture2DMSArray`.
    D2MsArray,
    /// `Texture3D`.
    D3,
    /// `TextureCube`.
    Cube,
    /// `TextureCubeArray`.
    CubeArray,
}

impl TextureDimension {
    /// From an SRV binding's `D3D_SRV_DIMENSION`; `None` for buffers.
    pub fn from_srv(d: u32) -> Option<TextureDimension> {
        Some(match SrvDimension::from_u32(d)? {
            SrvDimension::Texture1d => TextureDimension::D1,
            SrvDimension::Texture1darray => TextureDimension::D1Array,
            SrvDimension::Texture2d => TextureDimension::D2,
            SrvDimension::Texture2darray => TextureDimension::D2Array,
            SrvDimension::Texture2dms => TextureDimension::D2Ms,
            SrvDimension::Texture2dmsarray => TextureDimension::D2MsArray,
            SrvDimension::Texture3d => TextureDimension::D3,
            SrvDimension::Texturecube => TextureDimension::Cube,
            SrvDimension::Texturecubearray => TextureDimension::CubeArray,
            _ => return None,
        })
    }

    /// From a UAV binding's dimension; `None` for buffers. RDEF stores it
    /// as a `D3D_SRV_DIMENSION` too; UAVs have no multisampled or cube shapes.
    pub fn from_uav(d: u32) -> Option<TextureDimension> {
        Some(match SrvDimension::from_u32(d)? {
            SrvDimension::Texture1d => TextureDimension::D1,
            SrvDimension::Texture1darray => TextureDimension::D1Array,
            SrvDimension::Texture2d => TextureDimension::D2,
            SrvDimension::Texture2darray => TextureDimension::D2Array,
            SrvDimension::Texture3d => TextureDimension::D3,
            _ => return None,
        })
    }

    /// Default `(width, height, layers)`: 256² for 2D, 256 × 1 for 1D,
    /// 32³ for 3D, 128² × 6 faces for cubes, 4 layers for arrays.
    pub fn default_extent(self) -> (u32, u32, u32) {
        match self {
            TextureDimension::D1 => (256, 1, 1),
            TextureDimension::D1Array => (256, 1, 4),
            TextureDimension::D2 | TextureDimension::D2Ms => (256, 256, 1),
            TextureDimension::D2Array | TextureDimension::D2MsArray => (256, 256, 4),
            TextureDimension::D3 => (32, 32, 32),
            TextureDimension::Cube => (128, 128, 6),
            TextureDimension::CubeArray => (128, 128, 12),
        }
    }

    /// True for multisampled dimensions (no upload possible).
    pub fn multisampled(self) -> bool {
        matches!(self, TextureDimension::D2Ms | TextureDimension::D2MsArray)
    }
}

/// What fills a texture slot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum TextureSource {
    /// A generated pattern at the slot's extent.
    Pattern(Pattern),
    /// A user-supplied image (converted to the slot's format and layer count).
    User(Image),
}

/// An SRV texture binding (`t#`) and what the preview puts there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TextureSlot {
    /// HLSL name.
    pub name: String,
    /// `t#` register.
    pub register: u32,
    /// Register space (SM5.1; 0 before).
    pub space: u32,
    /// Shape.
    pub dimension: TextureDimension,
    /// `D3D_RESOURCE_RETURN_TYPE` from RDEF.
    pub return_type: u32,
    /// Upload format.
    pub format: TextureFormat,
    /// Default `(width, height, layers)` for generated patterns.
    pub extent: (u32, u32, u32),
    /// Default contents.
    pub source: TextureSource,
}

impl TextureSlot {
    /// The pixels to upload for `source` (pass `&self.source` for the default).
    pub fn image(&self, source: &TextureSource) -> Image {
        let (w, h, l) = self.extent;
        match source {
            TextureSource::Pattern(p) => generate(*p, w, h, l, self.format),
            TextureSource::User(img) => img.convert(self.format, l),
        }
    }
}

/// Filter mode of a sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Filter {
    /// Nearest texel.
    Nearest,
    /// Bilinear (and linear between mips).
    Linear,
}

/// Address mode of a sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum AddressMode {
    /// Repeat.
    Wrap,
    /// Clamp to edge.
    Clamp,
    /// Mirror repeat.
    Mirror,
}

/// A sampler binding (`s#`) and the state the preview gives it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SamplerSlot {
    /// HLSL name.
    pub name: String,
    /// `s#` register.
    pub register: u32,
    /// Register space.
    pub space: u32,
    /// True for a `SamplerComparisonState` (compare = less-equal).
    pub comparison: bool,
    /// Min/mag/mip filter.
    pub filter: Filter,
    /// Address mode on every axis.
    pub address: AddressMode,
}

fn space(b: &ResourceBinding) -> u32 {
    b.space.unwrap_or(0)
}

/// One slot per SRV texture binding (buffers are in [`crate::compute`]).
pub fn texture_slots(rdef: &Rdef) -> Vec<TextureSlot> {
    rdef.bindings
        .iter()
        .filter(|b| b.input_type == ShaderInputType::Texture as u32)
        .filter_map(|b| {
            let dimension = TextureDimension::from_srv(b.dimension)?;
            Some(TextureSlot {
                name: b.name.clone(),
                register: b.bind_point,
                space: space(b),
                dimension,
                return_type: b.return_type,
                format: TextureFormat::for_return_type(b.return_type),
                extent: dimension.default_extent(),
                source: TextureSource::Pattern(Pattern::for_texture_name(&b.name)),
            })
        })
        .collect()
}

/// One slot per sampler binding: linear and wrapping unless the name says
/// `point`/`nearest` or `clamp`/`mirror`.
pub fn sampler_slots(rdef: &Rdef) -> Vec<SamplerSlot> {
    rdef.bindings
        .iter()
        .filter(|b| b.input_type == ShaderInputType::Sampler as u32)
        .map(|b| {
            let n = b.name.to_ascii_lowercase();
            SamplerSlot {
                name: b.name.clone(),
                register: b.bind_point,
                space: space(b),
                comparison: SHADER_INPUT_FLAGS_FIELDS[1].get(b.flags) != 0,
                filter: if n.contains("point") || n.contains("nearest") { Filter::Nearest } else { Filter::Linear },
                address: if n.contains("clamp") {
                    AddressMode::Clamp
                } else if n.contains("mirror") {
                    AddressMode::Mirror
                } else {
                    AddressMode::Wrap
                },
            }
        })
        .collect()
}
