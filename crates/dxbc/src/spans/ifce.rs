//! IFCE: the header, every class type, class instance and interface slot
//! record, the slots' type-ID and table-ID arrays, and the name strings.

use super::{Builder, Texts};
use crate::chunks::ifce::Ifce;

const TEXTS: Texts = &[
    ("class_instance_count", "Number of class-instance records."),
    ("class_type_count", "Number of class-type records."),
    ("interface_slot_record_count", "Number of interface-slot records."),
    ("interface_slot_count", "Number of interface slots in total (a record may span several)."),
    ("class_instance_offset", "Offset of the first class-instance record from the start of the payload."),
    ("class_type_offset", "Offset of the first class-type record from the start of the payload."),
    ("interface_slot_offset", "Offset of the first interface-slot record from the start of the payload."),
    ("unknown", "Header dword of unknown purpose."),
    ("name_offset", "Offset of the name string from the start of the payload."),
    ("name", "A class or instance name, NUL-terminated."),
    ("type_id", "Class type ID."),
    ("cb_stride", "Bytes of constant-buffer data one instance of the class takes."),
    ("texture", "Texture slot (instances) or number of textures (types); 0xFFFF = none."),
    ("sampler", "Sampler slot (instances) or number of samplers (types); 0xFFFF = none."),
    ("instance_unknown", "Class-instance field of unknown purpose."),
    ("constant_buffer", "Constant buffer holding the instance's data."),
    ("cb_offset", "Offset of the instance's data in its constant buffer."),
    ("slot_span", "Number of consecutive interface slots this record covers."),
    ("count", "Number of entries in the record's type-ID and table-ID arrays."),
    ("type_ids_offset", "Offset of the array of class type IDs (u16 each) from the start of the payload."),
    ("table_ids_offset", "Offset of the array of function-table IDs (u32 each) from the start of the payload."),
    ("slot_type_id", "A class type that may be bound to the slot."),
    ("slot_table_id", "The function table used when that class is bound."),
];

/// Claims the whole chunk under `prefix`.
pub(super) fn claim(c: &Ifce, prefix: &str, b: &mut Builder) {
    let o = c.offset;
    let header = [
        ("class_instance_count", c.class_instance_count),
        ("class_type_count", c.class_type_count),
        ("interface_slot_record_count", c.interface_slot_record_count),
        ("interface_slot_count", c.interface_slot_count),
        ("class_instance_offset", c.class_instance_offset),
        ("class_type_offset", c.class_type_offset),
        ("interface_slot_offset", c.interface_slot_offset),
        ("unknown", c.unknown7),
        ("unknown", c.unknown8),
    ];
    for (i, (key, v)) in header.into_iter().enumerate() {
        let n = if key == "unknown" { format!("header_dword{i}") } else { key.to_string() };
        b.num(TEXTS, key, format!("{prefix}/{n}"), o + 4 * i, 4, v.into());
    }
    let name = |b: &mut Builder, q: &str, at: usize, off: u32, s: &str| {
        b.num_m(TEXTS, "name_offset", format!("{q}/name_offset"), at, 4, off.into(), s.to_string());
        b.text(TEXTS, "name", format!("{q}/name"), o + off as usize, s);
    };
    for (i, t) in c.class_types.iter().enumerate() {
        let q = format!("{prefix}/class_types[{i}]");
        name(b, &q, t.offset, t.name_offset, &t.name);
        let f = [("type_id", t.id), ("cb_stride", t.cb_stride), ("texture", t.texture), ("sampler", t.sampler)];
        for (k, (n, v)) in f.into_iter().enumerate() {
            b.num(TEXTS, n, format!("{q}/{n}"), t.offset + 4 + 2 * k, 2, v.into());
        }
    }
    for (i, t) in c.class_instances.iter().enumerate() {
        let q = format!("{prefix}/class_instances[{i}]");
        name(b, &q, t.offset, t.name_offset, &t.name);
        let f = [
            ("type_id", "type_id", t.type_id),
            ("instance_unknown", "unknown", t.unknown),
            ("constant_buffer", "constant_buffer", t.constant_buffer),
            ("cb_offset", "cb_offset", t.cb_offset),
            ("texture", "texture", t.texture),
            ("sampler", "sampler", t.sampler),
        ];
        for (k, (key, n, v)) in f.into_iter().enumerate() {
            b.num(TEXTS, key, format!("{q}/{n}"), t.offset + 4 + 2 * k, 2, v.into());
        }
    }
    for (i, s) in c.interface_slots.iter().enumerate() {
        let q = format!("{prefix}/interface_slots[{i}]");
        let f = [
            ("slot_span", s.slot_span),
            ("count", s.count),
            ("type_ids_offset", s.type_ids_offset),
            ("table_ids_offset", s.table_ids_offset),
        ];
        for (k, (n, v)) in f.into_iter().enumerate() {
            b.num(TEXTS, n, format!("{q}/{n}"), s.offset + 4 * k, 4, v.into());
        }
        for (k, &v) in s.type_ids.iter().enumerate() {
            let at = o + s.type_ids_offset as usize + 2 * k;
            b.num(TEXTS, "slot_type_id", format!("{q}/type_ids[{k}]"), at, 2, v.into());
        }
        for (k, &v) in s.table_ids.iter().enumerate() {
            let at = o + s.table_ids_offset as usize + 4 * k;
            b.num(TEXTS, "slot_table_id", format!("{q}/table_ids[{k}]"), at, 4, v.into());
        }
    }
}
