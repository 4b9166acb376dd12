//! SFI0: shader feature info, a 64-bit set of optional hardware features the
//! shader needs (`D3D_SHADER_REQUIRES_*`).

use crate::error::Result;
use crate::reader::Reader;
use serde::Serialize;

/// Names of the feature bits, bit 0 first, as the disassemblers spell them.
/// Bit 1 has two readings: in SM4 programs fxc sets it for raw and
/// structured buffers (and never lists it); in SM5 listings fxc calls it
/// "Early depth-stencil" (see `listing::header`).
pub const FEATURE_NAMES: [&str; 32] = [
    "Double-precision floating point",
    "Raw and Structured buffers",
    "UAVs at every shader stage",
    "64 UAV slots",
    "Minimum-precision data types",
    "Double-precision extensions for 11.1",
    "Shader extensions for 11.1",
    "Comparison filtering for feature level 9",
    "Tiled resources",
    "PS Output Stencil Ref",
    "PS Inner Coverage",
    "Typed UAV Load Additional Formats",
    "Raster Ordered UAVs",
    "SV_RenderTargetArrayIndex or SV_ViewportArrayIndex from any shader feeding rasterizer",
    "Wave level operations",
    "64-Bit integer",
    "View Instancing",
    "Barycentrics",
    "Use native low precision",
    "Shading Rate",
    "Raytracing tier 1.1 features",
    "Sampler feedback",
    "64-bit Atomics on Typed Resources",
    "64-bit Atomics on Group Shared",
    "Derivatives in mesh and amplification shaders",
    "Resource descriptor heap indexing",
    "Sampler descriptor heap indexing",
    "Wave Matrix",
    "64-bit Atomics on Heap Resources",
    "Advanced Texture Ops",
    "Writeable MSAA Textures",
    "Sample Cmp with gradient or bias",
];

/// One set bit of the flags.
#[derive(Clone, Debug, Serialize)]
pub struct Feature {
    /// Bit number (0 = least significant).
    pub bit: u32,
    /// Name, or `unknown feature bit N`.
    pub name: String,
}

/// Decoded SFI0 chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Sfi0 {
    /// Absolute offset of the payload (the flags).
    pub offset: usize,
    /// The 64 flag bits.
    pub flags: u64,
    /// The set bits, lowest first.
    pub features: Vec<Feature>,
    /// Number of bytes after the 8 flag bytes (none in practice).
    pub trailing_bytes: usize,
    /// Those bytes, kept so that the chunk encodes back whole.
    pub trailing: Vec<u8>,
}

/// Name of feature bit `bit`.
pub fn feature_name(bit: u32) -> String {
    match FEATURE_NAMES.get(bit as usize) {
        Some(n) => (*n).to_string(),
        None => format!("unknown feature bit {bit}"),
    }
}

impl Sfi0 {
    /// Parses the chunk payload; `base` is its absolute offset.
    pub fn parse(data: &[u8], base: usize) -> Result<Sfi0> {
        let mut r = Reader::new(data, base);
        let lo = r.u32("SFI0 feature flags (low dword)").map_err(|e| {
            e.with_message(format!("expected 8 bytes of SFI0 feature flags, found {}", data.len())).at(base)
        })?;
        let hi = r.u32("SFI0 feature flags (high dword)").map_err(|e| {
            e.with_message(format!("expected 8 bytes of SFI0 feature flags, found {}", data.len())).at(base)
        })?;
        let flags = (hi as u64) << 32 | lo as u64;
        let features =
            (0..64).filter(|b| flags >> b & 1 != 0).map(|bit| Feature { bit, name: feature_name(bit) }).collect();
        let trailing = data.get(8..).unwrap_or_default().to_vec();
        Ok(Sfi0 { offset: base, flags, features, trailing_bytes: trailing.len(), trailing })
    }

    /// Encodes the chunk payload: the 64 flag bits, then the trailing bytes.
    /// `features` is a view of `flags` and is not read.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = self.flags.to_le_bytes().to_vec();
        out.extend_from_slice(&self.trailing);
        out
    }

    /// True when bit `bit` is set.
    pub fn has(&self, bit: u32) -> bool {
        bit < 64 && self.flags >> bit & 1 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_flags() {
        let mut d = 0x0000_0001_0000_0821u64.to_le_bytes().to_vec();
        let s = Sfi0::parse(&d, 0x30).unwrap();
        assert_eq!(s.flags, 0x1_0000_0821);
        let names: Vec<_> = s.features.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Double-precision floating point",
                "Double-precision extensions for 11.1",
                "Typed UAV Load Additional Formats",
                "unknown feature bit 32"
            ]
        );
        assert!(s.has(11) && !s.has(1) && !s.has(64));
        d.extend_from_slice(&[0, 0, 0, 0]);
        assert_eq!(Sfi0::parse(&d, 0).unwrap().trailing_bytes, 4);
    }

    #[test]
    fn short_chunk_fails() {
        let e = Sfi0::parse(&[1, 0, 0, 0], 0x30).unwrap_err();
        assert_eq!(e.offset(), 0x30);
        assert!(Sfi0::parse(&[], 0).is_err());
    }
}
