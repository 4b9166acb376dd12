//! Signature chunks: ISGN, OSGN, PCSG (6-dword elements), OSG5 (stream +
//! 6 dwords) and ISG1, OSG1, PSG1 (stream + 6 dwords + minimum precision).
//!
//! ```text
//! 0x00  u32 element count
//! 0x04  u32 8 (offset of the first element)
//! element: [u32 stream]  u32 name offset, u32 semantic index, u32 system value,
//!          u32 component type, u32 register, u8 mask, u8 read/write mask, u16 0,
//!          [u32 minimum precision]
//! ```
//! For inputs the read/write mask lists the components the shader reads; for
//! outputs it lists the components the shader *never* writes.

use crate::chunks::write::Writer;
use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;
use serde::Serialize;

/// Which layout the chunk uses.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub enum SignatureLayout {
    /// ISGN / OSGN / PCSG: 6 dwords per element.
    Basic,
    /// OSG5: a stream index, then the 6 dwords.
    Stream,
    /// ISG1 / OSG1 / PSG1: stream, 6 dwords, minimum precision.
    Precision,
}

/// Where the element names go after the records: the one layout choice of
/// the chunk that its fields do not determine. Detected when decoding from
/// the name offsets; identical bytes come out whichever is chosen when the
/// two layouts coincide.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, Default)]
pub enum StringPlacement {
    /// fxc: each distinct name once, packed, the block padded to a dword.
    #[default]
    Shared,
    /// vkd3d-shader: one copy per element, each padded to a dword.
    EachAligned,
}

/// Decoded signature chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Signature {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// The chunk's FourCC.
    #[serde(serialize_with = "crate::container::serialize_fourcc")]
    pub fourcc: [u8; 4],
    /// Element layout implied by the FourCC.
    pub layout: SignatureLayout,
    /// Element count as stored.
    pub element_count: u32,
    /// Offset of the first element (always 8 in practice).
    pub element_offset: u32,
    /// The elements.
    pub elements: Vec<SignatureElement>,
    /// How the encoder places the names.
    pub strings: StringPlacement,
}

/// One element of a signature.
#[derive(Clone, Debug, Serialize)]
pub struct SignatureElement {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Geometry-shader output stream (OSG5, ISG1/OSG1/PSG1).
    pub stream: Option<u32>,
    /// Offset (within the chunk) of the semantic name.
    pub name_offset: u32,
    /// Semantic name.
    pub name: String,
    /// Semantic index.
    pub semantic_index: u32,
    /// `D3D_NAME` system value (0 none, 1 position, … 64 target, 65 depth …).
    pub system_value: u32,
    /// `D3D_REGISTER_COMPONENT_TYPE`: 0 unknown, 1 uint32, 2 sint32, 3 float32.
    pub component_type: u32,
    /// Register number (0xFFFFFFFF for oDepth, oMask, primID …).
    pub register: u32,
    /// Components the element occupies (bit 0 = x).
    pub mask: u8,
    /// Inputs: components read. Outputs: components never written.
    pub rw_mask: u8,
    /// The two bytes after the masks (zero in practice).
    pub reserved: u16,
    /// `D3D_MIN_PRECISION` (ISG1/OSG1/PSG1): 0 default, 1 float16, 2 float2_8,
    /// 4 sint16, 5 uint16, 0xf0 any16, 0xf1 any10.
    pub min_precision: Option<u32>,
}

impl SignatureElement {
    /// fxc's abbreviation of the stored system value (`POS`, `TARGET`, …).
    pub fn system_value_name(&self) -> &'static str {
        system_value_name(self.system_value)
    }

    /// `uint`, `int`, `float` or `unknown`.
    pub fn component_type_name(&self) -> &'static str {
        match self.component_type {
            1 => "uint",
            2 => "int",
            3 => "float",
            _ => "unknown",
        }
    }
}

/// fxc's abbreviation of a `D3D_NAME` value.
pub fn system_value_name(v: u32) -> &'static str {
    match v {
        0 => "NONE",
        1 => "POS",
        2 => "CLIPDST",
        3 => "CULLDST",
        4 => "RTINDEX",
        5 => "VPINDEX",
        6 => "VERTID",
        7 => "PRIMID",
        8 => "INSTID",
        9 => "FFACE",
        10 => "SAMPLE",
        11 => "QUADEDGE",
        12 => "QUADINT",
        13 => "TRIEDGE",
        14 => "TRIINT",
        15 => "LINEDET",
        16 => "LINEDEN",
        64 => "TARGET",
        65 => "DEPTH",
        66 => "COVERAGE",
        67 => "DEPTHGE",
        68 => "DEPTHLE",
        69 => "STENCILREF",
        70 => "INNERCOV",
        _ => "UNKNOWN",
    }
}

impl Signature {
    /// Parses a signature chunk payload of kind `tag`; `base` is its absolute offset.
    pub fn parse(tag: [u8; 4], data: &[u8], base: usize) -> Result<Signature> {
        let layout = match &tag {
            b"OSG5" => SignatureLayout::Stream,
            b"ISG1" | b"OSG1" | b"PSG1" => SignatureLayout::Precision,
            _ => SignatureLayout::Basic,
        };
        let record = match layout {
            SignatureLayout::Basic => 24,
            SignatureLayout::Stream => 28,
            SignatureLayout::Precision => 32,
        };
        let fourcc = tag;
        let mut r = Reader::new(data, base);
        let count_at = r.offset();
        let element_count = r.u32("signature element count")?;
        let element_offset = r.u32("signature element offset")?;
        let fits = (element_count as usize)
            .checked_mul(record)
            .and_then(|n| n.checked_add(element_offset as usize))
            .is_some_and(|end| end <= data.len());
        if !fits {
            return Err(Error::of(ErrorKind::OutOfBounds,
                format!(
                    "{element_count} {} elements of {record} bytes at offset {element_offset:#x} do not fit in the {}-byte chunk",
                    crate::container::fourcc_text(&tag),
                    data.len()
                ),
                count_at,
            ));
        }
        let mut elements = Vec::with_capacity(element_count as usize);
        // Elements may share a name string; cap the text copied out.
        let mut text_budget = data.len().saturating_mul(4).max(1 << 16);
        // vkd3d's placement shows as aligned, strictly increasing name offsets.
        let mut each_aligned = true;
        let mut last_name = None;
        for i in 0..element_count as usize {
            let mut e = r;
            e.seek(element_offset as usize + i * record, "signature element")?;
            let offset = e.offset();
            let stream = match layout {
                SignatureLayout::Basic => None,
                _ => Some(e.u32("signature element stream")?),
            };
            let name_at = e.offset();
            let name_offset = e.u32("signature element name offset")?;
            each_aligned &= name_offset % 4 == 0 && last_name < Some(name_offset);
            last_name = Some(name_offset);
            let name = r.cstr_at(name_offset as usize, "signature element name").map_err(|err| err.at(name_at))?;
            text_budget = text_budget.checked_sub(name.len()).ok_or_else(|| {
                Error::of(
                    ErrorKind::LimitExceeded,
                    "signature element names add up to more text than the chunk can hold",
                    name_at,
                )
            })?;
            let semantic_index = e.u32("signature element semantic index")?;
            let system_value = e.u32("signature element system value")?;
            let component_type = e.u32("signature element component type")?;
            let register = e.u32("signature element register")?;
            let mask = e.u8("signature element mask")?;
            let rw_mask = e.u8("signature element read/write mask")?;
            let reserved = e.u16("signature element padding")?;
            let min_precision = match layout {
                SignatureLayout::Precision => Some(e.u32("signature element minimum precision")?),
                _ => None,
            };
            elements.push(SignatureElement {
                offset,
                stream,
                name_offset,
                name,
                semantic_index,
                system_value,
                component_type,
                register,
                mask,
                rw_mask,
                reserved,
                min_precision,
            });
        }
        let strings = if each_aligned { StringPlacement::EachAligned } else { StringPlacement::Shared };
        Ok(Signature { offset: base, fourcc, layout, element_count, element_offset, elements, strings })
    }
}

impl Signature {
    /// Encodes the chunk payload from the elements: count and element
    /// offset are computed, names follow the records as [`Signature::strings`]
    /// says, and the payload is padded to a dword with `0xAB`. The stored `element_count`, `element_offset` and
    /// `name_offset` fields are not read.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.u32(self.elements.len() as u32);
        w.u32(8);
        let mut name_at = Vec::with_capacity(self.elements.len());
        for e in &self.elements {
            if self.layout != SignatureLayout::Basic {
                w.u32(e.stream.unwrap_or(0));
            }
            name_at.push(w.u32(0));
            w.u32(e.semantic_index);
            w.u32(e.system_value);
            w.u32(e.component_type);
            w.u32(e.register);
            w.bytes(&[e.mask, e.rw_mask]);
            w.u16(e.reserved);
            if self.layout == SignatureLayout::Precision {
                w.u32(e.min_precision.unwrap_or(0));
            }
        }
        for (e, at) in self.elements.iter().zip(name_at) {
            let s = match self.strings {
                StringPlacement::Shared => w.string(&e.name),
                StringPlacement::EachAligned => {
                    let s = w.string_unshared(&e.name);
                    w.align();
                    s
                }
            };
            w.patch(at, s);
        }
        w.align();
        w.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(layout: SignatureLayout, elems: &[(&str, u32, u32, u32, u32, u8, u8, u32, u32)]) -> Vec<u8> {
        let per = match layout {
            SignatureLayout::Basic => 24,
            SignatureLayout::Stream => 28,
            SignatureLayout::Precision => 32,
        };
        let mut d = Vec::new();
        d.extend_from_slice(&(elems.len() as u32).to_le_bytes());
        d.extend_from_slice(&8u32.to_le_bytes());
        let mut strings = Vec::new();
        let str_base = 8 + per * elems.len();
        let mut names = Vec::new();
        for e in elems {
            names.push((str_base + strings.len()) as u32);
            strings.extend_from_slice(e.0.as_bytes());
            strings.push(0);
        }
        for (i, &(_, idx, sv, ct, reg, mask, rw, stream, mp)) in elems.iter().enumerate() {
            if layout != SignatureLayout::Basic {
                d.extend_from_slice(&stream.to_le_bytes());
            }
            for v in [names[i], idx, sv, ct, reg] {
                d.extend_from_slice(&v.to_le_bytes());
            }
            d.extend_from_slice(&[mask, rw, 0, 0]);
            if layout == SignatureLayout::Precision {
                d.extend_from_slice(&mp.to_le_bytes());
            }
        }
        d.extend_from_slice(&strings);
        while d.len() % 4 != 0 {
            d.push(0xab);
        }
        d
    }

    #[test]
    fn parses_all_layouts() {
        let elems = [("SV_Position", 0, 1, 3, 0, 0xf, 0xf, 0, 0), ("TEXCOORD", 3, 0, 2, 1, 0x3, 0x1, 1, 4)];
        for (tag, layout) in [
            (*b"ISGN", SignatureLayout::Basic),
            (*b"OSG5", SignatureLayout::Stream),
            (*b"ISG1", SignatureLayout::Precision),
        ] {
            let d = build(layout, &elems);
            let s = Signature::parse(tag, &d, 0x40).unwrap();
            assert_eq!(s.layout, layout);
            assert_eq!(s.elements.len(), 2);
            let e = &s.elements[1];
            assert_eq!(e.name, "TEXCOORD");
            assert_eq!(e.semantic_index, 3);
            assert_eq!(e.component_type_name(), "int");
            assert_eq!((e.mask, e.rw_mask), (3, 1));
            assert_eq!(e.offset, 0x40 + 8 + [24, 28, 32][layout as usize]);
            assert_eq!(s.elements[0].system_value_name(), "POS");
            match layout {
                SignatureLayout::Basic => assert_eq!((e.stream, e.min_precision), (None, None)),
                SignatureLayout::Stream => assert_eq!((e.stream, e.min_precision), (Some(1), None)),
                SignatureLayout::Precision => {
                    assert_eq!((e.stream, e.min_precision), (Some(1), Some(4)))
                }
            }
        }
    }

    #[test]
    fn empty_signature() {
        let s = Signature::parse(*b"OSGN", &[0, 0, 0, 0, 8, 0, 0, 0], 0).unwrap();
        assert!(s.elements.is_empty());
    }

    #[test]
    fn errors_name_offsets() {
        let d = build(SignatureLayout::Basic, &[("A", 0, 0, 3, 0, 1, 1, 0, 0)]);
        // Count too large for the chunk.
        let mut big = d.clone();
        big[0..4].copy_from_slice(&1_000_000u32.to_le_bytes());
        let e = Signature::parse(*b"ISGN", &big, 0x100).unwrap_err();
        assert_eq!(e.offset(), 0x100);
        // Name offset outside the chunk.
        let mut bad = d.clone();
        bad[8..12].copy_from_slice(&0x1000u32.to_le_bytes());
        let e = Signature::parse(*b"ISGN", &bad, 0x100).unwrap_err();
        assert_eq!(e.offset(), 0x108);
        // Every truncation fails cleanly.
        for n in 0..d.len() {
            let _ = Signature::parse(*b"ISGN", &d[..n], 0);
        }
    }
}
