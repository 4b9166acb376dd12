//! # Expressions nothing reads
//!
//! The lowering builds some values it then does not use: a swizzle that a
//! later swizzle reads through (`t.xyxx` once `t.xyxx.xy` is `t.xy`), a
//! lane list a liveness decision dropped. naga counts every expression's
//! operands as uses whether or not anything reads the expression itself,
//! and its writers give a value used twice a `let` of its own
//! (`bake_ref_count`), so a dead reader turns a value written inside its
//! one real reader into a line `let _eN = …;`, and `lets` keeps names it
//! would drop.
//!
//! Before validation, this pass finds the expressions no statement reads,
//! directly or through other expressions (nor a local variable's
//! initialiser), and takes each such emitted expression out of its `Emit`
//! range, rewritten as an operand-free literal that nothing reads and no
//! writer prints. Handles do not move, so spans and names stay where they
//! are. A function holding an expression or statement kind the walk does
//! not know is left as it is.

use crate::ir_walk::{for_each_operand, for_each_statement_operand};
use naga::{Block, Expression as E, Function, Handle, Literal, Statement as S};

/// Drops the dead emitted expressions of every function and entry point.
pub(crate) fn drop_dead_expressions(module: &mut naga::Module) {
    for (_, f) in module.functions.iter_mut() {
        drop_in(f);
    }
    for ep in module.entry_points.iter_mut() {
        drop_in(&mut ep.function);
    }
}

fn drop_in(f: &mut Function) {
    let n = f.expressions.len();
    let mut live = vec![false; n];
    let mut emitted = vec![false; n];
    if !mark_statements(&f.body, &mut live, &mut emitted) {
        return;
    }
    for (_, v) in f.local_variables.iter() {
        if let Some(init) = v.init {
            live[init.index()] = true;
        }
    }
    // Readers come after their operands in the arena: one pass backwards.
    for (h, e) in f.expressions.iter().rev() {
        if live[h.index()] && !for_each_operand(e, |o| live[o.index()] = true) {
            return;
        }
    }
    // Emitted and not live: `emitted` becomes the dead marks.
    let mut dead = emitted;
    dead.iter_mut().zip(&live).for_each(|(d, &l)| *d &= !l);
    if !dead.contains(&true) {
        return;
    }
    for (h, e) in f.expressions.iter_mut() {
        if dead[h.index()] {
            *e = E::Literal(Literal::U32(0));
        }
    }
    f.named_expressions.retain(|h, _| !dead[h.index()]);
    crate::direct_io::split_emits(&mut f.body, &dead);
}

/// Marks what the statements of `block` read (`live`) and emit
/// (`emitted`); false at a statement kind the walk does not know.
fn mark_statements(block: &Block, live: &mut [bool], emitted: &mut [bool]) -> bool {
    block.iter().all(|s| {
        if !for_each_statement_operand(s, |h: Handle<E>| live[h.index()] = true) {
            return false;
        }
        match s {
            S::Emit(range) => {
                let r = range.index_range();
                match emitted.get_mut(r.start as usize..r.end as usize) {
                    Some(slots) => {
                        slots.fill(true);
                        true
                    }
                    // A range past the arena (the validator's to refuse):
                    // the function is left as it is.
                    None => false,
                }
            }
            S::Block(b) => mark_statements(b, live, emitted),
            S::If { accept, reject, .. } => {
                mark_statements(accept, live, emitted) && mark_statements(reject, live, emitted)
            }
            S::Switch { cases, .. } => cases.iter().all(|c| mark_statements(&c.body, live, emitted)),
            S::Loop { body, continuing, .. } => {
                mark_statements(body, live, emitted) && mark_statements(continuing, live, emitted)
            }
            _ => true,
        }
    })
}
