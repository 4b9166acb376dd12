//! RDEF: the header (with the SM5 `RD11` extension), constant buffers, their
//! variables, types (members nested to any depth), default values, resource
//! bindings (with the SM5.1 space and range ID), the creator string and
//! every name string the records point at.
//!
//! fxc shares type records and strings between users (every `float4`
//! variable points at one type record); each is claimed by every user and
//! the tiling keeps the first claimant's path.

use super::{Builder, Texts};
use crate::chunks::rdef::{ConstantBuffer, Rdef, Type, Variable};
use crate::listing::header::{binding_dimension, binding_format, binding_type, type_name};

const TEXTS: Texts = &[
    ("constant_buffer_count", "Number of constant-buffer records."),
    ("constant_buffer_offset", "Offset of the first constant-buffer record from the start of the payload."),
    ("binding_count", "Number of resource-binding records."),
    ("binding_offset", "Offset of the first resource-binding record from the start of the payload."),
    ("minor_version", "Minor shader model the reflection was written for."),
    ("major_version", "Major shader model the reflection was written for (5 adds the RD11 header)."),
    ("program_type", "Program type: 0xFFFF pixel, 0xFFFE vertex, or the ASCII pair GS, HS, DS, CS."),
    ("compile_flags", "The D3DCOMPILE_* flags the shader was compiled with."),
    ("creator_offset", "Offset of the creator string from the start of the payload."),
    ("creator", "The compiler that wrote the shader, NUL-terminated."),
    ("rd11_magic", "SM5 header magic: \"RD11\" for 5.0, 0x25441313 for 5.1 (bindings with space and ID)."),
    ("header_size", "Size of the RDEF header in bytes (60)."),
    ("record_size", "Size in bytes of one record of this kind, so readers can skip fields they do not know."),
    ("interface_slot_count", "Number of interface slots the shader declares."),
    ("name_offset", "Offset of the name string from the start of the payload."),
    ("name", "A name, NUL-terminated."),
    ("variable_count", "Number of variables in the buffer."),
    ("variable_offset", "Offset of the buffer's first variable record from the start of the payload."),
    ("cb_size", "Size of the buffer in bytes (a multiple of 16 for cbuffers)."),
    ("cb_flags", "D3D_SHADER_CBUFFER_FLAGS: 1 = user packed (explicit packoffset)."),
    ("cb_kind", "D3D_CBUFFER_TYPE: 0 cbuffer, 1 tbuffer, 2 interface pointers, 3 resource bind info."),
    ("start_offset", "Byte offset of the variable within its buffer."),
    ("var_size", "Size of the variable in bytes."),
    (
        "var_flags",
        "D3D_SHADER_VARIABLE_FLAGS: 1 user packed, 2 used by the shader, 4 interface pointer, 8 interface parameter.",
    ),
    ("type_offset", "Offset of the type record from the start of the payload."),
    ("default_value_offset", "Offset of the default value from the start of the payload, 0 when there is none."),
    ("default_value", "The variable's initial value as written in the source, in buffer layout."),
    ("slot", "First texture or sampler slot the variable uses (0xFFFFFFFF when none) or how many (SM5)."),
    ("class", "D3D_SHADER_VARIABLE_CLASS: scalar, vector, matrix (row or column major), object, struct, interface."),
    ("base_type", "D3D_SHADER_VARIABLE_TYPE: float, int, uint, bool, double, texture kinds, …"),
    ("rows", "Number of rows (1 for scalars and vectors)."),
    ("columns", "Number of columns (vector width)."),
    ("elements", "Array length, 0 when the type is not an array."),
    ("member_count", "Number of struct or class members."),
    ("member_offset", "Offset of the first member record from the start of the payload."),
    ("subtype_offset", "Offset of the sub-type record, 0 when none (SM5)."),
    ("base_class_offset", "Offset of the base class's type record, 0 when none (SM5)."),
    ("interface_count", "Number of interfaces the class implements (SM5)."),
    ("interface_offset", "Offset of the table of interface type offsets (SM5)."),
    ("interface", "Offset of the type record of one interface the class implements."),
    ("member_start", "Byte offset of the member within its parent type."),
    (
        "input_type",
        "D3D_SHADER_INPUT_TYPE: cbuffer, tbuffer, texture, sampler, UAV or structured/byte-address buffer kinds.",
    ),
    ("return_type", "D3D_RESOURCE_RETURN_TYPE of a texture's components (0 for non-textures)."),
    ("dimension", "D3D_SRV_DIMENSION: buffer, 1D, 2D, 3D, cube, arrays, multisampled."),
    (
        "sample_count",
        "Samples of a multisampled texture, or stride of a structured buffer; 0xFFFFFFFF when not applicable.",
    ),
    ("bind_point", "First register (t#, s#, u#, cb#) of the binding."),
    ("bind_count", "Number of registers, 0 for an unbounded array."),
    (
        "bind_flags",
        "D3D_SHADER_INPUT_FLAGS: 1 user packed, 2 comparison sampler, bits 2–3 components − 1, 0x10 unused.",
    ),
    ("space", "Register space of the binding (SM5.1)."),
    ("id", "Range ID: the binding's index in the program's declarations (SM5.1)."),
];

/// Claims the whole chunk under `prefix`.
pub(super) fn claim(r: &Rdef, prefix: &str, b: &mut Builder) {
    let o = r.offset;
    let p = prefix;
    b.num(TEXTS, "constant_buffer_count", format!("{p}/constant_buffer_count"), o, 4, r.constant_buffer_count.into());
    b.num(
        TEXTS,
        "constant_buffer_offset",
        format!("{p}/constant_buffer_offset"),
        o + 4,
        4,
        r.constant_buffer_offset.into(),
    );
    b.num(TEXTS, "binding_count", format!("{p}/binding_count"), o + 8, 4, r.binding_count.into());
    b.num(TEXTS, "binding_offset", format!("{p}/binding_offset"), o + 12, 4, r.binding_offset.into());
    b.num(TEXTS, "minor_version", format!("{p}/minor_version"), o + 16, 1, r.minor_version.into());
    b.num(TEXTS, "major_version", format!("{p}/major_version"), o + 17, 1, r.major_version.into());
    let pt = r.program_type_name();
    b.num_m(TEXTS, "program_type", format!("{p}/program_type"), o + 18, 2, r.program_type.into(), pt);
    b.num(TEXTS, "compile_flags", format!("{p}/compile_flags"), o + 20, 4, r.compile_flags.into());
    b.num_m(
        TEXTS,
        "creator_offset",
        format!("{p}/creator_offset"),
        o + 24,
        4,
        r.creator_offset.into(),
        r.creator.clone(),
    );
    b.text(TEXTS, "creator", format!("{p}/creator"), o + r.creator_offset as usize, &r.creator);
    if let Some(h) = &r.rd11 {
        let at = h.offset;
        let m = if h.sm51 { "RD11 (SM5.1)" } else { "RD11" };
        b.num_m(TEXTS, "rd11_magic", format!("{p}/rd11/magic"), at, 4, h.magic.into(), m);
        b.num(TEXTS, "header_size", format!("{p}/rd11/header_size"), at + 4, 4, h.header_size.into());
        let sizes = [
            ("constant_buffer_record_size", h.constant_buffer_record_size),
            ("binding_record_size", h.binding_record_size),
            ("variable_record_size", h.variable_record_size),
            ("type_record_size", h.type_record_size),
            ("member_record_size", h.member_record_size),
        ];
        for (i, (name, v)) in sizes.into_iter().enumerate() {
            b.num(TEXTS, "record_size", format!("{p}/rd11/{name}"), at + 8 + 4 * i, 4, v.into());
        }
        let n = h.interface_slot_count.into();
        b.num(TEXTS, "interface_slot_count", format!("{p}/rd11/interface_slot_count"), at + 28, 4, n);
    }
    let mut c = Ctx { base: o, sm5: r.rd11.is_some() };
    for (i, cb) in r.constant_buffers.iter().enumerate() {
        constant_buffer(cb, &mut c, &format!("{p}/constant_buffers[{i}]"), b);
    }
    for (i, x) in r.bindings.iter().enumerate() {
        let q = format!("{p}/bindings[{i}]");
        let at = x.offset;
        name(b, &q, at, o, x.name_offset, &x.name);
        b.num_m(TEXTS, "input_type", format!("{q}/input_type"), at + 4, 4, x.input_type.into(), binding_type(x));
        b.num_m(TEXTS, "return_type", format!("{q}/return_type"), at + 8, 4, x.return_type.into(), binding_format(x));
        b.num_m(TEXTS, "dimension", format!("{q}/dimension"), at + 12, 4, x.dimension.into(), binding_dimension(x));
        b.num(TEXTS, "sample_count", format!("{q}/sample_count"), at + 16, 4, x.sample_count.into());
        b.num(TEXTS, "bind_point", format!("{q}/bind_point"), at + 20, 4, x.bind_point.into());
        b.num(TEXTS, "bind_count", format!("{q}/bind_count"), at + 24, 4, x.bind_count.into());
        b.num(TEXTS, "bind_flags", format!("{q}/flags"), at + 28, 4, x.flags.into());
        if let (Some(s), Some(id)) = (x.space, x.id) {
            b.num(TEXTS, "space", format!("{q}/space"), at + 32, 4, s.into());
            b.num(TEXTS, "id", format!("{q}/id"), at + 36, 4, id.into());
        }
    }
}

/// The `name_offset` dword at `at` and the string it points at.
fn name(b: &mut Builder, q: &str, at: usize, base: usize, off: u32, s: &str) {
    b.num_m(TEXTS, "name_offset", format!("{q}/name_offset"), at, 4, off.into(), s.to_string());
    b.text(TEXTS, "name", format!("{q}/name"), base + off as usize, s);
}

struct Ctx {
    base: usize,
    sm5: bool,
}

fn constant_buffer(cb: &ConstantBuffer, c: &mut Ctx, q: &str, b: &mut Builder) {
    let (at, base) = (cb.offset, c.base);
    name(b, q, at, base, cb.name_offset, &cb.name);
    b.num(TEXTS, "variable_count", format!("{q}/variable_count"), at + 4, 4, cb.variable_count.into());
    b.num(TEXTS, "variable_offset", format!("{q}/variable_offset"), at + 8, 4, cb.variable_offset.into());
    b.num(TEXTS, "cb_size", format!("{q}/size"), at + 12, 4, cb.size.into());
    b.num(TEXTS, "cb_flags", format!("{q}/flags"), at + 16, 4, cb.flags.into());
    b.num_m(TEXTS, "cb_kind", format!("{q}/kind"), at + 20, 4, cb.kind.into(), cb.kind_name());
    for (i, v) in cb.variables.iter().enumerate() {
        variable(v, c, &format!("{q}/variables[{i}]"), b);
    }
}

fn variable(v: &Variable, c: &mut Ctx, q: &str, b: &mut Builder) {
    let (at, base) = (v.offset, c.base);
    name(b, q, at, base, v.name_offset, &v.name);
    b.num(TEXTS, "start_offset", format!("{q}/start_offset"), at + 4, 4, v.start_offset.into());
    b.num(TEXTS, "var_size", format!("{q}/size"), at + 8, 4, v.size.into());
    b.num(TEXTS, "var_flags", format!("{q}/flags"), at + 12, 4, v.flags.into());
    b.num_m(TEXTS, "type_offset", format!("{q}/type_offset"), at + 16, 4, v.type_offset.into(), type_name(&v.ty));
    b.num(
        TEXTS,
        "default_value_offset",
        format!("{q}/default_value_offset"),
        at + 20,
        4,
        v.default_value_offset.into(),
    );
    let slots = [("texture_start", v.texture_start), ("texture_size", v.texture_size)];
    let slots = slots.into_iter().chain([("sampler_start", v.sampler_start), ("sampler_size", v.sampler_size)]);
    for (i, (n, s)) in slots.enumerate() {
        if let Some(s) = s.filter(|_| c.sm5) {
            b.num(TEXTS, "slot", format!("{q}/{n}"), at + 24 + 4 * i, 4, s.into());
        }
    }
    if let (Some(d), Some(bytes)) = (v.default_value_at, &v.default_value) {
        b.bytes(TEXTS, "default_value", format!("{q}/default_value"), d..d + bytes.len());
    }
    ty(&v.ty, c, &format!("{q}/type"), b);
}

fn ty(t: &Type, c: &mut Ctx, q: &str, b: &mut Builder) {
    let (at, base) = (t.offset, c.base);
    let halves = [
        ("class", "class", t.class, t.class_name()),
        ("base_type", "base_type", t.base_type, t.base_type_name()),
        ("rows", "rows", t.rows, ""),
        ("columns", "columns", t.columns, ""),
        ("elements", "elements", t.elements, ""),
        ("member_count", "member_count", t.member_count, ""),
    ];
    for (i, (key, n, v, m)) in halves.into_iter().enumerate() {
        b.num_m(TEXTS, key, format!("{q}/{n}"), at + 2 * i, 2, v.into(), m);
    }
    b.num(TEXTS, "member_offset", format!("{q}/member_offset"), at + 12, 4, t.member_offset.into());
    if c.sm5 {
        let words = [
            ("subtype_offset", t.subtype_offset),
            ("base_class_offset", t.base_class_offset),
            ("interface_count", t.interface_count),
            ("interface_offset", t.interface_offset),
        ];
        for (i, (n, v)) in words.into_iter().enumerate() {
            if let Some(v) = v {
                b.num(TEXTS, n, format!("{q}/{n}"), at + 16 + 4 * i, 4, v.into());
            }
        }
        if let Some(no) = t.name_offset {
            let s = t.name.as_deref().unwrap_or("");
            b.num_m(TEXTS, "name_offset", format!("{q}/name_offset"), at + 32, 4, no.into(), s.to_string());
            if let Some(s) = &t.name {
                b.text(TEXTS, "name", format!("{q}/name"), base + no as usize, s);
            }
        }
        interfaces(t, c, q, b);
        for (n, linked) in [("subtype", &t.subtype), ("base_class", &t.base_class)] {
            if let Some(l) = linked {
                ty(l, c, &format!("{q}/{n}"), b);
            }
        }
    }
    for (i, m) in t.members.iter().enumerate() {
        let mq = format!("{q}/members[{i}]");
        name(b, &mq, m.offset, base, m.name_offset, &m.name);
        b.num_m(
            TEXTS,
            "type_offset",
            format!("{mq}/type_offset"),
            m.offset + 4,
            4,
            m.type_offset.into(),
            type_name(&m.ty),
        );
        b.num(TEXTS, "member_start", format!("{mq}/offset"), m.offset + 8, 4, m.start_offset.into());
        ty(&m.ty, c, &format!("{mq}/type"), b);
    }
}

/// The table of interface type offsets of a class type, and the types
/// it points at (decoded with the record, like sub-types and base classes).
fn interfaces(t: &Type, c: &mut Ctx, q: &str, b: &mut Builder) {
    let Some(off) = t.interface_offset else { return };
    for (i, it) in t.interfaces.iter().enumerate() {
        let at = c.base + off as usize + 4 * i;
        let Some(v) = b.dword(at) else { return };
        let iq = format!("{q}/interfaces[{i}]");
        b.num(TEXTS, "interface", iq.clone(), at, 4, v.into());
        ty(it, c, &format!("{iq}/type"), b);
    }
}
