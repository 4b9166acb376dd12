//! `PixelInputs` (what a vertex shader linked with `--link-ps` takes) is the
//! interpolation the pixel shader itself declares: for every corpus pixel
//! shader, each interpolated input of its translation carries exactly
//! `PixelInputs::of(ps)` for that location, and a vertex shader linked with
//! it writes the same on its output of that location.

use dxbc_naga::report::{dxbc_files, stage_of};
use dxbc_naga::{Options, PixelInputs};
use std::path::PathBuf;

type Bindings = Vec<(u32, Option<naga::Interpolation>, Option<naga::Sampling>, bool)>;

/// Location bindings of the entry point's inputs (or outputs).
fn locations(m: &naga::Module, outputs: bool) -> Bindings {
    let mut out = Vec::new();
    let ep = &m.entry_points[0];
    let float = |ty: naga::Handle<naga::Type>| {
        matches!(&m.types[ty].inner, naga::TypeInner::Vector { scalar, .. } | naga::TypeInner::Scalar(scalar)
            if scalar.kind == naga::ScalarKind::Float)
    };
    let mut add = |b: &Option<naga::Binding>, ty: naga::Handle<naga::Type>| match (b, &m.types[ty].inner) {
        (Some(naga::Binding::Location { location, interpolation, sampling, .. }), _) => {
            out.push((*location, *interpolation, *sampling, float(ty)))
        }
        (None, naga::TypeInner::Struct { members, .. }) => {
            for mm in members {
                if let Some(naga::Binding::Location { location, interpolation, sampling, .. }) = &mm.binding {
                    out.push((*location, *interpolation, *sampling, float(mm.ty)));
                }
            }
        }
        _ => {}
    };
    if outputs {
        if let Some(r) = &ep.function.result {
            add(&r.binding, r.ty);
        }
    } else {
        for a in &ep.function.arguments {
            add(&a.binding, a.ty);
        }
    }
    // SV_RenderTargetArrayIndex / SV_ViewportArrayIndex, vInnerCoverage, a
    // pixel shader's SV_ClipDistance and oStencilRef ride at reserved
    // locations that SPIR-V turns into built-ins: not registers to link.
    use dxbc_naga::spirv_post as post;
    let reserved = [
        post::LAYER_LOCATION,
        post::VIEWPORT_INDEX_LOCATION,
        post::STENCIL_REF_LOCATION,
        post::INNER_COVERAGE_LOCATION,
        post::CLIP_DISTANCE_LOCATION,
    ];
    out.retain(|(l, ..)| !reserved.contains(l));
    out
}

#[test]
fn linked_interpolation_is_what_the_pixel_shader_declares() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    for sub in ["fxc", "blobs", "vkd3d"] {
        files.extend(dxbc_files(&root.join(sub)).unwrap_or_else(|e| panic!("corpus {sub} missing: {e}")));
    }
    files.sort();
    let (mut pixel, mut inputs, mut not_perspective, mut linked_outputs) = (0, 0, 0, 0);
    let shaders: Vec<(PathBuf, dxbc::Shader)> =
        files.iter().filter_map(|f| Some((f.clone(), dxbc::Shader::parse(&std::fs::read(f).ok()?).ok()?))).collect();
    let vertex: Vec<&(PathBuf, dxbc::Shader)> = shaders.iter().filter(|(_, s)| stage_of(s) == "vs").collect();
    for (f, ps) in shaders.iter().filter(|(_, s)| stage_of(s) == "ps") {
        let Ok(t) = dxbc_naga::translate(ps, &Options::default()) else { continue };
        let linked = PixelInputs::of(ps).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        pixel += 1;
        for (location, interpolation, sampling, _) in locations(&t.module, false) {
            let i = linked.get(location).unwrap_or_else(|| panic!("{}: no input at {location}", f.display()));
            assert_eq!((interpolation, sampling), (Some(i.naga().0), i.naga().1), "{} v{location}", f.display());
            inputs += 1;
            not_perspective += usize::from(i != dxbc_naga::Interpolation::Perspective);
        }
        // A vertex shader of the corpus linked with it: its float outputs
        // at the pixel shader's locations take the pixel shader's mode.
        let Some((vf, vs)) = vertex.get(pixel % vertex.len().max(1)) else { continue };
        let options = Options { interpolation_from: Some(linked.clone()), ..Default::default() };
        let Ok(v) = dxbc_naga::translate(vs, &options) else { continue };
        let mut outputs = 0;
        for (location, interpolation, sampling, float) in locations(&v.module, true) {
            let expected = match linked.get(location) {
                Some(i) if float => i.naga(),
                // Integers are flat; an output the pixel shader lacks keeps the default.
                _ if !float => (naga::Interpolation::Flat, None),
                _ => (naga::Interpolation::Perspective, Some(naga::Sampling::Center)),
            };
            assert_eq!((interpolation, sampling), (Some(expected.0), expected.1), "{} o{location}", vf.display());
            outputs += 1;
        }
        linked_outputs += outputs;
    }
    println!(
        "{pixel} pixel shaders, {inputs} interpolated inputs, {not_perspective} not perspective-centre, \
         {linked_outputs} linked vertex outputs"
    );
    assert!(pixel > 1000 && inputs > 300 && not_perspective > 20 && linked_outputs > 1000, "too few cases");
    assert!(PixelInputs::of(&vertex[0].1).is_err());
}
