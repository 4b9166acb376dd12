//! The module as the WGSL writer gets it: what WGSL can say more plainly
//! than the module every backend shares, with the same handles, types and
//! validation info. Loads read once are written at their use
//! ([`crate::wgsl_loads`]), integer reinterpretations are conversions
//! ([`crate::wgsl_casts`]), and group-shared words are indexed without the
//! clamp WGSL's own bounds rule makes redundant ([`crate::wgsl_bounds`]).
//! A vector of one literal read twice (`vec4(31u)`) is written at each
//! use, not as a `let _e767 = vec4(31u);` a reader has to look up.
//! The web's line links read this module too.

use std::borrow::Cow;

/// `module` for the WGSL writer (borrowed when nothing changes).
pub fn wgsl_module<'m>(module: &'m naga::Module, info: &naga::valid::ModuleInfo) -> Cow<'m, naga::Module> {
    let marks = |f: &naga::Function, fi: &naga::valid::FunctionInfo| Marks {
        gone: with_literal_splats(f, crate::wgsl_loads::inlined(module, f, fi)),
        casts: crate::wgsl_casts::int_reinterpretations(module, f, fi),
        unclamped: crate::wgsl_bounds::unclamped(module, f, fi),
    };
    let per_function: Vec<_> = module.functions.iter().map(|(h, f)| marks(f, &info[h])).collect();
    let per_entry: Vec<_> =
        module.entry_points.iter().enumerate().map(|(k, e)| marks(&e.function, info.get_entry_point(k))).collect();
    if !per_function.iter().chain(&per_entry).any(Marks::change) {
        return Cow::Borrowed(module);
    }
    let mut m = module.clone();
    let functions = m.functions.iter_mut().map(|(_, f)| f).chain(m.entry_points.iter_mut().map(|e| &mut e.function));
    for (f, marks) in functions.zip(per_function.into_iter().chain(per_entry)) {
        let Marks { mut gone, casts, unclamped } = marks;
        crate::wgsl_bounds::drop_clamps(f, &unclamped, &mut gone);
        crate::wgsl_loads::take_out(f, &gone);
        crate::wgsl_casts::respell(f, &casts);
    }
    Cow::Owned(m)
}

/// `gone` with every unnamed splat of a literal added: taken out of its
/// `Emit` range, it is written at each of its uses, as a literal is.
fn with_literal_splats(f: &naga::Function, mut gone: Vec<bool>) -> Vec<bool> {
    for (h, e) in f.expressions.iter() {
        if let naga::Expression::Splat { value, .. } = *e {
            if matches!(f.expressions[value], naga::Expression::Literal(_)) && !f.named_expressions.contains_key(&h) {
                gone[h.index()] = true;
            }
        }
    }
    gone
}

/// What each step found in one function, per expression.
struct Marks {
    /// Taken out of its `Emit` range: a load written at its use (and, once
    /// the clamps are dropped, each clamp dropped).
    gone: Vec<bool>,
    /// An i32/u32 bitcast spelt as a conversion.
    casts: Vec<bool>,
    /// A group-shared access indexed without its clamp, by this operand.
    unclamped: Vec<Option<naga::Handle<naga::Expression>>>,
}

impl Marks {
    fn change(&self) -> bool {
        self.gone.contains(&true) || self.casts.contains(&true) || self.unclamped.iter().any(Option::is_some)
    }
}
