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
//!
//! Each question is answered for all the globals at once: one walk of the
//! arena and one of the statements decide every input
//! ([`readable_inputs`]) and every output ([`drop_unread_outputs`]), since
//! a walk per global made the entry point's cost grow with the inputs
//! times the body. A rewrite touches only its own global's expressions, so
//! the answers found before any rewrite still hold after the others.

use crate::ir_walk::{for_each_operand, for_each_statement_operand};
use crate::lets::is_register_name;
use naga::{Arena, Block, Expression as E, Function, GlobalVariable, Handle, Module, Statement as S};

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

/// What an expression of the entry point's arena is to the input globals
/// asked about in [`readable_inputs`]: the global itself, a whole load of
/// it, or such a load's bits as another kind (a view, what the body reads
/// components of). The number is the global's place in the list asked about.
#[derive(Clone, Copy, PartialEq)]
enum Tag {
    Other,
    Name(u32),
    Load(u32),
    View(u32),
}

impl Tag {
    /// The input a load or a view reads.
    fn viewed(self) -> Option<u32> {
        match self {
            Tag::Load(c) | Tag::View(c) => Some(c),
            _ => None,
        }
    }
}

/// Which of the input globals `inputs` can be read from their arguments
/// instead, worked out in one pass over `exprs` and `body` for all of them:
/// those with a `Fill` (filled only by it, unconverted) are asked about. A
/// global qualifies when no function of `module` uses it (the body being
/// written into the entry point is not one of them); in `exprs` and `body`
/// every expression naming it is the pointer of a load and of nothing
/// else; and unless the argument fills it whole, each load is only read
/// through components the argument fills (`.x`, or a swizzle of them). An
/// expression or statement kind the walk does not know disqualifies every
/// global.
pub(crate) fn readable_inputs(
    module: &Module,
    exprs: &Arena<E>,
    body: &Block,
    inputs: &[(Handle<GlobalVariable>, Option<Fill>)],
) -> Readable {
    let mut ok: Vec<bool> = inputs.iter().map(|(_, fill)| fill.is_some()).collect();
    let mut tags = Vec::new();
    if !ok.contains(&true) {
        return Readable { tags, ok };
    }
    let candidate =
        |g: Handle<GlobalVariable>| inputs.iter().position(|&(x, fill)| x == g && fill.is_some()).map(|c| c as u32);
    for (_, f) in module.functions.iter() {
        for (_, e) in f.expressions.iter() {
            if let Some(c) = match *e {
                E::GlobalVariable(g) => candidate(g),
                _ => None,
            } {
                ok[c as usize] = false;
            }
        }
    }
    let mut known = true;
    tags.reserve_exact(exprs.len());
    for (_, e) in exprs.iter() {
        // Operands come before their readers; a handle that does not (the
        // validator's to refuse) reads as no input's.
        let tag_of = |h: Handle<E>| tags.get(h.index()).copied().unwrap_or(Tag::Other);
        let tag = match *e {
            E::GlobalVariable(g) => candidate(g).map_or(Tag::Other, Tag::Name),
            E::Load { pointer } => match tag_of(pointer) {
                Tag::Name(c) => Tag::Load(c),
                _ => Tag::Other,
            },
            E::As { expr, convert: None, .. } if matches!(tag_of(expr), Tag::Load(_)) => {
                Tag::View(tag_of(expr).viewed().unwrap_or(0))
            }
            E::AccessIndex { base, index } if tag_of(base).viewed().is_some() => {
                let c = tag_of(base).viewed().unwrap_or(0) as usize;
                ok[c] &= inputs[c].1.is_some_and(|fill| fill.holds(index));
                Tag::Other
            }
            E::Swizzle { size, vector, ref pattern } if tag_of(vector).viewed().is_some() => {
                let c = tag_of(vector).viewed().unwrap_or(0) as usize;
                let lanes = &pattern[..size as usize];
                let first = lanes[0] as u32;
                ok[c] &= inputs[c].1.is_some_and(|fill| {
                    lanes.iter().all(|&l| fill.holds(l as u32) && (fill.count > 1 || l as u32 == first))
                });
                Tag::Other
            }
            _ => {
                known &= for_each_operand(e, |o| named(&tags, inputs, &mut ok, o));
                Tag::Other
            }
        };
        tags.push(tag);
    }
    known &= statements_name(body, &mut |h| named(&tags, inputs, &mut ok, h));
    if !known {
        ok.fill(false);
    }
    Readable { tags, ok }
}

/// Disqualifies the input operand `h` belongs to where an expression or
/// statement other than a load or a component read uses it: the global
/// itself, or (unless its argument fills it whole) a load or view of it.
fn named(tags: &[Tag], inputs: &[(Handle<GlobalVariable>, Option<Fill>)], ok: &mut [bool], h: Handle<E>) {
    match tags.get(h.index()).copied().unwrap_or(Tag::Other) {
        Tag::Name(c) => ok[c as usize] = false,
        Tag::Load(c) | Tag::View(c) if !inputs[c as usize].1.is_some_and(Fill::whole) => ok[c as usize] = false,
        _ => {}
    }
}

/// Calls `f` with every expression the statements of `block` name, nested
/// blocks included; false if a statement kind is not known to the walk.
fn statements_name(block: &Block, f: &mut impl FnMut(Handle<E>)) -> bool {
    let mut known = true;
    for s in block.iter() {
        known &= for_each_statement_operand(s, &mut *f);
        known &= match s {
            S::Block(b) => statements_name(b, f),
            S::If { accept, reject, .. } => statements_name(accept, f) & statements_name(reject, f),
            S::Switch { cases, .. } => cases.iter().fold(true, |k, c| k & statements_name(&c.body, f)),
            S::Loop { body, continuing, .. } => statements_name(body, f) & statements_name(continuing, f),
            _ => true,
        };
    }
    known
}

/// What [`readable_inputs`] found: per input, whether it qualifies, and the
/// arena's tags that [`read_argument`] rewrites by.
pub(crate) struct Readable {
    tags: Vec<Tag>,
    ok: Vec<bool>,
}

impl Readable {
    /// Whether the `c`th input can be read from its argument.
    pub(crate) fn ok(&self, c: usize) -> bool {
        self.ok.get(c).copied().unwrap_or(false)
    }
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

/// Adds to `dead`, in `outs`' order, the output globals of `outs` that
/// nothing reads any more (the returns take the values stored last): for
/// each, the stores left to it, which nothing reads, are removed from
/// `body` (the whole function's), and the expressions naming it become
/// unused zero values.
/// A global qualifies when no function of `module` names it and, in `f`
/// and `body`, nothing but a whole store through it names it; one that no
/// expression names at all always does. An expression or statement kind
/// the walks do not know keeps every global named. One pass over the
/// arena and one over the statements serve 64 globals.
pub(crate) fn drop_unread_outputs(
    module: &Module,
    f: &mut Function,
    body: &mut Block,
    outs: &[Handle<GlobalVariable>],
    dead: &mut Vec<Handle<GlobalVariable>>,
) {
    for chunk in outs.chunks(64) {
        let bit = |g: Handle<GlobalVariable>| chunk.iter().position(|&o| o == g).map_or(0, |i| 1u64 << i);
        // Which global of the chunk each expression is (one bit at most).
        let is_out: Vec<u64> = f
            .expressions
            .iter()
            .map(|(_, e)| match *e {
                E::GlobalVariable(g) => bit(g),
                _ => 0,
            })
            .collect();
        let named = is_out.iter().fold(0, |m, b| m | b);
        // Those another function names stay, named here or not.
        let mut in_functions = 0u64;
        for (_, fx) in module.functions.iter() {
            for (_, e) in fx.expressions.iter() {
                if let E::GlobalVariable(g) = *e {
                    in_functions |= bit(g);
                }
            }
        }
        let mut kept = 0u64;
        let mut known = true;
        for (_, e) in f.expressions.iter() {
            known &= for_each_operand(e, |o| kept |= is_out.get(o.index()).copied().unwrap_or(0));
        }
        known &= only_stores(body, &is_out, &mut kept);
        if !known {
            kept = u64::MAX;
        }
        // A global no expression names is dead whatever the walks found.
        let gone = !(kept & named | in_functions);
        let drop = gone & named;
        if drop != 0 {
            let dropped = |s: &S| matches!(*s, S::Store { pointer, .. } if is_out.get(pointer.index()).is_some_and(|b| b & drop != 0));
            crate::ir_walk::rebuild_blocks_where(body, &dropped, &mut |_, _, _| {});
            for (h, e) in f.expressions.iter_mut() {
                if let E::GlobalVariable(g) = *e {
                    if is_out[h.index()] & drop != 0 {
                        *e = E::ZeroValue(module.global_variables[g].ty);
                    }
                }
            }
        }
        dead.extend(chunk.iter().enumerate().filter(|&(i, _)| gone & (1 << i) != 0).map(|(_, &g)| g));
    }
}

/// Adds to `kept` the globals (bits of `is_out`) that a statement of
/// `block`, nested ones included, names other than as the pointer of a
/// whole store (a stored value, a condition, any other operand). False if
/// a statement kind is not known to the walk.
fn only_stores(block: &Block, is_out: &[u64], kept: &mut u64) -> bool {
    let mut known = true;
    for s in block.iter() {
        let out_bit = |h: Handle<E>| is_out.get(h.index()).copied().unwrap_or(0);
        let mut named = |h: Handle<E>| *kept |= out_bit(h);
        known &= match *s {
            S::Store { pointer, value } if out_bit(pointer) != 0 => {
                named(value);
                true
            }
            S::Block(ref b) => only_stores(b, is_out, kept),
            S::If { ref accept, ref reject, condition } => {
                named(condition);
                only_stores(accept, is_out, kept) & only_stores(reject, is_out, kept)
            }
            S::Switch { ref cases, selector } => {
                named(selector);
                cases.iter().fold(true, |k, c| k & only_stores(&c.body, is_out, kept))
            }
            S::Loop { ref body, ref continuing, break_if } => {
                if let Some(b) = break_if {
                    named(b);
                }
                only_stores(body, is_out, kept) & only_stores(continuing, is_out, kept)
            }
            _ => for_each_statement_operand(s, named),
        };
    }
    known
}

/// Turns every load of the `c`th input of `readable` (one it found
/// qualifies, filled by `fill`) in `f`'s arena into `fill`'s argument (with
/// the component reads a partial fill needs renumbered, or a scalar's
/// turned into the argument itself), unnames the loads, and marks in
/// `gone` what became arguments: the caller splits the body's `Emit` ranges
/// around them ([`split_emits`]), once for every argument read so.
pub(crate) fn read_argument(f: &mut Function, readable: &Readable, c: usize, fill: Fill, gone: &mut Vec<bool>) {
    let c = c as u32;
    let tags = &readable.tags;
    let tag = |h: Handle<E>| tags.get(h.index()).copied().unwrap_or(Tag::Other);
    // A scalar's bitcast views: their operand (the load) and kind, read
    // before the loads are rewritten.
    let views: Vec<(usize, Handle<E>, naga::ScalarKind)> = if fill.count == 1 {
        f.expressions
            .iter()
            .filter_map(|(h, e)| match *e {
                E::As { expr, kind, convert: None } if tag(h) == Tag::View(c) => Some((h.index(), expr, kind)),
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    if gone.len() < f.expressions.len() {
        gone.resize(f.expressions.len(), false);
    }
    for (h, e) in f.expressions.iter_mut() {
        let i = h.index();
        match e {
            _ if tag(h) == Tag::Name(c) => *e = E::FunctionArgument(fill.arg),
            _ if tag(h) == Tag::Load(c) => {
                *e = E::FunctionArgument(fill.arg);
                gone[i] = true;
            }
            // A scalar's only component: the argument, or its bits as the view's kind.
            E::AccessIndex { base, .. } if tag(*base).viewed() == Some(c) && fill.count == 1 => {
                match views.iter().find(|v| v.0 == base.index()) {
                    Some(&(_, load, kind)) => *e = E::As { expr: load, kind, convert: None },
                    None => {
                        *e = E::FunctionArgument(fill.arg);
                        gone[i] = true;
                    }
                }
            }
            E::AccessIndex { base, index } if tag(*base).viewed() == Some(c) => *index -= fill.first,
            E::Swizzle { size, vector, .. } if tag(*vector).viewed() == Some(c) && fill.count == 1 => {
                *e = E::Splat { size: *size, value: *vector };
            }
            E::Swizzle { vector, pattern, .. } if tag(*vector).viewed() == Some(c) => {
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
    let mut split_here = false;
    for s in block.iter_mut() {
        match s {
            S::Emit(range) => {
                let r = range.index_range();
                let (a, b) = (r.start as usize, (r.end as usize).min(gone.len()));
                split_here |= a < b && gone[a..b].contains(&true);
            }
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
    let mut old = std::mem::take(&mut module.global_variables);
    let mut renumbered: Vec<Option<Handle<GlobalVariable>>> = Vec::with_capacity(old.len());
    for (h, g, span) in old.drain() {
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
