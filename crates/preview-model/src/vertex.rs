//! Vertex data for the two ways the preview draws: a full-viewport quad in
//! front of a pixel shader, or a built-in mesh under a vertex shader.
//!
//! Both are driven by the input signature and follow the translator's
//! conventions: a user input register `n` is `@location(n)`, a `vec4` of
//! the component type of the first user element in that register (several
//! elements may share a register, each in the components its mask names).
//! So attributes here are *per register*, their components filled from
//! the elements that live in them.
//!
//! **Quad (pixel shaders).** The vertex stage is ours: [`QuadInputs::vertex_wgsl`]
//! is a pass-through shader that reads a clip-space position and one
//! attribute per register and writes each to `@location(register)` with
//! the same type and interpolation the translated fragment shader declares
//! (from `dcl_input_ps`, as the translator reads it), because WebGPU
//! requires both sides to match. `SV_Position` and other system values
//! come from the rasterizer and get no attribute.
//!
//! **Mesh (vertex shaders).** The shader reads attributes at
//! `@location(register)`; a vertex format narrower than the shader's
//! `vec4` is allowed and fills the rest with (0, 0, 0, 1), so each
//! attribute is as wide as the register's mask needs.

use crate::math;
use crate::mesh::Mesh;
use dxbc::chunks::signature::{Signature, SignatureElement};
use dxbc::spec::{InterpolationMode, OperandType, RegisterComponentType, SignatureName, DCL_INPUT_PS_CONTROLS};
use serde::Serialize;
use std::collections::BTreeMap;

/// WebGPU allows 16 vertex attributes by default; registers past this are dropped.
pub const MAX_ATTRIBUTES: usize = 16;

/// Component type of an attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ComponentType {
    /// `f32`.
    Float,
    /// `u32`.
    Uint,
    /// `i32`.
    Sint,
}

impl ComponentType {
    /// From a signature's `D3D_REGISTER_COMPONENT_TYPE` (unknown counts as float).
    pub fn from_signature(t: u32) -> ComponentType {
        match RegisterComponentType::from_u32(t) {
            Some(RegisterComponentType::Uint32) => ComponentType::Uint,
            Some(RegisterComponentType::Sint32) => ComponentType::Sint,
            _ => ComponentType::Float,
        }
    }

    /// The WGSL scalar type.
    pub fn wgsl(self) -> &'static str {
        match self {
            ComponentType::Float => "f32",
            ComponentType::Uint => "u32",
            ComponentType::Sint => "i32",
        }
    }

    fn bits(self, x: f32) -> u32 {
        match self {
            ComponentType::Float => x.to_bits(),
            ComponentType::Uint => x.max(0.0).round() as u32,
            ComponentType::Sint => x.round() as i32 as u32,
        }
    }
}

/// A vertex attribute format: component type and count (1–4, 32 bits each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct VertexFormat {
    /// Component type.
    pub ty: ComponentType,
    /// Component count.
    pub components: u8,
}

impl VertexFormat {
    /// The WebGPU `GPUVertexFormat` string, e.g. `float32x3`.
    pub fn webgpu_name(self) -> &'static str {
        const F: [&str; 4] = ["float32", "float32x2", "float32x3", "float32x4"];
        const U: [&str; 4] = ["uint32", "uint32x2", "uint32x3", "uint32x4"];
        const S: [&str; 4] = ["sint32", "sint32x2", "sint32x3", "sint32x4"];
        let i = (self.components.clamp(1, 4) - 1) as usize;
        match self.ty {
            ComponentType::Float => F[i],
            ComponentType::Uint => U[i],
            ComponentType::Sint => S[i],
        }
    }

    /// Size in bytes.
    pub fn size(self) -> u32 {
        4 * self.components as u32
    }
}

/// What an attribute's values stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Source {
    /// Clip-space (quad) or object-space (mesh) position.
    Position,
    /// Surface normal.
    Normal,
    /// Tangent with handedness in w.
    Tangent,
    /// Normal × tangent × handedness.
    Binormal,
    /// Texture coordinates (u, v, 0, 1).
    TexCoord,
    /// Vertex colour.
    Color,
    /// Skinning indices: all 0.
    BlendIndices,
    /// Skinning weights: (1, 0, 0, 0).
    BlendWeight,
    /// Point size: 1.
    PointSize,
    /// Anything else: a 0..1 ramp (u, v, (u+v)/2, 1).
    Ramp,
}

impl Source {
    /// The source for a semantic name (case-insensitive).
    pub fn for_semantic(name: &str) -> Source {
        match name.to_ascii_uppercase().as_str() {
            "POSITION" | "SV_POSITION" | "POSITIONT" | "POS" => Source::Position,
            "NORMAL" => Source::Normal,
            "TANGENT" => Source::Tangent,
            "BINORMAL" | "BITANGENT" => Source::Binormal,
            "TEXCOORD" | "UV" => Source::TexCoord,
            "COLOR" | "COLOUR" => Source::Color,
            "BLENDINDICES" => Source::BlendIndices,
            "BLENDWEIGHT" | "BLENDWEIGHTS" => Source::BlendWeight,
            "PSIZE" => Source::PointSize,
            _ => Source::Ramp,
        }
    }
}

/// A signature element that feeds an attribute.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Feed {
    /// Semantic name as in the signature.
    pub semantic: String,
    /// Semantic index.
    pub semantic_index: u32,
    /// Components of the register it occupies (bit 0 = x).
    pub mask: u8,
    /// What its values are.
    pub source: Source,
}

/// One attribute of the vertex buffer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VertexAttribute {
    /// The input register it feeds (also its `@location` in the translated shader).
    pub register: u32,
    /// `shaderLocation` in the vertex buffer layout (= register).
    pub shader_location: u32,
    /// Format.
    pub format: VertexFormat,
    /// Byte offset in a vertex.
    pub offset: u32,
    /// The elements it carries, in signature order.
    pub feeds: Vec<Feed>,
}

/// A vertex buffer layout (one interleaved buffer, per-vertex step).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VertexLayout {
    /// Bytes per vertex.
    pub stride: u32,
    /// Attributes, by register.
    pub attributes: Vec<VertexAttribute>,
}

/// How a fragment input is interpolated (WGSL `@interpolate` arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Interpolation {
    /// `perspective, center` (D3D `linear`, the default).
    Perspective,
    /// `perspective, centroid`.
    PerspectiveCentroid,
    /// `perspective, sample`.
    PerspectiveSample,
    /// `linear, center` (D3D `linear noperspective`).
    Linear,
    /// `linear, centroid`.
    LinearCentroid,
    /// `linear, sample`.
    LinearSample,
    /// `flat` (D3D `constant`, and every integer input).
    Flat,
}

impl Interpolation {
    /// From a `dcl_input_ps` interpolation mode (D3D's "linear" is
    /// perspective-correct, its "noperspective" is WGSL's linear).
    pub fn from_d3d(mode: u32) -> Interpolation {
        use InterpolationMode as M;
        match M::from_u32(mode) {
            Some(M::Constant) => Interpolation::Flat,
            Some(M::LinearCentroid) => Interpolation::PerspectiveCentroid,
            Some(M::LinearNoperspective) => Interpolation::Linear,
            Some(M::LinearNoperspectiveCentroid) => Interpolation::LinearCentroid,
            Some(M::LinearSample) => Interpolation::PerspectiveSample,
            Some(M::LinearNoperspectiveSample) => Interpolation::LinearSample,
            _ => Interpolation::Perspective,
        }
    }

    /// The WGSL attribute.
    pub fn wgsl(self) -> &'static str {
        match self {
            Interpolation::Perspective => "@interpolate(perspective, center)",
            Interpolation::PerspectiveCentroid => "@interpolate(perspective, centroid)",
            Interpolation::PerspectiveSample => "@interpolate(perspective, sample)",
            Interpolation::Linear => "@interpolate(linear, center)",
            Interpolation::LinearCentroid => "@interpolate(linear, centroid)",
            Interpolation::LinearSample => "@interpolate(linear, sample)",
            Interpolation::Flat => "@interpolate(flat)",
        }
    }
}

/// Groups the user (non-system-value) elements of a signature by register,
/// in register order, keeping at most [`MAX_ATTRIBUTES`] registers.
fn user_registers(sig: Option<&Signature>) -> BTreeMap<u32, Vec<&SignatureElement>> {
    let mut regs: BTreeMap<u32, Vec<&SignatureElement>> = BTreeMap::new();
    for e in sig.map(|s| s.elements.as_slice()).unwrap_or(&[]) {
        // System values (a pixel shader's SV_Position, SV_VertexID …) are
        // built-ins; a vertex shader's `SV_Position` input has none and is
        // a plain attribute.
        if e.system_value == SignatureName::Undefined as u32 && e.register != u32::MAX {
            regs.entry(e.register).or_default().push(e);
        }
    }
    while regs.len() > MAX_ATTRIBUTES {
        regs.pop_last();
    }
    regs
}

/// Lays out one attribute per register: type from the first element,
/// width `full` (4) or as far as the highest mask bit.
fn layout(regs: &BTreeMap<u32, Vec<&SignatureElement>>, full: bool, first_offset: u32) -> VertexLayout {
    let mut offset = first_offset;
    let mut attributes = Vec::new();
    for (&register, elems) in regs {
        let mask = elems.iter().fold(0u8, |m, e| m | e.mask) & 0xf;
        let width = if full { 4 } else { (8 - mask.leading_zeros()).clamp(1, 4) as u8 };
        let format = VertexFormat { ty: ComponentType::from_signature(elems[0].component_type), components: width };
        attributes.push(VertexAttribute {
            register,
            shader_location: register,
            format,
            offset,
            feeds: elems
                .iter()
                .map(|e| Feed {
                    semantic: e.name.clone(),
                    semantic_index: e.semantic_index,
                    mask: e.mask & 0xf,
                    source: Source::for_semantic(&e.name),
                })
                .collect(),
        });
        offset += format.size();
    }
    VertexLayout { stride: offset, attributes }
}

/// Writes one attribute of one vertex: each feed's components (from its
/// mask's lowest bit on) take the source's values from the start.
fn write_attribute(out: &mut Vec<u8>, a: &VertexAttribute, value: impl Fn(&Feed) -> [f32; 4]) {
    let mut words = [0u32; 4];
    for f in &a.feeds {
        let v = value(f);
        let first = (f.mask as u32).trailing_zeros().min(3);
        for c in first..4 {
            if f.mask & (1 << c) != 0 {
                words[c as usize] = a.format.ty.bits(v[(c - first) as usize]);
            }
        }
    }
    for w in &words[..a.format.components as usize] {
        out.extend(w.to_le_bytes());
    }
}

// ---------------------------------------------------------------- quad

/// The full-viewport quad for a pixel shader.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QuadInputs {
    /// Layout: clip-space position (`float32x2`) at offset 0, then one
    /// `x4` attribute per input register.
    pub layout: VertexLayout,
    /// `shaderLocation` of the position (the lowest location no register uses).
    pub position_location: u32,
    /// Interpolation of each register, as the translated fragment shader declares it.
    pub interpolation: Vec<(u32, Interpolation)>,
    /// Four vertices, drawn as a triangle strip: top-left, bottom-left,
    /// top-right, bottom-right.
    pub data: Vec<u8>,
    /// 4.
    pub vertex_count: u32,
}

/// The quad's corners: clip-space position and (u, v) with v down, as D3D's texture space.
pub const QUAD_CORNERS: [([f32; 2], [f32; 2]); 4] =
    [([-1.0, 1.0], [0.0, 0.0]), ([-1.0, -1.0], [0.0, 1.0]), ([1.0, 1.0], [1.0, 0.0]), ([1.0, -1.0], [1.0, 1.0])];

/// Per-corner colours of `COLOR0` (warm orange, teal, violet, gold);
/// `COLORn` rotates them by n corners.
pub const QUAD_COLORS: [[f32; 4]; 4] =
    [[1.0, 0.55, 0.25, 1.0], [0.2, 0.7, 0.75, 1.0], [0.55, 0.4, 0.95, 1.0], [0.95, 0.85, 0.35, 1.0]];

/// The value a quad corner supplies for `source`.
fn quad_value(source: Source, semantic_index: u32, corner: usize) -> [f32; 4] {
    let ([x, y], [u, v]) = QUAD_CORNERS[corner];
    match source {
        Source::Position => [x, y, 0.5, 1.0],
        Source::TexCoord => [u, v, 0.0, 1.0],
        Source::Color => QUAD_COLORS[(corner + semantic_index as usize) % 4],
        Source::Normal => [0.0, 0.0, 1.0, 0.0],
        Source::Tangent => [1.0, 0.0, 0.0, 1.0],
        Source::Binormal => [0.0, 1.0, 0.0, 0.0],
        Source::BlendIndices => [0.0; 4],
        Source::BlendWeight => [1.0, 0.0, 0.0, 0.0],
        Source::PointSize => [1.0, 0.0, 0.0, 0.0],
        Source::Ramp => [u, v, (u + v) * 0.5, 1.0],
    }
}

/// Reads the `dcl_input_ps` interpolation mode of every input register.
fn interpolation_modes(shader: &dxbc::Shader) -> BTreeMap<u32, u32> {
    use dxbc::spec::Opcode as O;
    let mut modes = BTreeMap::new();
    if let Some(p) = &shader.program {
        for ins in &p.instructions {
            if matches!(ins.op(), Some(O::DclInputPs | O::DclInputPsSiv | O::DclInputPsSgv)) {
                if let Some(op) = ins.operand(p, 0) {
                    // An input register with one index.
                    if op.operand_type() == Some(OperandType::Input) && op.index_dim() == 1 {
                        modes.insert(op.index[0].imm as u32, DCL_INPUT_PS_CONTROLS[0].get(ins.token));
                    }
                }
            }
        }
    }
    modes
}

/// The quad for `shader`'s input signature.
pub fn quad_inputs(shader: &dxbc::Shader) -> QuadInputs {
    let regs = user_registers(shader.input_signature.as_ref());
    let mut layout = layout(&regs, true, 8);
    let position_location = (0..).find(|l| !regs.contains_key(l)).unwrap_or(0);
    let modes = interpolation_modes(shader);
    let interpolation = layout
        .attributes
        .iter()
        .map(|a| {
            let i = if a.format.ty != ComponentType::Float {
                Interpolation::Flat
            } else {
                Interpolation::from_d3d(modes.get(&a.register).copied().unwrap_or(InterpolationMode::Linear as u32))
            };
            (a.register, i)
        })
        .collect();
    let mut data = Vec::with_capacity(layout.stride as usize * 4);
    for (corner, (pos, _)) in QUAD_CORNERS.iter().enumerate() {
        data.extend(pos[0].to_le_bytes());
        data.extend(pos[1].to_le_bytes());
        for a in &layout.attributes {
            write_attribute(&mut data, a, |f| quad_value(f.source, f.semantic_index, corner));
        }
    }
    if layout.attributes.is_empty() {
        layout.stride = 8;
    }
    QuadInputs { layout, position_location, interpolation, data, vertex_count: 4 }
}

impl QuadInputs {
    /// A WGSL vertex shader (entry point `main`) that passes the quad's
    /// attributes to the translated fragment shader.
    pub fn vertex_wgsl(&self) -> String {
        let mut s = String::from("struct In {\n");
        s += &format!("    @location({}) position: vec2<f32>,\n", self.position_location);
        for a in &self.layout.attributes {
            s += &format!("    @location({}) v{}: vec4<{}>,\n", a.shader_location, a.register, a.format.ty.wgsl());
        }
        s += "};\n\nstruct Out {\n    @builtin(position) position: vec4<f32>,\n";
        for (a, (_, interp)) in self.layout.attributes.iter().zip(&self.interpolation) {
            s += &format!(
                "    @location({}) {} v{}: vec4<{}>,\n",
                a.register,
                interp.wgsl(),
                a.register,
                a.format.ty.wgsl()
            );
        }
        s += "};\n\n@vertex\nfn main(i: In) -> Out {\n    var o: Out;\n    o.position = vec4<f32>(i.position, 0.5, 1.0);\n";
        for a in &self.layout.attributes {
            s += &format!("    o.v{0} = i.v{0};\n", a.register);
        }
        s += "    return o;\n}\n";
        s
    }
}

// ---------------------------------------------------------------- mesh

/// A mesh's vertices laid out for a vertex shader.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeshInputs {
    /// Layout (attributes by register).
    pub layout: VertexLayout,
    /// Interleaved vertex data, `layout.stride` bytes per vertex.
    pub data: Vec<u8>,
    /// Vertices.
    pub vertex_count: u32,
    /// Triangle-list indices (`uint32`).
    pub indices: Vec<u32>,
    /// Semantics that got a generic default rather than a mesh attribute.
    pub defaulted: Vec<String>,
}

/// Values vertex `i` of `mesh` supplies for `source`.
fn mesh_value(mesh: &Mesh, i: usize, source: Source) -> [f32; 4] {
    let [px, py, pz] = mesh.positions[i];
    let [nx, ny, nz] = mesh.normals[i];
    let t = mesh.tangents[i];
    let [u, v] = mesh.uvs[i];
    match source {
        Source::Position => [px, py, pz, 1.0],
        Source::Normal => [nx, ny, nz, 0.0],
        Source::Tangent => t,
        Source::Binormal => {
            let b = math::cross([nx, ny, nz], [t[0], t[1], t[2]]);
            [b[0] * t[3], b[1] * t[3], b[2] * t[3], 0.0]
        }
        Source::TexCoord => [u, v, 0.0, 1.0],
        Source::Color => mesh.colors[i],
        Source::BlendIndices => [0.0; 4],
        Source::BlendWeight => [1.0, 0.0, 0.0, 0.0],
        Source::PointSize => [1.0, 0.0, 0.0, 0.0],
        Source::Ramp => [u, v, (u + v) * 0.5, 1.0],
    }
}

/// `mesh` laid out for `shader`'s input signature.
pub fn mesh_inputs(shader: &dxbc::Shader, mesh: &Mesh) -> MeshInputs {
    let regs = user_registers(shader.input_signature.as_ref());
    let layout = layout(&regs, false, 0);
    let n = mesh.positions.len();
    let mut data = Vec::with_capacity(layout.stride as usize * n);
    for i in 0..n {
        for a in &layout.attributes {
            write_attribute(&mut data, a, |f| mesh_value(mesh, i, f.source));
        }
    }
    let defaulted = layout
        .attributes
        .iter()
        .flat_map(|a| &a.feeds)
        .filter(|f| f.source == Source::Ramp)
        .map(|f| format!("{}{}", f.semantic, f.semantic_index))
        .collect();
    MeshInputs { layout, data, vertex_count: n as u32, indices: mesh.indices.clone(), defaulted }
}

// ---------------------------------------------------------------- geometry

/// The stage input records of a geometry preview's vertex pass: record `i`
/// holds mesh vertex `order[i]` as the GS input signature's registers
/// ([`dxbc_naga::stages::REGISTER_STRIDE`] `vec4<u32>` registers a record).
/// Each element takes the mesh attribute its semantic names ([`Source`];
/// `SV_Position` the object-space position), as a pass-through vertex
/// shader with that output signature would write it; `SV_VertexID` is the
/// mesh vertex's index and `SV_InstanceID` 0 (what a vertex shader run as
/// compute reads).
pub fn geometry_input_records(shader: &dxbc::Shader, mesh: &Mesh, order: &[u32]) -> Vec<u32> {
    let stride = dxbc_naga::stages::REGISTER_STRIDE as usize * 4;
    let mut words = vec![0u32; order.len() * stride];
    let elements = shader.input_signature.as_ref().map(|s| s.elements.as_slice()).unwrap_or(&[]);
    for e in elements {
        let reg = e.register as usize;
        if reg * 4 >= stride {
            continue;
        }
        let first = (e.mask as u32 & 0xf).trailing_zeros().min(3);
        // A vertex shader run as compute reads SV_VertexID and
        // SV_InstanceID from its records too: the mesh vertex and instance 0.
        if e.system_value == SignatureName::VertexId as u32 || e.system_value == SignatureName::InstanceId as u32 {
            let vertex = e.system_value == SignatureName::VertexId as u32;
            for (i, &v) in order.iter().enumerate() {
                words[i * stride + reg * 4 + first as usize] = if vertex { v } else { 0 };
            }
            continue;
        }
        let source = if e.system_value == SignatureName::Position as u32 {
            Source::Position
        } else {
            Source::for_semantic(&e.name)
        };
        let ty = ComponentType::from_signature(e.component_type);
        for (i, &v) in order.iter().enumerate() {
            if v as usize >= mesh.positions.len() {
                continue;
            }
            let value = mesh_value(mesh, v as usize, source);
            for c in first..4 {
                if e.mask & (1 << c) != 0 {
                    words[i * stride + reg * 4 + c as usize] = ty.bits(value[(c - first) as usize]);
                }
            }
        }
    }
    words
}
