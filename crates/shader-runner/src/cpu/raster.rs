//! Draws on the CPU: the vertex shader per vertex, triangles rasterised
//! the D3D way (pixel centres at .5, 8-bit sub-pixel snapping, the top-left
//! rule, clockwise front faces), attributes interpolated per the pixel
//! shader's `dcl_input_ps` mode (perspective-correct, screen-linear, or
//! flat from the provoking vertex 0), the pixel shader over 2×2 quads with
//! helper lanes, then the depth test and the render-target writes.

use dxbc::chunks::signature::SignatureElement;
use dxbc::spec::InterpolationMode;
use dxbc_interp::{Grouping, Lane, Limits, Resource};

use super::{interp_skip, resources, return_bindings, take_bindings, Cpu, FileBudget};
use crate::parse::{Format, Stage, Topology};
use crate::walk::{Declared, OpErr, ResKind, State, QUAD};
use crate::{RunnerTodo, Skip};

/// `D3D_NAME` values the rasteriser fills.
pub(super) const SV_POSITION: u32 = 1;
const SV_VERTEX_ID: u32 = 6;
const SV_PRIMITIVE_ID: u32 = 7;
const SV_INSTANCE_ID: u32 = 8;
const SV_IS_FRONT_FACE: u32 = 9;
const SV_SAMPLE_INDEX: u32 = 10;

/// A shaded vertex: clip position and its output registers.
pub(super) struct Vertex {
    pub(super) pos: [f32; 4],
    pub(super) outputs: Vec<[u32; 4]>,
}

pub(super) fn todo(detail: &str) -> OpErr {
    OpErr::Skip(Skip::todo(RunnerTodo::Interpreter, format!("cpu runner: {detail}")))
}

fn first_bit(m: u8) -> usize {
    (m.trailing_zeros() as usize).min(3)
}

pub(super) fn same_semantic(a: &SignatureElement, b: &SignatureElement) -> bool {
    a.name.eq_ignore_ascii_case(&b.name) && a.semantic_index == b.semantic_index
}

/// A triangle to rasterise: three vertices and its `SV_PrimitiveID`.
pub(super) struct Triangle {
    pub(super) v: [usize; 3],
    pub(super) prim: u32,
}

/// What the last stage before the rasteriser produced: its output
/// signature, its vertices and the triangles over them.
pub(super) struct Primitives {
    pub(super) sig: Vec<SignatureElement>,
    pub(super) verts: Vec<Vertex>,
    pub(super) tris: Vec<Triangle>,
}

/// Most input primitives one draw may give a geometry shader.
const MAX_GS_INPUTS: usize = 1 << 16;

pub(super) fn draw(
    st: &mut State<Cpu>,
    left: &mut FileBudget,
    topology: Topology,
    vertices: u32,
    instances: u32,
    quad: bool,
) -> Result<(), OpErr> {
    let with_gs = st.current.contains_key(&Stage::Geometry);
    let with_tess = [Stage::Hull, Stage::Domain].iter().any(|s| st.current.contains_key(s));
    if !with_gs && !with_tess && !matches!(topology, Topology::TriangleList | Topology::TriangleStrip) {
        return Err(todo("only triangle lists and strips are rasterised"));
    }
    let ps = st.compiled(Stage::Pixel).ok_or_else(|| todo("no pixel shader"))?;
    let ps_code = ps.code.clone();
    let ps_sig: Vec<SignatureElement> =
        ps.shader.input_signature.as_ref().map(|s| s.elements.clone()).unwrap_or_default();
    let (vs_out_sig, shaded) = shade_vertices(st, left, vertices, instances, quad)?;
    let Primitives { sig: out_sig, verts, tris } = if with_tess {
        super::tess::tessellate(st, left, topology, vertices, instances, &vs_out_sig, &shaded)?
    } else if with_gs {
        geometry(st, left, topology, vertices, instances, &vs_out_sig, &shaded)?
    } else {
        let mut tris = Vec::new();
        for instance in 0..instances.max(1) {
            let base = (instance * vertices) as usize;
            let n = shaded.len().saturating_sub(base).min(vertices as usize);
            // D3D's order: a strip's odd triangle is (k, k+2, k+1), so its
            // first vertex, which flat attributes come from, is k.
            let corners = topology.assemble(n as u32, 3).unwrap_or_default();
            tris.extend(
                corners
                    .chunks_exact(3)
                    .enumerate()
                    .map(|(prim, c)| Triangle { v: [0, 1, 2].map(|i| base + c[i] as usize), prim: prim as u32 }),
            );
        }
        Primitives { sig: vs_out_sig, verts: shaded, tris }
    };
    // Viewport: the first render target (or the depth target).
    let (width, height) = match st.resources.iter().find(|((k, _), _)| *k == ResKind::Rtv) {
        Some((_, r)) => match &r.res {
            Ok(Resource::Texture(t)) => (t.width, t.height),
            _ => (r.desc.width, r.desc.height),
        },
        None => match &st.dsv {
            Some(Ok(d)) => (d.width, d.height),
            _ => return Err(todo("no render target")),
        },
    };
    let mut b = take_bindings(st);
    let start = left.stage();
    let mut budget = start;
    let result = tris.iter().try_for_each(|t| {
        let v = t.v.map(|i| &verts[i]);
        triangle(st, &mut b, &ps_code, &ps_sig, &out_sig, v, t.prim, (width, height), &mut budget)
    });
    return_bindings(st, b);
    left.charge(start - budget);
    result
}

/// The geometry stage: the shaded vertices assembled into the geometry
/// shader's input primitives (its inputs linked to the vertex shader's
/// outputs by semantic), the shader run per primitive and instance, and
/// the triangles it emitted on stream 0, the one rasterised.
fn geometry(
    st: &mut State<Cpu>,
    left: &mut FileBudget,
    topology: Topology,
    vertices: u32,
    instances: u32,
    vs_sig: &[SignatureElement],
    shaded: &[Vertex],
) -> Result<Primitives, OpErr> {
    let gs = st.compiled(Stage::Geometry).ok_or_else(|| todo("no geometry shader"))?;
    let code = gs.code.clone();
    let in_sig = gs.shader.input_signature.as_ref().map(|s| s.elements.clone()).unwrap_or_default();
    let out_sig = gs.shader.output_signature.as_ref().map(|s| s.elements.clone()).unwrap_or_default();
    if code.gs.output != dxbc::spec::PrimitiveTopology::Trianglestrip {
        return Err(todo(&format!("{:?} from a geometry shader is not rasterised", code.gs.output)));
    }
    let n = code.gs.input_vertices;
    let order = topology
        .assemble(vertices, n)
        .ok_or_else(|| todo(&format!("{topology:?} into a geometry shader of {n}-vertex primitives")))?;
    // (GS input register, VS output register) of each linked element.
    let links: Vec<(usize, usize)> = in_sig
        .iter()
        .filter_map(|e| vs_sig.iter().find(|o| same_semantic(o, e)).map(|o| (e.register as usize, o.register as usize)))
        .collect();
    let regs = code.input_regs as usize;
    let per_instance = order.len() / n.max(1) as usize;
    if per_instance.saturating_mul(instances.max(1) as usize) > MAX_GS_INPUTS {
        return Err(todo(&format!("over {MAX_GS_INPUTS} geometry shader input primitives")));
    }
    let mut inputs = Vec::new();
    for instance in 0..instances.max(1) {
        let base = (instance * vertices) as usize;
        for (k, prim) in order.chunks_exact(n.max(1) as usize).enumerate() {
            let mut registers = vec![[0; 4]; prim.len() * regs];
            for (i, &v) in prim.iter().enumerate() {
                let Some(vertex) = shaded.get(base + v as usize) else { continue };
                for &(g, o) in links.iter().filter(|(g, _)| *g < regs) {
                    registers[i * regs + g] = vertex.outputs.get(o).copied().unwrap_or([0; 4]);
                }
            }
            inputs.push(dxbc_interp::GsInput { primitive_id: k as u32, registers });
        }
    }
    let mut b = take_bindings(st);
    let ran = dxbc_interp::run_geometry(&code, &mut b, &inputs, Limits { budget: left.stage() });
    return_bindings(st, b);
    let (emitted, stats) = ran.map_err(|e| interp_skip(&e))?;
    left.charge(stats.instructions);
    let reg_of = |sv: u32| out_sig.iter().find(|e| e.system_value == sv).map(|e| e.register as usize);
    let (pos_reg, prim_reg) = (reg_of(SV_POSITION), reg_of(SV_PRIMITIVE_ID));
    let mut verts = Vec::new();
    let mut tris = Vec::new();
    for p in emitted.iter().filter(|p| p.stream == 0 && p.vertices.len() == 3) {
        let first = verts.len();
        // A primitive ID the shader writes is the first vertex's (flat).
        let prim = prim_reg.and_then(|r| p.vertices[0].get(r)).map_or(p.input_primitive, |v| v[0]);
        for outputs in &p.vertices {
            let pos = pos_reg.and_then(|r| outputs.get(r)).copied().unwrap_or([0; 4]);
            verts.push(Vertex { pos: pos.map(f32::from_bits), outputs: outputs.clone() });
        }
        tris.push(Triangle { v: [first, first + 1, first + 2], prim });
    }
    Ok(Primitives { sig: out_sig, verts, tris })
}

/// Runs the vertex stage (the test's VS, or the built-in one of `draw quad`).
fn shade_vertices(
    st: &mut State<Cpu>,
    left: &mut FileBudget,
    vertices: u32,
    instances: u32,
    quad: bool,
) -> Result<(Vec<SignatureElement>, Vec<Vertex>), OpErr> {
    let vs = if quad && !st.current.contains_key(&Stage::Vertex) { None } else { st.compiled(Stage::Vertex) };
    let Some(vs) = vs else {
        if !quad {
            return Err(OpErr::Skip(Skip::todo(RunnerTodo::PipelineShape, "runner: draw without a vertex shader")));
        }
        let verts = (0..3).map(|i| Vertex { pos: [QUAD[2 * i], QUAD[2 * i + 1], 0.0, 1.0], outputs: Vec::new() });
        return Ok((Vec::new(), verts.collect()));
    };
    let code = vs.code.clone();
    let in_sig = vs.shader.input_signature.as_ref().map(|s| s.elements.clone()).unwrap_or_default();
    let out_sig = vs.shader.output_signature.as_ref().map(|s| s.elements.clone()).unwrap_or_default();
    let n = vertices as usize * instances.max(1) as usize;
    if n > 1 << 16 {
        return Err(todo("over 65536 vertices"));
    }
    // Each layout element's slot offset: elements of a slot are packed in order.
    let mut offsets = Vec::new();
    let mut slot_size: std::collections::HashMap<u32, u32> = Default::default();
    for e in &st.input_layout {
        let s = slot_size.entry(e.slot).or_default();
        offsets.push(*s);
        *s += e.format.texel_size();
    }
    let mut lanes: Vec<Lane> = Vec::with_capacity(n);
    for i in 0..n {
        let (vid, iid) = ((i as u32) % vertices.max(1), (i as u32) / vertices.max(1));
        let mut lane = Lane { inputs: vec![[0; 4]; code.input_regs as usize], ..Lane::default() };
        for d in &code.inputs {
            let value = match d.sysval {
                SV_VERTEX_ID => Some([vid; 4]),
                SV_INSTANCE_ID => Some([iid; 4]),
                _ => None,
            };
            if let (Some(v), Some(slot)) = (value, lane.inputs.get_mut(d.reg as usize)) {
                *slot = v;
            }
        }
        for el in in_sig.iter().filter(|e| e.system_value == 0) {
            let Some(k) = st
                .input_layout
                .iter()
                .position(|l| l.name.eq_ignore_ascii_case(&el.name) && l.index == el.semantic_index)
            else {
                continue;
            };
            let le = &st.input_layout[k];
            let Some((ch, comps)) = resources::channel(le.format) else { continue };
            let stride = slot_size.get(&le.slot).copied().unwrap_or(0) as usize;
            let words = match st.resources.get(&(ResKind::Vb, le.slot)).map(|r| &r.res) {
                Some(Ok(Resource::Buffer(b))) => &b.words[..],
                _ => &[],
            };
            let start = (vid as usize * stride + offsets[k] as usize) / 4;
            let mut full = [0, 0, 0, resources::one(ch)];
            for (c, x) in full.iter_mut().enumerate().take(comps as usize) {
                *x = words.get(start + c).copied().unwrap_or(0);
            }
            if let Some(r) = lane.inputs.get_mut(el.register as usize) {
                let f0 = first_bit(el.mask);
                for c in f0..4 {
                    if el.mask >> c & 1 == 1 {
                        r[c] = full[c - f0];
                    }
                }
            }
        }
        lanes.push(lane);
    }
    let start = left.stage();
    let mut budget = start;
    let mut b = take_bindings(st);
    let mut result = Ok(());
    for chunk in lanes.chunks_mut(dxbc_interp::MAX_LANES) {
        match dxbc_interp::run(&code, &mut b, chunk, Grouping::Independent, Limits { budget }) {
            Ok(s) => budget = budget.saturating_sub(s.instructions),
            Err(e) => {
                result = Err(interp_skip(&e));
                break;
            }
        }
    }
    return_bindings(st, b);
    left.charge(start - budget);
    result?;
    let pos_reg = out_sig.iter().find(|e| e.system_value == SV_POSITION).map(|e| e.register as usize);
    let verts = lanes
        .into_iter()
        .map(|l| {
            let p = pos_reg.and_then(|r| l.outputs.get(r)).copied().unwrap_or([0; 4]);
            Vertex { pos: p.map(f32::from_bits), outputs: l.outputs }
        })
        .collect();
    Ok((out_sig, verts))
}

fn edge(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

/// Snaps to D3D's 8-bit sub-pixel grid.
fn snap(v: f64) -> f64 {
    (v * 256.0).round() / 256.0
}

#[allow(clippy::too_many_arguments)]
fn triangle(
    st: &mut State<Cpu>,
    b: &mut dxbc_interp::Bindings,
    code: &dxbc_interp::Code,
    ps_sig: &[SignatureElement],
    vs_sig: &[SignatureElement],
    v: [&Vertex; 3],
    prim: u32,
    (width, height): (u32, u32),
    budget: &mut u64,
) -> Result<(), OpErr> {
    // NaN w is not above 0 either.
    if v.iter().any(|x| x.pos[3].partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)) {
        return Err(todo("clipping against w <= 0 is not implemented"));
    }
    let screen: [[f64; 3]; 3] = std::array::from_fn(|i| {
        let p = v[i].pos;
        let w = p[3] as f64;
        [
            snap((p[0] as f64 / w + 1.0) * 0.5 * width as f64),
            snap((1.0 - p[1] as f64 / w) * 0.5 * height as f64),
            p[2] as f64 / w,
        ]
    });
    let xy = |i: usize| [screen[i][0], screen[i][1]];
    let area = edge(xy(0), xy(1), xy(2));
    if area == 0.0 || !area.is_finite() {
        return Ok(());
    }
    // Clockwise on screen (y down) is the front face.
    let front = area > 0.0;
    // Edge k is opposite vertex k; ordered so the triangle winds clockwise.
    let edges: [(usize, usize); 3] = if front { [(1, 2), (2, 0), (0, 1)] } else { [(2, 1), (0, 2), (1, 0)] };
    let top_left = |(a, c): (usize, usize)| {
        let (pa, pb) = (xy(a), xy(c));
        (pa[1] == pb[1] && pb[0] > pa[0]) || pb[1] < pa[1]
    };
    let covered = |p: [f64; 2]| -> bool {
        edges.iter().all(|&e| {
            let val = edge(xy(e.0), xy(e.1), p);
            val > 0.0 || (val == 0.0 && top_left(e))
        })
    };
    let minx = screen.iter().map(|s| s[0]).fold(f64::MAX, f64::min).floor().max(0.0) as u32;
    let miny = screen.iter().map(|s| s[1]).fold(f64::MAX, f64::min).floor().max(0.0) as u32;
    let maxx = (screen.iter().map(|s| s[0]).fold(f64::MIN, f64::max).ceil().min(width as f64)) as u32;
    let maxy = (screen.iter().map(|s| s[1]).fold(f64::MIN, f64::max).ceil().min(height as f64)) as u32;
    // For each PS input element: the VS output it reads, its interpolation.
    let links: Vec<(&SignatureElement, Option<&SignatureElement>, InterpolationMode)> = ps_sig
        .iter()
        .map(|e| {
            let mode =
                code.inputs.iter().find(|d| d.reg == e.register).map_or(InterpolationMode::Linear, |d| d.interpolation);
            (e, vs_sig.iter().find(|o| same_semantic(o, e)), mode)
        })
        .collect();
    let mut quads: Vec<(u32, u32, [bool; 4])> = Vec::new();
    let mut y0 = miny & !1;
    while y0 < maxy {
        let mut x0 = minx & !1;
        while x0 < maxx {
            let cov: [bool; 4] = std::array::from_fn(|k| {
                let (x, y) = (x0 + (k as u32 & 1), y0 + (k as u32 >> 1));
                x < width && y < height && covered([x as f64 + 0.5, y as f64 + 0.5])
            });
            if cov.iter().any(|&c| c) {
                quads.push((x0, y0, cov));
            }
            x0 += 2;
        }
        y0 += 2;
    }
    let input_regs = code.input_regs as usize;
    for chunk in quads.chunks(dxbc_interp::MAX_LANES / 4) {
        let mut lanes = Vec::with_capacity(chunk.len() * 4);
        let mut z_of = Vec::with_capacity(chunk.len() * 4);
        for &(x0, y0, cov) in chunk {
            for (k, &inside) in cov.iter().enumerate() {
                let (x, y) = (x0 + (k as u32 & 1), y0 + (k as u32 >> 1));
                let p = [x as f64 + 0.5, y as f64 + 0.5];
                let bs = [edge(xy(1), xy(2), p) / area, edge(xy(2), xy(0), p) / area, edge(xy(0), xy(1), p) / area];
                let pw: [f64; 3] = std::array::from_fn(|i| bs[i] / v[i].pos[3] as f64);
                let sum: f64 = pw.iter().sum();
                let persp: [f64; 3] = std::array::from_fn(|i| pw[i] / sum);
                let z = bs[0] * screen[0][2] + bs[1] * screen[1][2] + bs[2] * screen[2][2];
                let mut lane = Lane { inputs: vec![[0; 4]; input_regs], helper: !inside, ..Lane::default() };
                for (e, src, mode) in &links {
                    let value: [u32; 4] = match e.system_value {
                        SV_POSITION => [p[0] as f32, p[1] as f32, z as f32, (1.0 / sum) as f32].map(f32::to_bits),
                        SV_IS_FRONT_FACE => [if front { !0 } else { 0 }; 4],
                        SV_PRIMITIVE_ID => [prim; 4],
                        SV_SAMPLE_INDEX => [0; 4],
                        _ => match src {
                            Some(o) => {
                                let at = |i: usize| v[i].outputs.get(o.register as usize).copied().unwrap_or([0; 4]);
                                let f0 = first_bit(o.mask);
                                let mut out = [0u32; 4];
                                for (c, slot) in out.iter_mut().enumerate() {
                                    let sc = (f0 + c).min(3);
                                    *slot = match mode {
                                        InterpolationMode::Constant => at(0)[sc],
                                        InterpolationMode::LinearNoperspective
                                        | InterpolationMode::LinearNoperspectiveCentroid
                                        | InterpolationMode::LinearNoperspectiveSample => {
                                            let f = |i: usize| f32::from_bits(at(i)[sc]) as f64;
                                            ((bs[0] * f(0) + bs[1] * f(1) + bs[2] * f(2)) as f32).to_bits()
                                        }
                                        _ => {
                                            let f = |i: usize| f32::from_bits(at(i)[sc]) as f64;
                                            ((persp[0] * f(0) + persp[1] * f(1) + persp[2] * f(2)) as f32).to_bits()
                                        }
                                    };
                                }
                                out
                            }
                            None => [0; 4],
                        },
                    };
                    if let Some(r) = lane.inputs.get_mut(e.register as usize) {
                        let f0 = first_bit(e.mask);
                        for c in f0..4 {
                            if e.mask >> c & 1 == 1 {
                                r[c] = value[if e.system_value == 0 { c - f0 } else { c }];
                            }
                        }
                    }
                }
                lane.sys[dxbc_interp::Sys::PrimitiveId as usize] = [prim; 4];
                lane.sys[dxbc_interp::Sys::Coverage as usize] = [inside as u32; 4];
                lanes.push(lane);
                z_of.push(z as f32);
            }
        }
        // Forced early depth: the test (and the depth write) happen before
        // the shader, and a pixel that fails runs only as a helper of its
        // quad, writing no memory.
        let early = code.early_depth && matches!(st.dsv, Some(Ok(_)));
        if early {
            let cmp = st.depth_compare.unwrap_or(dxbc_interp::Compare::Always);
            if let Some(Ok(d)) = &mut st.dsv {
                for (q, &(x0, y0, cov)) in chunk.iter().enumerate() {
                    for k in (0..4).filter(|&k| cov[k]) {
                        let (x, y) = (x0 + (k as u32 & 1), y0 + (k as u32 >> 1));
                        let i = y as usize * d.width as usize + x as usize;
                        if let Some(stored) = d.values.get_mut(i) {
                            let z = z_of[4 * q + k];
                            if cmp.test(z, *stored) {
                                *stored = z;
                            } else {
                                lanes[4 * q + k].helper = true;
                            }
                        }
                    }
                }
            }
        }
        let s = dxbc_interp::run(code, b, &mut lanes, Grouping::Quads, Limits { budget: *budget })
            .map_err(|e| interp_skip(&e))?;
        *budget = budget.saturating_sub(s.instructions);
        for (q, &(x0, y0, cov)) in chunk.iter().enumerate() {
            for k in 0..4 {
                let lane = &lanes[4 * q + k];
                if !cov[k] || lane.discarded || (early && lane.helper) {
                    continue;
                }
                let (x, y) = (x0 + (k as u32 & 1), y0 + (k as u32 >> 1));
                let z = if code.writes_depth { f32::from_bits(lane.depth) } else { z_of[4 * q + k] };
                if let (false, Some(Ok(d))) = (early, &mut st.dsv) {
                    let i = y as usize * d.width as usize + x as usize;
                    if let Some(stored) = d.values.get_mut(i) {
                        let cmp = st.depth_compare.unwrap_or(dxbc_interp::Compare::Always);
                        if !cmp.test(z, *stored) {
                            continue;
                        }
                        *stored = z;
                    }
                }
                for o in &code.outputs {
                    if let Some(Declared { res: Ok(Resource::Texture(t)), desc }) =
                        st.resources.get_mut(&(ResKind::Rtv, o.reg))
                    {
                        if desc.format != Format::Unknown {
                            if let Some(val) = lane.outputs.get(o.reg as usize) {
                                t.store(0, x as i32, y as i32, 0, 0, *val);
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
