//! # Inputs and outputs passed straight through the entry point
//!
//! The lowering reads an input register through a private global
//! (`in_normal`) that the entry point fills from its arguments before the
//! body runs, and writes an output register into a global (`out_target`)
//! that the entry point loads into its result afterwards. It has to: the
//! body is lowered before the entry point exists, a register may be filled
//! from several arguments or converted on the way in (SV_Position's w,
//! booleans), an indexed access needs the register in memory, and outputs
//! are often written a few components at a time, or inside branches.
//!
//! Where the body ends up written into the entry point itself, the
//! simple cases need no global, and the copies only add lines a reader has
//! to look through:
//!
//! ```text
//! var<private> in_normal: vec4<f32>;
//! var<private> out_target: vec4<f32>;
//! fn main(@location(0) normal0_: vec4<f32>) -> FragmentOutput {
//!     in_normal = normal0_;
//!     let normal = in_normal;
//!     out_target = vec4<f32>(normal.xyz * 0.5f, 1f);
//!     let _e9 = out_target;
//!     return FragmentOutput(_e9);
//! ```
//!
//! - **Inputs.** A register one argument fills, unconverted, that the body
//!   only loads: each load becomes the argument itself, the copy and the
//!   global go, and the argument takes the register's name
//!   (`fn main(@location(0) normal: vec4<f32>)`, `normal.xyz`). Arguments
//!   are immutable, so a load anywhere reads what the copy stored. A
//!   narrower argument (a compute shader's `vThreadID.xyz` from
//!   `global_invocation_id`, a scalar built-in in `.x`) qualifies when the
//!   body reads only the components it fills: `.x` of the register becomes
//!   `.x` of the argument, or the scalar itself.
//! - **Outputs.** At each return, a whole store to an output register
//!   that nothing after it touches on the way to the return: the return
//!   reads the stored value itself, named after the output (`let out_target
//!   = …; return out_target;`, or a struct of several), and the store goes, since
//!   nothing could read the register between. Where every return takes its
//!   value so, the stores left to the register are never read: they go,
//!   with the global.
//!
//! The rewrites keep handles. A load's arena slot becomes a
//! `FunctionArgument` expression, which has no operands, so arena order
//! still holds, and `Emit` ranges are split around it, since naga evaluates
//! arguments before the body rather than where they stand. A dead global's
//! expressions become unused zero values, and only once the entry point is
//! complete are the dead globals removed ([`remove_globals`]).

use crate::ir_walk::{for_each_operand, for_each_statement_operand};
use crate::lets::is_register_name;
use naga::{Arena, Block, Expression as E, Function, GlobalVariable, Handle, Module, Span, Statement as S};

/// Which components of an input global one argument fills.
#[derive(Clone, Copy)]
pub(crate) struct Fill {
    /// The argument's index.
    pub arg: u32,
    /// The global's first component it fills.
    pub first: u32,
    /// How many: 4 (a whole vec4, `first` 0), or the argument's
    /// components (1: a scalar).
    pub count: u32,
}

impl Fill {
    fn whole(self) -> bool {
        self.count == 4
    }

    fn holds(self, c: u32) -> bool {
        (self.first..self.first + self.count).contains(&c)
    }
}

/// Whether global `g`, filled only by `fill`, can be read from its argument
/// instead: no function of `module` uses it (the body being written into
/// the entry point is not one of them); in `exprs` and `body` every
/// expression naming it is the pointer of a load and of nothing else; and
/// unless the argument fills it whole, each load is only read through
/// components the argument fills (`.x`, or a swizzle of them).
pub(crate) fn readable_from(
    module: &Module,
    exprs: &Arena<E>,
    body: &Block,
    g: Handle<GlobalVariable>,
    fill: Fill,
) -> Option<Marks> {
    if used_by_functions(module, g) {
        return None;
    }
    let m = marks(exprs, g);
    let Marks { is_g, is_load, is_view } = &m;
    let named = |h: Handle<E>| is_g[h.index()] || (!fill.whole() && is_view[h.index()]);
    for (_, e) in exprs.iter() {
        let mut bad = false;
        let known = match e {
            E::Load { .. } => true,
            E::As { expr, convert: None, .. } if is_load[expr.index()] => true,
            E::AccessIndex { base, index } if is_view[base.index()] => {
                bad = !fill.holds(*index);
                true
            }
            E::Swizzle { size, vector, pattern } if is_view[vector.index()] => {
                let lanes = &pattern[..*size as usize];
                let c = lanes[0] as u32;
                bad = !lanes.iter().all(|&l| fill.holds(l as u32) && (fill.count > 1 || l as u32 == c));
                true
            }
            _ => for_each_operand(e, |o| bad |= named(o)),
        };
        if bad || !known {
            return None;
        }
    }
    statements_avoid(body, &named).then_some(m)
}

/// At a `return` that ends `block`: takes out of `block` the whole stores
/// to output globals `outs` that nothing after them in `block` touches, so
/// that the return reads each stored value itself instead of the global.
/// Returns each such global with its value, named after the output (unless
/// it has a name of its own or is a constant). A store something later
/// touches, or one inside a nested block, stays.
pub(crate) fn take_final_stores(
    module: &Module,
    f: &mut Function,
    block: &mut Block,
    outs: &[Handle<GlobalVariable>],
) -> Vec<(Handle<GlobalVariable>, Handle<E>)> {
    // One bit per output global: what each expression reads or names.
    if outs.is_empty() || outs.len() > 64 {
        return Vec::new();
    }
    let mut masks = vec![0u64; f.expressions.len()];
    for (h, e) in f.expressions.iter() {
        let mut m = match e {
            E::GlobalVariable(g) => outs.iter().position(|o| o == g).map_or(0, |i| 1 << i),
            _ => 0,
        };
        // An expression this walk does not know may read any of them.
        if !for_each_operand(e, |o| m |= masks[o.index()]) {
            m = u64::MAX;
        }
        masks[h.index()] = m;
    }
    let mut touched = 0u64;
    let mut taken: Vec<(usize, Handle<GlobalVariable>, Handle<E>)> = Vec::new();
    for (i, s) in block.iter().enumerate().rev() {
        if let S::Store { pointer, value } = *s {
            if let E::GlobalVariable(g) = f.expressions[pointer] {
                if let Some(bit) = outs.iter().position(|&o| o == g).map(|i| 1u64 << i) {
                    if touched & bit == 0 {
                        taken.push((i, g, value));
                    }
                    touched |= bit | masks[value.index()];
                    continue;
                }
            }
        }
        touched |= statement_mask(s, &masks);
    }
    let mut out = Vec::with_capacity(taken.len());
    // `taken` runs from the last statement back: indices fall.
    for (i, g, value) in taken {
        block.cull(i..=i);
        name_after_output(module, f, value, g);
        out.push((g, value));
    }
    out
}

/// The output globals (as bits of `masks`) statement `s` reads or names,
/// nested blocks included; all of them for a statement the walk does not know.
fn statement_mask(s: &S, masks: &[u64]) -> u64 {
    let mut m = 0u64;
    if !for_each_statement_operand(s, |h| m |= masks[h.index()]) {
        return u64::MAX;
    }
    let nested = |b: &Block| b.iter().fold(0, |m, s| m | statement_mask(s, masks));
    match s {
        S::Emit(range) => range.clone().fold(m, |m, h| m | masks[h.index()]),
        S::Block(b) => m | nested(b),
        S::If { accept, reject, .. } => m | nested(accept) | nested(reject),
        S::Switch { cases, .. } => cases.iter().fold(m, |m, c| m | nested(&c.body)),
        S::Loop { body, continuing, .. } => m | nested(body) | nested(continuing),
        _ => m,
    }
}

/// Names `value`, returned for output global `g`, after the output, unless
/// it has a name of its own (a constant, an input) or is one.
fn name_after_output(module: &Module, f: &mut Function, value: Handle<E>, g: Handle<GlobalVariable>) {
    let own_name = f.named_expressions.get(&value).is_some_and(|n| !is_register_name(n));
    if let (false, false, Some(name)) =
        (f.expressions[value].needs_pre_emit(), own_name, &module.global_variables[g].name)
    {
        f.named_expressions.insert(value, name.clone());
    }
}

/// Where nothing reads output global `g` any more (the returns take the
/// values stored last): removes the stores left to it, which nothing reads,
/// from `body` (the whole function's), turns the expressions naming it
/// into unused zero values, and says true; false, and nothing changed,
/// while anything but a whole store names it.
pub(crate) fn drop_unread(module: &Module, f: &mut Function, body: &mut Block, g: Handle<GlobalVariable>) -> bool {
    if used_by_functions(module, g) {
        return false;
    }
    let is_g: Vec<bool> = f.expressions.iter().map(|(_, e)| matches!(e, E::GlobalVariable(x) if *x == g)).collect();
    if !is_g.contains(&true) {
        return true;
    }
    let named = |h: Handle<E>| is_g[h.index()];
    for (_, e) in f.expressions.iter() {
        let mut bad = false;
        if !for_each_operand(e, |o| bad |= named(o)) || bad {
            return false;
        }
    }
    if !only_stores(body, &named) {
        return false;
    }
    drop_stores(body, &named);
    let ty = module.global_variables[g].ty;
    for (h, e) in f.expressions.iter_mut() {
        if is_g[h.index()] {
            *e = E::ZeroValue(ty);
        }
    }
    true
}

/// Whether every statement of `block` (nested ones included) that names an
/// expression `named` picks is a whole store through it.
fn only_stores(block: &Block, named: &impl Fn(Handle<E>) -> bool) -> bool {
    block.iter().all(|s| match *s {
        S::Store { pointer, value } if named(pointer) => !named(value),
        S::Block(ref b) => only_stores(b, named),
        S::If { ref accept, ref reject, condition } => {
            !named(condition) && only_stores(accept, named) && only_stores(reject, named)
        }
        S::Switch { ref cases, selector } => !named(selector) && cases.iter().all(|c| only_stores(&c.body, named)),
        S::Loop { ref body, ref continuing, break_if } => {
            !break_if.is_some_and(named) && only_stores(body, named) && only_stores(continuing, named)
        }
        _ => statement_avoids(s, named),
    })
}

/// `block` without the stores through an expression `named` picks.
fn drop_stores(block: &mut Block, named: &impl Fn(Handle<E>) -> bool) {
    crate::ir_walk::rebuild_blocks(block, &mut |s, span, out| match s {
        S::Store { pointer, .. } if named(pointer) => {}
        s => out.push(s, span),
    });
}

/// Whether a function of `module` names global `g` (the body written into
/// the entry point is not one of them).
fn used_by_functions(module: &Module, g: Handle<GlobalVariable>) -> bool {
    module
        .functions
        .iter()
        .any(|(_, f)| f.expressions.iter().any(|(_, e)| matches!(e, E::GlobalVariable(x) if *x == g)))
}

/// What each expression of an arena is to global `g`.
pub(crate) struct Marks {
    /// It names `g`.
    is_g: Vec<bool>,
    /// It loads `g` whole.
    is_load: Vec<bool>,
    /// It is such a load, or its bits as another kind: what the body reads
    /// components of.
    is_view: Vec<bool>,
}

fn marks(exprs: &Arena<E>, g: Handle<GlobalVariable>) -> Marks {
    let is_g: Vec<bool> = exprs.iter().map(|(_, e)| matches!(e, E::GlobalVariable(x) if *x == g)).collect();
    let is_load: Vec<bool> =
        exprs.iter().map(|(_, e)| matches!(e, E::Load { pointer } if is_g[pointer.index()])).collect();
    let is_view = exprs
        .iter()
        .map(|(h, e)| is_load[h.index()] || matches!(e, E::As { expr, convert: None, .. } if is_load[expr.index()]))
        .collect();
    Marks { is_g, is_load, is_view }
}

/// Whether no statement of `block` (nested ones included) names an
/// expression `named` picks, every statement kind being known.
fn statements_avoid(block: &Block, named: &impl Fn(Handle<E>) -> bool) -> bool {
    block.iter().all(|s| statement_avoids(s, named))
}

/// [`statements_avoid`] for one statement and the blocks nested in it.
fn statement_avoids(s: &S, named: &impl Fn(Handle<E>) -> bool) -> bool {
    let mut bad = false;
    let known = for_each_statement_operand(s, |h| bad |= named(h));
    let nested = match s {
        S::Block(b) => statements_avoid(b, named),
        S::If { accept, reject, .. } => statements_avoid(accept, named) && statements_avoid(reject, named),
        S::Switch { cases, .. } => cases.iter().all(|c| statements_avoid(&c.body, named)),
        S::Loop { body, continuing, .. } => statements_avoid(body, named) && statements_avoid(continuing, named),
        _ => true,
    };
    known && !bad && nested
}

/// Turns every load of the global `marks` describe (what [`readable_from`]
/// gave) in `f`'s arena into `fill`'s argument (with the component reads a
/// partial fill needs renumbered, or a scalar's turned into the argument
/// itself), unnames the loads, and marks in `gone` what became arguments:
/// the caller splits the body's `Emit` ranges around them
/// ([`split_emits`]), once for every argument read so.
pub(crate) fn read_argument(f: &mut Function, marks: Marks, fill: Fill, gone: &mut Vec<bool>) {
    let Marks { is_g, is_load, is_view } = marks;
    // A bitcast view's operand (the load) and kind, for a scalar's component reads.
    let bitcasts: Vec<Option<(Handle<E>, naga::ScalarKind)>> = f
        .expressions
        .iter()
        .map(|(_, e)| match *e {
            E::As { expr, kind, convert: None } if is_load[expr.index()] => Some((expr, kind)),
            _ => None,
        })
        .collect();
    if gone.len() < f.expressions.len() {
        gone.resize(f.expressions.len(), false);
    }
    for (h, e) in f.expressions.iter_mut() {
        let i = h.index();
        match e {
            _ if is_g[i] => *e = E::FunctionArgument(fill.arg),
            _ if is_load[i] => {
                *e = E::FunctionArgument(fill.arg);
                gone[i] = true;
            }
            // A scalar's only component: the argument, or its bits as the view's kind.
            E::AccessIndex { base, .. } if is_view[base.index()] && fill.count == 1 => match bitcasts[base.index()] {
                Some((load, kind)) => *e = E::As { expr: load, kind, convert: None },
                None => {
                    *e = E::FunctionArgument(fill.arg);
                    gone[i] = true;
                }
            },
            E::AccessIndex { base, index } if is_view[base.index()] => *index -= fill.first,
            E::Swizzle { size, vector, .. } if is_view[vector.index()] && fill.count == 1 => {
                *e = E::Splat { size: *size, value: *vector };
            }
            E::Swizzle { vector, pattern, .. } if is_view[vector.index()] => {
                for l in pattern.iter_mut() {
                    *l = naga::SwizzleComponent::XYZW[(*l as u32).saturating_sub(fill.first) as usize];
                }
            }
            _ => {}
        }
    }
    f.named_expressions.retain(|h, _| !gone[h.index()]);
}

/// `block` with every `Emit` range split around the handles `gone` marks.
pub(crate) fn split_emits(block: &mut Block, gone: &[bool]) {
    let is_gone = |h: Handle<E>| gone.get(h.index()).copied().unwrap_or(false);
    let mut split_here = false;
    for s in block.iter_mut() {
        match s {
            S::Emit(range) => split_here |= range.clone().any(is_gone),
            s => crate::ir_walk::for_each_nested_block_mut(s, |b| split_emits(b, gone)),
        }
    }
    // Only a block with such an `Emit` is rebuilt: most blocks have none,
    // and moving every statement of every block costs more than the check.
    if split_here {
        let old = std::mem::replace(block, Block::with_capacity(block.len() + 1));
        for (s, span) in old.span_into_iter() {
            match s {
                S::Emit(range) => emit_runs(range, gone, |r| block.push(S::Emit(r), span)),
                s => block.push(s, span),
            }
        }
    }
}

/// The runs of `range` that `gone` leaves, in order.
fn emit_runs(range: naga::Range<E>, gone: &[bool], mut push: impl FnMut(naga::Range<E>)) {
    let mut run: Option<(Handle<E>, Handle<E>)> = None;
    for h in range {
        if gone.get(h.index()).copied().unwrap_or(false) {
            if let Some((a, b)) = run.take() {
                push(naga::Range::new_from_bounds(a, b));
            }
        } else {
            run = Some((run.map_or(h, |(a, _)| a), h));
        }
    }
    if let Some((a, b)) = run {
        push(naga::Range::new_from_bounds(a, b));
    }
}

/// Removes the globals `dead` from `module`, renumbering the others in
/// every function and entry point. No expression may name a dead global.
pub(crate) fn remove_globals(module: &mut Module, dead: &[Handle<GlobalVariable>]) {
    if dead.is_empty() {
        return;
    }
    let old: Vec<(Handle<GlobalVariable>, GlobalVariable, Span)> = module.global_variables.drain().collect();
    let mut renumbered: Vec<Option<Handle<GlobalVariable>>> = Vec::with_capacity(old.len());
    for (h, g, span) in old {
        renumbered.push((!dead.contains(&h)).then(|| module.global_variables.append(g, span)));
    }
    let functions = module.functions.iter_mut().map(|(_, f)| f);
    for f in functions.chain(module.entry_points.iter_mut().map(|ep| &mut ep.function)) {
        for (_, e) in f.expressions.iter_mut() {
            if let E::GlobalVariable(g) = e {
                if let Some(Some(new)) = renumbered.get(g.index()) {
                    *g = *new;
                }
            }
        }
    }
}
