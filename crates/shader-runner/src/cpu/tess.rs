//! Draws through hull and domain shaders on the CPU: the shaded vertices
//! of each patch (patch `p` of instance `k` is vertices `p × n … p × n + n − 1`
//! of the instance, `n` the hull shader's input control points, as the
//! GPU path assembles them) become the hull shader's input control
//! points, linked to the vertex shader's outputs by semantic; the
//! interpreter runs every hull phase, tessellates each patch
//! (crates/tessellator) and runs the domain shader per domain point; the
//! triangles of the tessellator's index list go to the rasteriser.

use dxbc::chunks::signature::SignatureElement;
use dxbc_interp::{HullInput, Limits, CONTROL_POINT_REGS};

use super::raster::{same_semantic, todo, Primitives, Triangle, Vertex, SV_POSITION};
use super::{interp_skip, return_bindings, take_bindings, Cpu, FileBudget};
use crate::parse::{Stage, Topology};
use crate::walk::{OpErr, State};

/// Most patches one draw may tessellate on the CPU.
const MAX_PATCHES: usize = 4096;

/// Most domain points one draw may shade (each patch has at most 65² + a
/// few points; this bounds the vertex list a draw keeps).
const MAX_DOMAIN_POINTS: usize = 1 << 20;

fn signature(sig: Option<&dxbc::chunks::signature::Signature>) -> Vec<SignatureElement> {
    sig.map(|s| s.elements.clone()).unwrap_or_default()
}

/// (destination register, source register) of each element of `to` that
/// `from` has by semantic, both within a control point's registers.
fn links(to: &[SignatureElement], from: &[SignatureElement]) -> Vec<(usize, usize)> {
    to.iter()
        .filter_map(|e| from.iter().find(|o| same_semantic(o, e)).map(|o| (e.register as usize, o.register as usize)))
        .filter(|&(d, s)| d < CONTROL_POINT_REGS && s < CONTROL_POINT_REGS)
        .collect()
}

/// Copies the linked registers of one control point.
fn relink(dst: &mut [[u32; 4]], src: &[[u32; 4]], links: &[(usize, usize)]) {
    for &(d, s) in links {
        if let (Some(slot), Some(v)) = (dst.get_mut(d), src.get(s)) {
            *slot = *v;
        }
    }
}

/// VS outputs → hull phases → tessellator → domain shader: the triangles
/// to rasterise, over the domain shader's outputs.
pub(super) fn tessellate(
    st: &mut State<Cpu>,
    left: &mut FileBudget,
    topology: Topology,
    vertices: u32,
    instances: u32,
    vs_sig: &[SignatureElement],
    shaded: &[Vertex],
) -> Result<Primitives, OpErr> {
    if st.current.contains_key(&Stage::Geometry) {
        return Err(todo("a geometry shader after a domain shader"));
    }
    let hs = st.compiled(Stage::Hull).ok_or_else(|| todo("a domain shader without a hull shader"))?;
    let ds = st.compiled(Stage::Domain).ok_or_else(|| todo("a hull shader without a domain shader"))?;
    let (hs_code, ds_code) = (hs.code.clone(), ds.code.clone());
    let hs_in = signature(hs.shader.input_signature.as_ref());
    // Passed-through control points keep the hull shader's input layout.
    let passes_through = hs.code.hull.as_deref().is_some_and(|h| h.passes_through());
    let hs_out = if passes_through { hs_in.clone() } else { signature(hs.shader.output_signature.as_ref()) };
    let hs_pc = signature(hs.shader.patch_constant_signature.as_ref());
    let ds_in = signature(ds.shader.input_signature.as_ref());
    let ds_pc = signature(ds.shader.patch_constant_signature.as_ref());
    let ds_out = signature(ds.shader.output_signature.as_ref());
    let n = hs_code.tess.input_control_points;
    let Topology::Patch(size) = topology else {
        return Err(todo(&format!("{topology:?} into a hull shader (D3D needs a patch list)")));
    };
    if size != n || n == 0 {
        return Err(todo(&format!("a {size}-point patch list into a hull shader of {n} input points")));
    }
    if hs_code.tess.output_primitive.is_some_and(|p| {
        !matches!(p, tessellator::OutputPrimitive::TriangleCw | tessellator::OutputPrimitive::TriangleCcw)
    }) {
        return Err(todo("point and line output of the tessellator is not rasterised"));
    }
    let per_instance = (vertices / n) as usize;
    if per_instance.saturating_mul(instances.max(1) as usize) > MAX_PATCHES {
        return Err(todo(&format!("over {MAX_PATCHES} patches")));
    }
    // Hull inputs: each patch's control points linked from the VS outputs.
    let vs_links = links(&hs_in, vs_sig);
    let mut inputs = Vec::new();
    for instance in 0..instances.max(1) {
        let base = (instance * vertices) as usize;
        for p in 0..per_instance {
            let mut points = vec![[0; 4]; n as usize * CONTROL_POINT_REGS];
            for (i, point) in points.chunks_exact_mut(CONTROL_POINT_REGS).enumerate() {
                if let Some(v) = shaded.get(base + p * n as usize + i) {
                    relink(point, &v.outputs, &vs_links);
                }
            }
            inputs.push(HullInput { primitive_id: p as u32, control_points: points });
        }
    }
    let mut b = take_bindings(st);
    let result = run_patches(&mut b, left, &hs_code, &ds_code, &inputs, [&hs_out, &hs_pc, &ds_in, &ds_pc]);
    return_bindings(st, b);
    let (verts, tris) = result?;
    Ok(Primitives { sig: ds_out, verts, tris })
}

/// The hull phases, the tessellator and the domain shader over `inputs`.
fn run_patches(
    b: &mut dxbc_interp::Bindings,
    left: &mut FileBudget,
    hs: &dxbc_interp::Code,
    ds: &dxbc_interp::Code,
    inputs: &[HullInput],
    [hs_out, hs_pc, ds_in, ds_pc]: [&[SignatureElement]; 4],
) -> Result<(Vec<Vertex>, Vec<Triangle>), OpErr> {
    let (patches, stats) =
        dxbc_interp::run_hull(hs, b, inputs, Limits { budget: left.stage() }).map_err(|e| interp_skip(&e))?;
    left.charge(stats.instructions);
    // The domain shader reads its control points and patch constants by
    // its own signatures' registers.
    let (cp_links, pc_links) = (links(ds_in, hs_out), links(ds_pc, hs_pc));
    let pos_reg = ds.outputs.iter().find(|o| o.sysval == SV_POSITION).map(|o| o.reg as usize);
    let (mut verts, mut tris) = (Vec::new(), Vec::new());
    for patch in &patches {
        let t = dxbc_interp::tessellate_patch(hs, patch).map_err(|e| interp_skip(&e))?;
        if verts.len() + t.points.len() > MAX_DOMAIN_POINTS {
            return Err(todo(&format!("over {MAX_DOMAIN_POINTS} domain points")));
        }
        let mut points = vec![[0; 4]; patch.control_points.len()];
        for (d, s) in
            points.chunks_exact_mut(CONTROL_POINT_REGS).zip(patch.control_points.chunks_exact(CONTROL_POINT_REGS))
        {
            relink(d, s, &cp_links);
        }
        let mut constants = vec![[0; 4]; CONTROL_POINT_REGS];
        relink(&mut constants, &patch.patch_constants, &pc_links);
        let ds_patch = dxbc_interp::HullOutput {
            primitive_id: patch.primitive_id,
            control_points: points.into(),
            patch_constants: constants.into(),
        };
        let (outputs, stats) = dxbc_interp::run_domain(ds, b, &ds_patch, &t.points, Limits { budget: left.stage() })
            .map_err(|e| interp_skip(&e))?;
        left.charge(stats.instructions);
        let first = verts.len();
        for o in outputs {
            let pos = pos_reg.and_then(|r| o.get(r)).copied().unwrap_or([0; 4]);
            verts.push(Vertex { pos: pos.map(f32::from_bits), outputs: o });
        }
        tris.extend(
            t.indices
                .chunks_exact(3)
                .map(|c| Triangle { v: [0, 1, 2].map(|i| first + c[i] as usize), prim: patch.primitive_id }),
        );
    }
    Ok((verts, tris))
}
