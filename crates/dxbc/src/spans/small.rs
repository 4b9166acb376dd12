//! The fixed-layout chunks: STAT (one dword per statistic, named by
//! `chunks::stat::FIELD_NAMES`) and SFI0 (a 64-bit feature mask).

use super::{Builder, Texts};
use crate::chunks::{sfi0::Sfi0, stat::Stat};

const STAT_TEXTS: Texts = &[
    ("stat", "A statistic the compiler recorded about the program (ID3D11ShaderReflection::GetDesc reports it)."),
    ("extra", "A dword past the statistics this tool knows (newer compilers may add some)."),
];

const SFI0_TEXTS: Texts = &[
    ("flags_low", "Feature flags, bits 0–31: optional hardware features the shader needs (D3D_SHADER_REQUIRES_*)."),
    ("flags_high", "Feature flags, bits 32–63."),
];

/// Claims every STAT dword.
pub(super) fn stat(s: &Stat, prefix: &str, b: &mut Builder) {
    for (name, f) in s.fields() {
        b.num(STAT_TEXTS, "stat", format!("{prefix}/{name}"), f.offset, 4, f.value as u64);
    }
    for (i, f) in s.extra.iter().enumerate() {
        b.num(STAT_TEXTS, "extra", format!("{prefix}/extra[{i}]"), f.offset, 4, f.value as u64);
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
