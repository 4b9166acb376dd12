//! Hull and domain shaders, with the tessellator between them
//! (crates/tessellator, the one the GPU translation's compute port
//! mirrors bit for bit).
//!
//! D3D11's hull shader runs in phases over one patch at a time:
//! * the **control-point phase** once per output control point
//!   (`vOutputControlPointID` = 0 … n − 1), reading the input control points
//!   (`vicp`); its `o` registers are that output control point. A hull
//!   shader without one passes its input control points through, and so
//!   does one whose phase declares no output (vkd3d-shader compiles
//!   `void main(InputPatch<…> p) {}` so, and vkd3d's tessellation test
//!   draws through it: with nothing written there is nothing else a
//!   domain shader could read);
//! * then each **fork phase** `dcl_hs_fork_phase_instance_count` times
//!   (`vForkInstanceID`), then each **join phase** likewise
//!   (`vJoinInstanceID`), in program order. They read `vicp`, the output
//!   control points (`vocp`) and, in join phases, the patch constants the
//!   fork phases wrote (`vpc`); their `o` registers are the one
//!   patch-constant record, written by every instance in turn.
//!
//! The instances of a phase do not see each other's writes in D3D (it
//! leaves conflicting writes undefined); here they run one after another
//! in instance order, each over the record as the previous left it, so
//! disjoint writes (the usual `o[r0.x + k]` of a fork phase) all land.
//!
//! The tessellation factors are read from the record at the registers the
//! hull shader's `dcl_output_siv` declarations name; the tessellator turns
//! them into domain points, and the domain shader runs once per point with
//! `vDomain` set, `vicp` the output control points and `vpc` the record.

use std::sync::Arc;

use dxbc::spec::SystemName as N;
use tessellator::{DomainPoint, TessFactors, Tessellation};

use crate::compile::{Code, CONTROL_POINT_REGS};
use crate::error::{Error, ErrorKind, Result};
use crate::exec::{run, Grouping, Lane, Limits, Stats, MAX_LANES};
use crate::resources::Bindings;
use crate::Sys;

/// One input patch of a hull shader.
#[derive(Clone, Debug, PartialEq)]
pub struct HullInput {
    /// `SV_PrimitiveID` of the patch.
    pub primitive_id: u32,
    /// Its input control points, [`CONTROL_POINT_REGS`] registers each
    /// (register `r` of point `i` at `i * CONTROL_POINT_REGS + r`).
    pub control_points: Vec<[u32; 4]>,
}

/// What the hull shader made of one patch.
#[derive(Clone, Debug, PartialEq)]
pub struct HullOutput {
    /// `SV_PrimitiveID` of the patch.
    pub primitive_id: u32,
    /// The output control points, laid out as [`HullInput::control_points`].
    pub control_points: Arc<[[u32; 4]]>,
    /// The patch-constant record ([`CONTROL_POINT_REGS`] registers).
    pub patch_constants: Arc<[[u32; 4]]>,
}

fn first_offset(code: &Code) -> u32 {
    code.ops.first().map_or(0, |o| o.offset)
}

fn not_hull(code: &Code) -> Error {
    Error::new(ErrorKind::Malformed, "not a hull shader", first_offset(code))
}

/// Charges a run to what is left of `limits`.
fn run_charged(code: &Code, b: &mut Bindings, lanes: &mut [Lane], limits: Limits, stats: &mut Stats) -> Result<()> {
    let budget = limits.budget.saturating_sub(stats.instructions);
    let s = run(code, b, lanes, Grouping::Independent, Limits { budget })?;
    stats.instructions += s.instructions;
    Ok(())
}

/// Runs every phase of the hull shader `code` over each patch of `inputs`.
pub fn run_hull(
    code: &Code,
    b: &mut Bindings,
    inputs: &[HullInput],
    limits: Limits,
) -> Result<(Vec<HullOutput>, Stats)> {
    let hull = code.hull.as_deref().ok_or_else(|| not_hull(code))?;
    let out_points = code.tess.output_control_points as usize;
    let mut stats = Stats::default();
    let mut outputs = Vec::with_capacity(inputs.len());
    for input in inputs {
        let input_points: Arc<[[u32; 4]]> = input.control_points.clone().into();
        let patch_lane = |outputs: Vec<[u32; 4]>| {
            let mut lane = Lane { outputs, input_points: input_points.clone(), ..Lane::default() };
            lane.sys[Sys::PrimitiveId as usize] = [input.primitive_id; 4];
            lane
        };
        // The control-point phase: one lane per output control point.
        let control_points: Arc<[[u32; 4]]> = match &hull.control_point {
            Some(cp) if !hull.passes_through() => {
                let mut lanes: Vec<Lane> = (0..out_points)
                    .map(|i| {
                        let mut lane = patch_lane(vec![[0; 4]; CONTROL_POINT_REGS]);
                        lane.sys[Sys::OutputControlPointId as usize] = [i as u32; 4];
                        lane
                    })
                    .collect();
                run_charged(cp, b, &mut lanes, limits, &mut stats)?;
                lanes
                    .iter()
                    .flat_map(|l| l.outputs.iter().copied().chain(std::iter::repeat([0; 4])).take(CONTROL_POINT_REGS))
                    .collect()
            }
            _ => {
                let mut points = input.control_points.clone();
                points.resize(out_points * CONTROL_POINT_REGS, [0; 4]);
                points.into()
            }
        };
        // Fork then join phases, each instance over the record in turn.
        let mut record = vec![[0u32; 4]; CONTROL_POINT_REGS];
        let mut forked: Arc<[[u32; 4]]> = Arc::from(record.clone());
        let mut joining = false;
        for phase in &hull.phases {
            if phase.join && !joining {
                // What the join phases read as vpc: the fork phases' record.
                forked = Arc::from(record.clone());
                joining = true;
            }
            let slot = if phase.join { Sys::JoinInstance } else { Sys::ForkInstance };
            for instance in 0..phase.instances {
                let mut lane = patch_lane(record);
                lane.control_points = control_points.clone();
                lane.patch_constants = forked.clone();
                lane.sys[slot as usize] = [instance; 4];
                let mut lanes = [lane];
                run_charged(&phase.code, b, &mut lanes, limits, &mut stats)?;
                let [lane] = lanes;
                record = lane.outputs;
                record.resize(CONTROL_POINT_REGS, [0; 4]);
            }
        }
        outputs.push(HullOutput { primitive_id: input.primitive_id, control_points, patch_constants: record.into() });
    }
    Ok((outputs, stats))
}

/// A patch's tessellation factors, read from its patch-constant record at
/// the registers the hull shader declares them in. A factor the shader
/// does not declare reads 0 (an edge of 0 culls the patch).
pub fn patch_factors(hull: &Code, patch_constants: &[[u32; 4]]) -> Result<TessFactors> {
    let at = first_offset(hull);
    let word = |name: N| -> f32 {
        hull.tess
            .factors
            .iter()
            .find(|f| f.0 == name)
            .and_then(|&(_, r, c)| patch_constants.get(r as usize).map(|v| f32::from_bits(v[c as usize & 3])))
            .unwrap_or(0.0)
    };
    Ok(match hull.tess.domain {
        Some(tessellator::Domain::Tri) => TessFactors::Tri {
            edges: [N::FinalTriUEq0EdgeTessfactor, N::FinalTriVEq0EdgeTessfactor, N::FinalTriWEq0EdgeTessfactor]
                .map(word),
            inside: word(N::FinalTriInsideTessfactor),
        },
        Some(tessellator::Domain::Quad) => TessFactors::Quad {
            edges: [
                N::FinalQuadUEq0EdgeTessfactor,
                N::FinalQuadVEq0EdgeTessfactor,
                N::FinalQuadUEq1EdgeTessfactor,
                N::FinalQuadVEq1EdgeTessfactor,
            ]
            .map(word),
            inside: [N::FinalQuadUInsideTessfactor, N::FinalQuadVInsideTessfactor].map(word),
        },
        Some(tessellator::Domain::Isoline) => {
            TessFactors::isoline_from_sv([word(N::FinalLineDensityTessfactor), word(N::FinalLineDetailTessfactor)])
        }
        None => return Err(Error::new(ErrorKind::Malformed, "hull shader without a tessellator domain", at)),
    })
}

/// Tessellates one patch the hull shader `hull` produced: its factors
/// through the tessellator with the shader's partitioning and output
/// primitive.
pub fn tessellate_patch(hull: &Code, patch: &HullOutput) -> Result<Tessellation> {
    let at = first_offset(hull);
    let (Some(partitioning), Some(primitive)) = (hull.tess.partitioning, hull.tess.output_primitive) else {
        return Err(Error::new(
            ErrorKind::Malformed,
            "hull shader without a tessellator partitioning or output primitive",
            at,
        ));
    };
    let factors = patch_factors(hull, &patch.patch_constants)?;
    tessellator::tessellate(partitioning, primitive, &factors)
        .map_err(|e| Error::new(ErrorKind::Malformed, e.to_string(), at))
}

/// Runs the domain shader `code` once per point of `points` of `patch`;
/// returns each point's output registers.
pub fn run_domain(
    code: &Code,
    b: &mut Bindings,
    patch: &HullOutput,
    points: &[DomainPoint],
    limits: Limits,
) -> Result<(Vec<Vec<[u32; 4]>>, Stats)> {
    let mut stats = Stats::default();
    let mut out = Vec::with_capacity(points.len());
    for chunk in points.chunks(MAX_LANES) {
        let mut lanes: Vec<Lane> = chunk
            .iter()
            .map(|p| {
                let mut lane = Lane {
                    control_points: patch.control_points.clone(),
                    patch_constants: patch.patch_constants.clone(),
                    ..Lane::default()
                };
                lane.sys[Sys::DomainLocation as usize] = [p.u, p.v, p.w, 0.0].map(f32::to_bits);
                lane.sys[Sys::PrimitiveId as usize] = [patch.primitive_id; 4];
                lane
            })
            .collect();
        run_charged(code, b, &mut lanes, limits, &mut stats)?;
        out.extend(lanes.into_iter().map(|l| l.outputs));
    }
    Ok((out, stats))
}
