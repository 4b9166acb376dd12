//! The module as the WGSL writer gets it: what WGSL can say more plainly
//! than the module every backend shares, with the same handles, types and
//! validation info. Loads read once are written at their use
//! ([`crate::wgsl_loads`]) and integer reinterpretations are conversions
//! ([`crate::wgsl_casts`]). The web's line links read this module too.

use std::borrow::Cow;

/// `module` for the WGSL writer (borrowed when nothing changes).
pub fn wgsl_module<'m>(module: &'m naga::Module, info: &naga::valid::ModuleInfo) -> Cow<'m, naga::Module> {
    let marks = |f: &naga::Function, fi: &naga::valid::FunctionInfo| {
        (crate::wgsl_loads::inlined(module, f, fi), crate::wgsl_casts::int_reinterpretations(module, f, fi))
    };
    let per_function: Vec<_> = module.functions.iter().map(|(h, f)| marks(f, &info[h])).collect();
    let per_entry: Vec<_> =
        module.entry_points.iter().enumerate().map(|(k, e)| marks(&e.function, info.get_entry_point(k))).collect();
    let changes = |(gone, casts): &(Vec<bool>, Vec<bool>)| gone.contains(&true) || casts.contains(&true);
    if !per_function.iter().chain(&per_entry).any(changes) {
        return Cow::Borrowed(module);
    }
    let mut m = module.clone();
    let functions = m.functions.iter_mut().map(|(_, f)| f).chain(m.entry_points.iter_mut().map(|e| &mut e.function));
    for (f, (gone, casts)) in functions.zip(per_function.iter().chain(&per_entry)) {
        crate::wgsl_loads::take_out(f, gone);
        crate::wgsl_casts::respell(f, casts);
    }
    Cow::Owned(m)
}
