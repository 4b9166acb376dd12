//! # Reads of read-only memory, written where they are used (WGSL only)
//!
//! naga's writers give every `Load` a `let` of its own, however often it is
//! used (`bake_ref_count` is 1 for loads: a load must happen where it
//! stands, before any later store). So a constant-buffer read used once
//! costs a line and a name the reader has to follow:
//!
//! ```text
//! let _e12 = cb0_[3];
//! let out_target = vec4<f32>(_e12.y, 0f, 0f, 0f);
//! ```
//!
//! A load from memory nothing in the dispatch can write reads the same
//! value wherever it is evaluated: a uniform buffer, and a storage buffer
//! bound read-only (WebGPU refuses a dispatch that binds one buffer both
//! read-only and writable, as D3D refuses an SRV and a UAV of one resource).
//! For such a load with one reference, this pass takes the load out of its
//! `Emit` range (and drops a name that only restates the place it reads,
//! `cb0_5` for `cb0[5]`), so the WGSL writer,
//! which bakes only what an `Emit` lists, prints it at its one use:
//! `vec4<f32>(cb0_[3].y, 0f, 0f, 0f)`. Its operands (an index) are either
//! written inline too, being pure, or already baked where they stood.
//!
//! Only the WGSL writer gets this module: the validator requires every load
//! to be emitted, and the SPIR-V writer evaluates expressions only at their
//! `Emit`. The validation info stays the module's own (handles do not move;
//! only `Emit` ranges and names change), and the web's line links read the
//! same module ([`crate::wgsl_module`]) so lines and names stay matched.

use naga::{AddressSpace, Expression as E, Function, Handle, StorageAccess};
use std::borrow::Cow;

/// `module` as the WGSL writer gets it: single-use loads of read-only
/// memory taken out of their `Emit` ranges (borrowed when there is none).
pub fn wgsl_module<'m>(module: &'m naga::Module, info: &naga::valid::ModuleInfo) -> Cow<'m, naga::Module> {
    let functions = module.functions.iter().map(|(h, f)| inlined(module, f, &info[h]));
    let entry_points =
        module.entry_points.iter().enumerate().map(|(k, e)| inlined(module, &e.function, info.get_entry_point(k)));
    let per_function: Vec<Vec<bool>> = functions.collect();
    let per_entry: Vec<Vec<bool>> = entry_points.collect();
    if !per_function.iter().chain(&per_entry).any(|g| g.contains(&true)) {
        return Cow::Borrowed(module);
    }
    let mut m = module.clone();
    for ((_, f), gone) in m.functions.iter_mut().zip(&per_function) {
        take_out(f, gone);
    }
    for (e, gone) in m.entry_points.iter_mut().zip(&per_entry) {
        take_out(&mut e.function, gone);
    }
    Cow::Owned(m)
}

fn take_out(f: &mut Function, gone: &[bool]) {
    if gone.contains(&true) {
        f.named_expressions.retain(|h, _| !gone[h.index()]);
        crate::direct_io::split_emits(&mut f.body, gone);
    }
}

/// Per expression of `f`: whether it is a load of read-only memory that
/// one expression or statement reads.
fn inlined(module: &naga::Module, f: &Function, info: &naga::valid::FunctionInfo) -> Vec<bool> {
    f.expressions
        .iter()
        .map(|(h, e)| match *e {
            E::Load { pointer } => {
                info[h].ref_count == 1
                    && read_only_root(module, f, pointer)
                    && f.named_expressions.get(&h).is_none_or(|name| restates_place(module, f, pointer, name))
            }
            _ => false,
        })
        .collect()
}

/// Whether `name` only restates the place `pointer` reads, as the
/// lowering names a row of a buffer that has no variables (`cb0_5` for
/// `cb0[5]`): the global's name, then `_` and each constant index. A name
/// that says more (a constant-buffer variable's) keeps its `let`.
fn restates_place(module: &naga::Module, f: &Function, mut pointer: Handle<E>, name: &str) -> bool {
    let mut indices = Vec::new();
    loop {
        match f.expressions[pointer] {
            E::AccessIndex { base, index } => {
                indices.push(index);
                pointer = base;
            }
            E::GlobalVariable(g) => {
                let Some(global) = module.global_variables[g].name.as_deref() else { return false };
                let mut place = global.to_string();
                for index in indices.iter().rev() {
                    place.push_str(&format!("_{index}"));
                }
                return place == name;
            }
            _ => return false,
        }
    }
}

/// Whether `pointer` is an access chain into a uniform buffer or a storage
/// buffer bound read-only.
fn read_only_root(module: &naga::Module, f: &Function, mut pointer: Handle<E>) -> bool {
    loop {
        match f.expressions[pointer] {
            E::Access { base, .. } | E::AccessIndex { base, .. } => pointer = base,
            E::GlobalVariable(g) => {
                return match module.global_variables[g].space {
                    AddressSpace::Uniform => true,
                    AddressSpace::Storage { access } => !access.contains(StorageAccess::STORE),
                    _ => false,
                };
            }
            _ => return false,
        }
    }
}
