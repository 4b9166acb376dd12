//! The preview's inputs as the interpreter's: what `dxbc run` and the
//! explorer's debugger execute for one pixel, vertex or compute thread.
//!
//! Everything comes from the [`Plan`] the GPU executes, so the interpreter
//! sees the same bytes: constant buffers, buffers, textures and samplers
//! from the plan's entries; a pixel's inputs interpolated from the draw's
//! vertex buffer (the full-viewport quad and its pass-through vertex
//! shader) at the pixel centre; a vertex's inputs read from the mesh's
//! vertex buffer; a thread's group from the dispatch.
//!
//! A pixel runs with its 2×2 quad, every lane evaluated on the plane of
//! the triangle that covers the chosen pixel (the other lanes are that
//! triangle's quad-mates, helpers where they fall outside it), so
//! derivatives are what the GPU computes.

use dxbc_interp::{
    Address, Bindings, Buffer, Channel, Code, Compare, Grouping, Lane, Resource as IResource, Sampler, TexDim, Texture,
};

use crate::plan::{Plan, Readback, Resource};
use crate::vertex::Interpolation;
use crate::Stage;

/// The invocation to run: the one a debug link records.
pub use dxbc::permalink::DebugInvocation as Invocation;

/// Why an invocation cannot be prepared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DebugError {
    /// The invocation's kind does not fit the shader's stage.
    WrongStage {
        /// The previewed stage.
        stage: Stage,
    },
    /// The pixel, vertex or thread lies outside what the preview runs.
    OutOfRange {
        /// What was asked for.
        invocation: Invocation,
    },
    /// The preview runs this stage in passes the debugger does not replay
    /// (geometry, hull, domain).
    UnsupportedStage(Stage),
    /// The interpreter cannot run the program.
    Compile(dxbc_interp::Error),
}

impl std::fmt::Display for DebugError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DebugError::WrongStage { stage } => write!(f, "that invocation does not fit a {stage:?} shader"),
            DebugError::OutOfRange { invocation } => write!(f, "{invocation} is outside what the preview runs"),
            DebugError::UnsupportedStage(s) => write!(f, "the debugger does not replay {s:?} shaders yet"),
            DebugError::Compile(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DebugError {}

/// An invocation ready to run: bindings, lanes, and the lane to trace.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Resources, as the plan binds them.
    pub bindings: Bindings,
    /// The lanes (a quad, one vertex, or a thread group).
    pub lanes: Vec<Lane>,
    /// How they relate.
    pub grouping: Grouping,
    /// The chosen invocation's lane.
    pub lane: usize,
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks(4).map(|c| c.iter().rev().fold(0u32, |w, &b| w << 8 | b as u32)).collect()
}

fn word_at(bytes: &[u8], at: usize) -> u32 {
    match bytes.get(at..at + 4) {
        Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        None => 0,
    }
}

/// `b3` or `t0, space1` → 3 / 0 (the interpreter binds by register number).
fn register(r: &str) -> Option<(char, u32)> {
    let reg = r.split(',').next()?;
    let class = reg.chars().next()?;
    Some((class, reg.get(1..)?.parse().ok()?))
}

/// The UAV slot of a register (`u2` or `u2, space1` → 2).
pub(crate) fn uav_register(r: &str) -> Option<u32> {
    register(r).filter(|(class, _)| *class == 'u').map(|(_, n)| n)
}

fn one(ch: Channel) -> u32 {
    match ch {
        Channel::Uint | Channel::Sint => 1,
        _ => 1.0f32.to_bits(),
    }
}

/// The texels of a plan texture as register bits (missing components
/// 0, 0, 0, 1, as D3D reads them).
fn texels(blob: &[u8], format: &str) -> (Channel, u8, Vec<[u32; 4]>) {
    match format {
        "rgba8unorm" => (
            Channel::Unorm(8),
            4,
            blob.chunks_exact(4).map(|p| std::array::from_fn(|c| (p[c] as f32 / 255.0).to_bits())).collect(),
        ),
        "r32float" | "r32uint" | "r32sint" => {
            let ch = match format {
                "r32float" => Channel::Float,
                "r32uint" => Channel::Uint,
                _ => Channel::Sint,
            };
            (ch, 1, words(blob).into_iter().map(|w| [w, 0, 0, one(ch)]).collect())
        }
        _ => {
            let ch = match format {
                "rgba32uint" => Channel::Uint,
                "rgba32sint" => Channel::Sint,
                _ => Channel::Float,
            };
            (ch, 4, words(blob).chunks_exact(4).map(|w| [w[0], w[1], w[2], w[3]]).collect())
        }
    }
}

fn texture(code_dim: Option<dxbc::spec::ResourceDimension>, blob: &[u8], format: &str, size: [u32; 3]) -> Texture {
    use dxbc::spec::ResourceDimension as D;
    let (channel, components, texels) = texels(blob, format);
    let [width, height, n] = size.map(|s| s.max(1));
    let (dim, height, depth, layers) = match code_dim {
        Some(D::Texture1d | D::Texture1darray) => (TexDim::Tex1d, 1, 1, n),
        Some(D::Texture3d) => (TexDim::Tex3d, height, n, 1),
        Some(D::Texturecube | D::Texturecubearray) => (TexDim::Cube, height, 1, n),
        _ => (TexDim::Tex2d, height, 1, n),
    };
    Texture { dim, width, height, depth, layers, samples: 1, channel, components, levels: vec![texels] }
}

/// The plan's resources (the previewed shader's, shader 0) as the
/// interpreter's bindings.
pub fn bindings(plan: &Plan, code: &Code) -> Bindings {
    let mut b = Bindings { rasterizer_samples: 1, ..Bindings::default() };
    for e in plan.entries.iter().filter(|e| e.shader == 0) {
        let Some((class, reg)) = register(&e.register) else { continue };
        let blob = |i: usize| plan.blobs.get(i).map_or(&[][..], |b| b.as_slice());
        match &e.resource {
            Resource::Buffer { kind: "uniform", blob: i } => {
                if class == 'b' {
                    b.cbs.insert(reg, words(blob(*i)));
                }
            }
            Resource::Buffer { blob: i, .. } => {
                let uav = class == 'u';
                let dims = if uav { &code.uav_dims } else { &code.srv_dims };
                // The translator's hidden buffers (UAV counters) have no D3D register of their own.
                let Some(&dim) = dims.get(&reg).filter(|_| matches!(class, 't' | 'u')) else { continue };
                let stride = code.strides.get(&(uav, reg)).copied().unwrap_or(0);
                // Typed buffers as the translation binds them by default:
                // one 32-bit channel per element (dxbc_naga's typed format).
                let typed = (dim == dxbc::spec::ResourceDimension::Buffer).then_some((Channel::Float, 1));
                let r = IResource::Buffer(Buffer { words: words(blob(*i)), stride, typed, counter: 0 });
                if uav {
                    b.uavs.insert(reg, r);
                } else {
                    b.srvs.insert(reg, r);
                }
            }
            Resource::Texture { blob: i, format, source_format, width, height, depth_or_layers, .. } => {
                let f = source_format.unwrap_or(format);
                let t = texture(code.srv_dims.get(&reg).copied(), blob(*i), f, [*width, *height, *depth_or_layers]);
                b.srvs.insert(reg, IResource::Texture(t));
            }
            Resource::StorageTexture { blob: i, format, width, height, depth_or_layers, .. } => {
                let t =
                    texture(code.uav_dims.get(&reg).copied(), blob(*i), format, [*width, *height, *depth_or_layers]);
                b.uavs.insert(reg, IResource::Texture(t));
            }
            Resource::Sampler { filter, address, compare } => {
                let linear = *filter == "linear";
                let a = match *address {
                    "clamp-to-edge" => Address::Clamp,
                    "mirror-repeat" => Address::Mirror,
                    _ => Address::Wrap,
                };
                b.samplers.insert(
                    reg,
                    Sampler {
                        min_linear: linear,
                        mag_linear: linear,
                        mip_linear: linear,
                        address: [a; 3],
                        border: [0.0; 4],
                        compare: compare.map(|_| Compare::LessEqual),
                        lod_bias: 0.0,
                        min_lod: 0.0,
                        max_lod: f32::MAX,
                    },
                );
            }
        }
    }
    b
}

/// Vertex `n`'s attributes from a draw's vertex buffer, by location
/// (missing components 0, 0, 0, 1 as vertex fetch fills them).
fn vertex_attributes(plan: &Plan, n: u32) -> Vec<(u32, [u32; 4])> {
    let Some(d) = &plan.draw else { return Vec::new() };
    let data = plan.blobs.get(d.vertex_blob).map_or(&[][..], |b| b.as_slice());
    let base = n as usize * d.stride as usize;
    d.attributes
        .iter()
        .map(|a| {
            let count = a.format.chars().last().and_then(|c| c.to_digit(10)).filter(|_| a.format.contains('x'));
            let count = count.unwrap_or(1) as usize;
            let int = a.format.starts_with('u') || a.format.starts_with('s');
            let mut v = [0, 0, 0, if int { 1 } else { 1.0f32.to_bits() }];
            for (c, x) in v.iter_mut().enumerate().take(count.min(4)) {
                *x = word_at(data, base + a.offset as usize + 4 * c);
            }
            (a.location, v)
        })
        .collect()
}

fn sysval(code: &Code, reg_value: impl Fn(u32) -> Option<[u32; 4]>, inputs: &mut [[u32; 4]]) {
    for d in &code.inputs {
        if let (Some(v), Some(slot)) = (reg_value(d.sysval), inputs.get_mut(d.reg as usize)) {
            for c in 0..4 {
                if d.mask >> c & 1 == 1 {
                    slot[c] = v[c];
                }
            }
        }
    }
}

/// A strip's two triangles: corners (0, 1, 2), then (1, 3, 2) with corner 1
/// first (its provoking vertex for flat inputs).
const TRIANGLES: [[usize; 3]; 2] = [[0, 1, 2], [1, 3, 2]];

/// The full-viewport quad a pixel-shader plan draws (its four corners'
/// attributes), from which any pixel quad's lanes are interpolated: what
/// the debugger runs for one pixel and [`crate::cpu`] for every pixel.
pub(crate) struct QuadDraw<'a> {
    plan: &'a Plan,
    code: &'a Code,
    interpolation: &'a [(u32, Interpolation)],
    corners: Vec<Vec<(u32, [u32; 4])>>,
    pos_location: u32,
}

impl<'a> QuadDraw<'a> {
    pub(crate) fn new(plan: &'a Plan, code: &'a Code, interpolation: &'a [(u32, Interpolation)]) -> QuadDraw<'a> {
        let corners = (0..4).map(|n| vertex_attributes(plan, n)).collect();
        let pos_location = plan.draw.as_ref().and_then(|d| d.attributes.first()).map_or(0, |a| a.location);
        QuadDraw { plan, code, interpolation, corners, pos_location }
    }

    fn position(&self, k: usize) -> [f32; 2] {
        let p = self.corners[k].iter().find(|(l, _)| *l == self.pos_location).map_or([0; 4], |(_, v)| *v);
        [f32::from_bits(p[0]), f32::from_bits(p[1])]
    }

    /// Pixel (px, py)'s centre in normalised device coordinates.
    fn ndc(&self, px: u32, py: u32) -> [f32; 2] {
        let (w, h) = (self.plan.width.max(1) as f32, self.plan.height.max(1) as f32);
        [(px as f32 + 0.5) / w * 2.0 - 1.0, 1.0 - (py as f32 + 0.5) / h * 2.0]
    }

    fn bary(&self, t: [usize; 3], p: [f32; 2]) -> [f32; 3] {
        let [a, b, c] = t.map(|k| self.position(k));
        let det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
        if det == 0.0 {
            return [1.0, 0.0, 0.0];
        }
        let l0 = ((b[1] - c[1]) * (p[0] - c[0]) + (c[0] - b[0]) * (p[1] - c[1])) / det;
        let l1 = ((c[1] - a[1]) * (p[0] - c[0]) + (a[0] - c[0]) * (p[1] - c[1])) / det;
        [l0, l1, 1.0 - l0 - l1]
    }

    /// The triangle (0 or 1) that covers pixel (x, y)'s centre.
    pub(crate) fn triangle(&self, x: u32, y: u32) -> usize {
        // The shared diagonal is a top-left edge of triangle 1, which owns it.
        let b0 = self.bary(TRIANGLES[0], self.ndc(x, y));
        if b0.iter().all(|&l| l >= 0.0) && b0[0] > 0.0 {
            0
        } else {
            1
        }
    }

    /// The lanes of the quad holding pixel (x, y), every lane evaluated on
    /// triangle `tri`'s plane; lanes whose pixel that triangle does not
    /// cover (or that lie outside the picture) are helpers.
    pub(crate) fn lanes(&self, tri: usize, x: u32, y: u32) -> Vec<Lane> {
        use dxbc::spec::SystemName as S;
        let t = TRIANGLES[tri & 1];
        let (qx, qy) = (x & !1, y & !1);
        (0..4u32)
            .map(|k| {
                let (px, py) = (qx + (k & 1), qy + (k >> 1));
                let l = self.bary(t, self.ndc(px, py));
                let mut inputs = vec![[0u32; 4]; self.code.input_regs as usize];
                for (reg, mode) in self.interpolation {
                    let at = |k: usize| self.corners[k].iter().find(|(loc, _)| loc == reg).map_or([0; 4], |(_, v)| *v);
                    let v = if *mode == Interpolation::Flat {
                        at(t[0])
                    } else {
                        let [a, b, c] = t.map(at);
                        std::array::from_fn(|i| {
                            let f = |v: [u32; 4]| f32::from_bits(v[i]);
                            (l[0] * f(a) + l[1] * f(b) + l[2] * f(c)).to_bits()
                        })
                    };
                    if let Some(slot) = inputs.get_mut(*reg as usize) {
                        *slot = v;
                    }
                }
                let pos =
                    [(px as f32 + 0.5).to_bits(), (py as f32 + 0.5).to_bits(), 0.5f32.to_bits(), 1.0f32.to_bits()];
                sysval(
                    self.code,
                    |s| match S::from_u32(s) {
                        Some(S::Position) => Some(pos),
                        // The quad winds counter-clockwise: it faces the viewer.
                        Some(S::IsFrontFace) => Some([u32::MAX; 4]),
                        Some(S::SampleIndex) => Some([0; 4]),
                        _ => None,
                    },
                    &mut inputs,
                );
                let inside = px < self.plan.width && py < self.plan.height;
                let helper = !inside || self.triangle(px, py) != tri;
                let mut lane = Lane { inputs, helper, ..Lane::default() };
                lane.sys[dxbc_interp::Sys::Coverage as usize] = [u32::from(!helper); 4];
                lane
            })
            .collect()
    }
}

/// The lane of pixel (x, y) in its quad.
pub(crate) fn quad_lane(x: u32, y: u32) -> usize {
    ((y & 1) * 2 + (x & 1)) as usize
}

/// The bindings and lanes of `inv` under `plan` (`interpolation`: the
/// pixel shader's inputs' modes, [`crate::vertex::QuadInputs::interpolation`]).
pub fn prepare(
    plan: &Plan,
    code: &Code,
    interpolation: &[(u32, Interpolation)],
    inv: Invocation,
) -> Result<Prepared, DebugError> {
    let stage = plan.stage;
    let bindings = bindings(plan, code);
    match (stage, inv) {
        (Stage::Pixel, Invocation::Pixel { x, y }) => {
            if x >= plan.width || y >= plan.height {
                return Err(DebugError::OutOfRange { invocation: inv });
            }
            let quad = QuadDraw::new(plan, code, interpolation);
            let lanes = quad.lanes(quad.triangle(x, y), x, y);
            Ok(Prepared { bindings, lanes, grouping: Grouping::Quads, lane: quad_lane(x, y) })
        }
        (Stage::Vertex, Invocation::Vertex(n)) => {
            use dxbc::spec::SystemName as S;
            let d = plan.draw.as_ref().ok_or(DebugError::UnsupportedStage(stage))?;
            let available = plan.blobs.get(d.vertex_blob).map_or(0, |b| b.len()) / d.stride.max(1) as usize;
            // A shader without vertex inputs draws from SV_VertexID alone.
            let count = if d.attributes.is_empty() { d.vertex_count as usize } else { available };
            if n as usize >= count {
                return Err(DebugError::OutOfRange { invocation: inv });
            }
            let mut inputs = vec![[0u32; 4]; code.input_regs as usize];
            for (loc, v) in vertex_attributes(plan, n) {
                if let Some(slot) = inputs.get_mut(loc as usize) {
                    *slot = v;
                }
            }
            sysval(
                code,
                |s| match S::from_u32(s) {
                    Some(S::VertexId) => Some([n; 4]),
                    Some(S::InstanceId) => Some([0; 4]),
                    _ => None,
                },
                &mut inputs,
            );
            Ok(Prepared {
                bindings,
                lanes: vec![Lane { inputs, ..Lane::default() }],
                grouping: Grouping::Independent,
                lane: 0,
            })
        }
        (Stage::Compute, Invocation::Thread { group, thread }) => {
            let groups = plan.dispatch.map_or([1, 1, 1], |(_, g)| g);
            let size = code.thread_group;
            if (0..3).any(|k| group[k] >= groups[k] || thread[k] >= size[k]) {
                return Err(DebugError::OutOfRange { invocation: inv });
            }
            let lane = ((thread[2] * size[1] + thread[1]) * size[0] + thread[0]) as usize;
            Ok(Prepared { bindings, lanes: dxbc_interp::group_lanes(code, group), grouping: Grouping::Group, lane })
        }
        (Stage::Pixel | Stage::Vertex | Stage::Compute, _) => Err(DebugError::WrongStage { stage }),
        (s, _) => Err(DebugError::UnsupportedStage(s)),
    }
}

/// One invocation run under the preview's inputs and traced.
#[derive(Clone, Debug)]
pub struct Debugged {
    /// The compiled program.
    pub code: Code,
    /// The bindings and lanes, as the run left them.
    pub prepared: Prepared,
    /// The chosen lane's record and the run's outcome.
    pub traced: dxbc_interp::Traced,
}

/// Compiles `shader`, prepares `inv` under `plan` and runs it, tracing its lane.
pub fn debug(
    shader: &dxbc::Shader,
    model: &crate::PreviewModel,
    plan: &Plan,
    inv: Invocation,
    limits: dxbc_interp::Limits,
    max_steps: usize,
) -> Result<Debugged, DebugError> {
    let code = dxbc_interp::compile_shader(shader).map_err(DebugError::Compile)?;
    let interpolation = model.quad.as_ref().map_or(&[][..], |q| q.interpolation.as_slice());
    let mut prepared = prepare(plan, &code, interpolation, inv)?;
    let opts = dxbc_interp::TraceOptions { lane: prepared.lane, max_steps };
    let traced =
        dxbc_interp::run_traced(&code, &mut prepared.bindings, &mut prepared.lanes, prepared.grouping, limits, opts);
    Ok(Debugged { code, prepared, traced })
}

/// A pixel's value in a colour read-back of `plan`: the target's four
/// words at (x, y) (targets read back as 16-byte texels).
pub fn target_texel(plan: &Plan, readback: &[u8], x: u32, y: u32) -> Option<[u32; 4]> {
    let at = (y as usize * plan.width as usize + x as usize) * 16;
    let b = readback.get(at..at + 16)?;
    Some(std::array::from_fn(|c| word_at(b, 4 * c)))
}

/// The colour read-backs of `plan`: (index into the read-backs, output register).
pub fn target_readbacks(plan: &Plan) -> Vec<(usize, u32)> {
    plan.readbacks
        .iter()
        .enumerate()
        .filter_map(|(i, r)| match r {
            Readback::Target { location, .. } => Some((i, *location)),
            _ => None,
        })
        .collect()
}

/// A register's name as the listing prints it (`r0`, `o1`, `x2[3]`, `oDepth`).
pub fn reg_name(r: dxbc_interp::Reg) -> String {
    use dxbc_interp::Reg;
    match r {
        Reg::Temp(n) => format!("r{n}"),
        Reg::Output(n) => format!("o{n}"),
        Reg::Indexable { reg, element } => format!("x{reg}[{element}]"),
        Reg::Depth => "oDepth".into(),
        Reg::CoverageMask => "oMask".into(),
    }
}

/// What one step wrote, a line per register:
/// `r0.xy = (1.0, 2.0) [0x3f800000, 0x40000000]` (the values read as floats).
pub fn describe_changes(changes: &[dxbc_interp::Change]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut i = 0;
    while i < changes.len() {
        let reg = changes[i].reg;
        let n = changes[i..].iter().take_while(|c| c.reg == reg).count();
        let group = &changes[i..i + n];
        // oDepth and oMask are scalars: no component suffix.
        let scalar = matches!(reg, dxbc_interp::Reg::Depth | dxbc_interp::Reg::CoverageMask);
        let mask: String = if scalar {
            String::new()
        } else {
            let letters: String = group.iter().map(|c| ['x', 'y', 'z', 'w'][c.component as usize & 3]).collect();
            format!(".{letters}")
        };
        let floats: Vec<String> = group.iter().map(|c| format!("{:?}", f32::from_bits(c.new))).collect();
        let hex: Vec<String> = group.iter().map(|c| format!("{:#010x}", c.new)).collect();
        lines.push(format!("{}{mask} = ({}) [{}]", reg_name(reg), floats.join(", "), hex.join(", ")));
        i += n;
    }
    lines
}

/// Memory's name as the listing prints it (`u0`, `g1`).
pub fn memory_name(m: dxbc_interp::Memory) -> String {
    match m {
        dxbc_interp::Memory::Uav(n) => format!("u{n}"),
        dxbc_interp::Memory::Groupshared(n) => format!("g{n}"),
    }
}

/// What one step stored, a line per word:
/// `g0 word 1 = 0x0000000b (was 0x00000000)`.
pub fn describe_stores(stores: &[dxbc_interp::Store]) -> Vec<String> {
    stores
        .iter()
        .map(|s| format!("{} word {} = {:#010x} (was {:#010x})", memory_name(s.memory), s.index, s.new, s.old))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_little_endian() {
        assert_eq!(words(&[1, 0, 0, 0, 0, 0, 128, 63]), vec![1, 1.0f32.to_bits()]);
        assert_eq!(word_at(&[0, 0, 128, 63], 0), 1.0f32.to_bits());
        assert_eq!(word_at(&[0, 0], 0), 0);
    }

    #[test]
    fn registers_ignore_the_space() {
        assert_eq!(register("t3, space1"), Some(('t', 3)));
        assert_eq!(register("b0"), Some(('b', 0)));
        assert_eq!(register(""), None);
    }

    #[test]
    fn a_step_is_described_per_register_with_floats_and_bits() {
        use dxbc_interp::{Change, Reg};
        let c = |reg, component, new: f32| Change { reg, component, old: 0, new: new.to_bits() };
        let lines = describe_changes(&[c(Reg::Temp(0), 0, 1.0), c(Reg::Temp(0), 1, 2.0), c(Reg::Depth, 0, 0.5)]);
        assert_eq!(lines, ["r0.xy = (1.0, 2.0) [0x3f800000, 0x40000000]", "oDepth = (0.5) [0x3f000000]"]);
        let st = dxbc_interp::Store { memory: dxbc_interp::Memory::Groupshared(2), index: 5, old: 0, new: 11 };
        assert_eq!(describe_stores(&[st]), ["g2 word 5 = 0x0000000b (was 0x00000000)"]);
    }
}
