//! A vertex shader that feeds a GS or HS writes no SV_Position; naga and
//! WebGPU require a vertex stage to output one. The position is synthesised
//! as the constant (0, 0, 0, 1) — the real shader's consumer never reads it —
//! after the real outputs, whose locations do not move.

use crate::IoEntry;
use naga::{Expression as E, Function, Handle, Literal, Span, StructMember, Type};

/// The output member (its offset is given where it joins the result) and
/// the I/O entry reporting it; the value, read at each return, is
/// [`synthesised_value`].
pub(crate) fn synthesised_position(vec4f: Handle<Type>) -> (StructMember, IoEntry) {
    let member = StructMember {
        name: Some("synthesised_position".into()),
        ty: vec4f,
        binding: Some(naga::Binding::BuiltIn(naga::BuiltIn::Position { invariant: false })),
        offset: 0,
    };
    let entry = IoEntry {
        semantic: "SV_Position".into(),
        semantic_index: 0,
        register: 0,
        location: None,
        builtin: Some("position".into()),
        scalar: "f32".into(),
        components: 4,
        synthesised: true,
    };
    (member, entry)
}

/// The synthesised position's value, `vec4(0, 0, 0, 1)`, appended to `ep`.
pub(crate) fn synthesised_value(ep: &mut Function, vec4f: Handle<Type>) -> Handle<E> {
    let components = [0.0f32, 0.0, 0.0, 1.0]
        .into_iter()
        .map(|v| ep.expressions.append(E::Literal(Literal::F32(v)), Span::UNDEFINED))
        .collect();
    ep.expressions.append(E::Compose { ty: vec4f, components }, Span::UNDEFINED)
}
