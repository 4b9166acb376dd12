//! Walks over naga IR shared by the passes that rewrite a lowered module:
//! each one reports the expression handles an expression or a statement
//! reads, and says when it meets a kind it does not know, so that a pass
//! can stay on the safe side instead of guessing.

use naga::{Expression as E, Statement as S};

/// Calls `f` with each operand of `e`; false for an expression kind the
/// walk does not know.
pub(crate) fn for_each_operand(e: &E, mut f: impl FnMut(naga::Handle<E>)) -> bool {
    match e {
        E::Literal(_)
        | E::Constant(_)
        | E::Override(_)
        | E::ZeroValue(_)
        | E::FunctionArgument(_)
        | E::GlobalVariable(_)
        | E::LocalVariable(_)
        | E::CallResult(_)
        | E::AtomicResult { .. }
        | E::WorkGroupUniformLoadResult { .. }
        | E::SubgroupBallotResult
        | E::SubgroupOperationResult { .. } => {}
        E::Compose { components, .. } => components.iter().copied().for_each(f),
        E::Access { base, index } => {
            f(*base);
            f(*index);
        }
        E::AccessIndex { base: x, .. }
        | E::Splat { value: x, .. }
        | E::Swizzle { vector: x, .. }
        | E::Load { pointer: x }
        | E::Unary { expr: x, .. }
        | E::As { expr: x, .. }
        | E::Derivative { expr: x, .. }
        | E::Relational { argument: x, .. }
        | E::ArrayLength(x) => f(*x),
        E::Binary { left, right, .. } => {
            f(*left);
            f(*right);
        }
        E::Select { condition, accept, reject } => {
            f(*condition);
            f(*accept);
            f(*reject);
        }
        E::Math { arg, arg1, arg2, arg3, .. } => {
            [Some(*arg), *arg1, *arg2, *arg3].into_iter().flatten().for_each(f);
        }
        E::ImageSample { image, sampler, coordinate, array_index, offset, level, depth_ref, .. } => {
            use naga::SampleLevel as L;
            let (l0, l1) = match *level {
                L::Exact(h) | L::Bias(h) => (Some(h), None),
                L::Gradient { x, y } => (Some(x), Some(y)),
                L::Auto | L::Zero => (None, None),
            };
            [Some(*image), Some(*sampler), Some(*coordinate), *array_index, *offset, l0, l1, *depth_ref]
                .into_iter()
                .flatten()
                .for_each(f);
        }
        E::ImageLoad { image, coordinate, array_index, sample, level } => {
            [Some(*image), Some(*coordinate), *array_index, *sample, *level].into_iter().flatten().for_each(f);
        }
        E::ImageQuery { image, query } => {
            f(*image);
            if let naga::ImageQuery::Size { level: Some(l) } = query {
                f(*l);
            }
        }
        _ => return false,
    }
    true
}

/// Calls `f` with each expression a statement reads directly (not those of
/// the blocks nested in it); false for a statement kind the walk does not
/// know.
pub(crate) fn for_each_statement_operand(s: &S, mut f: impl FnMut(naga::Handle<E>)) -> bool {
    match s {
        S::Emit(_)
        | S::Block(_)
        | S::Break
        | S::Continue
        | S::Kill
        | S::Return { value: None }
        | S::ControlBarrier(_)
        | S::MemoryBarrier(_) => {}
        S::If { condition: x, .. } | S::Switch { selector: x, .. } | S::Return { value: Some(x) } => f(*x),
        S::Loop { break_if, .. } => break_if.iter().copied().for_each(f),
        S::Store { pointer, value } => {
            f(*pointer);
            f(*value);
        }
        S::ImageStore { image, coordinate, array_index, value } => {
            [Some(*image), Some(*coordinate), *array_index, Some(*value)].into_iter().flatten().for_each(f);
        }
        S::Atomic { pointer, fun, value, .. } => {
            f(*pointer);
            f(*value);
            if let naga::AtomicFunction::Exchange { compare: Some(c) } = fun {
                f(*c);
            }
        }
        S::WorkGroupUniformLoad { pointer, .. } => f(*pointer),
        S::Call { arguments, .. } => arguments.iter().copied().for_each(f),
        _ => return false,
    }
    true
}

/// Rebuilds the blocks, `block` and those nested in it, that hold a
/// statement `wants` picks: `replace` gets each picked statement and
/// pushes into the block being rebuilt what stands in its place (nothing,
/// or other statements); the others stay as they are. A block with none
/// is left as it is (its nested blocks are still visited). Why not rebuild every
/// block: the edits are few (the stores of an unread output, a function's
/// returns), and moving every statement of every block into a new one
/// cost about 1 % of a translation.
pub(crate) fn rebuild_blocks_where(
    block: &mut naga::Block,
    wants: &dyn Fn(&S) -> bool,
    replace: &mut dyn FnMut(S, naga::Span, &mut naga::Block),
) {
    if !block.iter().any(wants) {
        for s in block.iter_mut() {
            for_each_nested_block_mut(s, |b| rebuild_blocks_where(b, wants, replace));
        }
        return;
    }
    // Most statements stand in their own place: room for all of them
    // saves the pushes' regrowth.
    let old = std::mem::replace(block, naga::Block::with_capacity(block.len()));
    for (mut s, span) in old.span_into_iter() {
        for_each_nested_block_mut(&mut s, |b| rebuild_blocks_where(b, wants, replace));
        if wants(&s) {
            replace(s, span, block);
        } else {
            block.push(s, span);
        }
    }
}

/// Calls `f` on each block nested directly in `s`: a block's own, an
/// `if`'s two, every case of a `switch`, a loop's body and continuing.
pub(crate) fn for_each_nested_block_mut(s: &mut S, mut f: impl FnMut(&mut naga::Block)) {
    match s {
        S::Block(b) => f(b),
        S::If { accept, reject, .. } => {
            f(accept);
            f(reject);
        }
        S::Switch { cases, .. } => cases.iter_mut().for_each(|c| f(&mut c.body)),
        S::Loop { body, continuing, .. } => {
            f(body);
            f(continuing);
        }
        _ => {}
    }
}
