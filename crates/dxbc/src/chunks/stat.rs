//! STAT: the statistics fxc records about the program (what
//! `ID3D11ShaderReflection::GetDesc` reports). 29 dwords for SM4, 37 for SM5;
//! a longer chunk keeps its extra dwords in [`Stat::extra`].

use crate::error::{Error, ErrorKind, Result};
use serde::Serialize;

/// Names of the dwords in order, as used by [`Stat::fields`].
pub const FIELD_NAMES: [&str; 37] = [
    "instruction_count",
    "temp_register_count",
    "def_count",
    "dcl_count",
    "float_instruction_count",
    "int_instruction_count",
    "uint_instruction_count",
    "static_flow_control_count",
    "dynamic_flow_control_count",
    "macro_instruction_count",
    "temp_array_count",
    "array_instruction_count",
    "cut_instruction_count",
    "emit_instruction_count",
    "texture_normal_instructions",
    "texture_load_instructions",
    "texture_comp_instructions",
    "texture_bias_instructions",
    "texture_gradient_instructions",
    "mov_instruction_count",
    "movc_instruction_count",
    "conversion_instruction_count",
    "bitwise_instruction_count",
    "input_primitive",
    "gs_output_topology",
    "gs_max_output_vertex_count",
    "texture_gather_instructions",
    "texture_lod_instructions",
    "sample_frequency",
    "gs_instance_count",
    "control_points",
    "hs_output_primitive",
    "hs_partitioning",
    "tessellator_domain",
    "barrier_instructions",
    "interlocked_instructions",
    "texture_store_instructions",
];

/// One dword of the chunk.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct StatField {
    /// Absolute offset (u32 keeps [`Stat`] small: it is moved on every
    /// decode, and containers are capped far below 4 GiB).
    pub offset: u32,
    /// Value.
    pub value: u32,
}

/// Decoded STAT chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Stat {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// Total instruction count.
    pub instruction_count: StatField,
    /// Temporary registers.
    pub temp_register_count: StatField,
    /// `def` instructions (constants).
    pub def_count: StatField,
    /// Declarations.
    pub dcl_count: StatField,
    /// Float arithmetic instructions.
    pub float_instruction_count: StatField,
    /// Signed integer instructions.
    pub int_instruction_count: StatField,
    /// Unsigned integer instructions.
    pub uint_instruction_count: StatField,
    /// Static flow-control instructions.
    pub static_flow_control_count: StatField,
    /// Dynamic flow-control instructions.
    pub dynamic_flow_control_count: StatField,
    /// Macro instructions.
    pub macro_instruction_count: StatField,
    /// Temporary arrays (indexable temps).
    pub temp_array_count: StatField,
    /// Instructions addressing arrays.
    pub array_instruction_count: StatField,
    /// `cut` instructions.
    pub cut_instruction_count: StatField,
    /// `emit` instructions.
    pub emit_instruction_count: StatField,
    /// `sample` instructions.
    pub texture_normal_instructions: StatField,
    /// `ld` instructions.
    pub texture_load_instructions: StatField,
    /// `sample_c` instructions.
    pub texture_comp_instructions: StatField,
    /// `sample_b` instructions.
    pub texture_bias_instructions: StatField,
    /// `sample_d` instructions.
    pub texture_gradient_instructions: StatField,
    /// `mov` instructions.
    pub mov_instruction_count: StatField,
    /// `movc` instructions.
    pub movc_instruction_count: StatField,
    /// Type-conversion instructions.
    pub conversion_instruction_count: StatField,
    /// Bitwise instructions.
    pub bitwise_instruction_count: StatField,
    /// GS input primitive (`D3D_PRIMITIVE`: 1 point, 2 line, 3 triangle, 6 line adj, 7 triangle adj, 8+ patches).
    pub input_primitive: StatField,
    /// GS output topology (`D3D_PRIMITIVE_TOPOLOGY`: 1 point list, 3 line strip, 5 triangle strip).
    pub gs_output_topology: StatField,
    /// GS `maxvertexcount`.
    pub gs_max_output_vertex_count: StatField,
    /// `gather4` instructions.
    pub texture_gather_instructions: StatField,
    /// `lod` instructions.
    pub texture_lod_instructions: StatField,
    /// Pixel shader runs at sample frequency.
    pub sample_frequency: StatField,
    /// SM5: GS instance count.
    pub gs_instance_count: Option<StatField>,
    /// SM5: HS output / DS input control points.
    pub control_points: Option<StatField>,
    /// SM5: HS output primitive (`D3D_TESSELLATOR_OUTPUT_PRIMITIVE`: 1 point, 2 line, 3 triangle cw, 4 triangle ccw).
    pub hs_output_primitive: Option<StatField>,
    /// SM5: HS partitioning (`D3D_TESSELLATOR_PARTITIONING`: 1 integer, 2 pow2, 3 fractional odd, 4 fractional even).
    pub hs_partitioning: Option<StatField>,
    /// SM5: tessellator domain (`D3D_TESSELLATOR_DOMAIN`: 1 isoline, 2 tri, 3 quad).
    pub tessellator_domain: Option<StatField>,
    /// SM5: `sync` (barrier) instructions.
    pub barrier_instructions: Option<StatField>,
    /// SM5: interlocked (atomic) instructions.
    pub interlocked_instructions: Option<StatField>,
    /// SM5: UAV store instructions.
    pub texture_store_instructions: Option<StatField>,
    /// Dwords after the 37 known ones, if any.
    pub extra: Vec<StatField>,
}

impl Stat {
    /// Parses the chunk payload; `base` is its absolute offset. At least the
    /// 29 SM4 dwords must be present.
    pub fn parse(data: &[u8], base: usize) -> Result<Stat> {
        if data.len() < 29 * 4 {
            return Err(Error::of(
                ErrorKind::Truncated,
                format!("expected at least 116 bytes of STAT (29 dwords), found {}", data.len()),
                base,
            ));
        }
        // The length was checked above (29 dwords, 37 for the SM5 fields
        // read through `g`), so fields are read by index without re-checking.
        let f = |i: usize| StatField { offset: (base + i * 4) as u32, value: crate::reader::dword(data, i) };
        let sm5 = data.len() >= 37 * 4;
        let g = |i: usize| if sm5 { Some(f(i)) } else { None };
        let used = if sm5 { 37 } else { 29 };
        let extra = if data.len() / 4 > used { (used..data.len() / 4).map(f).collect() } else { Vec::new() };
        Ok(Stat {
            offset: base,
            instruction_count: f(0),
            temp_register_count: f(1),
            def_count: f(2),
            dcl_count: f(3),
            float_instruction_count: f(4),
            int_instruction_count: f(5),
            uint_instruction_count: f(6),
            static_flow_control_count: f(7),
            dynamic_flow_control_count: f(8),
            macro_instruction_count: f(9),
            temp_array_count: f(10),
            array_instruction_count: f(11),
            cut_instruction_count: f(12),
            emit_instruction_count: f(13),
            texture_normal_instructions: f(14),
            texture_load_instructions: f(15),
            texture_comp_instructions: f(16),
            texture_bias_instructions: f(17),
            texture_gradient_instructions: f(18),
            mov_instruction_count: f(19),
            movc_instruction_count: f(20),
            conversion_instruction_count: f(21),
            bitwise_instruction_count: f(22),
            input_primitive: f(23),
            gs_output_topology: f(24),
            gs_max_output_vertex_count: f(25),
            texture_gather_instructions: f(26),
            texture_lod_instructions: f(27),
            sample_frequency: f(28),
            gs_instance_count: g(29),
            control_points: g(30),
            hs_output_primitive: g(31),
            hs_partitioning: g(32),
            tessellator_domain: g(33),
            barrier_instructions: g(34),
            interlocked_instructions: g(35),
            texture_store_instructions: g(36),
            extra,
        })
    }

    /// Every known field as (name, field), in chunk order.
    pub fn fields(&self) -> Vec<(&'static str, StatField)> {
        let mut v = vec![
            self.instruction_count,
            self.temp_register_count,
            self.def_count,
            self.dcl_count,
            self.float_instruction_count,
            self.int_instruction_count,
            self.uint_instruction_count,
            self.static_flow_control_count,
            self.dynamic_flow_control_count,
            self.macro_instruction_count,
            self.temp_array_count,
            self.array_instruction_count,
            self.cut_instruction_count,
            self.emit_instruction_count,
            self.texture_normal_instructions,
            self.texture_load_instructions,
            self.texture_comp_instructions,
            self.texture_bias_instructions,
            self.texture_gradient_instructions,
            self.mov_instruction_count,
            self.movc_instruction_count,
            self.conversion_instruction_count,
            self.bitwise_instruction_count,
            self.input_primitive,
            self.gs_output_topology,
            self.gs_max_output_vertex_count,
            self.texture_gather_instructions,
            self.texture_lod_instructions,
            self.sample_frequency,
        ];
        for o in [
            self.gs_instance_count,
            self.control_points,
            self.hs_output_primitive,
            self.hs_partitioning,
            self.tessellator_domain,
            self.barrier_instructions,
            self.interlocked_instructions,
            self.texture_store_instructions,
        ]
        .into_iter()
        .flatten()
        {
            v.push(o);
        }
        FIELD_NAMES.iter().copied().zip(v).collect()
    }

    /// Encodes the chunk payload: every field's value in chunk order (29
    /// dwords, 37 with the SM5 fields), then the extra dwords. The stored
    /// offsets are not read.
    pub fn encode(&self) -> Vec<u8> {
        let fields = self.fields();
        let mut out = Vec::with_capacity((fields.len() + self.extra.len()) * 4);
        for f in fields.iter().map(|(_, f)| f).chain(&self.extra) {
            out.extend_from_slice(&f.value.to_le_bytes());
        }
        out
    }

    /// Tessellator domain value (0 when absent).
    pub fn domain(&self) -> u32 {
        self.tessellator_domain.map_or(0, |f| f.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(n: u32) -> Vec<u8> {
        (0..n).flat_map(|i| (i * 10).to_le_bytes()).collect()
    }

    #[test]
    fn parses_sm4_and_sm5() {
        let s = Stat::parse(&bytes(29), 0x200).unwrap();
        assert_eq!(s.instruction_count.value, 0);
        assert_eq!(s.temp_register_count.value, 10);
        assert_eq!(s.sample_frequency.value, 280);
        assert_eq!(s.sample_frequency.offset, 0x200 + 28 * 4);
        assert!(s.tessellator_domain.is_none());
        assert_eq!(s.fields().len(), 29);

        let s = Stat::parse(&bytes(37), 0).unwrap();
        assert_eq!(s.control_points.unwrap().value, 300);
        assert_eq!(s.tessellator_domain.unwrap().value, 330);
        assert_eq!(s.texture_store_instructions.unwrap().value, 360);
        assert!(s.extra.is_empty());
        let f = s.fields();
        assert_eq!(f.len(), 37);
        assert_eq!((f[33].0, f[33].1.value), ("tessellator_domain", 330));

        let s = Stat::parse(&bytes(39), 0).unwrap();
        assert_eq!(s.extra.len(), 2);
        assert_eq!(s.extra[1].value, 380);
    }

    #[test]
    fn short_chunk_is_an_error() {
        let e = Stat::parse(&bytes(28), 0x10).unwrap_err();
        assert_eq!(e.offset(), 0x10);
        assert!(e.message().contains("116"));
        assert_eq!(e.kind(), ErrorKind::Truncated);
    }
}
