//! # Stages without a WebGPU form, run as compute
//!
//! WebGPU (and naga 30) have no geometry stage, and a WebGPU vertex shader
//! cannot write a storage buffer. A D3D pipeline `VS → GS → PS` therefore
//! runs as three passes:
//!
//! 1. **VS as compute** ([`StageForm::Compute`] of a vertex shader): one
//!    invocation per assembled vertex. It reads vertex `i`'s input registers
//!    as raw bits from record `i` of the *stage input* buffer and writes its
//!    output registers to record `i` of the *stage output* buffer. The
//!    caller fills the input records from its input layout (it knows the
//!    formats: each attribute converted to the four 32-bit words D3D's input
//!    assembler gives the register, missing components 0, 0, 0, 1), and the
//!    system values the VS reads (SV_VertexID, SV_InstanceID) as words of
//!    their registers. The caller also does primitive assembly: it lists the
//!    vertices of every primitive in order (a strip's triangle `k` as its
//!    three vertices), so record `p × n + k` is vertex `k` of primitive `p`.
//! 2. **GS as compute** ([`StageForm::Compute`] of a geometry shader,
//!    `geometry.rs`): one invocation per input primitive and GS instance.
//!    `v[k][r]` reads record `p × n + k` of the stage input buffer (`n` from
//!    `dcl_inputprimitive`). `emit` appends the output registers to the
//!    invocation's own slot of the stage output buffer (invocation ×
//!    [`ComputeForm::max_list_vertices`] records, so the output keeps D3D's
//!    primitive order whatever order the GPU runs invocations in), counts
//!    them in the *vertex count* buffer, and turns strips into lists as it
//!    goes: a
//!    line strip's vertex `k ≥ 1` appends the line (k−1, k); a triangle
//!    strip's vertex `j ≥ 2` appends triangle `t = j − 2` as (t, t+1, t+2),
//!    or (t, t+2, t+1) for odd `t`: the order D3D gives a strip's triangles,
//!    which keeps their winding and their first (provoking) vertex. `cut` restarts the strip; emits beyond `dcl_maxout` are dropped.
//! 3. **Draw** ([`StageForm::DrawFromBuffer`] of the geometry shader,
//!    `vertex_pulling.rs`): a vertex shader that pulls vertex
//!    `vertex_index` from the GS's output buffer and outputs the registers
//!    the GS output signature names (stream 0) as a VS with that signature
//!    would: SV_Position as the position, the others at location =
//!    register. The pixel shader links to it exactly as to a VS. An invocation
//!    gives the records of its slot that it left unwritten a position of
//!    (0, 0, 0, −1), which clipping discards, so the caller draws every
//!    slot (`invocations × max_list_vertices` vertices) as a list of the
//!    topology in [`ComputeForm::output_topology`].
//!
//! Hull and domain shaders run the same way (`hull.rs`, `domain.rs`): the
//! vertex shader as compute writes the input control points, a hull
//! control-point pass ([`StageForm::Compute`]) and a patch-constant pass
//! ([`StageForm::PatchConstant`]) write the output control points and the
//! patch constants, the tessellator (crates/tessellator) turns the factors
//! into domain points, and the domain shader runs as a vertex shader over
//! them ([`StageForm::DrawFromBuffer`]) or as compute
//! ([`StageForm::Compute`], output records a geometry pass can read). The
//! tessellator's parameters are in [`ComputeForm::tessellation`].
//!
//! ## Records and bindings
//! Every record is [`REGISTER_STRIDE`] `vec4<u32>` registers (512 bytes),
//! register `r` at word offset `16 r / 4`, whatever the shader declares:
//! D3D11 has at most 32 input or output registers per vertex, and a fixed
//! stride lets any VS feed any GS without a layout negotiation. The buffers
//! are emulation bindings ([`crate::BindingKind::StageBuffer`], placed by
//! [`crate::BindingScheme::place_stage_buffer`]), so they never collide
//! with the shader's own registers. The number of records a pass works on
//! is the length of its input buffer (`arrayLength`), so the caller sizes
//! that buffer exactly and dispatches `ceil(invocations / 64)` workgroups
//! of [`WORKGROUP_SIZE`]. The count buffer starts at 0; an append that
//! would overflow the output buffer is dropped (the count still grows, so
//! the caller can see it was too small).
//!
//! Streams: only stream 0 is rasterised; a GS that emits to another stream
//! is refused ([`crate::Limitation::GeometryStreams`]).
//! SV_RenderTargetArrayIndex and SV_ViewportArrayIndex are ordinary words of
//! the output records; the draw pass refuses them (no WebGPU vertex output
//! selects a layer or viewport).

//!
//! Hull and domain shaders have their own passes (`hull.rs`, `domain.rs`:
//! a control-point pass, a patch-constant pass, and the domain shader as a
//! vertex shader over the tessellator's domain points).
//!
//! ## Where this runs
//! The explorer's translation pane shows a GS, HS or DS in its
//! [`StageForm::standalone`] form (the CLI's `--form auto`) with
//! [`ComputeForm::describe`] above it. The live preview runs a lone GS
//! (`preview_model::plan::Passes`): a pass-through VS as compute over the
//! mesh's assembled vertices, the GS pass, then the draw from
//! [`StageForm::DrawFromBuffer`] with a built-in pixel shader; the browser and
//! `shader-runner preview` execute the same plan. A lone HS previews over
//! one patch: its control-point and patch-constant passes, the GPU
//! tessellator of `tessellator::wgsl`, and an indirect draw with a built-in
//! domain shader. The runner draws GS pipelines and VS → HS → DS → PS
//! pipelines (`exec/geometry.rs`, `exec/tessellation.rs`). The preview also
//! runs a lone DS and pipelines of user shaders (VS + GS, VS + HS + DS;
//! `preview_model::plan::build_pipeline`). Not done yet: a user PS around a
//! GS in the preview, and a GS after a DS. SV_PrimitiveID written by a GS and
//! read by the PS is refused in the draw (typed).

pub(crate) mod domain;
pub(crate) mod geometry;
pub(crate) mod hull;
pub(crate) mod vertex_pulling;

pub use domain::DOMAIN_POINT_WORDS;
pub use hull::{domain_point_records, Partitioning, TessDomain, TessFactorWord, TessOutputPrimitive, Tessellation};

use serde::{Deserialize, Serialize};

/// `vec4<u32>` registers per vertex record in the stage buffers.
pub const REGISTER_STRIDE: u32 = 32;

/// Invocations per workgroup of the compute passes.
pub const WORKGROUP_SIZE: u32 = 64;

/// The form a stage is translated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StageForm {
    /// The stage as itself (vertex, pixel, compute). Geometry, hull and
    /// domain shaders are refused.
    Native,
    /// A compute pass over stage buffers: a vertex shader per vertex, a
    /// geometry shader per primitive and instance.
    Compute,
    /// A geometry shader's draw: the vertex shader that pulls the vertices
    /// its compute pass wrote. For a domain shader: the vertex shader over
    /// the tessellator's domain points (`domain.rs`).
    DrawFromBuffer,
    /// A hull shader's fork and join phases: one invocation per patch
    /// writing its patch constants (`hull.rs`). The hull shader's
    /// [`StageForm::Compute`] is its control-point phase.
    PatchConstant,
}

impl StageForm {
    /// The form a shader shown on its own takes: compute for a geometry
    /// shader and a hull shader (its control-point pass), the vertex shader
    /// over domain points for a domain shader, native otherwise.
    pub fn standalone(shader: &dxbc::Shader) -> StageForm {
        use dxbc::spec::ProgramType as P;
        match shader.program.as_ref().and_then(|p| P::from_u32(p.version.program_type())) {
            Some(P::GeometryShader | P::HullShader) => StageForm::Compute,
            Some(P::DomainShader) => StageForm::DrawFromBuffer,
            _ => StageForm::Native,
        }
    }

    /// Every form a stage needs to run through compute, in pass order: a
    /// hull shader's control-point and patch-constant passes; a geometry
    /// shader's pass and its draw; a domain shader's vertex form. Empty for
    /// the stages WebGPU has.
    pub fn passes(shader: &dxbc::Shader) -> &'static [StageForm] {
        use dxbc::spec::ProgramType as P;
        match shader.program.as_ref().and_then(|p| P::from_u32(p.version.program_type())) {
            Some(P::GeometryShader) => &[StageForm::Compute, StageForm::DrawFromBuffer],
            Some(P::HullShader) => &[StageForm::Compute, StageForm::PatchConstant],
            Some(P::DomainShader) => &[StageForm::DrawFromBuffer],
            _ => &[],
        }
    }
}

/// What a stage buffer holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StageBufferRole {
    /// Read-only vertex records the pass consumes.
    Input,
    /// Read-write vertex records the pass produces.
    Output,
    /// One `atomic<u32>`: vertices the geometry pass appended (start at 0).
    VertexCount,
    /// A hull shader's output control points, record `patch × n + i`
    /// (`n` = output control points per patch): written by the
    /// control-point pass, read by the patch-constant pass and the domain
    /// shader.
    ControlPoints,
    /// Patch constants, record `patch`: written by the patch-constant pass
    /// (the tessellation factors at the words the patch-constant signature
    /// names), read by the domain shader.
    PatchConstants,
    /// The tessellator's output, read by the domain shader: one `vec4<u32>`
    /// per domain point, (u, v, w) as f32 bits and the patch index.
    DomainPoints,
}

impl StageBufferRole {
    /// The slot of the role among the stage buffers (see
    /// [`crate::BindingScheme::place_stage_buffer`]).
    pub fn slot(self) -> u32 {
        match self {
            StageBufferRole::Input => 0,
            StageBufferRole::Output => 1,
            StageBufferRole::VertexCount => 2,
            StageBufferRole::ControlPoints => 3,
            StageBufferRole::PatchConstants => 4,
            StageBufferRole::DomainPoints => 5,
        }
    }

    /// A short name (CLI, comments).
    pub fn name(self) -> &'static str {
        match self {
            StageBufferRole::Input => "stage input",
            StageBufferRole::Output => "stage output",
            StageBufferRole::VertexCount => "vertex count",
            StageBufferRole::ControlPoints => "control points",
            StageBufferRole::PatchConstants => "patch constants",
            StageBufferRole::DomainPoints => "domain points",
        }
    }
}

/// A list topology the draw of a geometry pass uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OutputTopology {
    /// `pointlist`.
    PointList,
    /// `linestrip`, written as a line list.
    LineList,
    /// `trianglestrip`, written as a triangle list.
    TriangleList,
}

impl OutputTopology {
    /// Vertices per primitive.
    pub fn vertices(self) -> u32 {
        match self {
            OutputTopology::PointList => 1,
            OutputTopology::LineList => 2,
            OutputTopology::TriangleList => 3,
        }
    }

    /// The WebGPU topology name.
    pub fn webgpu_name(self) -> &'static str {
        match self {
            OutputTopology::PointList => "point-list",
            OutputTopology::LineList => "line-list",
            OutputTopology::TriangleList => "triangle-list",
        }
    }
}

/// Which pass a translation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pass {
    /// A vertex shader run as compute, one invocation per vertex.
    VertexCompute,
    /// A geometry shader run as compute, one invocation per primitive and
    /// instance.
    GeometryCompute,
    /// The vertex shader drawing a geometry pass's output.
    DrawFromBuffer,
    /// A hull shader's control-point phase (or its implicit pass-through),
    /// one invocation per patch and output control point.
    HullControlPoints,
    /// A hull shader's fork and join phases, one invocation per patch.
    HullPatchConstants,
    /// A domain shader as a vertex shader, one vertex per domain point.
    DomainVertex,
    /// A domain shader as compute, one output record per domain point.
    DomainCompute,
}

/// How a pass of a non-native form runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComputeForm {
    /// Which pass.
    pub pass: Pass,
    /// Input records per invocation: vertices per input primitive for a
    /// geometry pass (`dcl_inputprimitive`), 1 for a vertex pass, 0 for the
    /// draw.
    pub vertices_per_primitive: u32,
    /// GS instances per primitive (`dcl_gsinstances`, else 1).
    pub instances: u32,
    /// Most vertices one GS invocation emits (`dcl_maxout`).
    pub max_vertices: u32,
    /// The list topology the geometry pass writes (and the draw uses).
    pub output_topology: Option<OutputTopology>,
    /// Output registers written per record, ascending.
    pub output_registers: Vec<u32>,
    /// Hull and domain passes: what the tessellator between them needs.
    pub tessellation: Option<Tessellation>,
}

impl ComputeForm {
    /// Most list vertices one geometry invocation appends (a strip of `m`
    /// vertices gives `m − 1` lines or `m − 2` triangles): size the output
    /// buffer as primitives × instances × this many records.
    pub fn max_list_vertices(&self) -> u32 {
        let m = self.max_vertices;
        match self.output_topology {
            Some(OutputTopology::PointList) => m,
            Some(OutputTopology::LineList) => 2 * m.saturating_sub(1),
            Some(OutputTopology::TriangleList) => 3 * m.saturating_sub(2),
            None => 1,
        }
    }

    /// Lines describing the pass (a comment heading the written module).
    pub fn describe(&self) -> Vec<String> {
        let stride = REGISTER_STRIDE;
        let mut v = Vec::new();
        match self.pass {
            Pass::VertexCompute => {
                v.push("Vertex shader as compute (no WebGPU vertex shader can write a buffer).".into());
                v.push(format!(
                    "One invocation per vertex i, workgroups of {WORKGROUP_SIZE}: input registers from record i of \
                     the stage input buffer, output registers {:?} to record i of the stage output buffer.",
                    self.output_registers
                ));
            }
            Pass::GeometryCompute => {
                let topo = self.output_topology.map_or("?", |t| t.webgpu_name());
                v.push("Geometry shader as compute (WebGPU and naga have no geometry stage). Passes:".into());
                v.push("  1. the vertex shader as compute writes one record per assembled vertex;".into());
                v.push(format!(
                    "  2. this module: one invocation per primitive p and instance i (id = p * {} + i), \
                     workgroups of {WORKGROUP_SIZE}; v[k][r] reads record p * {} + k; emit writes \
                     {topo} vertices (strips made lists, at most {} emits) into the invocation's own slot \
                     of the output, so the output keeps D3D's primitive order;",
                    self.instances, self.vertices_per_primitive, self.max_vertices
                ));
                v.push(format!(
                    "  3. a draw of min(count, capacity) vertices ({topo}) with the vertex shader from \
                     `--form draw`, which pulls record vertex_index, then the pixel shader."
                ));
            }
            Pass::DrawFromBuffer => {
                v.push("Draw of a geometry pass: vertex vertex_index is pulled from record vertex_index of".into());
                v.push(
                    "the stage input buffer (the geometry pass's output) and output as the GS signature says.".into(),
                );
            }
            Pass::HullControlPoints | Pass::HullPatchConstants | Pass::DomainVertex | Pass::DomainCompute => {
                v.extend(hull::describe(self));
            }
        }
        v.push(format!(
            "Records are {stride} vec4<u32> registers ({} bytes); stage buffers are bound as listed in the bindings.",
            stride * 16
        ));
        v
    }
}
