//! The fixed-layout chunks: STAT (one dword per statistic, named by
//! `chunks::stat::FIELD_NAMES`) and SFI0 (a 64-bit feature mask).

use super::{Builder, Texts};
use crate::chunks::{sfi0::Sfi0, stat::Stat};

/// One text per statistic, keyed by `chunks::stat::FIELD_NAMES`.
const STAT_TEXTS: Texts = &[
    ("instruction_count", "Instructions in the program, declarations excluded."),
    ("temp_register_count", "Temporary registers (r#) the program declares."),
    ("def_count", "Constant definitions (immediate constant buffer entries)."),
    ("dcl_count", "Declarations in the program."),
    ("float_instruction_count", "Floating-point arithmetic instructions."),
    ("int_instruction_count", "Signed integer arithmetic instructions."),
    ("uint_instruction_count", "Unsigned integer arithmetic instructions."),
    ("static_flow_control_count", "Flow-control instructions whose path is known at compile time."),
    ("dynamic_flow_control_count", "Flow-control instructions that branch on run-time values."),
    ("macro_instruction_count", "Macro instructions (expanded by the driver)."),
    ("temp_array_count", "Indexable temporary arrays (x#) the program declares."),
    ("array_instruction_count", "Instructions that index into arrays."),
    ("cut_instruction_count", "cut instructions (geometry shaders end a strip)."),
    ("emit_instruction_count", "emit instructions (geometry shaders output a vertex)."),
    ("texture_normal_instructions", "Plain texture sample instructions."),
    ("texture_load_instructions", "Texture load (ld) instructions."),
    ("texture_comp_instructions", "Texture comparison sample instructions."),
    ("texture_bias_instructions", "Texture sample instructions with a LOD bias."),
    ("texture_gradient_instructions", "Texture sample instructions with explicit gradients."),
    ("mov_instruction_count", "mov instructions."),
    ("movc_instruction_count", "movc (conditional move) instructions."),
    ("conversion_instruction_count", "Type conversion instructions (ftoi, itof, …)."),
    ("bitwise_instruction_count", "Bitwise instructions."),
    ("input_primitive", "Geometry shader input primitive (D3D_PRIMITIVE)."),
    ("gs_output_topology", "Geometry shader output topology (D3D_PRIMITIVE_TOPOLOGY)."),
    ("gs_max_output_vertex_count", "Most vertices a geometry shader invocation emits."),
    ("texture_gather_instructions", "Texture gather instructions."),
    ("texture_lod_instructions", "Texture LOD query instructions."),
    ("sample_frequency", "Non-zero when the pixel shader runs once per sample."),
    ("gs_instance_count", "Geometry shader instance count (SM5)."),
    ("control_points", "Control points of a hull or domain shader's patch (SM5)."),
    ("hs_output_primitive", "Tessellator output primitive (SM5)."),
    ("hs_partitioning", "Tessellator partitioning (SM5)."),
    ("tessellator_domain", "Tessellator domain: isoline, triangle or quad (SM5)."),
    ("barrier_instructions", "Barrier (sync) instructions (SM5)."),
    ("interlocked_instructions", "Atomic (interlocked) instructions (SM5)."),
    ("texture_store_instructions", "UAV store instructions (SM5)."),
    ("extra", "A dword past the statistics this tool knows (newer compilers may add some)."),
];

const SFI0_TEXTS: Texts = &[
    ("flags_low", "Feature flags, bits 0–31: optional hardware features the shader needs (D3D_SHADER_REQUIRES_*)."),
    ("flags_high", "Feature flags, bits 32–63."),
];

/// Claims every STAT dword.
pub(super) fn stat(s: &Stat, prefix: &str, b: &mut Builder) {
    for (name, f) in s.fields() {
        b.num(STAT_TEXTS, name, format!("{prefix}/{name}"), f.offset as usize, 4, f.value as u64);
    }
    for (i, f) in s.extra.iter().enumerate() {
        b.num(STAT_TEXTS, "extra", format!("{prefix}/extra[{i}]"), f.offset as usize, 4, f.value as u64);
    }
}

/// Claims the two SFI0 flag dwords; the meaning lists the set features.
pub(super) fn sfi0(s: &Sfi0, prefix: &str, b: &mut Builder) {
    for (half, key) in [(0u32, "flags_low"), (1, "flags_high")] {
        let v = (s.flags >> (32 * half)) as u32;
        let names: Vec<&str> = s.features.iter().filter(|f| f.bit / 32 == half).map(|f| f.name.as_str()).collect();
        b.num_m(
            SFI0_TEXTS,
            key,
            format!("{prefix}/{key}"),
            s.offset + 4 * half as usize,
            4,
            v as u64,
            names.join(", "),
        );
    }
}
