//! Names from the shader itself: RDEF's constant-buffer variables per row
//! and lane, resources' RDEF names, and the signature semantics that name
//! inputs and outputs (`texcoord0`, `out_target`), as WGSL identifiers.

use super::*;

/// Per (constant buffer id, row): the name of the RDEF variable in that
/// row, the first one that starts there or else the one that covers it
/// (`g_mWorld` for a matrix's first row, `g_mWorld_1` for its second).
/// SM5.0 only (an SM5.1 id is not a register).
pub(super) fn cbuffer_row_names(shader: &dxbc::Shader) -> BTreeMap<(u32, u32), String> {
    let mut out = BTreeMap::new();
    let Some(rdef) = &shader.rdef else { return out };
    if shader.program.as_ref().is_none_or(|p| p.version.is_sm51()) {
        return out;
    }
    for b in rdef.bindings.iter().filter(|b| b.input_type == 0) {
        let Some(cb) = rdef.constant_buffers.iter().find(|c| c.name == b.name) else { continue };
        let mut vars: Vec<_> = cb.variables.iter().filter(|v| v.size > 0).collect();
        vars.sort_by_key(|v| v.start_offset);
        for v in &vars {
            let Some(name) = identifier(&v.name) else { continue };
            let first = v.start_offset / 16;
            out.entry((b.bind_point, first)).or_insert_with(|| name.clone());
        }
        for v in &vars {
            let Some(name) = identifier(&v.name) else { continue };
            let first = v.start_offset / 16;
            let last = (v.start_offset.saturating_add(v.size).saturating_sub(1)) / 16;
            // Bounded: constant buffers have at most 4096 rows.
            for row in first + 1..=last.min(first + 4096) {
                out.entry((b.bind_point, row)).or_insert_with(|| format!("{name}_{}", row - first));
            }
        }
    }
    out
}

/// Per (constant buffer id, row) holding more than one RDEF variable: the
/// lanes (mask) and name of each. SM5.0 only, as `cbuffer_row_names`.
pub(super) fn cbuffer_row_lanes(shader: &dxbc::Shader) -> BTreeMap<(u32, u32), Vec<(u32, String)>> {
    let mut out: BTreeMap<(u32, u32), Vec<(u32, String)>> = BTreeMap::new();
    let Some(rdef) = &shader.rdef else { return out };
    if shader.program.as_ref().is_none_or(|p| p.version.is_sm51()) {
        return out;
    }
    for b in rdef.bindings.iter().filter(|b| b.input_type == 0) {
        let Some(cb) = rdef.constant_buffers.iter().find(|c| c.name == b.name) else { continue };
        // Only variables within one row (scalars and vectors) share rows.
        for v in cb.variables.iter().filter(|v| v.size > 0 && v.size <= 16 && v.start_offset % 16 + v.size <= 16) {
            let Some(name) = identifier(&v.name) else { continue };
            let first = v.start_offset % 16 / 4;
            let mask = ((1u32 << (v.size / 4)) - 1) << first;
            out.entry((b.bind_point, v.start_offset / 16)).or_default().push((mask & 0xf, name));
        }
    }
    out.retain(|_, vars| vars.len() > 1);
    out
}

/// RDEF's resource bindings: (class, first register, space, count, name).
pub(super) fn rdef_names(shader: &dxbc::Shader) -> Vec<(RegisterClass, u32, u32, u32, String)> {
    let Some(rdef) = &shader.rdef else { return Vec::new() };
    rdef.bindings
        .iter()
        .filter_map(|b| {
            // D3D_SHADER_INPUT_TYPE: which register file the binding is in.
            let class = match b.input_type {
                0 => RegisterClass::ConstantBuffer,
                1 | 2 | 5 | 7 | 12 => RegisterClass::ShaderResource,
                3 => RegisterClass::Sampler,
                4 | 6 | 8 | 9 | 10 | 11 | 13 => RegisterClass::UnorderedAccess,
                _ => return None,
            };
            Some((class, b.bind_point, b.space.unwrap_or(0), b.bind_count, b.name.clone()))
        })
        .collect()
}

/// `name` as a WGSL identifier: other characters become `_`, a leading
/// digit or `__` gets a letter; None when nothing is left.
pub(crate) fn identifier(name: &str) -> Option<String> {
    identifier_in(name, false, 0)
}

/// [`identifier`] of `name`, lowercased when `lower`, with room for
/// `extra` more bytes (one allocation where the name needs no fixing).
fn identifier_in(name: &str, lower: bool, extra: usize) -> Option<String> {
    let mut s = String::with_capacity(name.len() + 1 + extra);
    if name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        // The common case, nothing to replace: copied whole.
        s.push_str(name);
        if lower {
            s.make_ascii_lowercase();
        }
    } else {
        for c in name.chars() {
            s.push(match c {
                c if c.is_ascii_alphanumeric() && lower => c.to_ascii_lowercase(),
                c if c.is_ascii_alphanumeric() => c,
                _ => '_',
            });
        }
    }
    while s.ends_with('_') && s.len() > 1 {
        s.pop();
    }
    if s.bytes().all(|c| c == b'_') {
        return None;
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) || s.starts_with("__") {
        s.insert(0, 'n');
    }
    Some(s)
}

/// Per input register holding exactly one signature element, the name of
/// its loads: the semantic in lower case (a system value's without its
/// `sv_`: `position`, `vertexid`), with its index only where
/// another element has the same semantic (`texcoord`, `color1`; the entry
/// point's arguments have the full `texcoord0`, and naga's names are
/// unique over the module).
pub(super) fn input_names(shader: &dxbc::Shader) -> BTreeMap<u32, String> {
    let elements: Vec<_> =
        shader.input_signature.iter().flat_map(|s| s.elements.iter()).filter(|e| e.register != u32::MAX).collect();
    names_of_lone_elements(&elements, "")
}

/// Per output register (of stream 0) holding exactly one signature
/// element, its global's name: `out_` and the semantic as for inputs, a
/// system value's without its `sv_` (`out_position`, `out_target1`).
pub(super) fn output_names(shader: &dxbc::Shader) -> BTreeMap<u32, String> {
    let elements: Vec<_> = shader
        .output_signature
        .iter()
        .flat_map(|s| s.elements.iter())
        .filter(|e| e.register != u32::MAX && e.stream.unwrap_or(0) == 0)
        .collect();
    names_of_lone_elements(&elements, "out_")
}

/// `prefix` and the semantic of each register's element, for registers
/// that hold one (see [`input_names`]); a system value's without its `sv_`.
fn names_of_lone_elements(
    elements: &[&dxbc::chunks::signature::SignatureElement],
    prefix: &str,
) -> BTreeMap<u32, String> {
    let mut out = BTreeMap::new();
    for e in elements {
        if elements.iter().filter(|o| o.register == e.register).count() != 1 {
            continue;
        }
        let alone = elements.iter().filter(|o| o.name.eq_ignore_ascii_case(&e.name)).count() == 1;
        let name = match (alone && e.semantic_index == 0, identifier_in(&e.name, true, 0)) {
            (true, Some(base)) => base,
            _ => semantic_identifier(&e.name, e.semantic_index),
        };
        let rest = name.strip_prefix("sv_").filter(|r| !r.is_empty()).unwrap_or(&name);
        let name = if prefix.is_empty() && rest.len() == name.len() { name } else { [prefix, rest].concat() };
        out.insert(e.register, name);
    }
    out
}

/// A signature element's identifier: its semantic in lower case with its
/// index (`texcoord0`, `sv_target1`).
pub(super) fn semantic_identifier(name: &str, index: u32) -> String {
    let mut s = identifier_in(name, true, 10).unwrap_or_else(|| "io".into());
    dxbc::listing::push_decimal(&mut s, index.into());
    s
}
