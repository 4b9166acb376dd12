//! # Integer reinterpretations spelt as conversions (WGSL only)
//!
//! D3D registers are typeless, so the lowering moves a value between i32
//! and u32 with a bitcast wherever an instruction reads it in the other
//! kind: `cb[(bitcast<u32>(i) + 24u)]`. In WGSL, the conversion `u32(e)` of
//! an i32 (and `i32(e)` of a u32, and their vector forms) is defined as
//! that same reinterpretation of the bits (the value modulo 2^32), and
//! naga's SPIR-V and constant evaluation treat it so. So the module the
//! WGSL writer gets spells every same-width integer bitcast as the
//! conversion a person writes: `cb[(u32(i) + 24u)]`. A bitcast between a
//! float and an integer, an `asuint`-style look at a float's bits, stays a
//! `bitcast`. Only the `As` expression's `convert` changes: its type, and
//! so the validation info, is the same.

use naga::{Expression as E, Function, ScalarKind};

/// Per expression of `f`: whether it is a bitcast between i32 and u32
/// (scalars or vectors), given the types validation found.
pub(crate) fn int_reinterpretations(
    module: &naga::Module,
    f: &Function,
    info: &naga::valid::FunctionInfo,
) -> Vec<bool> {
    f.expressions
        .iter()
        .map(|(_, e)| match *e {
            E::As { expr, kind: to @ (ScalarKind::Sint | ScalarKind::Uint), convert: None } => {
                let from = info[expr].ty.inner_with(&module.types).scalar();
                from.is_some_and(|s| {
                    s.width == 4 && matches!(s.kind, ScalarKind::Sint | ScalarKind::Uint) && s.kind != to
                })
            }
            _ => false,
        })
        .collect()
}

/// Spells the bitcasts `marked` as conversions in `f`.
pub(crate) fn respell(f: &mut Function, marked: &[bool]) {
    for (h, e) in f.expressions.iter_mut() {
        if let E::As { convert, .. } = e {
            if marked[h.index()] {
                *convert = Some(4);
            }
        }
    }
}
