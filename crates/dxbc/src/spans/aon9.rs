//! Aon9: the header, the table directory, every constant-buffer, loop,
//! sampler and runtime-constant mapping, and the embedded SM2 token stream
//! token by token. Each SM2 instruction's dwords link to the instruction's
//! line in the level-9 part of the listing
//! ([`crate::chunks::aon9::Sm2Program::listing_lines`]). Comment blocks
//! (CTAB, DBUG) are one token leaf and one body leaf each.

use super::{Builder, Link, Texts, Value};
use crate::chunks::aon9::{Aon9, Sm2Instruction, Sm2Program};

const TEXTS: Texts = &[
    ("size", "Payload size, repeating the chunk header's size field."),
    ("min_version", "D3D9 version token of the lowest level-9 target (vs_2_0 / ps_2_0)."),
    ("shader_size", "Byte size of the embedded SM2 token stream."),
    ("shader_offset", "Offset of the SM2 token stream from the start of the payload."),
    ("table_count", "Number of entries in this mapping table."),
    ("table_offset", "Offset of this mapping table from the start of the payload."),
    ("buffer", "Source constant buffer (cb#)."),
    ("start_register", "First source register in the constant buffer."),
    ("register_count", "Number of registers mapped."),
    ("target_register", "Target D3D9 register (c# or i#)."),
    ("conversion", "Data conversion of one component: 0 float, 1 bool, 2 int, 3 uint."),
    ("source_register", "Source register in the constant buffer."),
    ("component", "Source component (0 = x)."),
    ("source_resource", "Source D3D10 resource (t#)."),
    ("source_sampler", "Source D3D10 sampler (s#)."),
    ("target_sampler", "Target D3D9 sampler (s#)."),
    ("sampler_padding", "Unused fourth byte of a sampler mapping."),
    ("kind", "Runtime constant kind: 0 = vertex shader position offset."),
    ("sm2_version", "SM2 version token: 0xFFFE (vertex) or 0xFFFF (pixel), major and minor version."),
    ("sm2_instruction", "SM2 instruction token: opcode (bits 0–15), controls (16–23), parameter count (24–27), predicate (28), co-issue (30)."),
    ("sm2_dst", "SM2 destination parameter: register type and number, write mask, result modifier, shift."),
    ("sm2_src", "SM2 source parameter: register type and number, swizzle, source modifier."),
    ("sm2_predicate", "SM2 predicate register of a predicated instruction."),
    ("sm2_relative", "SM2 relative-address token: the address register (a0 or aL) and its component."),
    ("sm2_decl", "SM2 dcl usage token: usage and index, or sampler texture type."),
    ("sm2_constant", "Immediate value of def (float bits), defi (integer) or defb (boolean)."),
    ("sm2_comment", "SM2 comment token: 0xFFFE and the number of dwords that follow (bits 16–30)."),
    ("sm2_comment_body", "Comment payload: constant table (CTAB), debug information (DBUG) or other compiler notes."),
    ("sm2_end", "SM2 end token 0x0000FFFF."),
    ("dbug_fourcc", "\"DBUG\": this comment holds the debug information of a /Zi compile."),
];

/// Claims the whole chunk under `prefix`; its program's version line is
/// level-9 line `line0` of the listing.
pub(super) fn claim(a: &Aon9, prefix: &str, line0: usize, b: &mut Builder) {
    let (o, p) = (a.offset, prefix);
    b.num(TEXTS, "size", format!("{p}/size"), o, 4, a.size.into());
    let v = &a.min_version;
    b.num_m(TEXTS, "min_version", format!("{p}/min_version"), v.offset, 4, v.token.into(), v.name());
    b.num(TEXTS, "shader_size", format!("{p}/shader_size"), o + 8, 4, a.shader_size.into());
    b.num(TEXTS, "shader_offset", format!("{p}/shader_offset"), o + 12, 4, a.shader_offset.into());
    for (i, t) in a.tables.iter().enumerate() {
        let q = format!("{p}/tables[{i}]");
        b.num_m(TEXTS, "table_count", format!("{q}/count"), t.field_offset, 2, t.count.into(), t.name);
        b.num(TEXTS, "table_offset", format!("{q}/offset"), t.field_offset + 2, 2, t.relative_offset.into());
    }
    for (i, m) in a.constant_buffer_mappings.iter().enumerate() {
        let q = format!("{p}/constant_buffer_mappings[{i}]");
        let f = [
            ("buffer", m.buffer),
            ("start_register", m.start_register),
            ("register_count", m.register_count),
            ("target_register", m.target_register),
        ];
        halves(b, &q, m.offset, &f);
        for (k, &c) in m.conversion.iter().enumerate() {
            b.num(TEXTS, "conversion", format!("{q}/conversion[{k}]"), m.offset + 8 + k, 1, c.into());
        }
    }
    for (i, m) in a.loop_register_mappings.iter().enumerate() {
        let q = format!("{p}/loop_register_mappings[{i}]");
        let f = [
            ("buffer", m.buffer),
            ("source_register", m.source_register),
            ("component", m.component),
            ("target_register", m.target_register),
        ];
        halves(b, &q, m.offset, &f);
    }
    for (i, m) in a.sampler_mappings.iter().enumerate() {
        let q = format!("{p}/sampler_mappings[{i}]");
        let f = [
            ("source_resource", "source_resource", m.source_resource),
            ("source_sampler", "source_sampler", m.source_sampler),
            ("target_sampler", "target_sampler", m.target_sampler),
            ("sampler_padding", "padding", m.padding),
        ];
        for (k, (key, n, v)) in f.into_iter().enumerate() {
            b.num(TEXTS, key, format!("{q}/{n}"), m.offset + k, 1, v.into());
        }
    }
    for (i, m) in a.runtime_constant_mappings.iter().enumerate() {
        let q = format!("{p}/runtime_constant_mappings[{i}]");
        halves(b, &q, m.offset, &[("kind", m.kind), ("target_register", m.target_register)]);
    }
    program(&a.program, &format!("{p}/program"), line0, b);
}

/// Consecutive u16 fields named by their keys.
fn halves(b: &mut Builder, q: &str, at: usize, fields: &[(&str, u16)]) {
    for (k, &(n, v)) in fields.iter().enumerate() {
        b.num(TEXTS, n, format!("{q}/{n}"), at + 2 * k, 2, v.into());
    }
}

fn program(s: &Sm2Program, q: &str, line0: usize, b: &mut Builder) {
    let v = &s.version;
    b.num_m(TEXTS, "sm2_version", format!("{q}/version"), v.offset, 4, v.token.into(), v.name());
    b.link(Link::Level9Line(line0));
    let lines = s.listing_lines();
    for (i, ins) in s.instructions.iter().enumerate() {
        let line = lines.get(i).map(|&l| Link::Level9Line(line0 + l));
        instruction(ins, &format!("{q}/instructions[{i}]"), line, b);
    }
    // The decoder reads the first DBUG comment only.
    let dbug = s.comments.iter().position(|c| c.fourcc.as_deref() == Some("DBUG"));
    for (i, c) in s.comments.iter().enumerate() {
        let cq = format!("{q}/comments[{i}]");
        let fourcc = c.fourcc.clone().unwrap_or_default();
        b.num_m(TEXTS, "sm2_comment", format!("{cq}/token"), c.offset, 4, c.token.into(), fourcc);
        let body = c.offset + 4..c.offset + 4 + 4 * c.dwords as usize;
        match (&s.debug_info, dbug == Some(i)) {
            (Some(d), true) => {
                b.field(
                    TEXTS,
                    "dbug_fourcc",
                    format!("{cq}/fourcc"),
                    body.start,
                    4,
                    Value::Text("DBUG".into()),
                    "".into(),
                );
                super::dbug::claim(d, body.end, &format!("{cq}/dbug"), b);
            }
            _ => b.bytes(TEXTS, "sm2_comment_body", format!("{cq}/body"), body),
        }
    }
    b.num(TEXTS, "sm2_end", format!("{q}/end"), s.end_offset, 4, 0xFFFF);
}

fn instruction(ins: &Sm2Instruction, q: &str, line: Option<Link>, b: &mut Builder) {
    let put = |b: &mut Builder, key: &str, path: String, at: usize, v: u32, meaning: &'static str| {
        b.num_m(TEXTS, key, path, at, 4, v.into(), meaning);
        if let Some(l) = line {
            b.link(l);
        }
    };
    put(b, "sm2_instruction", format!("{q}/token"), ins.offset, ins.token, ins.mnemonic);
    if let Some(d) = &ins.decl {
        put(b, "sm2_decl", format!("{q}/decl"), d.offset, d.token, "");
    }
    let param = |b: &mut Builder, key: &str, path: String, at: usize, v: u32, rel: Option<(usize, u32)>| {
        if let Some((ra, rv)) = rel {
            put(b, "sm2_relative", format!("{path}/relative"), ra, rv, "");
        }
        put(b, key, path, at, v, "");
    };
    if let Some(d) = &ins.dst {
        param(b, "sm2_dst", format!("{q}/dst"), d.offset, d.token, d.relative.as_ref().map(|r| (r.offset, r.token)));
    }
    if let Some(d) = &ins.predicate {
        let rel = d.relative.as_ref().map(|r| (r.offset, r.token));
        param(b, "sm2_predicate", format!("{q}/predicate"), d.offset, d.token, rel);
    }
    for (k, d) in ins.src.iter().enumerate() {
        let rel = d.relative.as_ref().map(|r| (r.offset, r.token));
        param(b, "sm2_src", format!("{q}/src[{k}]"), d.offset, d.token, rel);
    }
    let (at, words): (usize, Vec<u32>) = match &ins.constant {
        Some(crate::chunks::aon9::ConstValue::Float { offset, bits, .. }) => (*offset, bits.to_vec()),
        Some(crate::chunks::aon9::ConstValue::Int { offset, values }) => (*offset, values.map(|v| v as u32).to_vec()),
        Some(crate::chunks::aon9::ConstValue::Bool { offset, value }) => (*offset, vec![*value]),
        None => (0, Vec::new()),
    };
    for (k, w) in words.into_iter().enumerate() {
        b.num(TEXTS, "sm2_constant", format!("{q}/constant[{k}]"), at + 4 * k, 4, w.into());
        if let Some(l) = line {
            b.link(l);
        }
    }
}
