//! SV_PrimitiveID written by a geometry shader reaches the pixel shader
//! through the draw pass: the draw writes it as a flat `u32` at its
//! register's location and a pixel shader translated with
//! `Options::primitive_id_from_geometry` reads it there (D3D gives the pixel
//! shader the value of the provoking vertex, which flat interpolation
//! takes). The oracle is the HLSL of vkd3d's primitive-id test: its GS
//! output and PS input both name SV_PrimitiveId.

use dxbc_naga::{Options, StageForm};
use std::path::PathBuf;

fn shader(name: &str) -> dxbc::Shader {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/vkd3d/primitive-id").join(name);
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("corpus file {} missing: {e}", p.display()));
    dxbc::Shader::parse(&bytes).unwrap()
}

/// The flat `u32` bindings at `location` of a module's entry point
/// (arguments when `inputs`, else result members).
fn flat_u32_at(m: &naga::Module, inputs: bool, location: u32) -> usize {
    let ep = &m.entry_points[0];
    let is_it = |b: &Option<naga::Binding>| {
        matches!(b, Some(naga::Binding::Location { location: l, interpolation: Some(naga::Interpolation::Flat), .. })
            if *l == location)
    };
    if inputs {
        ep.function.arguments.iter().filter(|a| is_it(&a.binding)).count()
    } else {
        let r = ep.function.result.as_ref().unwrap();
        match &m.types[r.ty].inner {
            naga::TypeInner::Struct { members, .. } => members.iter().filter(|m| is_it(&m.binding)).count(),
            _ => usize::from(is_it(&r.binding)),
        }
    }
}

#[test]
fn a_geometry_shaders_primitive_id_reaches_the_pixel_shader() {
    for sm in ["4_0", "5_0"] {
        assert!(std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/vkd3d/primitive-id/002_gs.hlsl")
        )
        .unwrap()
        .contains("uint prim_id : SV_PrimitiveId;"));
        let gs = shader(&format!("002_gs_{sm}.dxbc"));
        let draw = dxbc_naga::translate_pipeline_stage(&gs, &Options::default(), StageForm::DrawFromBuffer)
            .unwrap_or_else(|e| panic!("gs {sm}: {e}"));
        let register = |sig: &Option<dxbc::chunks::signature::Signature>| {
            let e = sig.as_ref().unwrap().elements.iter().find(|e| e.name.eq_ignore_ascii_case("SV_PrimitiveID"));
            e.unwrap().register
        };
        let written = register(&gs.output_signature);
        assert_eq!(flat_u32_at(&draw.module, false, written), 1, "gs {sm}");
        let ps = shader(&format!("003_ps_{sm}.dxbc"));
        let linked = Options { primitive_id_from_geometry: true, ..Default::default() };
        let t = dxbc_naga::translate(&ps, &linked).unwrap();
        let read = register(&ps.input_signature);
        assert_eq!(read, written, "ps {sm}: the signatures link register to register");
        assert_eq!(flat_u32_at(&t.module, true, read), 1, "ps {sm}");
        // Without a geometry shader the rasterizer's primitive index.
        let t = dxbc_naga::translate(&ps, &Options::default()).unwrap();
        assert_eq!(flat_u32_at(&t.module, true, read), 0, "ps {sm}");
        let builtin = t.module.entry_points[0]
            .function
            .arguments
            .iter()
            .any(|a| a.binding == Some(naga::Binding::BuiltIn(naga::BuiltIn::PrimitiveIndex)));
        assert!(builtin, "ps {sm}");
    }
}
