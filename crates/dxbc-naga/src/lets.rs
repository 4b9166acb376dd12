//! # Which values get a `let` of their own
//!
//! naga's text writers print an expression as a `let` when it has a name
//! (`Function::named_expressions`) or when it must be evaluated once where
//! it stands (a load, a sample, a derivative: `Expression::bake_ref_count`),
//! or is used more than once; every other expression is printed inside its
//! one reader. The lowering names each DXBC destination write after its
//! register (`r1_xyz`), so by default every instruction is a line. After
//! validation, when the use counts are known, this pass drops names that
//! would only add lines:
//!
//! - a value nothing uses (its `let` would be dead);
//! - a register's bitcast used once (it reads best inside its reader,
//!   often the store into the register's variable); a value named after
//!   what it is (an output returned, a constant) keeps its name;
//! - a register value used once, in the block that computes it, whose
//!   printed form is small ([`INLINE_SIZE`] nodes at most):
//!   `inverseSqrt(dot(r0_xyz, r0_xyz))` reads better as one line than as
//!   `let r0_w = dot(…); let r0_w_1 = inverseSqrt(r0_w);`, while a long
//!   chain keeps its names, so no line grows past a few operations, and a
//!   value computed before a loop is not moved into it.
//!
//! A register value that is printed as a `let` whatever its name (a load,
//! a sample) keeps the register's name, which says more than naga's
//! `_e12`; and one read by another value keeps its name when it holds two
//! or more loads of memory the shader writes, which could not all follow
//! it past a store or a barrier and would each take a `let`.
//!
//! A buffer's last index (`arrayLength - 1`, made once per function for
//! the clamps of its accesses) read more than once is named after the
//! buffer, `Data_last`, where naga would print `_e12`; read once, it is
//! printed inside its reader.
//!
//! One exception keeps a name whatever the rules above say: a value read
//! by an access that is used more than once (`arr[i]` read twice). naga
//! never gives an access a `let`, so it prints the access at each use, and
//! a value written inside it would be printed, and read, that many times.
//!
//! Dropping a name changes where nothing is computed: naga inlines only
//! pure expressions; what must be evaluated where it stands (loads,
//! samples, derivatives, calls and atomics) keeps its own `let` whatever
//! its name. The spans stay on the expressions, so a line still maps to
//! the DXBC bytes of the value it binds.

use crate::ir_walk::{for_each_operand, for_each_statement_operand};
use naga::Expression as E;

/// The largest printed size (expression nodes, a baked operand counting
/// one) of a single-use register value printed inside its reader.
pub(crate) const INLINE_SIZE: u32 = 6;

/// Drops the names described in the module documentation, in every
/// function and entry point of `module` (validated into `info`).
pub(crate) fn unname(module: &mut naga::Module, info: &naga::valid::ModuleInfo) {
    let naga::Module { functions, entry_points, global_variables, .. } = module;
    for (h, f) in functions.iter_mut() {
        unname_in(global_variables, f, &info[h]);
    }
    for (i, ep) in entry_points.iter_mut().enumerate() {
        unname_in(global_variables, &mut ep.function, info.get_entry_point(i));
    }
}

/// Whether `h` loads memory the shader may write (group-shared memory, a
/// writable buffer, a variable): such a load is printed where it stands,
/// or in a reader nothing but other values separates it from.
fn loads_written_memory(globals: &naga::Arena<naga::GlobalVariable>, f: &naga::Function, h: naga::Handle<E>) -> bool {
    matches!(f.expressions[h], E::Load { pointer } if !crate::wgsl_loads::read_only_root(globals, f, pointer))
}

fn unname_in(globals: &naga::Arena<naga::GlobalVariable>, f: &mut naga::Function, fi: &naga::valid::FunctionInfo) {
    // One record per expression, in one allocation (this runs on every
    // translation).
    let mut blocks = Blocks { of: vec![Slot::default(); f.expressions.len()] };
    for (h, name) in f.named_expressions.iter() {
        if let Some(s) = blocks.of.get_mut(h.index()) {
            s.name = if is_register_name(name) { Name::Register } else { Name::Other };
        }
    }
    let mut next = 0;
    blocks.walk(f, &f.body, &mut next);
    // Operands come before their readers in the arena, so one pass in
    // handle order knows each operand's printed size when it reaches its reader.
    let of = &mut blocks.of;
    for (h, e) in f.expressions.iter() {
        let mut inner = 1u32;
        let mut written_loads = 0;
        let known = for_each_operand(e, |o| {
            inner = inner.saturating_add(of.get(o.index()).map_or(1, |s| s.size));
            written_loads += usize::from(loads_written_memory(globals, f, o));
        });
        let inner = if known { inner } else { u32::MAX };
        let uses = fi[h].ref_count;
        let slot = of[h.index()];
        let kept = match slot.name {
            Name::None => uses >= e.bake_ref_count(),
            _ if uses == 0 => false,
            // Written inside its reader, it would be printed once per print
            // of that reader: an access is printed at each of its uses.
            _ if uses == 1 && slot.reader.is_some_and(|r| reprinted(f, fi, r)) => true,
            // Printed as a `let` whatever its name (a load, a sample): the
            // register's name says more than naga's `_e12`.
            Name::Register if uses >= e.bake_ref_count() => true,
            Name::Register if uses == 1 && matches!(e, E::As { convert: None, .. }) => false,
            // Read by another value, it may be printed past a store or a
            // barrier that its loads of written memory cannot follow, and
            // each would take a `let` of its own; named, it holds them in
            // one line (WGSL writes a load read once inside its reader,
            // `crate::wgsl_loads`). Read by a statement, it is printed
            // there, and its loads follow it when nothing stands between.
            Name::Register if written_loads >= 2 && slot.reader.is_some() => true,
            Name::Register => !(uses == 1 && inner <= INLINE_SIZE && slot.emitted != 0 && slot.emitted == slot.read),
            Name::Other => true,
        };
        // What a reader counts for this operand: one for a `let`.
        of[h.index()].size = if kept { 1 } else { inner };
        of[h.index()].unnamed = !kept;
    }
    // One pass: removing names one by one would shift the map each time.
    f.named_expressions.retain(|h, _| !of[h.index()].unnamed);
    name_last_indices(globals, f, fi);
}

/// Names each buffer's last index read more than once (`Data_last`).
fn name_last_indices(
    globals: &naga::Arena<naga::GlobalVariable>,
    f: &mut naga::Function,
    fi: &naga::valid::FunctionInfo,
) {
    let mut named = Vec::new();
    for (h, e) in f.expressions.iter() {
        let E::Binary { op: naga::BinaryOperator::Subtract, left, right } = *e else { continue };
        if fi[h].ref_count < 2 || f.named_expressions.contains_key(&h) {
            continue;
        }
        if !matches!(f.expressions[right], E::Literal(naga::Literal::U32(1))) {
            continue;
        }
        let E::ArrayLength(pointer) = f.expressions[left] else { continue };
        let E::GlobalVariable(g) = f.expressions[pointer] else { continue };
        if let Some(name) = &globals[g].name {
            named.push((h, format!("{name}_last")));
        }
    }
    f.named_expressions.extend(named);
}

/// Whether `r` is an expression naga never gives a `let` (an access) and
/// that is used more than once: whatever is written inside it is printed
/// at each of its uses.
fn reprinted(f: &naga::Function, fi: &naga::valid::FunctionInfo, r: naga::Handle<E>) -> bool {
    f.expressions[r].bake_ref_count() == usize::MAX && fi[r].ref_count > 1
}

/// What an expression's name is.
#[derive(Clone, Copy, Default)]
enum Name {
    #[default]
    None,
    /// The lowering's name for a register value (`r1_xyz`).
    Register,
    Other,
}

/// What the pass knows of one expression.
#[derive(Clone, Copy, Default)]
struct Slot {
    name: Name,
    /// The block that emits it (0: none; blocks count from 1).
    emitted: u32,
    /// The block of its (last seen) reader, 0 when unknown.
    read: u32,
    /// Its (last seen) reader, when that is an expression.
    reader: Option<naga::Handle<E>>,
    /// Its printed size where it is read (1 for a `let`).
    size: u32,
    /// Its name is dropped.
    unnamed: bool,
}

/// Where each expression is emitted and where it is read: a value written
/// before a loop and read once inside it keeps its `let`, so that it is
/// not computed again on every iteration of the printed loop.
struct Blocks {
    of: Vec<Slot>,
}

impl Blocks {
    fn mark_read(&mut self, h: naga::Handle<E>, block: u32) {
        if let Some(s) = self.of.get_mut(h.index()) {
            s.read = block;
        }
    }

    fn walk(&mut self, f: &naga::Function, block: &naga::Block, next: &mut u32) {
        use naga::Statement as S;
        *next += 1;
        let id = *next;
        for s in block.iter() {
            match s {
                S::Emit(range) => {
                    for h in range.clone() {
                        if let Some(s) = self.of.get_mut(h.index()) {
                            s.emitted = id;
                        }
                        let mut read = |o: naga::Handle<E>| {
                            if let Some(s) = self.of.get_mut(o.index()) {
                                s.read = id;
                                s.reader = Some(h);
                            }
                        };
                        for_each_operand(&f.expressions[h], &mut read);
                    }
                }
                S::Loop { body, continuing, break_if } => {
                    self.walk(f, body, next);
                    let before = *next;
                    self.walk(f, continuing, next);
                    // `break if` is evaluated at the end of `continuing`.
                    if let Some(c) = break_if {
                        self.mark_read(*c, before + 1);
                    }
                }
                _ => {
                    // A statement the walk does not know reads nothing here:
                    // its operands stay unknown, so they keep their `let`s.
                    for_each_statement_operand(s, |h| self.mark_read(h, id));
                    match s {
                        S::Block(inner) => self.walk(f, inner, next),
                        S::If { accept, reject, .. } => {
                            self.walk(f, accept, next);
                            self.walk(f, reject, next);
                        }
                        S::Switch { cases, .. } => cases.iter().for_each(|c| self.walk(f, &c.body, next)),
                        _ => {}
                    }
                }
            }
        }
    }
}

/// A name the lowering gives a register value: `r` + register + `_` + its
/// lanes (`r12_xyw`).
pub(crate) fn is_register_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('r') else { return false };
    let Some((reg, lanes)) = rest.split_once('_') else { return false };
    !reg.is_empty()
        && reg.bytes().all(|b| b.is_ascii_digit())
        && !lanes.is_empty()
        && lanes.bytes().all(|b| b"xyzw".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_names() {
        assert!(is_register_name("r0_x"));
        assert!(is_register_name("r12_xyw"));
        assert!(!is_register_name("r_x"));
        assert!(!is_register_name("r1_"));
        assert!(!is_register_name("r1_x_1"));
        assert!(!is_register_name("g_mWorld"));
        assert!(!is_register_name("radius_x"));
    }
}
