//! Signature chunks (ISGN, OSGN, OSG5, PCSG, ISG1, OSG1, PSG1): the header,
//! every field of every element, and the semantic-name strings. The string
//! pool's alignment bytes are left to the tiling pass (`…/padding`).

use super::{Builder, Texts};
use crate::chunks::signature::{Signature, SignatureLayout};

const TEXTS: Texts = &[
    ("element_count", "Number of elements (one per semantic the stage passes)."),
    ("element_offset", "Offset of the first element record from the start of the payload (8)."),
    ("stream", "Geometry-shader output stream the element belongs to (0–3)."),
    ("name_offset", "Offset of the semantic name from the start of the payload."),
    ("semantic_name", "The semantic name, NUL-terminated (shared by elements with the same name)."),
    ("semantic_index", "Semantic index: the N in TEXCOORDN."),
    ("system_value", "System value (D3D_NAME) the element carries, 0 for an ordinary semantic."),
    ("component_type", "Component type of the register: 1 uint, 2 int, 3 float."),
    ("register", "The v#/o# register the element lives in."),
    ("mask", "Components of the register the element occupies (bit 0 = x)."),
    ("rw_mask", "Inputs: components the shader reads. Outputs: components the shader never writes."),
    ("reserved", "Two unused bytes, zero."),
    ("min_precision", "Minimum precision of the element (SM5.1 signatures)."),
];

/// Claims the whole chunk under `prefix`.
pub(super) fn claim(s: &Signature, prefix: &str, b: &mut Builder) {
    let o = s.offset;
    b.num(TEXTS, "element_count", format!("{prefix}/element_count"), o, 4, s.element_count as u64);
    b.num(TEXTS, "element_offset", format!("{prefix}/element_offset"), o + 4, 4, s.element_offset as u64);
    for (i, e) in s.elements.iter().enumerate() {
        let p = format!("{prefix}/elements[{i}]");
        let mut at = e.offset;
        if let Some(v) = e.stream {
            b.num(TEXTS, "stream", format!("{p}/stream"), at, 4, v as u64);
            at += 4;
        }
        b.num_m(TEXTS, "name_offset", format!("{p}/name_offset"), at, 4, e.name_offset as u64, e.name.clone());
        b.text(TEXTS, "semantic_name", format!("{p}/semantic_name"), o + e.name_offset as usize, &e.name);
        let sv = format!("{} ({})", e.system_value_name(), e.system_value);
        b.num(TEXTS, "semantic_index", format!("{p}/semantic_index"), at + 4, 4, e.semantic_index as u64);
        b.num_m(TEXTS, "system_value", format!("{p}/system_value"), at + 8, 4, e.system_value as u64, sv);
        let ty = e.component_type_name();
        b.num_m(TEXTS, "component_type", format!("{p}/component_type"), at + 12, 4, e.component_type as u64, ty);
        b.num(TEXTS, "register", format!("{p}/register"), at + 16, 4, e.register as u64);
        b.num_m(TEXTS, "mask", format!("{p}/mask"), at + 20, 1, e.mask as u64, xyzw(e.mask));
        b.num_m(TEXTS, "rw_mask", format!("{p}/rw_mask"), at + 21, 1, e.rw_mask as u64, xyzw(e.rw_mask));
        b.num(TEXTS, "reserved", format!("{p}/reserved"), at + 22, 2, e.reserved as u64);
        if let (SignatureLayout::Precision, Some(v)) = (s.layout, e.min_precision) {
            b.num(TEXTS, "min_precision", format!("{p}/min_precision"), at + 24, 4, v as u64);
        }
    }
}

/// A component mask as fxc prints it (`xy w`).
pub(super) fn xyzw(m: u8) -> String {
    "xyzw".chars().enumerate().map(|(i, c)| if m >> i & 1 != 0 { c } else { ' ' }).collect()
}
