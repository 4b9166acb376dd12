//! The preview's read-backs computed on the interpreter instead of a GPU:
//! the explorer's "compare with the CPU interpreter", which needs no
//! native renderer.
//!
//! Every invocation is prepared exactly as the debugger prepares one
//! ([`crate::debug`]): the same bindings from the plan's entries, the same
//! interpolation of the full-viewport quad (every 2×2 quad of the picture,
//! once per triangle that covers one of its pixels), the same thread
//! groups of the dispatch. What comes out is shaped as the native renderer
//! shapes its read-backs (colour targets as 16-byte texels, buffers whole,
//! storage textures one 32-bit channel per texel), so that
//! [`crate::reference::compare`] judges it with the plan's tolerance.
//!
//! Bounded: all invocations together may execute [`BUDGET`] instructions;
//! past that the answer is [`CpuError::Budget`], never a partial picture.

use dxbc_interp::{Bindings, Code, ErrorKind, Grouping, Limits, Resource as IResource};

use crate::debug::{self, Invocation, QuadDraw};
use crate::plan::{Plan, Readback, Resource};
use crate::Stage;

/// What the reference names as its adapter.
pub const ADAPTER: &str = "dxbc-interp, the CPU interpreter";

/// Instructions all invocations of one reference may execute together.
pub const BUDGET: u64 = 400_000_000;

/// Why the interpreter computes no reference for a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CpuError {
    /// Vertex previews need the mesh rasterised, which the interpreter does not do.
    Rasterisation,
    /// The stage's passes (geometry, hull, domain) are not replayed.
    Stage(Stage),
    /// A pipeline with companion shaders.
    Pipeline,
    /// The pixel-shader draw is not the full-viewport quad.
    NotTheQuad,
    /// The program does not compile for the interpreter.
    Compile(dxbc_interp::Error),
    /// An invocation failed.
    Run {
        /// Which one.
        invocation: Invocation,
        /// Why.
        error: dxbc_interp::Error,
    },
    /// All invocations together would execute more than `budget` instructions.
    Budget {
        /// The budget.
        budget: u64,
    },
}

impl std::fmt::Display for CpuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CpuError::Rasterisation => {
                write!(
                    f,
                    "the interpreter does not rasterise a vertex shader's mesh: compare it with the native renderer"
                )
            }
            CpuError::Stage(s) => write!(f, "the interpreter does not run {s:?} previews yet"),
            CpuError::Pipeline => write!(f, "the interpreter does not run pipelines of several shaders yet"),
            CpuError::NotTheQuad => write!(f, "the interpreter runs pixel shaders on the full-viewport quad only"),
            CpuError::Compile(e) => write!(f, "the interpreter cannot run this program: {e}"),
            CpuError::Run { invocation, error } => write!(f, "{invocation} failed on the interpreter: {error}"),
            CpuError::Budget { budget } => {
                write!(
                    f,
                    "the interpreter stops after {budget} instructions over all invocations: the preview needs more"
                )
            }
        }
    }
}

impl std::error::Error for CpuError {}

/// The instructions a reference may still execute.
struct Meter {
    budget: u64,
    left: u64,
}

/// Runs one invocation's lanes, charging them to `m`.
fn charge(
    code: &Code,
    b: &mut Bindings,
    lanes: &mut [dxbc_interp::Lane],
    grouping: Grouping,
    m: &mut Meter,
    invocation: Invocation,
) -> Result<(), CpuError> {
    match dxbc_interp::run(code, b, lanes, grouping, Limits { budget: m.left }) {
        Ok(stats) => {
            m.left = m.left.saturating_sub(stats.instructions);
            Ok(())
        }
        Err(e) if e.kind == ErrorKind::Budget => Err(CpuError::Budget { budget: m.budget }),
        Err(error) => Err(CpuError::Run { invocation, error }),
    }
}

/// The plan's read-backs, in plan order, computed on the interpreter
/// (`budget`: [`BUDGET`] unless a caller needs less).
pub fn readbacks(
    shader: &dxbc::Shader,
    model: &crate::PreviewModel,
    plan: &Plan,
    budget: u64,
) -> Result<Vec<Vec<u8>>, CpuError> {
    match plan.stage {
        Stage::Pixel | Stage::Compute => {}
        Stage::Vertex => return Err(CpuError::Rasterisation),
        s => return Err(CpuError::Stage(s)),
    }
    if plan.shaders.len() > 1 || plan.passes.is_some() {
        return Err(CpuError::Pipeline);
    }
    let code = dxbc_interp::compile_shader(shader).map_err(CpuError::Compile)?;
    let mut bindings = debug::bindings(plan, &code);
    let mut out: Vec<Vec<u8>> = plan.readbacks.iter().map(|r| vec![0; plan.readback_size(r)]).collect();
    let mut left = Meter { budget, left: budget };
    if plan.stage == Stage::Pixel {
        let interpolation = model.quad.as_ref().map_or(&[][..], |q| q.interpolation.as_slice());
        pixels(plan, &code, interpolation, &mut bindings, &mut left, &mut out)?;
    } else {
        let groups = plan.dispatch.map_or([1, 1, 1], |(_, g)| g);
        for gz in 0..groups[2] {
            for gy in 0..groups[1] {
                for gx in 0..groups[0] {
                    let group = [gx, gy, gz];
                    let mut lanes = dxbc_interp::group_lanes(&code, group);
                    let inv = Invocation::Thread { group, thread: [0; 3] };
                    charge(&code, &mut bindings, &mut lanes, Grouping::Group, &mut left, inv)?;
                }
            }
        }
    }
    memory(plan, &bindings, &mut out);
    Ok(out)
}

/// Every pixel of the picture: its colour targets.
fn pixels(
    plan: &Plan,
    code: &Code,
    interpolation: &[(u32, crate::vertex::Interpolation)],
    bindings: &mut Bindings,
    left: &mut Meter,
    out: &mut [Vec<u8>],
) -> Result<(), CpuError> {
    let draw = plan.draw.as_ref().ok_or(CpuError::NotTheQuad)?;
    if draw.topology != "triangle-strip" || draw.vertex_count != 4 || draw.index_blob.is_some() {
        return Err(CpuError::NotTheQuad);
    }
    let targets = debug::target_readbacks(plan);
    let quad = QuadDraw::new(plan, code, interpolation);
    let (w, h) = (plan.width, plan.height);
    for qy in (0..h).step_by(2) {
        for qx in (0..w).step_by(2) {
            let owners: Vec<(u32, u32, usize)> = (0..4u32)
                .map(|k| (qx + (k & 1), qy + (k >> 1)))
                .filter(|&(x, y)| x < w && y < h)
                .map(|(x, y)| (x, y, quad.triangle(x, y)))
                .collect();
            for tri in 0..2 {
                let Some(&(x0, y0, _)) = owners.iter().find(|o| o.2 == tri) else { continue };
                let mut lanes = quad.lanes(tri, qx, qy);
                let inv = Invocation::Pixel { x: x0, y: y0 };
                charge(code, bindings, &mut lanes, Grouping::Quads, left, inv)?;
                for &(x, y, _) in owners.iter().filter(|o| o.2 == tri) {
                    let lane = &lanes[debug::quad_lane(x, y)];
                    // A discarded pixel keeps the clear colour (zero).
                    if lane.discarded {
                        continue;
                    }
                    for &(i, location) in &targets {
                        let v = lane.outputs.get(location as usize).copied().unwrap_or([0; 4]);
                        let at = (y as usize * w as usize + x as usize) * 16;
                        if let Some(texel) = out[i].get_mut(at..at + 16) {
                            for (c, word) in v.iter().enumerate() {
                                texel[4 * c..4 * c + 4].copy_from_slice(&word.to_le_bytes());
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// The UAV read-backs (buffers and storage textures) as the runs left them.
fn memory(plan: &Plan, bindings: &Bindings, out: &mut [Vec<u8>]) {
    for (i, r) in plan.readbacks.iter().enumerate() {
        let entry = match r {
            Readback::Buffer { entry, .. } | Readback::StorageTexture { entry } => &plan.entries[*entry],
            Readback::Target { .. } => continue,
        };
        let bytes: Vec<u8> =
            match (&entry.resource, debug::uav_register(&entry.register).and_then(|u| bindings.uavs.get(&u))) {
                (_, Some(IResource::Buffer(b))) => b.words.iter().flat_map(|w| w.to_le_bytes()).collect(),
                (_, Some(IResource::Texture(t))) => {
                    t.levels.first().map_or(Vec::new(), |l| l.iter().flat_map(|texel| texel[0].to_le_bytes()).collect())
                }
                // Not bound to the interpreter (the translation's own buffers): as the plan filled it.
                (Resource::Buffer { blob, .. }, None) => plan.blobs.get(*blob).cloned().unwrap_or_default(),
                _ => continue,
            };
        let n = out[i].len().min(bytes.len());
        out[i][..n].copy_from_slice(&bytes[..n]);
    }
}
