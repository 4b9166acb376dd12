//! Class linkage (SM5 interfaces): `fcall` as a `switch` over the selected
//! function table.
//!
//! In D3D the application binds, per interface slot, a class instance: the
//! runtime turns it into the function table the slot's `fcall`s jump
//! through and the four `this` words its bodies read (the instance's
//! constant buffer, its row offset there, its first texture and its first
//! sampler). No target language has function pointers, so the choice
//! becomes data: an emulation binding ([`crate::BindingKind::ClassInstances`],
//! placed by [`crate::BindingScheme::place_class_instances`]), a uniform
//! array of `vec4<u32>` with two rows per slot:
//!
//! - row `s` (`s` < slots): slot `s`'s `this` words, exactly what
//!   `this[s]` reads;
//! - row `slots + s`: in x, the function table (`ft#`) slot `s` selects.
//!
//! `fcall fpN[i][c]` reads the table of slot `N + i` and `switch`es over
//! the tables `dcl_interface` lists for `fpN`; each case is the body
//! (`label fb#` … `ret`) that table gives for call site `c`, lowered in
//! place (inlined: bodies share the caller's registers, which a naga call
//! could not write). A table the interface does not list runs its first
//! table's body, so every selection has a defined result. The form is
//! exact: the same body runs on the same registers as D3D's jump would.
//!
//! Bodies read other classes' constant buffers through `this`: `cb[r#][…]`
//! with a register-selected buffer becomes a select over the declared
//! buffers (a buffer id that names none, or a row past its end, reads 0,
//! as D3D reads outside a buffer).

use crate::lower::{malformed, unsupported, Lower, H, K};
use crate::Limitation as L;
use crate::*;
use dxbc::program::{Instruction, Operand, Program, NO_OPERAND};
use dxbc::spec::{Opcode as O, OperandType as OT};
use naga::{
    AddressSpace, ArraySize, BinaryOperator as B, Expression as E, GlobalVariable, Handle, MathFunction as M,
    SwitchValue, Type, TypeInner,
};
use std::collections::BTreeMap;

/// No D3D register holds the class instances: the binding entry's
/// `register` for [`BindingKind::ClassInstances`].
pub const NO_REGISTER: u32 = u32::MAX;

/// D3D11's limit on interface slots (`D3D11_SHADER_MAX_INTERFACES`).
pub const MAX_SLOTS: u32 = 253;

/// How many body instructions one shader may inline in all: bodies are
/// copied per call site and table, so a hostile program must not grow the
/// module without bound.
const MAX_INLINED: usize = 1 << 18;

/// How deep `fcall`s inside bodies may nest (D3D has no recursion).
const MAX_DEPTH: usize = 8;

/// One `dcl_interface`.
#[derive(Clone, Debug)]
pub(crate) struct Interface {
    /// Interface slots in the array (`fpN[array]`).
    pub(crate) array_len: u32,
    /// Call sites per slot (`fpN[..][call sites]`).
    pub(crate) call_sites: u32,
    /// The function tables (`ft#`) that may implement it, in order.
    pub(crate) tables: Vec<u32>,
}

/// The program's class linkage: where the main program ends, the bodies,
/// tables and interfaces.
#[derive(Clone, Debug, Default)]
pub(crate) struct Linkage {
    /// Instructions of the main program: `[0, main_end)`.
    pub(crate) main_end: usize,
    /// Per function body: the instruction range after `label fb#`, up to
    /// (not including) its closing `ret`.
    pub(crate) bodies: BTreeMap<u32, std::ops::Range<usize>>,
    /// Per function table: its bodies, one per call site.
    pub(crate) tables: BTreeMap<u32, Vec<u32>>,
    /// Per interface (`fp#`, its first slot).
    pub(crate) interfaces: BTreeMap<u32, Interface>,
    /// Interface slots in all (the highest `fp# + array length`).
    pub(crate) slots: u32,
}

impl Linkage {
    /// The linkage of `p`, or None when it declares no function body and
    /// no interface.
    pub(crate) fn of(p: &Program) -> Result<Option<Linkage>, TranslateError> {
        let mut l = Linkage { main_end: p.instructions.len(), ..Default::default() };
        let mut any = false;
        let mut open: Option<(u32, usize, usize)> = None;
        let words = |ins: &Instruction| -> Vec<u32> { ins.payload(p).iter().map(|x| x.value).collect() };
        for (i, ins) in p.instructions.iter().enumerate() {
            if ins.is_customdata() {
                continue;
            }
            let at = ins.offset as usize;
            match ins.op() {
                Some(O::DclFunctionBody) => any = true,
                Some(O::DclFunctionTable) => {
                    any = true;
                    let w = words(ins);
                    let (Some(&ft), Some(&n)) = (w.first(), w.get(1)) else {
                        return malformed("dcl_function_table without its table", at);
                    };
                    let bodies: Vec<u32> = w.iter().skip(2).copied().collect();
                    if bodies.len() != n as usize {
                        return malformed(
                            format!("function table ft{ft} says {n} bodies and lists {}", bodies.len()),
                            at,
                        );
                    }
                    l.tables.insert(ft, bodies);
                }
                Some(O::DclInterface) => {
                    any = true;
                    let w = words(ins);
                    let (Some(&fp), Some(&call_sites), Some(&lens)) = (w.first(), w.get(1), w.get(2)) else {
                        return malformed("dcl_interface without its lengths", at);
                    };
                    let table_len = dxbc::spec::field_value(dxbc::spec::INTERFACE_LENGTHS_FIELDS, "table length", lens);
                    let array_len = dxbc::spec::field_value(dxbc::spec::INTERFACE_LENGTHS_FIELDS, "array length", lens);
                    let tables: Vec<u32> = w.iter().skip(3).copied().collect();
                    if tables.len() != table_len as usize || tables.is_empty() {
                        return malformed(
                            format!("interface fp{fp} says {table_len} tables and lists {}", tables.len()),
                            at,
                        );
                    }
                    let end = fp.checked_add(array_len).filter(|&e| e <= MAX_SLOTS);
                    let Some(end) = end else {
                        return malformed(format!("interface fp{fp}[{array_len}] passes slot {MAX_SLOTS}"), at);
                    };
                    l.slots = l.slots.max(end);
                    l.interfaces.insert(fp, Interface { array_len, call_sites, tables });
                }
                Some(O::Label) => {
                    any = true;
                    l.main_end = l.main_end.min(i);
                    if let Some((fb, _, label_at)) = open.take() {
                        return malformed(format!("body fb{fb} ends without ret before the next label"), label_at);
                    }
                    let fb = match ins.operand(p, 0) {
                        Some(op) if op.operand_type() == Some(OT::FunctionBody) => op.index[0].imm as u32,
                        _ => return unsupported(L::Subroutines, "call/label subroutines", at),
                    };
                    if l.bodies.contains_key(&fb) {
                        return malformed(format!("fb{fb} has two labels"), at);
                    }
                    open = Some((fb, i + 1, at));
                }
                // A body ends at its last `ret` before the next label; a
                // `ret` inside control flow ends it early, which the
                // inlined form would need a jump for.
                Some(O::Ret) if open.is_some() => {
                    let next_is_label = p.instructions.get(i + 1).is_none_or(|n| n.op() == Some(O::Label));
                    if !next_is_label {
                        return unsupported(L::Interfaces, "a function body that returns before its end", at);
                    }
                    if let Some((fb, from, _)) = open.take() {
                        l.bodies.insert(fb, from..i);
                    }
                }
                Some(O::Retc) if open.is_some() => {
                    return unsupported(L::Interfaces, "a function body that returns before its end", at)
                }
                _ => {}
            }
        }
        if let Some((fb, _, at)) = open {
            return malformed(format!("body fb{fb} ends without ret"), at);
        }
        Ok(any.then_some(l))
    }
}

/// The default class-instance words of `shader`, what the preview binds
/// at [`BindingKind::ClassInstances`] (layout in this module's doc):
///
/// for each interface slot, the first class instance (in IFCE's order)
/// whose class type the slot lists: its table is the one IFCE pairs with
/// that type for the slot, its `this` words its constant buffer, row
/// offset, texture and sampler (0 where it has none, IFCE's 0xFFFF). A
/// slot no instance can fill takes the first type IFCE lists for it and
/// `this` words of zero (shaders whose instances the application creates
/// at run time). A slot IFCE does not describe selects the first table
/// `dcl_interface` lists.
pub fn default_class_instances(shader: &dxbc::Shader) -> Vec<u32> {
    let Some(p) = &shader.program else { return Vec::new() };
    let Ok(Some(linkage)) = Linkage::of(p) else { return Vec::new() };
    let slots = linkage.slots as usize;
    let mut words = vec![0u32; slots * 8];
    for (&fp, iface) in &linkage.interfaces {
        for s in fp..fp + iface.array_len {
            words[(slots + s as usize) * 4] = iface.tables[0];
        }
    }
    let Some(ifce) = &shader.ifce else { return words };
    let none_to_zero = |v: u16| if v == 0xFFFF { 0 } else { u32::from(v) };
    for rec in &ifce.interface_slots {
        let first = rec.type_ids.iter().zip(&rec.table_ids).next();
        let chosen = ifce.class_instances.iter().find_map(|inst| {
            let pos = rec.type_ids.iter().position(|&t| t == inst.type_id)?;
            let table = *rec.table_ids.get(pos)?;
            let this = [
                u32::from(inst.constant_buffer),
                u32::from(inst.cb_offset),
                none_to_zero(inst.texture),
                none_to_zero(inst.sampler),
            ];
            Some((table, this))
        });
        let (table, this) = match (chosen, first) {
            (Some(c), _) => c,
            (None, Some((_, &table))) => (table, [0; 4]),
            (None, None) => continue,
        };
        let end = rec.start_slot.saturating_add(rec.slot_span).min(linkage.slots);
        for s in rec.start_slot.min(end)..end {
            let s = s as usize;
            words[s * 4..s * 4 + 4].copy_from_slice(&this);
            words[(slots + s) * 4] = table;
        }
    }
    words
}

impl Lower<'_> {
    /// The class-instance uniform (declared once; `slots` from the linkage).
    pub(crate) fn class_instances(&mut self) -> Result<Handle<GlobalVariable>, TranslateError> {
        if let Some(g) = self.class_instances {
            return Ok(g);
        }
        let slots = self.linkage.as_ref().map_or(0, |l| l.slots);
        if slots == 0 {
            return malformed("an interface is used but none is declared", self.offset);
        }
        let (group, binding) = self.options.bindings.place_class_instances();
        self.bindings.push(BindingEntry {
            count: crate::BindingCount::Single,
            class: RegisterClass::ConstantBuffer,
            register: NO_REGISTER,
            space: 0,
            group,
            binding,
            kind: BindingKind::ClassInstances { slots, default_words: self.class_defaults.clone() },
        });
        let rows = std::num::NonZeroU32::new(slots * 2).unwrap_or(std::num::NonZeroU32::MIN);
        let ty = self.module.types.insert(
            Type {
                name: None,
                inner: TypeInner::Array { base: self.t.vec4u, size: ArraySize::Constant(rows), stride: 16 },
            },
            self.span,
        );
        let g = self.module.global_variables.append(
            GlobalVariable {
                name: Some("class_instances".into()),
                space: AddressSpace::Uniform,
                binding: Some(naga::ResourceBinding { group, binding }),
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            self.span,
        );
        self.class_instances = Some(g);
        self.emulations.insert(Emulation::ClassInstances);
        Ok(g)
    }

    /// A pointer to `this[i]`: slot i's row of the class-instance uniform.
    pub(crate) fn this_pointer(&mut self, op: &Operand) -> Result<H, TranslateError> {
        let g = self.class_instances()?;
        let base = self.e(E::GlobalVariable(g));
        if op.index_dim() == 0 {
            return malformed("this without a slot index", op.offset as usize);
        }
        let i = self.index(op, 0)?;
        Ok(self.e(E::Access { base, index: i }))
    }

    /// `fcall fpN[i][c]`: a switch over the table slot `N + i` selects,
    /// each case the body that table gives for call site `c`.
    pub(crate) fn fcall(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        let Some(linkage) = self.linkage.clone() else {
            return malformed("fcall without dcl_interface", at);
        };
        let op = self.op(ins, 0)?;
        if op.operand_type() != Some(OT::Interface) || op.index_dim() == 0 {
            return malformed("fcall's operand is not an interface", at);
        }
        if op.index[0].rel != NO_OPERAND {
            return malformed("fcall names its interface with a register", at);
        }
        let fp = op.index[0].imm as u32;
        let Some(iface) = linkage.interfaces.get(&fp) else {
            return malformed(format!("fcall through fp{fp}, which is not declared"), at);
        };
        let call_site = ins.payload(self.p).first().map_or(0, |x| x.value);
        if call_site >= iface.call_sites {
            return malformed(format!("fcall site {call_site} of fp{fp}, which has {}", iface.call_sites), at);
        }
        let mut cases: Vec<(u32, std::ops::Range<usize>)> = Vec::new();
        for &ft in &iface.tables {
            if cases.iter().any(|c| c.0 == ft) {
                continue;
            }
            let Some(fb) = linkage.tables.get(&ft).and_then(|t| t.get(call_site as usize)) else {
                return malformed(format!("table ft{ft} has no body for call site {call_site}"), at);
            };
            let Some(range) = linkage.bodies.get(fb) else {
                return malformed(format!("fb{fb} has no label"), at);
            };
            cases.push((ft, range.clone()));
        }
        if self.fcall_depth >= MAX_DEPTH {
            return unsupported(L::Interfaces, format!("fcalls nested more than {MAX_DEPTH} deep"), at);
        }
        // The slot: fpN plus the array index (a register for
        // dcl_interface_dynamicindexed).
        let dynamic = op.index_dim() >= 2 && op.index[1].rel != NO_OPERAND;
        let array_index = if op.index_dim() >= 2 { op.index[1].imm } else { 0 };
        let static_row = u64::from(linkage.slots) + u64::from(fp) + array_index;
        let row = if dynamic {
            let i = self.index(op, 1)?;
            let n = self.lit_u(linkage.slots + fp);
            self.bin(B::Add, n, i)
        } else if array_index < u64::from(iface.array_len) {
            self.lit_u(static_row as u32)
        } else {
            return malformed(format!("fcall fp{fp}[{array_index}] past its {} slots", iface.array_len), at);
        };
        let g = self.class_instances()?;
        let base = self.e(E::GlobalVariable(g));
        let ptr = self.e(E::Access { base, index: row });
        let load = self.e(E::Load { pointer: ptr });
        let table = self.component(load, 0);
        let (span, offset) = (self.span, self.offset);
        self.open_switch(table);
        self.fcall_depth += 1;
        for (n, (ft, range)) in cases.iter().enumerate() {
            if n > 0 {
                self.next_case();
            }
            let mut labels = vec![SwitchValue::U32(*ft)];
            if n == 0 {
                labels.push(SwitchValue::Default);
            }
            self.set_case_labels(labels);
            self.inlined += range.len();
            if self.inlined > MAX_INLINED {
                return unsupported(L::Interfaces, format!("more than {MAX_INLINED} inlined body instructions"), at);
            }
            let depth = self.frame_depth();
            for ins in &self.p.instructions[range.clone()] {
                self.lower_instruction(ins)?;
            }
            if self.frame_depth() != depth {
                return malformed(format!("body of table ft{ft} leaves control flow open"), offset);
            }
            self.span = span;
            self.offset = offset;
        }
        self.fcall_depth -= 1;
        self.close_switch();
        Ok(())
    }

    /// A row of the constant buffer a register selects (`cb[r#][row]`, how
    /// bodies reach their instance's data), as vec4 of `k`: a select over
    /// the declared buffers; an id that names none, or a row past the end
    /// of the one it names, reads 0 as in D3D.
    pub(crate) fn cbuffer_by_register(&mut self, op: &Operand, k: K) -> Result<H, TranslateError> {
        let id = self.index(op, 0)?;
        let row = self.index(op, 1)?;
        let zero = self.immediate(&[0; 4], k);
        let mut acc = zero;
        let buffers: Vec<(u32, Handle<GlobalVariable>)> = self.cbuffers_declared();
        for (cb, g) in buffers {
            let len = self.array_rows(g);
            let last = self.lit_u(len.saturating_sub(1));
            let clamped = self.e(E::Math { fun: M::Min, arg: row, arg1: Some(last), arg2: None, arg3: None });
            let base = self.e(E::GlobalVariable(g));
            let ptr = self.e(E::Access { base, index: clamped });
            let load = self.e(E::Load { pointer: ptr });
            let native = self.cb_kind(cb);
            let v = self.bitcast(load, native, k);
            let n = self.lit_u(cb);
            let is_it = self.bin(B::Equal, id, n);
            let end = self.lit_u(len);
            let inside = self.bin(B::Less, row, end);
            let both = self.bin(B::LogicalAnd, is_it, inside);
            acc = self.e(E::Select { condition: both, accept: v, reject: acc });
        }
        Ok(acc)
    }
}
