//! Effects (`fx_4_x`, `fx_5_0`): every field the effect reader reads
//! ([`crate::effects::layout`]) becomes a leaf; each embedded shader is one
//! `…/bytecode` leaf covering its whole container (open it by its range).
//! Unclaimed bytes are named after the block they lie in: `header`,
//! `unstructured` (pool slack, data nothing points at) or `structured`
//! (slack after the last record).

use super::{tile, Builder, Spans, Texts, Value};
use crate::effects::{self, PartKind};
use std::borrow::Cow;
use std::ops::Range;

const TEXTS: Texts = &[
    ("tag", "Effect version tag: 0xFEFF1001 fx_4_0, 0xFEFF1011 fx_4_1, 0xFEFF2001 fx_5_0."),
    ("constant_buffer_count", "Constant buffers (cbuffer/tbuffer) declared by the effect."),
    ("numeric_variable_count", "Numeric variables inside those constant buffers."),
    ("object_variable_count", "Object variables: shaders, textures, samplers, states, strings, views."),
    ("pool_constant_buffer_count", "Constant buffers shared through an effect pool (fx_4 child effects)."),
    ("pool_numeric_variable_count", "Numeric variables shared through an effect pool."),
    ("pool_object_variable_count", "Object variables shared through an effect pool."),
    ("technique_count", "Techniques (in all groups for fx_5_0)."),
    ("unstructured_size", "Size of the unstructured block that follows the header (strings, types, shaders)."),
    ("string_count", "String variables and annotations."),
    ("shader_resource_count", "Shader resource views the effect declares."),
    ("depth_stencil_block_count", "Depth-stencil state blocks."),
    ("blend_block_count", "Blend state blocks."),
    ("rasterizer_block_count", "Rasterizer state blocks."),
    ("sampler_count", "Sampler state blocks."),
    ("render_target_view_count", "Render-target view variables."),
    ("depth_stencil_view_count", "Depth-stencil view variables."),
    ("shader_count", "Shaders in all: variables' elements and inline shaders."),
    ("inline_shader_count", "Shaders written inline in pass blocks."),
    ("group_count", "Technique groups (fxgroup; one unnamed group holds techniques outside any)."),
    ("unordered_access_view_count", "Unordered access view (RW resource) variables."),
    ("interface_variable_count", "Interface variables (dynamic linkage)."),
    ("interface_element_count", "Interface variable elements in all."),
    ("class_instance_element_count", "Class instance elements in all."),
    ("pass_count", "Passes in this technique."),
    ("name", "Offset of the name in the unstructured block (0: none)."),
    ("type", "Offset of the type record in the unstructured block."),
    ("semantic", "Offset of the semantic string in the unstructured block (0: none)."),
    ("bind_point", "Explicit register bind point, or 0xFFFFFFFF when the effect gives none."),
    ("size", "Constant buffer size in bytes."),
    ("flags", "Flags (constant buffers: bit 0 tbuffer, bit 1 single; variables: explicit binding and more)."),
    ("variable_count", "Numeric variables in this constant buffer."),
    ("buffer_offset", "The variable's byte offset inside its constant buffer."),
    ("default_value", "Offset of the default value in the unstructured block (0: none)."),
    ("default_data", "A default or annotation value, packed as the type's packed size says."),
    ("annotation_count", "Annotations attached to this item."),
    ("value", "Offset of an annotation's value (string elements or packed numeric value)."),
    ("type_name", "Offset of the type's name (\"float4\", \"VertexShader\")."),
    ("var_type", "Kind of type: 1 numeric, 2 object, 3 structure, 4 interface."),
    ("elements", "Array elements (0 for a non-array)."),
    ("total_size", "Size in bytes inside a constant buffer."),
    ("stride", "Spacing of array elements in bytes."),
    ("packed_size", "Size in bytes when fully packed (the size of a default value)."),
    ("numeric_layout", "Numeric layout bits: scalar/vector/matrix, scalar type, rows, columns, column-major."),
    ("object_type", "Object type number (shaders, textures, states, views, UAVs)."),
    ("member_count", "Members of the structure type."),
    ("offset", "The member's byte offset inside its structure."),
    ("base_class", "Offset of the base class type (0: none)."),
    ("interface_count", "Interfaces the class implements."),
    ("interface_type", "Offset of an implemented interface's type."),
    ("shader_size", "Byte count of the shader block that follows (0: a null shader)."),
    ("bytecode", "An embedded shader: a whole DXBC container (open it on its own)."),
    ("shader", "Offset of a shader block in the unstructured block."),
    ("so_decl", "Offset of a stream-out declaration string (0: none)."),
    ("so_decl0", "Offset of the stream-out declaration for stream 0 (0: none)."),
    ("so_decl1", "Offset of the stream-out declaration for stream 1 (0: none)."),
    ("so_decl2", "Offset of the stream-out declaration for stream 2 (0: none)."),
    ("so_decl3", "Offset of the stream-out declaration for stream 3 (0: none)."),
    ("so_decl_count", "Stream-out declarations in use."),
    ("rasterized_stream", "The stream sent to the rasterizer."),
    ("interface_binding_count", "Interface bindings of the shader (class instances for its interface parameters)."),
    ("interface_bindings", "Offset of the interface bindings."),
    ("instance_name", "Offset of the bound class instance's name."),
    ("array_index", "Array element index (0xFFFFFFFF: the whole variable)."),
    ("assignment_count", "State assignments in this block or pass."),
    ("string", "Offset of a string variable's value."),
    ("state", "Index of the assigned state in the runtime's state table (6 VS, 7 PS, 8 GS, 56 HS, 57 DS, 58 CS, …)."),
    ("index", "Element of the state assigned (render target or blend slot)."),
    ("kind", "What the initializer is: 1 constants, 2 variable, 3 array element, 4–6 run-time index or expression, 7 inline shader, 8 fx_5_0 inline shader."),
    ("initializer", "Offset of the assignment's value in the unstructured block."),
    ("constant_count", "Constants that follow, each a scalar type and a value."),
    ("constants", "Constant values: pairs of scalar type and 32-bit value."),
    ("array_name", "Offset of the shader or state array's name."),
    ("indexed", "Names and code of an assignment chosen at run time (not decoded further)."),
    ("text", "A NUL-terminated string in the unstructured block."),
];

/// Spans of a whole effect file (bare, or an `fx_4` container is handled by
/// the container's `FX10` chunk); `None` when `bytes` is no bare effect.
pub fn leaves(bytes: &[u8]) -> Option<Spans> {
    let range = effects::find(bytes).filter(|r| r.start == 0)?;
    let mut b = Builder { bytes, claims: Vec::new(), scopes: Vec::new() };
    claim(bytes, range, "", &mut b);
    Some(tile(bytes.len(), b.claims, b.scopes))
}

/// Claims the effect laid out in `range` (an `FX10` chunk's payload, or a
/// whole file with an empty `prefix`).
pub(super) fn claim(bytes: &[u8], range: Range<usize>, prefix: &str, b: &mut Builder) {
    let (e, parts) = effects::layout(bytes, range.clone());
    let sep = if prefix.is_empty() { "" } else { "/" };
    let failed =
        |r: &Range<usize>| e.errors.iter().any(|x| r.start <= x.offset() && x.offset() < r.end.max(r.start + 1));
    let header = range.start..e.unstructured.start.max(range.start + e.version.header_size()).min(range.end);
    for (r, name) in
        [(header, "header"), (e.unstructured.clone(), "unstructured"), (e.structured.clone(), "structured")]
    {
        if !r.is_empty() {
            let f = failed(&r);
            b.scope(r, format!("{prefix}{sep}{name}"), f);
        }
    }
    if e.unstructured.is_empty() && e.structured.is_empty() {
        // The header did not decode: the rest is named after the effect.
        let rest = (range.start + e.version.header_size()).min(range.end)..range.end;
        if !rest.is_empty() {
            b.scope(rest, format!("{prefix}{sep}effect"), true);
        }
    }
    let names: Vec<String> = e.shaders.iter().map(|s| s.name().label()).collect();
    for p in parts {
        let path = format!("{prefix}{sep}{}", p.path);
        let (at, len) = (p.range.start, p.range.len());
        match p.kind {
            PartKind::Dword(key) => {
                let v = b.dword(at).unwrap_or(0);
                b.num(TEXTS, key, path, at, 4, v.into());
            }
            PartKind::Text(t) => b.field(TEXTS, "text", path, at, len, Value::Text(t), Cow::Borrowed("")),
            PartKind::Bytes(key) => b.bytes(TEXTS, key, path, p.range),
            PartKind::Shader(i) => {
                let meaning = names.get(i).map_or_else(String::new, |n| format!("DXBC container: {n}"));
                b.field(TEXTS, "bytecode", path, at, len, Value::Bytes, meaning.into());
            }
        }
    }
}
