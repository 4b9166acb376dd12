//! IFCE: class linkage — the class types, class instances and interface
//! slots of a shader that uses dynamic linkage (SM5).
//!
//! ```text
//! 0x00  u32 class instance count    0x04  u32 class type count
//! 0x08  u32 interface slot records  0x0c  u32 interface slots in total
//! 0x10  u32 class instance offset   0x14  u32 class type offset
//! 0x18  u32 interface slot offset   0x1c  u32 unknown, 0x20 u32 unknown
//! class type (12 bytes):     u32 name, u16 id, u16 cb stride, u16 texture, u16 sampler
//! class instance (16 bytes): u32 name, u16 type, u16 unknown, u16 cb, u16 cb offset,
//!                            u16 texture, u16 sampler (0xFFFF = none)
//! interface slot (16 bytes): u32 slot span, u32 count, u32 type ID table (u16 each),
//!                            u32 table ID table (u32 each)
//! ```

use crate::chunks::write::Writer;
use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;
use serde::Serialize;

/// Decoded IFCE chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Ifce {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// Class instance count as stored.
    pub class_instance_count: u32,
    /// Class type count as stored.
    pub class_type_count: u32,
    /// Interface slot record count as stored.
    pub interface_slot_record_count: u32,
    /// Total number of interface slots (records can span several).
    pub interface_slot_count: u32,
    /// Offset (within the chunk) of the class instance records.
    pub class_instance_offset: u32,
    /// Offset (within the chunk) of the class type records.
    pub class_type_offset: u32,
    /// Offset (within the chunk) of the interface slot records.
    pub interface_slot_offset: u32,
    /// Header dword 7 (meaning unknown).
    pub unknown7: u32,
    /// Header dword 8 (meaning unknown).
    pub unknown8: u32,
    /// Class types.
    pub class_types: Vec<ClassType>,
    /// Class instances.
    pub class_instances: Vec<ClassInstance>,
    /// Interface slots.
    pub interface_slots: Vec<InterfaceSlot>,
}

/// A class type.
#[derive(Clone, Debug, Serialize)]
pub struct ClassType {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Offset (within the chunk) of the name.
    pub name_offset: u32,
    /// Name.
    pub name: String,
    /// Stored ID field.
    pub id: u16,
    /// Constant buffer stride (in 16-byte registers).
    pub cb_stride: u16,
    /// Texture count.
    pub texture: u16,
    /// Sampler count.
    pub sampler: u16,
}

/// A class instance.
#[derive(Clone, Debug, Serialize)]
pub struct ClassInstance {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Offset (within the chunk) of the name.
    pub name_offset: u32,
    /// Name.
    pub name: String,
    /// Index of the class type.
    pub type_id: u16,
    /// Unknown field (1 in practice).
    pub unknown: u16,
    /// Constant buffer index.
    pub constant_buffer: u16,
    /// Offset in the constant buffer (16-byte registers).
    pub cb_offset: u16,
    /// First texture (0xFFFF = none).
    pub texture: u16,
    /// First sampler (0xFFFF = none).
    pub sampler: u16,
}

/// An interface slot record.
#[derive(Clone, Debug, Serialize)]
pub struct InterfaceSlot {
    /// Absolute offset of the record.
    pub offset: usize,
    /// First slot this record covers (sum of the spans before it).
    pub start_slot: u32,
    /// Number of slots covered (array of interfaces).
    pub slot_span: u32,
    /// Number of (type ID, table ID) pairs.
    pub count: u32,
    /// Offset (within the chunk) of the type ID table.
    pub type_ids_offset: u32,
    /// Offset (within the chunk) of the table ID table.
    pub table_ids_offset: u32,
    /// Class type IDs.
    pub type_ids: Vec<u16>,
    /// Function table IDs.
    pub table_ids: Vec<u32>,
}

fn check_fits(len: usize, at: u32, count: u32, record: usize, what: &str, field_at: usize) -> Result<()> {
    match (count as usize).checked_mul(record) {
        Some(n) if (at as usize) <= len && n <= len - at as usize => Ok(()),
        _ => Err(Error::of(
            ErrorKind::OutOfBounds,
            format!("{count} {what} of {record} bytes at chunk offset {at:#x} do not fit in the {len}-byte IFCE chunk"),
            field_at,
        )),
    }
}

impl Ifce {
    /// Parses the chunk payload; `base` is its absolute offset.
    pub fn parse(data: &[u8], base: usize) -> Result<Ifce> {
        let mut r = Reader::new(data, base);
        let class_instance_count = r.u32("IFCE class instance count")?;
        let class_type_count = r.u32("IFCE class type count")?;
        let interface_slot_record_count = r.u32("IFCE interface slot record count")?;
        let interface_slot_count = r.u32("IFCE interface slot count")?;
        let class_instance_offset = r.u32("IFCE class instance offset")?;
        let class_type_offset = r.u32("IFCE class type offset")?;
        let interface_slot_offset = r.u32("IFCE interface slot offset")?;
        let unknown7 = r.u32("IFCE header dword 7")?;
        let unknown8 = r.u32("IFCE header dword 8")?;
        let len = data.len();
        // Records may share a name string; cap the text copied out.
        let mut text_budget = len.saturating_mul(4).max(1 << 16);
        let mut name = |at: u32, field_at: usize, what: &str| -> Result<String> {
            let s = r.cstr_at(at as usize, what).map_err(|e| e.at(field_at))?;
            text_budget = text_budget.checked_sub(s.len()).ok_or_else(|| {
                Error::of(
                    ErrorKind::LimitExceeded,
                    format!("{what}: names add up to more text than the chunk can hold"),
                    field_at,
                )
            })?;
            Ok(s)
        };

        check_fits(len, class_type_offset, class_type_count, 12, "class types", base + 0x14)?;
        let mut class_types = Vec::with_capacity(class_type_count as usize);
        for i in 0..class_type_count as usize {
            let mut c = r;
            c.seek(class_type_offset as usize + i * 12, "IFCE class type")?;
            let offset = c.offset();
            let name_offset = c.u32("class type name offset")?;
            class_types.push(ClassType {
                offset,
                name_offset,
                name: name(name_offset, offset, "class type name")?,
                id: c.u16("class type ID")?,
                cb_stride: c.u16("class type constant buffer stride")?,
                texture: c.u16("class type texture count")?,
                sampler: c.u16("class type sampler count")?,
            });
        }

        check_fits(len, class_instance_offset, class_instance_count, 16, "class instances", base + 0x10)?;
        let mut class_instances = Vec::with_capacity(class_instance_count as usize);
        for i in 0..class_instance_count as usize {
            let mut c = r;
            c.seek(class_instance_offset as usize + i * 16, "IFCE class instance")?;
            let offset = c.offset();
            let name_offset = c.u32("class instance name offset")?;
            class_instances.push(ClassInstance {
                offset,
                name_offset,
                name: name(name_offset, offset, "class instance name")?,
                type_id: c.u16("class instance type")?,
                unknown: c.u16("class instance unknown field")?,
                constant_buffer: c.u16("class instance constant buffer")?,
                cb_offset: c.u16("class instance constant buffer offset")?,
                texture: c.u16("class instance texture")?,
                sampler: c.u16("class instance sampler")?,
            });
        }

        check_fits(len, interface_slot_offset, interface_slot_record_count, 16, "interface slot records", base + 0x18)?;
        let mut interface_slots = Vec::with_capacity(interface_slot_record_count as usize);
        let mut start_slot = 0u32;
        for i in 0..interface_slot_record_count as usize {
            let mut c = r;
            c.seek(interface_slot_offset as usize + i * 16, "IFCE interface slot")?;
            let offset = c.offset();
            let slot_span = c.u32("interface slot span")?;
            let count_at = c.offset();
            let count = c.u32("interface slot entry count")?;
            let type_ids_offset = c.u32("interface slot type ID table offset")?;
            let table_ids_offset = c.u32("interface slot table ID table offset")?;
            check_fits(len, type_ids_offset, count, 2, "type IDs", count_at)?;
            check_fits(len, table_ids_offset, count, 4, "table IDs", count_at)?;
            let mut t = r;
            t.seek(type_ids_offset as usize, "type ID table")?;
            let type_ids = (0..count).map(|_| t.u16("interface slot type ID")).collect::<Result<Vec<_>>>()?;
            let mut t = r;
            t.seek(table_ids_offset as usize, "table ID table")?;
            let table_ids = (0..count).map(|_| t.u32("interface slot table ID")).collect::<Result<Vec<_>>>()?;
            interface_slots.push(InterfaceSlot {
                offset,
                start_slot,
                slot_span,
                count,
                type_ids_offset,
                table_ids_offset,
                type_ids,
                table_ids,
            });
            start_slot = start_slot.wrapping_add(slot_span);
        }

        Ok(Ifce {
            offset: base,
            class_instance_count,
            class_type_count,
            interface_slot_record_count,
            interface_slot_count,
            class_instance_offset,
            class_type_offset,
            interface_slot_offset,
            unknown7,
            unknown8,
            class_types,
            class_instances,
            interface_slots,
        })
    }
}

impl Ifce {
    /// Encodes the chunk payload from the records, in fxc's layout: header,
    /// interface slot records, class types, class instances, each slot's
    /// type-ID table (padded) and table-ID table, then the names (instances
    /// first, each padded to a dword, identical names shared). Counts,
    /// offsets and `start_slot` are computed; the stored ones are not read.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.u32(self.class_instances.len() as u32);
        w.u32(self.class_types.len() as u32);
        w.u32(self.interface_slots.len() as u32);
        // The stored total, not the sum of the spans: a damaged file keeps
        // what it says, and the listing prints this field.
        w.u32(self.interface_slot_count);
        let instances_at = w.u32(0);
        let types_at = w.u32(0);
        let slots_at = w.u32(0);
        w.u32(self.unknown7);
        w.u32(self.unknown8);
        let p = w.pos();
        w.patch(slots_at, p);
        let mut tables_at = Vec::with_capacity(self.interface_slots.len());
        for s in &self.interface_slots {
            w.u32(s.slot_span);
            w.u32(s.type_ids.len().min(s.table_ids.len()) as u32);
            tables_at.push((w.u32(0), w.u32(0)));
        }
        let p = w.pos();
        w.patch(types_at, p);
        let mut names_at = Vec::new();
        for t in &self.class_types {
            names_at.push((w.u32(0), t.name.as_str()));
            for v in [t.id, t.cb_stride, t.texture, t.sampler] {
                w.u16(v);
            }
        }
        let p = w.pos();
        w.patch(instances_at, p);
        let mut instance_names = Vec::new();
        for c in &self.class_instances {
            instance_names.push((w.u32(0), c.name.as_str()));
            for v in [c.type_id, c.unknown, c.constant_buffer, c.cb_offset, c.texture, c.sampler] {
                w.u16(v);
            }
        }
        for (s, (type_at, table_at)) in self.interface_slots.iter().zip(tables_at) {
            let n = s.type_ids.len().min(s.table_ids.len());
            let p = w.pos();
            w.patch(type_at, p);
            for &t in &s.type_ids[..n] {
                w.u16(t);
            }
            w.align();
            let p = w.pos();
            w.patch(table_at, p);
            for &t in &s.table_ids[..n] {
                w.u32(t);
            }
        }
        for (at, name) in instance_names.into_iter().chain(names_at) {
            let s = w.string(name);
            w.patch(at, s);
            w.align();
        }
        w.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let mut d = Vec::new();
        for v in [1u32, 2, 1, 2, 0x4c, 0x34, 0x24, 0x4e47534f, 0x00100020] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        for v in [2u32, 2, 0x5c, 0x60] {
            d.extend_from_slice(&v.to_le_bytes()); // 0x24..0x34
        }
        // 0x34: two class types (12 bytes each) -> 0x4c
        for (name, stride) in [(0x68u32, 1u16), (0x6cu32, 0)] {
            d.extend_from_slice(&name.to_le_bytes());
            for v in [0u16, stride, 0, 0] {
                d.extend_from_slice(&v.to_le_bytes());
            }
        }
        // 0x4c: one class instance -> 0x5c
        d.extend_from_slice(&0x70u32.to_le_bytes());
        for v in [1u16, 1, 0, 3, 0xffff, 0xffff] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        // 0x5c: type IDs (2 x u16), 0x60: table IDs (2 x u32)
        for v in [0u16, 1] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        for v in [4u32, 5] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        assert_eq!(d.len(), 0x68);
        d.extend_from_slice(b"cA\0\0cB\0\0gI\0\0");
        d
    }

    #[test]
    fn parses_classes_and_slots() {
        let d = sample();
        let f = Ifce::parse(&d, 0x100).unwrap();
        assert_eq!(f.class_types.len(), 2);
        assert_eq!(f.class_types[0].name, "cA");
        assert_eq!(f.class_types[0].cb_stride, 1);
        assert_eq!(f.class_types[1].offset, 0x100 + 0x34 + 12);
        assert_eq!(f.class_instances[0].name, "gI");
        assert_eq!(f.class_instances[0].type_id, 1);
        assert_eq!(f.class_instances[0].cb_offset, 3);
        assert_eq!(f.class_instances[0].texture, 0xffff);
        let s = &f.interface_slots[0];
        assert_eq!((s.start_slot, s.slot_span), (0, 2));
        assert_eq!(s.type_ids, [0, 1]);
        assert_eq!(s.table_ids, [4, 5]);
    }

    #[test]
    fn stored_slot_total_survives_a_rebuild() {
        // A total that disagrees with the spans (found by the roundtrip
        // fuzzer) is what the file says; the encoder must not recompute it.
        let mut d = sample();
        d[0x24..0x28].copy_from_slice(&0x0040_0002u32.to_le_bytes());
        let f = Ifce::parse(&d, 0).unwrap();
        assert_eq!((f.interface_slot_count, f.interface_slots[0].slot_span), (2, 0x0040_0002));
        let again = Ifce::parse(&f.encode(), 0).unwrap();
        assert_eq!(again.interface_slot_count, 2);
        assert_eq!(again.interface_slots[0].slot_span, 0x0040_0002);
    }

    #[test]
    fn bad_counts_and_truncations() {
        let mut d = sample();
        d[4..8].copy_from_slice(&0x4000_0000u32.to_le_bytes());
        let e = Ifce::parse(&d, 0x100).unwrap_err();
        assert_eq!(e.offset(), 0x114);
        let d = sample();
        for n in 0..d.len() {
            let _ = Ifce::parse(&d[..n], 0);
        }
    }
}
