//! Append/consume buffers and UAV counters (`imm_atomic_alloc`,
//! `imm_atomic_consume`).
//!
//! WebGPU has no hidden UAV counters. A UAV declared with a counter gets a
//! second binding: its counter, one `atomic<u32>` in its own storage buffer
//! ([`crate::BindingKind::UavCounter`], placed by
//! [`crate::BindingScheme::place_counter`]); the pipeline binds a 4-byte
//! buffer holding the initial count (D3D's default is 0). A UAV has a
//! counter when its declaration says so or a counter instruction uses it.
//!
//! * `imm_atomic_alloc dst, u#` is `atomicAdd(counter, 1)`: dst gets the
//!   count before the increment, as D3D returns it.
//! * `imm_atomic_consume dst, u#` is `atomicSub(counter, 1)` and dst gets
//!   the count after the decrement (old − 1, wrapping like D3D's counter).
//!
//! Both are single atomic read-modify-writes, so concurrent invocations get
//! distinct indices exactly as with a D3D counter.

use crate::lower::{malformed, Lower, K};
use crate::resources::res_id;
use crate::resources::textures::not_a;
use crate::*;
use dxbc::program::Instruction;
use dxbc::spec::Opcode as O;
use naga::{
    AddressSpace, AtomicFunction, BinaryOperator as B, Expression as E, GlobalVariable, Scalar, Statement as S,
    TypeInner,
};

/// The UAV ids `imm_atomic_alloc` / `imm_atomic_consume` use: fxc sets the
/// declaration's counter flag only for some of them (an
/// `AppendStructuredBuffer` is declared as a plain structured UAV).
pub(crate) fn counted_uavs(p: &dxbc::program::Program) -> std::collections::BTreeSet<u32> {
    p.instructions
        .iter()
        .filter(|i| matches!(i.op(), Some(O::ImmAtomicAlloc | O::ImmAtomicConsume)))
        .filter_map(|i| i.operand(p, 1))
        .map(res_id)
        .collect()
}

impl Lower<'_> {
    /// Declares the counter of UAV `u{id}` (register `register`, `space`;
    /// a register range has a binding array of counters, one per UAV).
    pub(crate) fn declare_counter(&mut self, id: u32, register: u32, space: u32, count: crate::BindingCount) {
        let ty = self.ty(TypeInner::Atomic(Scalar::U32));
        let storage = AddressSpace::Storage { access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE };
        let ty = self.binding_array_type(ty, storage, count);
        let (group, binding) = self.options.bindings.place_counter(register, space);
        self.bindings.push(BindingEntry {
            class: RegisterClass::UnorderedAccess,
            register,
            space,
            group,
            binding,
            kind: BindingKind::UavCounter,
            count,
        });
        let g = self.module.global_variables.append(
            GlobalVariable {
                name: Some(format!("u{id}_counter")),
                space: storage,
                binding: Some(naga::ResourceBinding { group, binding }),
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            self.span,
        );
        self.counters.insert(id, g);
        self.emulations.insert(Emulation::UavCounters);
    }

    /// `imm_atomic_alloc` / `imm_atomic_consume dst, u#`.
    pub(crate) fn counter_op(&mut self, ins: &Instruction, code: O) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        let uav = self.op(ins, 1)?;
        if uav.ty() != dxbc::spec::OperandType::UnorderedAccessView as u32 {
            return malformed(not_a(uav, "UAV"), uav.offset as usize);
        }
        let Some(&g) = self.counters.get(&res_id(uav)) else {
            return malformed(format!("u{} has no counter (declared without one)", res_id(uav)), at);
        };
        // The counter of the range element the operand names (see resource_element).
        let elem = self.resource_element(g, uav)?;
        let pointer = self.handle_of(g, elem);
        let one = self.lit_u(1);
        let fun = if code == O::ImmAtomicAlloc { AtomicFunction::Add } else { AtomicFunction::Subtract };
        self.flush();
        let ty = self.t.u32;
        let result = self.f.expressions.append(E::AtomicResult { ty, comparison: false }, self.span);
        self.stmt(S::Atomic { pointer, fun, value: one, result: Some(result) });
        let value = if code == O::ImmAtomicAlloc { result } else { self.bin(B::Subtract, result, one) };
        let v = self.splat(value);
        let d = self.op(ins, 0)?;
        self.write(d, v, K::U, false)
    }
}
