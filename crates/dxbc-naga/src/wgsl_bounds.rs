//! # Group-shared indices without their clamp (WGSL only)
//!
//! D3D leaves an access past the end of group-shared memory undefined: a
//! read returns an undefined value, and a write leaves all shared memory
//! undefined. So the lowering clamps such an index to the last word,
//! `g0_[min(i, 1599u)]`, which keeps every backend inside the variable
//! with no guard. WGSL already promises that much for any index into a
//! fixed-size array: out of bounds, a load returns a value of the same
//! variable (or zero) and a store writes somewhere in the variable or
//! nowhere. So the module the WGSL writer gets indexes group-shared words
//! as a person writes them, `g0_[i]`, and the clamp is not printed.
//!
//! Only the lowering's own clamp goes: an `Access` of a workgroup array of
//! `n` elements whose index is `min(x, n - 1u)` used by nothing else, the
//! form [`crate::resources`] gives every group-shared word it reads or
//! writes at a computed index. A clamp that the shader computes itself sits
//! inside it (`min(min(i, 7u), 1599u)`) and is kept. Taking out a clamp read
//! once changes no other expression's use count, so where the writer
//! prints everything else, and what [`crate::wgsl_loads`] decided, stay
//! as they were.

use naga::{AddressSpace, ArraySize, Expression as E, Function, Handle, Literal, MathFunction, TypeInner};

/// Per expression of `f`: for an access into group-shared memory through
/// the lowering's clamp, the clamp's operand (the index as computed).
pub(crate) fn unclamped(
    module: &naga::Module,
    f: &Function,
    info: &naga::valid::FunctionInfo,
) -> Vec<Option<Handle<E>>> {
    f.expressions
        .iter()
        .map(|(_, e)| {
            let E::Access { base, index } = *e else { return None };
            let E::GlobalVariable(g) = f.expressions[base] else { return None };
            let global = &module.global_variables[g];
            let TypeInner::Array { size: ArraySize::Constant(n), .. } = module.types[global.ty].inner else {
                return None;
            };
            let E::Math { fun: MathFunction::Min, arg, arg1: Some(last), arg2: None, arg3: None } =
                f.expressions[index]
            else {
                return None;
            };
            let clamp_of_this_array = matches!(f.expressions[last], E::Literal(Literal::U32(l)) if l == n.get() - 1);
            (global.space == AddressSpace::WorkGroup && clamp_of_this_array && info[index].ref_count == 1)
                .then_some(arg)
        })
        .collect()
}

/// Indexes the accesses `unclamped` marks by the clamp's operand, and marks
/// their clamps, read by nothing now, in `gone` (to be taken out of their
/// `Emit` ranges).
pub(crate) fn drop_clamps(f: &mut Function, unclamped: &[Option<Handle<E>>], gone: &mut [bool]) {
    for (h, e) in f.expressions.iter_mut() {
        if let (E::Access { index, .. }, Some(x)) = (e, unclamped[h.index()]) {
            gone[index.index()] = true;
            *index = x;
        }
    }
}
