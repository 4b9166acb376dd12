//! Hull shaders as compute, and what hull and domain passes share.
//!
//! A D3D pipeline `VS → HS → tessellator → DS → PS` runs as:
//!
//! 1. the vertex shader as compute (`geometry.rs`), one record per
//!    control point of every patch (record `patch × in + i`, `in` =
//!    `dcl_input_control_point_count`);
//! 2. **control-point pass** ([`StageForm::Compute`] of the hull shader):
//!    one invocation per patch and output control point (`id = patch × out +
//!    i`). `vicp[i][r]` reads record `patch × in + i` of the stage input
//!    buffer; `vOutputControlPointID` is `i`, `vPrimitiveID` the patch; the
//!    `o` registers go to record `id` of the *control points* buffer. A hull
//!    shader without `hs_control_point_phase` passes its input control points
//!    through (output point `i` = input point `i`).
//! 3. **patch-constant pass** ([`StageForm::PatchConstant`]): one invocation
//!    per patch runs the fork phases (each `dcl_hs_fork_phase_instance_count`
//!    times, `vForkInstanceID` = 0, 1 …) then the join phases, in order.
//!    `vicp` reads the input control points, `vocp[i][r]` record
//!    `patch × out + i` of the control points buffer, `vpc[r]` (join phases)
//!    what the fork phases wrote; the `o` registers go to record `patch` of
//!    the *patch constants* buffer, the tessellation factors at the words the
//!    patch-constant signature names ([`Tessellation::factors`]).
//! 4. the tessellator reads the factors and writes the *domain points*
//!    buffer: one `vec4<u32>` per point, `(u, v, w)` as f32 bits and the
//!    patch index, and an index list. On the GPU it is `tessellator::wgsl`
//!    (compute, parameters from [`Tessellation::gpu_params`]), which
//!    reproduces crates/tessellator bit for bit;
//! 5. the domain shader (`domain.rs`) as the vertex shader over those points.
//!
//! The two hull passes are separate modules, not two entry points of one:
//! every [`crate::Translation`] has one entry point `main` (the writers and
//! the callers rely on it), the passes dispatch different counts (per
//! control point, per patch), and the patch pass must start only once every
//! control point of its patch is written, which a separate dispatch gives
//! for free (one module would need a device-wide barrier). Each fork and
//! join phase is its own naga function (own temps, `ret` ends the phase),
//! called once per instance from the pass's body.
//!
//! Both hull passes count patches by their *output* buffer (records of the
//! control points buffer ÷ output control points; records of the patch
//! constants buffer), so a hull shader with no input control points works
//! too. The `o` registers of a hull pass live in one private array, so
//! `dcl_indexrange` outputs (`o[r0.x + 4]`, the usual fork-phase form) index
//! it directly.

use super::{ComputeForm, Pass, REGISTER_STRIDE, WORKGROUP_SIZE};
use crate::lower::{malformed, Lower, H, K};
use crate::*;
use dxbc::program::Operand;
use dxbc::spec::{
    Opcode as O, OperandType as OT, ProgramType, TessDomain as TD, TessOutputPrimitive as TO, TessPartitioning as TP,
    DCL_CONTROL_POINT_CONTROLS, DCL_TESS_DOMAIN_CONTROLS, DCL_TESS_OUTPUT_CONTROLS, DCL_TESS_PARTITIONING_CONTROLS,
};
use naga::{
    ArraySize, BinaryOperator as B, Expression as E, Function, FunctionArgument, GlobalVariable, Handle, Scalar, Span,
    Statement as S, TypeInner, VectorSize,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The tessellator's domain (`dcl_tessellator_domain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TessDomain {
    /// Isolines: (u, v), v picks the line.
    Isoline,
    /// Triangles: barycentric (u, v, w).
    Tri,
    /// Quads: (u, v).
    Quad,
}

/// How the tessellator rounds factors (`dcl_tessellator_partitioning`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Partitioning {
    /// `partitioning_integer`.
    Integer,
    /// `partitioning_pow2`.
    Pow2,
    /// `partitioning_fractional_odd`.
    FractionalOdd,
    /// `partitioning_fractional_even`.
    FractionalEven,
}

/// What the tessellator emits (`dcl_tessellator_output_primitive`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TessOutputPrimitive {
    /// Points.
    Point,
    /// Lines (isolines).
    Line,
    /// Clockwise triangles.
    TriangleCw,
    /// Counter-clockwise triangles.
    TriangleCcw,
}

/// One tessellation factor in the patch-constant record: the signature's
/// system value (fxc's spelling, e.g. `QUADEDGE`), its semantic index, and
/// the word it occupies (register, component).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TessFactorWord {
    /// fxc's abbreviation of the system value (`QUADEDGE`, `TRIINT`, `LINEDET` …).
    pub system_value: String,
    /// The signature's `D3D_NAME` value (11 ..= 16: quad edge, quad
    /// inside, tri edge, tri inside, line detail, line density).
    pub d3d_name: u32,
    /// Semantic index (which edge, which inside factor).
    pub semantic_index: u32,
    /// Register of the patch-constant record.
    pub register: u32,
    /// Component (0 = x) of that register.
    pub component: u32,
}

/// What the tessellator between a hull and a domain pass needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tessellation {
    /// The domain (None where the shader declares none).
    pub domain: Option<TessDomain>,
    /// The partitioning (hull shaders only).
    pub partitioning: Option<Partitioning>,
    /// The output primitive (hull shaders only).
    pub output_primitive: Option<TessOutputPrimitive>,
    /// Control points per input patch (`dcl_input_control_point_count`; for
    /// a domain shader, the hull shader's output control points).
    pub input_control_points: u32,
    /// Control points per output patch (hull shaders; 0 for a domain shader).
    pub output_control_points: u32,
    /// `dcl_hs_max_tessfactor`, if declared.
    pub max_tess_factor: Option<f32>,
    /// Where each tessellation factor lies in the patch-constant record.
    pub factors: Vec<TessFactorWord>,
    /// Registers of the patch-constant record, ascending.
    pub patch_constant_registers: Vec<u32>,
}

impl Tessellation {
    /// The tessellator's partitioning and output primitive (None where the
    /// hull shader declares none).
    pub fn tessellator_mode(&self) -> Option<(tessellator::Partitioning, tessellator::OutputPrimitive)> {
        use tessellator::{OutputPrimitive as TOP, Partitioning as TPA};
        let p = match self.partitioning? {
            Partitioning::Integer => TPA::Integer,
            Partitioning::Pow2 => TPA::Pow2,
            Partitioning::FractionalOdd => TPA::FractionalOdd,
            Partitioning::FractionalEven => TPA::FractionalEven,
        };
        let o = match self.output_primitive? {
            TessOutputPrimitive::Point => TOP::Point,
            TessOutputPrimitive::Line => TOP::Line,
            TessOutputPrimitive::TriangleCw => TOP::TriangleCw,
            TessOutputPrimitive::TriangleCcw => TOP::TriangleCcw,
        };
        Some((p, o))
    }

    /// A patch's factors in the tessellator's terms, read from its record
    /// of the patch constants buffer (`words`: the record's 32-bit words,
    /// register `r` component `c` at `4 r + c`). None where the domain is
    /// undeclared or the record lacks a factor's word. Factors the
    /// signature does not name read 0 (the patch is culled, as in D3D).
    pub fn factors_of(&self, words: &[u32]) -> Option<tessellator::TessFactors> {
        // The signature's D3D_NAME: 11 quad edge, 12 quad inside, 13 tri
        // edge, 14 tri inside (semantic index = which one), 15 line detail,
        // 16 line density.
        let word = |name: u32, index: Option<u32>| -> Option<f32> {
            let f = self.factors.iter().find(|f| f.d3d_name == name && index.is_none_or(|i| f.semantic_index == i));
            match f {
                Some(f) => words.get((4 * f.register + f.component) as usize).map(|&w| f32::from_bits(w)),
                None => Some(0.0),
            }
        };
        let each = |name: u32, n: u32| -> Option<Vec<f32>> { (0..n).map(|i| word(name, Some(i))).collect() };
        Some(match self.domain? {
            TessDomain::Quad => {
                let (e, i) = (each(11, 4)?, each(12, 2)?);
                tessellator::TessFactors::Quad { edges: [e[0], e[1], e[2], e[3]], inside: [i[0], i[1]] }
            }
            TessDomain::Tri => {
                let e = each(13, 3)?;
                tessellator::TessFactors::Tri { edges: [e[0], e[1], e[2]], inside: word(14, Some(0))? }
            }
            TessDomain::Isoline => tessellator::TessFactors::isoline_from_sv([word(16, None)?, word(15, None)?]),
        })
    }
}

impl Tessellation {
    /// The GPU tessellator's parameters (`tessellator::wgsl`) for `patches`
    /// patch-constant records of [`super::REGISTER_STRIDE`] registers: the
    /// same factor words [`Tessellation::factors_of`] reads. None where the
    /// domain, partitioning or output primitive is undeclared. Capacities
    /// are left 0 for the caller to size.
    pub fn gpu_params(&self, patches: u32) -> Option<tessellator::wgsl::Params> {
        let (partitioning, primitive) = self.tessellator_mode()?;
        let word = |name: u32, index: u32| {
            self.factors
                .iter()
                .find(|f| f.d3d_name == name && (f.semantic_index == index || matches!(name, 15 | 16)))
                .map_or(tessellator::wgsl::NO_WORD, |f| 4 * f.register + f.component)
        };
        let none = tessellator::wgsl::NO_WORD;
        let (domain, factor_words) = match self.domain? {
            TessDomain::Tri => {
                (tessellator::Domain::Tri, [word(13, 0), word(13, 1), word(13, 2), word(14, 0), none, none])
            }
            TessDomain::Quad => (
                tessellator::Domain::Quad,
                [word(11, 0), word(11, 1), word(11, 2), word(11, 3), word(12, 0), word(12, 1)],
            ),
            TessDomain::Isoline => (tessellator::Domain::Isoline, [word(16, 0), word(15, 0), none, none, none, none]),
        };
        Some(tessellator::wgsl::Params {
            domain,
            partitioning,
            primitive,
            patches,
            record_words: REGISTER_STRIDE * 4,
            point_capacity: 0,
            index_capacity: 0,
            factor_words,
        })
    }
}

/// The domain points buffer's records for one tessellated patch: point `k`
/// as (u, v, w) f32 bits and the patch index (see `domain.rs`).
pub fn domain_point_records(patch: u32, points: &[tessellator::DomainPoint]) -> Vec<[u32; 4]> {
    points.iter().map(|p| [p.u.to_bits(), p.v.to_bits(), p.w.to_bits(), patch]).collect()
}

/// A fork or join phase of a hull shader: its instructions and instances.
struct Phase {
    join: bool,
    range: std::ops::Range<usize>,
    instances: u32,
}

/// A hull shader's instructions by phase (indices into the program's list;
/// the phase markers themselves are in no section).
struct Sections {
    decls: Vec<usize>,
    control_point: Option<std::ops::Range<usize>>,
    phases: Vec<Phase>,
}

fn sections(p: &dxbc::program::Program) -> Sections {
    let mut s = Sections { decls: Vec::new(), control_point: None, phases: Vec::new() };
    // Where each phase starts: (kind, first instruction after the marker).
    let mut marks: Vec<(O, usize)> = Vec::new();
    for (i, ins) in p.instructions.iter().enumerate() {
        if let Some(op @ (O::HsDecls | O::HsControlPointPhase | O::HsForkPhase | O::HsJoinPhase)) = ins.op() {
            marks.push((op, i));
        }
    }
    let n = p.instructions.len();
    let first = marks.first().map_or(n, |m| m.1);
    s.decls.extend(0..first);
    for (k, &(op, at)) in marks.iter().enumerate() {
        let end = marks.get(k + 1).map_or(n, |m| m.1);
        let range = at + 1..end;
        match op {
            O::HsDecls => s.decls.extend(range),
            O::HsControlPointPhase => s.control_point = Some(range),
            _ => {
                let join = op == O::HsJoinPhase;
                let count_op = if join { O::DclHsJoinPhaseInstanceCount } else { O::DclHsForkPhaseInstanceCount };
                let instances = p.instructions[range.clone()]
                    .iter()
                    .find(|i| i.op() == Some(count_op))
                    .and_then(|i| i.payload(p).first().map(|x| x.value))
                    .unwrap_or(1);
                s.phases.push(Phase { join, range, instances });
            }
        }
    }
    s
}

/// Per-pass state of a hull or domain pass.
pub(crate) struct TessState {
    pub(crate) pass: Pass,
    in_cp: u32,
    out_cp: u32,
    /// Input control points: the stage input (hull) or the control points
    /// buffer (domain).
    input_points: Handle<GlobalVariable>,
    /// The control points buffer (hull passes).
    control_points: Option<Handle<GlobalVariable>>,
    /// The patch constants buffer (patch pass: written; domain: read).
    patch_constants: Option<Handle<GlobalVariable>>,
    /// The domain points buffer (domain passes).
    pub(crate) domain_points: Option<Handle<GlobalVariable>>,
    /// The record a hull pass writes (control points or patch constants).
    record_out: Option<Handle<GlobalVariable>>,
    /// A hull pass's `o` registers: `array<vec4<u32>, 32>`.
    out_array: Option<Handle<GlobalVariable>>,
    /// vPrimitiveID, vOutputControlPointID, vForkInstanceID,
    /// vJoinInstanceID, vDomain: private vec4<u32>s the pass fills.
    pub(crate) specials: BTreeMap<OT, Handle<GlobalVariable>>,
    /// Registers a compute pass copies to its record.
    record_regs: Vec<u32>,
}

/// Registers of a signature's elements.
fn signature_registers(sig: Option<&dxbc::chunks::signature::Signature>) -> Vec<u32> {
    let mut v: Vec<u32> = sig.iter().flat_map(|s| &s.elements).map(|e| e.register).filter(|&r| r != u32::MAX).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Output registers declared (`dcl_output*`) among `indices`.
fn declared_outputs(p: &dxbc::program::Program, indices: impl Iterator<Item = usize>) -> Vec<u32> {
    let mut v = Vec::new();
    for i in indices {
        let ins = &p.instructions[i];
        if matches!(ins.op(), Some(O::DclOutput | O::DclOutputSiv | O::DclOutputSgv)) {
            if let Some(op) = ins.operand(p, 0) {
                if op.operand_type() == Some(OT::Output) && op.index_dim() == 1 {
                    v.push(u32::try_from(op.index[0].imm).unwrap_or(u32::MAX));
                }
            }
        }
    }
    v
}

fn merged(mut a: Vec<u32>, b: Vec<u32>, at: usize) -> Result<Vec<u32>, TranslateError> {
    a.extend(b);
    a.sort_unstable();
    a.dedup();
    if let Some(&r) = a.iter().find(|&&r| r >= REGISTER_STRIDE) {
        return malformed(format!("register {r} of a control point or patch (D3D has {REGISTER_STRIDE})"), at);
    }
    Ok(a)
}

/// The tessellation declarations of a hull or domain shader.
fn tessellation(shader: &dxbc::Shader, p: &dxbc::program::Program, hull: bool) -> Tessellation {
    let mut t = Tessellation {
        domain: None,
        partitioning: None,
        output_primitive: None,
        input_control_points: 0,
        output_control_points: 0,
        max_tess_factor: None,
        factors: Vec::new(),
        patch_constant_registers: signature_registers(shader.patch_constant_signature.as_ref()),
    };
    for ins in &p.instructions {
        match ins.op() {
            Some(O::DclInputControlPointCount) => {
                t.input_control_points = DCL_CONTROL_POINT_CONTROLS[0].get(ins.token).min(32)
            }
            Some(O::DclOutputControlPointCount) => {
                t.output_control_points = DCL_CONTROL_POINT_CONTROLS[0].get(ins.token).min(32)
            }
            Some(O::DclTessDomain) => {
                t.domain = match TD::from_u32(DCL_TESS_DOMAIN_CONTROLS[0].get(ins.token)) {
                    Some(TD::Isoline) => Some(TessDomain::Isoline),
                    Some(TD::Tri) => Some(TessDomain::Tri),
                    Some(TD::Quad) => Some(TessDomain::Quad),
                    _ => None,
                }
            }
            Some(O::DclTessPartitioning) => {
                t.partitioning = match TP::from_u32(DCL_TESS_PARTITIONING_CONTROLS[0].get(ins.token)) {
                    Some(TP::Integer) => Some(Partitioning::Integer),
                    Some(TP::Pow2) => Some(Partitioning::Pow2),
                    Some(TP::FractionalOdd) => Some(Partitioning::FractionalOdd),
                    Some(TP::FractionalEven) => Some(Partitioning::FractionalEven),
                    _ => None,
                }
            }
            Some(O::DclTessOutputPrimitive) => {
                t.output_primitive = match TO::from_u32(DCL_TESS_OUTPUT_CONTROLS[0].get(ins.token)) {
                    Some(TO::Point) => Some(TessOutputPrimitive::Point),
                    Some(TO::Line) => Some(TessOutputPrimitive::Line),
                    Some(TO::TriangleCw) => Some(TessOutputPrimitive::TriangleCw),
                    Some(TO::TriangleCcw) => Some(TessOutputPrimitive::TriangleCcw),
                    _ => None,
                }
            }
            Some(O::DclHsMaxTessfactor) => {
                t.max_tess_factor = ins.payload(p).first().map(|x| f32::from_bits(x.value));
            }
            _ => {}
        }
    }
    // The signature's D3D_NAME_FINAL_*_TESSFACTOR are 11 ..= 16.
    for e in shader.patch_constant_signature.iter().flat_map(|s| &s.elements) {
        if (11..=16).contains(&e.system_value) && e.register != u32::MAX {
            t.factors.push(TessFactorWord {
                system_value: e.system_value_name().to_string(),
                d3d_name: e.system_value,
                semantic_index: e.semantic_index,
                register: e.register,
                component: (e.mask as u32 & 0xf).trailing_zeros().min(3),
            });
        }
    }
    if !hull {
        t.partitioning = None;
        t.output_primitive = None;
    }
    t
}

/// Lines describing a hull or domain pass (the header of a written module).
pub(crate) fn describe(c: &ComputeForm) -> Vec<String> {
    let mut v = Vec::new();
    let t = c.tessellation.as_ref();
    let hull = matches!(c.pass, Pass::HullControlPoints | Pass::HullPatchConstants);
    // A domain shader knows the hull shader's output points, not its input.
    let (inp, out) = match t {
        Some(t) if hull => (t.input_control_points.to_string(), t.output_control_points.to_string()),
        Some(t) => ("n".to_string(), t.input_control_points.to_string()),
        None => ("n".to_string(), "m".to_string()),
    };
    let name = |x: Option<String>| x.unwrap_or_else(|| "not declared".into());
    let tess = t.map_or(String::new(), |t| {
        let mut s = format!("domain {}", name(t.domain.map(|d| format!("{d:?}").to_lowercase())));
        if hull {
            s += &format!(
                ", partitioning {}, output primitive {}, max factor {}",
                name(t.partitioning.map(|d| format!("{d:?}").to_lowercase())),
                name(t.output_primitive.map(|d| format!("{d:?}").to_lowercase())),
                name(t.max_tess_factor.map(|f| f.to_string()))
            );
        }
        s
    });
    let passes = [
        "Hull and domain shaders through compute (WebGPU and naga have no tessellation stages). Passes:".to_string(),
        format!("  1. the vertex shader as compute writes record patch * {inp} + i per input control point;"),
        format!(
            "  2. control-point pass (`--form compute` of the HS): invocation patch * {out} + i, workgroups of \
             {WORKGROUP_SIZE}, writes control point i of the patch to the control points buffer;"
        ),
        "  3. patch-constant pass (`--form patch-constant` of the HS): one invocation per patch runs the fork \
         and join phases, writes the patch's record of the patch constants buffer;"
            .to_string(),
        "  4. the tessellator (crates/tessellator) reads the factors there and writes the domain points \
         buffer, one vec4<u32> (u, v, w as f32 bits, patch index) per point;"
            .to_string(),
        "  5. the domain shader as a vertex shader (`--form draw`) draws one vertex per domain point, then \
         the pixel shader; or as compute (`--form compute`) one output record per point (to feed a GS)."
            .to_string(),
    ];
    match c.pass {
        Pass::HullControlPoints => v.push("This module: pass 2.".into()),
        Pass::HullPatchConstants => v.push("This module: pass 3.".into()),
        Pass::DomainVertex => v.push("This module: pass 5, the vertex shader over domain points.".into()),
        _ => v.push("This module: pass 5, the domain shader as compute.".into()),
    }
    v.extend(passes);
    if !tess.is_empty() {
        v.push(format!("Tessellator: {tess}."));
    }
    if let Some(t) = t {
        if !t.factors.is_empty() {
            let f: Vec<String> = t
                .factors
                .iter()
                .map(|f| {
                    format!(
                        "{}{} at o{}.{}",
                        f.system_value,
                        f.semantic_index,
                        f.register,
                        ["x", "y", "z", "w"][f.component as usize]
                    )
                })
                .collect();
            v.push(format!("Factors in the patch record: {}.", f.join(", ")));
        }
    }
    v
}

impl Lower<'_> {
    /// Declares the buffers and state of a hull or domain pass.
    pub(crate) fn prepare_tess(&mut self, shader: &dxbc::Shader) -> Result<Option<ComputeForm>, TranslateError> {
        let p = self.p;
        let hull = ProgramType::from_u32(p.version.program_type()) == Some(ProgramType::HullShader);
        let pass = match (hull, self.form) {
            (true, StageForm::Compute) => Pass::HullControlPoints,
            (true, StageForm::PatchConstant) => Pass::HullPatchConstants,
            (false, StageForm::DrawFromBuffer) => Pass::DomainVertex,
            (false, StageForm::Compute) => Pass::DomainCompute,
            _ => return malformed("no such form of this stage", p.offset),
        };
        let mut tess = tessellation(shader, p, hull);
        let vec4u = self.t.vec4u;
        let index = self.private_typed("stage_index", vec4u);
        let mut specials = BTreeMap::new();
        let mut special = |l: &mut Self, ty: OT| {
            let g = l.private_typed(ty.row().asm, vec4u);
            specials.insert(ty, g);
        };
        special(self, OT::InputPrimitiveid);
        let (mut control_points, mut patch_constants, mut domain_points, mut record_out, mut out_array) =
            (None, None, None, None, None);
        let (input_points, output, regs);
        let secs = sections(p);
        let at = p.offset;
        match pass {
            Pass::HullControlPoints | Pass::HullPatchConstants => {
                // Read through the input control point registers (and copied
                // whole by a pass-through control-point phase).
                // Only this pass's phases count (a pass-through control-point
                // phase, none: it copies bits).
                let files = [OT::InputControlPoint, OT::Input];
                let phases: Vec<usize> = if pass == Pass::HullControlPoints {
                    secs.control_point.clone().into_iter().flatten().collect()
                } else {
                    secs.phases.iter().flat_map(|ph| ph.range.clone()).collect()
                };
                let writes_points = pass == Pass::HullControlPoints;
                // The outputs (`o`, and the records the pass writes from it)
                // take the kind the signature gives them when it is all
                // floats, as a native stage's outputs do; a pass-through
                // control-point phase copies its input records as they are.
                let (out_sig, out_files) = if writes_points {
                    (shader.output_signature.as_ref(), &[OT::Output][..])
                } else {
                    (shader.patch_constant_signature.as_ref(), &[OT::Output, OT::InputPatchConstant][..])
                };
                let declared_kind = super::geometry::signature_kind(out_sig);
                let k = super::geometry::record_kind(
                    p,
                    shader.input_signature.as_ref(),
                    &files,
                    phases.into_iter(),
                    declared_kind,
                );
                input_points = self.record_buffer(StageBufferRole::Input, "stage_input", k, &files);
                let ko = if writes_points && secs.control_point.is_none() { k } else { declared_kind };
                for &f in out_files {
                    self.record_kinds.insert(f as u32, ko);
                }
                let cps = if writes_points {
                    self.stage_buffer_of(StageBufferRole::ControlPoints, "control_points", true, ko)
                } else {
                    self.stage_buffer_access(StageBufferRole::ControlPoints, "control_points", false)
                };
                control_points = Some(cps);
                let n = std::num::NonZeroU32::new(REGISTER_STRIDE).unwrap_or(std::num::NonZeroU32::MIN);
                let base = self.vec_ty(ko);
                let arr = self.ty(TypeInner::Array { base, size: ArraySize::Constant(n), stride: 16 });
                out_array = Some(self.private_typed("o", arr));
                if writes_points {
                    special(self, OT::OutputControlPointId);
                    record_out = Some(cps);
                    let declared = declared_outputs(p, secs.control_point.clone().unwrap_or(0..0));
                    regs = merged(signature_registers(shader.output_signature.as_ref()), declared, at)?;
                } else {
                    // The instance ids, where a phase reads them.
                    for id in [OT::InputForkInstanceId, OT::InputJoinInstanceId] {
                        if p.operands.iter().any(|o| o.operand_type() == Some(id)) {
                            special(self, id);
                        }
                    }
                    let pcs = self.stage_buffer_of(StageBufferRole::PatchConstants, "patch_constants", true, ko);
                    patch_constants = Some(pcs);
                    record_out = Some(pcs);
                    let declared = declared_outputs(p, secs.phases.iter().flat_map(|ph| ph.range.clone()));
                    regs = merged(tess.patch_constant_registers.clone(), declared, at)?;
                    tess.patch_constant_registers = regs.clone();
                }
                output = None;
            }
            _ => {
                special(self, OT::InputDomainPoint);
                let dps = self.stage_buffer(StageBufferRole::DomainPoints, "domain_points");
                domain_points = Some(dps);
                // A domain shader reads its control points and patch
                // constants only through registers: typed by their signatures.
                let files = [OT::InputControlPoint, OT::Input];
                let all = || 0..p.instructions.len();
                let k = super::geometry::record_kind(p, shader.input_signature.as_ref(), &files, all(), K::U);
                input_points = self.record_buffer(StageBufferRole::ControlPoints, "control_points", k, &files);
                let files = [OT::InputPatchConstant];
                let k = super::geometry::record_kind(p, shader.patch_constant_signature.as_ref(), &files, all(), K::U);
                let pcs = self.record_buffer(StageBufferRole::PatchConstants, "patch_constants", k, &files);
                patch_constants = Some(pcs);
                regs = self.record_registers(shader)?;
                if pass == Pass::DomainCompute {
                    output = Some(self.stage_buffer(StageBufferRole::Output, "stage_output"));
                    for &r in &regs {
                        self.output(r);
                    }
                } else {
                    output = None;
                }
            }
        }
        let state = TessState {
            pass,
            in_cp: tess.input_control_points,
            out_cp: tess.output_control_points,
            input_points,
            control_points,
            patch_constants,
            domain_points,
            record_out,
            out_array,
            specials,
            record_regs: regs.clone(),
        };
        let input = domain_points.unwrap_or(input_points);
        let pull_vertex = (pass == Pass::DomainVertex).then_some(index);
        self.io = Some(super::geometry::StageIo {
            input,
            output,
            index,
            pull_vertex,
            records: 1,
            gs: None,
            tess: Some(state),
        });
        Ok(Some(ComputeForm {
            pass,
            vertices_per_primitive: if hull { tess.input_control_points } else { 1 },
            instances: 1,
            max_vertices: 0,
            output_topology: None,
            output_registers: regs,
            tessellation: Some(tess),
        }))
    }

    pub(crate) fn tess(&self) -> Option<&TessState> {
        self.io.as_ref().and_then(|io| io.tess.as_ref())
    }

    /// Whether registers of type `ty` are records this pass only reads
    /// (its stage input, the control points and patch constants written by
    /// an earlier pass), so a load of a statically indexed one stays valid
    /// while its block is open.
    pub(crate) fn read_only_record(&self, ty: OT) -> bool {
        let Some(io) = &self.io else { return false };
        if io.gs.is_some() {
            return ty == OT::Input;
        }
        match io.tess.as_ref().map(|t| t.pass) {
            Some(Pass::HullControlPoints) => matches!(ty, OT::Input | OT::InputControlPoint),
            Some(Pass::HullPatchConstants) => matches!(ty, OT::Input | OT::InputControlPoint | OT::OutputControlPoint),
            Some(Pass::DomainVertex | Pass::DomainCompute) => {
                matches!(ty, OT::Input | OT::InputControlPoint | OT::InputPatchConstant)
            }
            _ => false,
        }
    }

    /// Component 0 of a tess special register (vPrimitiveID: the patch).
    pub(crate) fn tess_special_x(&mut self, ty: OT) -> Result<H, TranslateError> {
        let Some(&g) = self.tess().and_then(|t| t.specials.get(&ty)) else {
            return malformed(format!("{} in this pass", ty.row().asm), self.p.offset);
        };
        Ok(self.load_stage_global(g))
    }

    /// A pointer to control point `op.index[0]`'s register `op.index[1]`
    /// in `buffer`, `n` points per patch.
    fn control_point_pointer(
        &mut self,
        buffer: Handle<GlobalVariable>,
        n: u32,
        op: &Operand,
    ) -> Result<H, TranslateError> {
        if op.index_dim() != 2 {
            return malformed(format!("{}-dimensional control point register", op.index_dim()), op.offset as usize);
        }
        let patch = self.tess_special_x(OT::InputPrimitiveid)?;
        let k = self.index(op, 0)?;
        let reg = self.index(op, 1)?;
        let nl = self.lit_u(n);
        let first = self.bin(B::Multiply, patch, nl);
        let record = self.bin(B::Add, first, k);
        let stride = self.lit_u(REGISTER_STRIDE);
        let word = self.bin(B::Multiply, record, stride);
        let i = self.bin(B::Add, word, reg);
        let base = self.e(E::GlobalVariable(buffer));
        Ok(self.e(E::Access { base, index: i }))
    }

    /// A pointer into a hull pass's `o` array.
    fn out_array_pointer(&mut self, array: Handle<GlobalVariable>, op: &Operand) -> Result<H, TranslateError> {
        let at = op.offset as usize;
        if op.index_dim() != 1 {
            return malformed(format!("{}-dimensional output register", op.index_dim()), at);
        }
        let base = self.e(E::GlobalVariable(array));
        if op.index[0].rel == dxbc::program::NO_OPERAND {
            let r = op.index[0].imm;
            if r >= REGISTER_STRIDE as u64 {
                return malformed(format!("o{r} (D3D has {REGISTER_STRIDE})"), at);
            }
            return Ok(self.e(E::AccessIndex { base, index: r as u32 }));
        }
        let i = self.index(op, 0)?;
        Ok(self.e(E::Access { base, index: i }))
    }

    /// The pointer of a register a hull or domain pass holds apart (control
    /// points, patch constants, a hull pass's outputs, its special
    /// registers); None for the others.
    pub(crate) fn tess_pointer(&mut self, op: &Operand, ty: OT) -> Result<Option<H>, TranslateError> {
        let at = op.offset as usize;
        let Some(t) = self.tess() else { return Ok(None) };
        let (pass, in_cp, out_cp, input_points, control_points, patch_constants, out_array) =
            (t.pass, t.in_cp, t.out_cp, t.input_points, t.control_points, t.patch_constants, t.out_array);
        let special = t.specials.get(&ty).copied();
        let hull = matches!(pass, Pass::HullControlPoints | Pass::HullPatchConstants);
        Ok(Some(match ty {
            // The control-point phase names its input points `v[i][r]`.
            OT::InputControlPoint | OT::Input if op.index_dim() == 2 => {
                self.control_point_pointer(input_points, in_cp, op)?
            }
            OT::OutputControlPoint => match (pass, control_points) {
                (Pass::HullPatchConstants, Some(cps)) => self.control_point_pointer(cps, out_cp, op)?,
                _ => return malformed("vocp outside a fork or join phase", at),
            },
            OT::InputPatchConstant => match (pass, out_array, patch_constants) {
                // Join phases read what the fork phases wrote.
                (Pass::HullPatchConstants, Some(arr), _) => self.out_array_pointer(arr, op)?,
                (Pass::DomainVertex | Pass::DomainCompute, _, Some(pcs)) => {
                    if op.index_dim() != 1 {
                        return malformed("multi-dimensional vpc register", at);
                    }
                    let patch = self.tess_special_x(OT::InputPrimitiveid)?;
                    let reg = self.index(op, 0)?;
                    let stride = self.lit_u(REGISTER_STRIDE);
                    let word = self.bin(B::Multiply, patch, stride);
                    let i = self.bin(B::Add, word, reg);
                    let base = self.e(E::GlobalVariable(pcs));
                    self.e(E::Access { base, index: i })
                }
                _ => return malformed("vpc outside a join phase or domain shader", at),
            },
            OT::Output if hull => match out_array {
                Some(arr) => self.out_array_pointer(arr, op)?,
                None => return malformed("no output registers", at),
            },
            OT::Input | OT::InputControlPoint => {
                return malformed("a one-dimensional input register in a hull or domain shader", at)
            }
            OT::InputPrimitiveid
            | OT::OutputControlPointId
            | OT::InputForkInstanceId
            | OT::InputJoinInstanceId
            | OT::InputDomainPoint => match special {
                Some(g) => self.e(E::GlobalVariable(g)),
                None => return malformed(format!("{} in this pass", ty.row().asm), at),
            },
            _ => return Ok(None),
        }))
    }

    /// Lowers the instructions at `indices` into the function under
    /// construction.
    pub(crate) fn lower_indices(&mut self, indices: impl Iterator<Item = usize>) -> Result<(), TranslateError> {
        let p = self.p;
        for i in indices {
            self.lower_instruction(&p.instructions[i])?;
        }
        Ok(())
    }

    /// The body of a hull or domain pass.
    pub(crate) fn tess_body(&mut self) -> Result<(), TranslateError> {
        let p = self.p;
        let Some(t) = self.tess() else { return malformed("no tessellation state", p.offset) };
        let (pass, in_cp, input_points, out_array, regs, domain_points) =
            (t.pass, t.in_cp, t.input_points, t.out_array, t.record_regs.clone(), t.domain_points);
        match pass {
            Pass::DomainVertex | Pass::DomainCompute => {
                self.domain_prologue(domain_points)?;
                self.lower_indices(0..p.instructions.len())?;
            }
            Pass::HullControlPoints => {
                let secs = sections(p);
                self.lower_indices(secs.decls.iter().copied())?;
                match secs.control_point {
                    Some(range) => self.lower_indices(range)?,
                    None => {
                        // Pass-through: output point i = input point i.
                        let Some(arr) = out_array else { return malformed("no output registers", p.offset) };
                        let patch = self.tess_special_x(OT::InputPrimitiveid)?;
                        let cp = self.tess_special_x(OT::OutputControlPointId)?;
                        let n = self.lit_u(in_cp);
                        let first = self.bin(B::Multiply, patch, n);
                        let record = self.bin(B::Add, first, cp);
                        let stride = self.lit_u(REGISTER_STRIDE);
                        let word = self.bin(B::Multiply, record, stride);
                        for r in regs {
                            let rl = self.lit_u(r);
                            let i = self.bin(B::Add, word, rl);
                            let base = self.e(E::GlobalVariable(input_points));
                            let src = self.e(E::Access { base, index: i });
                            let value = self.e(E::Load { pointer: src });
                            // `o` holds the input records' kind (`prepare_tess`).
                            let dst_base = self.e(E::GlobalVariable(arr));
                            let dst = self.e(E::AccessIndex { base: dst_base, index: r });
                            self.stmt(S::Store { pointer: dst, value });
                        }
                    }
                }
            }
            _ => {
                let secs = sections(p);
                self.lower_indices(secs.decls.iter().copied())?;
                let mut calls = Vec::new();
                for (k, ph) in secs.phases.iter().enumerate() {
                    // Each instance may write one patch-constant component
                    // at most; more than 128 cannot be a real shader.
                    if ph.instances > 128 {
                        return malformed(format!("{} instances of a hull shader phase", ph.instances), p.offset);
                    }
                    let name = format!("{}_phase_{k}", if ph.join { "join" } else { "fork" });
                    let f = self.lower_phase(name, ph.range.clone())?;
                    let id = if ph.join { OT::InputJoinInstanceId } else { OT::InputForkInstanceId };
                    // The id is stored before each call only for a phase that reads it.
                    let reads_id = p.instructions[ph.range.clone()]
                        .iter()
                        .flat_map(|ins| ins.operands(p))
                        .any(|o| o.operand_type() == Some(id));
                    let g = self.tess().and_then(|t| t.specials.get(&id).copied()).filter(|_| reads_id);
                    calls.push((f, g, ph.instances));
                }
                self.span = Span::UNDEFINED;
                for (f, g, instances) in calls {
                    for i in 0..instances {
                        if let Some(g) = g {
                            let v = self.splat_u(i);
                            let ptr = self.e(E::GlobalVariable(g));
                            self.stmt(S::Store { pointer: ptr, value: v });
                        }
                        self.stmt(S::Call { function: f, arguments: Vec::new(), result: None });
                    }
                }
            }
        }
        self.check_frames_closed()?;
        self.finish_body();
        Ok(())
    }

    /// Lowers one fork or join phase into its own function (own temps; its
    /// `ret` ends the phase).
    fn lower_phase(&mut self, name: String, range: std::ops::Range<usize>) -> Result<Handle<Function>, TranslateError> {
        self.reset_temps();
        let outer = self.take_function(Function { name: Some(name), ..Default::default() });
        self.lower_indices(range)?;
        self.check_frames_closed()?;
        let phase = self.take_function(outer);
        // The outer function's statements so far are its open root again.
        self.root = std::mem::take(&mut self.f.body);
        self.reset_temps();
        Ok(self.module.functions.append(phase, Span::UNDEFINED))
    }

    /// The compute entry point of a hull pass or a domain shader as compute.
    pub(crate) fn tess_entry_point(&mut self) -> Result<crate::lower::EntryIo, TranslateError> {
        let p = self.p;
        let Some(io) = &self.io else { return malformed("no stage buffers", p.offset) };
        let Some(t) = &io.tess else { return malformed("no tessellation state", p.offset) };
        let (pass, out_cp, record_out, out_array, regs, index, output, domain_points) =
            (t.pass, t.out_cp, t.record_out, t.out_array, t.record_regs.clone(), io.index, io.output, t.domain_points);
        let specials = t.specials.clone();
        let uvec3 = self.ty(TypeInner::Vector { size: VectorSize::Tri, scalar: Scalar::U32 });
        let wrapper = Function {
            name: Some("main".into()),
            arguments: vec![FunctionArgument {
                name: Some("global_invocation_id".into()),
                ty: uvec3,
                binding: Some(naga::Binding::BuiltIn(naga::BuiltIn::GlobalInvocationId)),
            }],
            ..Default::default()
        };
        let body = self.take_function(wrapper);
        let body = self.module.functions.append(body, Span::UNDEFINED);
        self.span = Span::UNDEFINED;
        let gid = self.e(E::FunctionArgument(0));
        let id = self.component(gid, 0);
        // Invocations: records of the output (hull) or domain points.
        let (counted, per_record, per_patch) = match pass {
            Pass::HullControlPoints => (record_out, REGISTER_STRIDE, out_cp),
            Pass::HullPatchConstants => (record_out, REGISTER_STRIDE, 1),
            _ => (domain_points, 1, 1),
        };
        let Some(counted) = counted else { return malformed("no buffer to count invocations by", p.offset) };
        let len = self.array_length(counted);
        let per = self.lit_u(per_record);
        let total = self.bin(B::Divide, len, per);
        let past = self.bin(B::GreaterEqual, id, total);
        self.open_if(past);
        self.stmt(S::Return { value: None });
        self.close_if();
        let id4 = self.splat(id);
        let ptr = self.e(E::GlobalVariable(index));
        self.stmt(S::Store { pointer: ptr, value: id4 });
        if matches!(pass, Pass::HullControlPoints | Pass::HullPatchConstants) {
            let n = self.lit_u(per_patch.max(1));
            let patch = self.bin(B::Divide, id, n);
            let point = self.bin(B::Modulo, id, n);
            for (ty, v) in [(OT::InputPrimitiveid, patch), (OT::OutputControlPointId, point)] {
                if let Some(&g) = specials.get(&ty) {
                    let v4 = self.splat(v);
                    let ptr = self.e(E::GlobalVariable(g));
                    self.stmt(S::Store { pointer: ptr, value: v4 });
                }
            }
        }
        self.stmt(S::Call { function: body, arguments: Vec::new(), result: None });
        let stride = self.lit_u(REGISTER_STRIDE);
        let first = self.bin(B::Multiply, id, stride);
        let sources: Vec<(u32, H)> = match (out_array, output) {
            (Some(arr), _) => regs
                .iter()
                .map(|&r| {
                    let base = self.e(E::GlobalVariable(arr));
                    let ptr = self.e(E::AccessIndex { base, index: r });
                    (r, self.e(E::Load { pointer: ptr }))
                })
                .collect(),
            (None, Some(_)) => self.outputs_snapshot().into_iter().map(|(r, g)| (r, self.load_global(g))).collect(),
            _ => Vec::new(),
        };
        let target = if out_array.is_some() { record_out } else { output };
        if let Some(target) = target {
            for (r, value) in sources {
                let rl = self.lit_u(r);
                let i = self.bin(B::Add, first, rl);
                let base = self.e(E::GlobalVariable(target));
                let ptr = self.e(E::Access { base, index: i });
                self.stmt(S::Store { pointer: ptr, value });
            }
        }
        Ok(self.finish_compute_entry())
    }
}
