//! Signed and unsigned atomic min/max on one region.
//!
//! naga (like WGSL) types an atomic word as either `atomic<i32>` or
//! `atomic<u32>`, and min/max follow that type. D3D lets `atomic_imax` and
//! `atomic_umax` hit the same words. Such a region is declared unsigned
//! (every other atomic — add, and, or, xor, exchange, compare-exchange — is
//! the same operation on the bits either way, in two's complement), and
//! each signed min/max becomes a compare-exchange loop:
//!
//! ```text
//! loop { old = atomicLoad(p); new = bits(max(i32(old), i32(v)));
//!        if atomicCompareExchangeWeak(p, old, new).exchanged { break } }
//! ```
//!
//! Why it is exact: the exchange stores `new` only if the word still holds
//! `old`, so each successful iteration is one indivisible read-modify-write
//! computing D3D's signed max (min) of the word and `v`; a failed one
//! changes nothing and retries. The value returned is the word before the
//! write, as `imm_atomic_imax` returns it.

use crate::lower::{Lower, H, K};
use naga::{AtomicFunction, Expression as E, LocalVariable, MathFunction as M, Scalar, Span, Statement as S};

impl Lower<'_> {
    /// A signed min (`max == false`) or max of `value` (u32 bits) into the
    /// unsigned atomic word at `pointer`; returns the old word (u32).
    pub(crate) fn signed_minmax_loop(&mut self, pointer: H, value: H, max: bool) -> H {
        self.emulations.insert(crate::Emulation::MixedSignAtomics);
        let u32_ty = self.t.u32;
        let old_var =
            self.f.local_variables.append(LocalVariable { name: None, ty: u32_ty, init: None }, Span::UNDEFINED);
        let old_ptr = self.e(E::LocalVariable(old_var));
        let value_i = self.bitcast(value, K::U, K::I);
        self.open_loop();
        let current = self.e(E::Load { pointer });
        let current_i = self.bitcast(current, K::U, K::I);
        let new_i = self.math(if max { M::Max } else { M::Min }, current_i, Some(value_i), None);
        let new = self.bitcast(new_i, K::I, K::U);
        let ty =
            self.module.generate_predeclared_type(naga::PredeclaredType::AtomicCompareExchangeWeakResult(Scalar::U32));
        self.flush();
        let result = self.f.expressions.append(E::AtomicResult { ty, comparison: true }, self.span);
        self.stmt(S::Atomic {
            pointer,
            fun: AtomicFunction::Exchange { compare: Some(current) },
            value: new,
            result: Some(result),
        });
        let old = self.component(result, 0);
        self.stmt(S::Store { pointer: old_ptr, value: old });
        let exchanged = self.component(result, 1);
        let mut accept = naga::Block::new();
        accept.push(S::Break, self.span);
        self.stmt(S::If { condition: exchanged, accept, reject: naga::Block::new() });
        self.close_loop();
        self.e(E::Load { pointer: old_ptr })
    }
}
