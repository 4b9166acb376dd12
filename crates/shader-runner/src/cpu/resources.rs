//! The test's resources as the interpreter's plain data, and back as
//! probe read-backs.

use dxbc_interp::{Address, Buffer, Channel, Resource, Sampler, TexDim, Texture};

use crate::parse::{self, Dim, Format, ResourceDesc, SamplerDesc};
use crate::probe::Readback;
use crate::{RunnerTodo, Skip};

/// The number kind and component count of a format (`None`: untyped).
pub fn channel(f: Format) -> Option<(Channel, u8)> {
    Some(match f {
        Format::Rgba32Float => (Channel::Float, 4),
        Format::Rgba32Sint => (Channel::Sint, 4),
        Format::Rgba32Uint => (Channel::Uint, 4),
        Format::Rg32Float => (Channel::Float, 2),
        Format::Rg32Sint => (Channel::Sint, 2),
        Format::Rg32Uint => (Channel::Uint, 2),
        Format::R32Float | Format::R32FloatShadow => (Channel::Float, 1),
        Format::R32Sint => (Channel::Sint, 1),
        Format::R32Uint | Format::R32Typeless => (Channel::Uint, 1),
        Format::Unknown => return None,
    })
}

/// The value D3D fills missing components with: 0, 0, 0 and 1.
pub fn one(ch: Channel) -> u32 {
    match ch {
        Channel::Uint | Channel::Sint => 1,
        _ => 1.0f32.to_bits(),
    }
}

/// Builds the interpreter's resource from a `[srv]`, `[uav]` or `[rtv]` block.
pub fn create(d: &ResourceDesc) -> Result<Resource, Skip> {
    let dim = d.dim.unwrap_or(Dim::Buffer);
    match dim {
        Dim::Buffer | Dim::RawBuffer | Dim::CounterBuffer => {
            let typed = if dim == Dim::Buffer { channel(d.format) } else { None };
            // As the GPU runner sizes it: the declared size (bytes for raw
            // buffers, elements otherwise) or the data, whichever is larger.
            let declared = d.width as u64 * if dim == Dim::RawBuffer { 1 } else { d.element_size() as u64 };
            let words = (declared.div_ceil(4) as usize).max(d.data.len()).max(1);
            if words > 1 << 24 {
                return Err(Skip::todo(RunnerTodo::ResourceFormat, "runner: buffer over 64 MiB"));
            }
            let mut w = d.data.clone();
            w.resize(words, 0);
            Ok(Resource::Buffer(Buffer { words: w, stride: d.stride, typed, counter: 0 }))
        }
        _ => {
            let (ch, n) = channel(d.format)
                .ok_or_else(|| Skip::todo(RunnerTodo::ResourceFormat, "runner: texture without a format"))?;
            let (tdim, depth, layers, samples) = match dim {
                Dim::Tex2d => (TexDim::Tex2d, 1, 1, 1),
                Dim::Tex2dMs(s) => (TexDim::Tex2d, 1, 1, s.max(1)),
                Dim::Tex2dArray => (TexDim::Tex2d, 1, d.depth.max(1), 1),
                Dim::Tex3d => (TexDim::Tex3d, d.depth.max(1), 1, 1),
                Dim::Cube => (TexDim::Cube, 1, 6, 1),
                _ => (TexDim::Tex2d, 1, 1, 1),
            };
            let levels = d.levels.clamp(1, 16);
            let mut t = Texture {
                dim: tdim,
                width: d.width.max(1),
                height: d.height.max(1),
                depth,
                layers,
                samples,
                channel: ch,
                components: n,
                levels: Vec::new(),
            };
            let total: u64 = (0..levels)
                .map(|l| {
                    let (w, h, z) = t.level_size(l);
                    w as u64 * h as u64 * z as u64 * layers as u64
                })
                .sum();
            if total > 1 << 24 {
                return Err(Skip::todo(RunnerTodo::ResourceFormat, "runner: texture over 16 M texels"));
            }
            // Texels the data leaves out are zero, as in a new GPU texture;
            // channels the format lacks read as D3D fills them (0, 0, 0, 1).
            let default: [u32; 4] = std::array::from_fn(|c| if c == 3 && n < 4 { one(ch) } else { 0 });
            t.levels = (0..levels)
                .map(|l| {
                    let (w, h, z) = t.level_size(l);
                    vec![default; w as usize * h as usize * z as usize * layers as usize]
                })
                .collect();
            // Data order is D3D's subresource order: for each layer, each level.
            let mut src = d.data.iter().copied();
            'fill: for layer in 0..layers {
                for l in 0..levels {
                    let (w, h, z) = t.level_size(l);
                    let slice = w as usize * h as usize * z as usize;
                    for i in 0..slice {
                        let mut texel = default;
                        for c in texel.iter_mut().take(n as usize) {
                            match src.next() {
                                Some(v) => *c = v,
                                None => break 'fill,
                            }
                        }
                        if let Some(x) = t.levels[l as usize].get_mut(layer as usize * slice + i) {
                            *x = texel;
                        }
                    }
                }
            }
            Ok(Resource::Texture(t))
        }
    }
}

/// A sampler block as the interpreter's sampler state.
pub fn sampler(s: &SamplerDesc) -> Sampler {
    let address = |a: &str| match a {
        "wrap" => Address::Wrap,
        "mirror" => Address::Mirror,
        "border" => Address::Border,
        "mirror_once" => Address::MirrorOnce,
        _ => Address::Clamp,
    };
    Sampler {
        min_linear: s.filter[0],
        mag_linear: s.filter[1],
        mip_linear: s.filter[2],
        address: [address(&s.address[0]), address(&s.address[1]), address(&s.address[2])],
        border: [0.0; 4],
        compare: s.comparison.as_deref().and_then(parse::parse_compare),
        lod_bias: 0.0,
        min_lod: 0.0,
        max_lod: f32::MAX,
    }
}

/// The resource's contents as the GPU runner reads them back: tightly
/// packed texels of layer `layer` at level 0, or the whole buffer.
pub fn readback(r: &Resource, d: &ResourceDesc, layer: u32) -> Readback {
    let texel = d.element_size();
    match r {
        Resource::Buffer(b) => {
            let data: Vec<u8> = b.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let width = (data.len() as u64 / texel.max(1) as u64) as u32;
            Readback { width, height: 1, texel_size: texel, data }
        }
        Resource::Texture(t) => {
            let (w, h, _) = t.level_size(0);
            let n = (texel / 4).max(1) as usize;
            let mut data = Vec::with_capacity(w as usize * h as usize * texel as usize);
            for y in 0..h {
                for x in 0..w {
                    let v = t.texel(0, x as i32, y as i32, 0, layer).unwrap_or([0; 4]);
                    for c in v.iter().take(n) {
                        data.extend_from_slice(&c.to_le_bytes());
                    }
                }
            }
            Readback { width: w, height: h, texel_size: texel, data }
        }
    }
}
