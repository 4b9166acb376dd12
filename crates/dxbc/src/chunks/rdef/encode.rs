//! Writes an RDEF payload from the decoded model, in the layout of the
//! compiler that made it ([`RdefLayout`]).
//!
//! Both compilers write, in order: the header, the binding records, the
//! binding names, the constant-buffer records, the constant-buffer names,
//! then per buffer its variable records followed by each variable's name,
//! default value and type records, and last the creator string. They differ
//! in the details the fields do not determine:
//!
//! * **fxc** packs strings and pads only where a record follows, shares any
//!   string it wrote before, and shares a variable's type record with an
//!   earlier variable of identical type (member types are never shared);
//!   with no constant buffers it stores offset 0 for them.
//! * **vkd3d-shader** pads before every string and record, never shares
//!   strings, and shares type records of identical non-array types.
//!
//! Offsets, counts and string positions are computed here; the stored
//! `*_offset`/`*_count` fields of the model are never read, except a type's
//! `member_offset` when it has no members (it then points at nothing and
//! vkd3d stores 1 there, fxc 0).

use super::{ConstantBuffer, Rdef, RdefLayout, Type, Variable, MAGIC_RD11, MAGIC_RD11_51};
use crate::chunks::write::Writer;
use std::collections::HashMap;

struct Enc {
    w: Writer,
    layout: RdefLayout,
    sm5: bool,
    /// Type records written so far, in order: offset and structural key.
    types: Vec<(u32, Vec<u8>)>,
    /// Default value bytes → offset (fxc shares identical values).
    defaults: HashMap<Vec<u8>, u32>,
    /// Member lists and interface tables → offset (fxc shares them too).
    blocks: HashMap<Vec<u8>, u32>,
}

impl Rdef {
    /// Encodes the chunk payload from the model (see the module doc of
    /// `rdef::encode` for the layout rules).
    pub fn encode(&self) -> Vec<u8> {
        let sm5 = self.rd11.is_some();
        let sm51 = self.is_sm51();
        let mut e = Enc {
            w: Writer::default(),
            layout: self.layout,
            sm5,
            types: Vec::new(),
            defaults: HashMap::new(),
            blocks: HashMap::new(),
        };
        let w = &mut e.w;
        w.u32(self.constant_buffers.len() as u32);
        let cb_at = w.u32(0);
        w.u32(self.bindings.len() as u32);
        let bind_at = w.u32(0);
        w.bytes(&[self.minor_version, self.major_version]);
        w.u16(self.program_type);
        w.u32(self.compile_flags);
        let creator_at = w.u32(0);
        if let Some(h) = &self.rd11 {
            w.u32(if sm51 { MAGIC_RD11_51 } else { MAGIC_RD11 });
            for v in [60, 24, if sm51 { 40 } else { 32 }, 40, 36, 12, h.interface_slot_count] {
                w.u32(v);
            }
        }
        let p = w.pos();
        w.patch(bind_at, p);
        let mut names = Vec::with_capacity(self.bindings.len());
        for b in &self.bindings {
            names.push(w.u32(0));
            for v in [b.input_type, b.return_type, b.dimension, b.sample_count, b.bind_point, b.bind_count, b.flags] {
                w.u32(v);
            }
            if sm51 {
                w.u32(b.space.unwrap_or(0));
                w.u32(b.id.unwrap_or(0));
            }
        }
        for (b, at) in self.bindings.iter().zip(names) {
            let s = e.string(&b.name);
            e.w.patch(at, s);
        }
        if !self.constant_buffers.is_empty() || e.layout == RdefLayout::Vkd3d {
            e.align();
            let p = e.w.pos();
            e.w.patch(cb_at, p);
        }
        let mut cb_fields = Vec::with_capacity(self.constant_buffers.len());
        for c in &self.constant_buffers {
            let name = e.w.u32(0);
            e.w.u32(c.variables.len() as u32);
            let vars = e.w.u32(0);
            for v in [c.size, c.flags, c.kind] {
                e.w.u32(v);
            }
            cb_fields.push((name, vars));
        }
        // vkd3d writes all buffer names after the records, fxc each just
        // before its buffer's variables.
        if e.layout == RdefLayout::Vkd3d {
            for (c, &(at, _)) in self.constant_buffers.iter().zip(&cb_fields) {
                let s = e.string(&c.name);
                e.w.patch(at, s);
            }
        }
        for (c, &(name_at, vars_at)) in self.constant_buffers.iter().zip(&cb_fields) {
            if e.layout == RdefLayout::Fxc {
                let s = e.string(&c.name);
                e.w.patch(name_at, s);
            }
            e.align();
            let p = e.w.pos();
            e.w.patch(vars_at, p);
            e.buffer(c);
        }
        let s = e.string(&self.creator);
        e.w.patch(creator_at, s);
        e.w.align();
        e.w.out
    }
}

/// Fields of one variable record that point elsewhere.
struct VarSlots {
    name: usize,
    ty: usize,
    default: usize,
}

impl Enc {
    fn string(&mut self, s: &str) -> u32 {
        match self.layout {
            RdefLayout::Fxc => self.w.string(s),
            RdefLayout::Vkd3d => {
                self.w.align();
                self.w.string_unshared(s)
            }
        }
    }

    /// fxc pads only before records; vkd3d before everything, so an
    /// explicit pad is the same for both.
    fn align(&mut self) {
        self.w.align();
    }

    fn buffer(&mut self, c: &ConstantBuffer) {
        let mut slots = Vec::with_capacity(c.variables.len());
        for v in &c.variables {
            slots.push(self.variable_record(v));
        }
        for (v, s) in c.variables.iter().zip(slots) {
            let at = self.string(&v.name);
            self.w.patch(s.name, at);
            let at = self.ty(&v.ty);
            self.w.patch(s.ty, at);
            if let Some(d) = &v.default_value {
                let at = match self.defaults.get(d) {
                    Some(&at) => at,
                    None => {
                        self.align();
                        let at = self.w.pos();
                        self.w.bytes(d);
                        if self.layout == RdefLayout::Fxc {
                            self.defaults.insert(d.clone(), at);
                        }
                        at
                    }
                };
                self.w.patch(s.default, at);
            }
        }
    }

    fn variable_record(&mut self, v: &Variable) -> VarSlots {
        let w = &mut self.w;
        let name = w.u32(0);
        w.u32(v.start_offset);
        w.u32(v.size);
        w.u32(v.flags);
        let ty = w.u32(0);
        let default = w.u32(0);
        if self.sm5 {
            for f in [v.texture_start, v.texture_size, v.sampler_start, v.sampler_size] {
                w.u32(f.unwrap_or(0));
            }
        }
        VarSlots { name, ty, default }
    }

    /// Points at the earlier record `t.shares` names when it holds an
    /// identical type, otherwise writes a new record; returns its offset.
    fn ty(&mut self, t: &Type) -> u32 {
        if let Some((at, key)) = t.shares.and_then(|k| self.types.get(k as usize)) {
            if *key == type_key(t) {
                return *at;
            }
        }
        // Indexed in pre-order, as the decoder numbers them.
        let index = self.types.len();
        self.types.push((0, type_key(t)));
        let at = self.write_type(t);
        self.types[index].0 = at;
        at
    }

    fn members(&mut self, t: &Type) -> Vec<(u32, u32)> {
        let mut m = Vec::with_capacity(t.members.len());
        for member in &t.members {
            let name = self.string(&member.name);
            let ty = self.ty(&member.ty);
            m.push((name, ty));
        }
        m
    }

    /// Name, linked class types, interface table, member names and types,
    /// member records, record.
    fn write_type(&mut self, t: &Type) -> u32 {
        let name = t.name.as_deref().filter(|_| self.sm5).map(|n| self.string(n));
        let sub = t.subtype.as_deref().map_or(0, |s| self.ty(s));
        let base = t.base_class.as_deref().map_or(0, |s| self.ty(s));
        let interfaces: Vec<u32> = t.interfaces.iter().map(|i| self.ty(i)).collect();
        let interfaces_at = if interfaces.is_empty() {
            0
        } else {
            let table: Vec<u8> = interfaces.iter().flat_map(|i| i.to_le_bytes()).collect();
            self.block(table)
        };
        let m = self.members(t);
        let members_at = if t.members.is_empty() {
            // Points at nothing: fxc gives an interface class an empty
            // member list (so the first one lands on its own record and
            // later ones share it) and stores 0 otherwise; vkd3d stores 1.
            match (self.layout, t.class) {
                (RdefLayout::Fxc, 6) => self.block(Vec::new()),
                _ => t.member_offset,
            }
        } else {
            let records: Vec<u8> = t
                .members
                .iter()
                .zip(&m)
                .flat_map(|(member, &(name, ty))| [name, ty, member.start_offset])
                .flat_map(u32::to_le_bytes)
                .collect();
            self.block(records)
        };
        let linked = [sub, base, interfaces.len() as u32, interfaces_at];
        self.record(t, members_at, linked, name)
    }

    /// Writes an aligned block of records; fxc points at an identical block
    /// it wrote before instead (member lists and interface tables).
    fn block(&mut self, bytes: Vec<u8>) -> u32 {
        if let Some(&at) = self.blocks.get(&bytes) {
            return at;
        }
        self.align();
        let at = self.w.pos();
        self.w.bytes(&bytes);
        if self.layout == RdefLayout::Fxc {
            self.blocks.insert(bytes, at);
        }
        at
    }

    fn record(&mut self, t: &Type, members_at: u32, linked: [u32; 4], name: Option<u32>) -> u32 {
        self.align();
        let at = self.w.pos();
        let w = &mut self.w;
        for v in [t.class, t.base_type, t.rows, t.columns, t.elements, t.members.len() as u16] {
            w.u16(v);
        }
        w.u32(members_at);
        if self.sm5 {
            for v in linked {
                w.u32(v);
            }
            w.u32(name.unwrap_or(0));
        }
        at
    }
}

/// The type's fields (members included, offsets excluded) as bytes, so
/// that identical types compare equal.
pub(crate) fn type_key(t: &Type) -> Vec<u8> {
    let mut k = Vec::new();
    key_into(t, &mut k);
    k
}

fn key_into(t: &Type, k: &mut Vec<u8>) {
    for v in [t.class, t.base_type, t.rows, t.columns, t.elements, t.members.len() as u16] {
        k.extend_from_slice(&v.to_le_bytes());
    }
    if t.members.is_empty() {
        k.extend_from_slice(&t.member_offset.to_le_bytes());
    }
    k.extend_from_slice(t.name.as_deref().unwrap_or("\u{1}").as_bytes());
    k.push(0);
    for m in &t.members {
        k.extend_from_slice(m.name.as_bytes());
        k.push(0);
        k.extend_from_slice(&m.start_offset.to_le_bytes());
        key_into(&m.ty, k);
    }
    for linked in [t.subtype.as_deref(), t.base_class.as_deref()] {
        k.push(linked.is_some() as u8);
        if let Some(l) = linked {
            key_into(l, k);
        }
    }
    for i in &t.interfaces {
        key_into(i, k);
    }
    k.push(0xff);
}
