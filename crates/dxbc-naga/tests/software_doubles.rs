//! Shaders with doubles: SPIR-V is written from the native lowering, the
//! languages without `f64` from a second lowering with software binary64,
//! made when one of them is first written and in the same stage form.

use dxbc_naga::{Options, StageForm};

/// A vertex shader that adds doubles: its position's x is `v0.x + v0.x`
/// computed in binary64.
const VS_WITH_DOUBLES: &str = "vs_5_0\ndcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps\n\
    dcl_input v0.xy\ndcl_output_siv o0.xyzw, position\ndcl_temps 1\nftod r0.xy, v0.x\n\
    dadd r0.xy, r0.xyxy, r0.xyxy\ndtof o0.x, r0.xyxx\nmov o0.yzw, l(0,0,0,1.000000)\nret\n";

fn shader() -> dxbc::Shader {
    let bytes = dxbc::asm::assemble(VS_WITH_DOUBLES).expect("the fixture assembles");
    dxbc::Shader::parse(&bytes).expect("parses")
}

#[test]
fn the_software_doubles_lowering_takes_the_form_of_the_native_one() {
    let shader = shader();
    // As the pass that writes a vertex shader's outputs to a buffer (what
    // a tessellation or geometry pipeline runs it as): the WGSL is that
    // compute pass too, not a vertex shader, and its doubles are software.
    let t = dxbc_naga::translate_pipeline_stage(&shader, &Options::default(), StageForm::Compute).expect("translates");
    assert_eq!(t.stage, naga::ShaderStage::Compute);
    let soft = t.software_doubles().expect("the shader has doubles").expect("the software lowering");
    assert_eq!(soft.module.entry_points.len(), 1);
    assert_eq!(soft.module.entry_points[0].stage, naga::ShaderStage::Compute);
    let wgsl = dxbc_naga::to_wgsl(&t).expect("WGSL");
    assert!(wgsl.contains("@compute") && !wgsl.contains("@vertex"), "{wgsl}");
    assert!(wgsl.contains("fn f64_"), "{wgsl}");
    // Natively, each is a vertex shader.
    let t = dxbc_naga::translate(&shader, &Options::default()).expect("translates");
    let wgsl = dxbc_naga::to_wgsl(&t).expect("WGSL");
    assert!(wgsl.contains("@vertex") && wgsl.contains("fn f64_"), "{wgsl}");
}

#[test]
fn spirv_keeps_native_doubles_and_the_others_are_written_from_software_ones() {
    let t = dxbc_naga::translate(&shader(), &Options::default()).expect("translates");
    // SPIR-V: OpCapability Float64 (word 0x0002_0011, capability 10).
    let words = dxbc_naga::to_spirv(&t).expect("SPIR-V");
    assert!(words.windows(2).any(|w| w == [0x0002_0011, 10]), "Float64 capability");
    for (language, text) in [
        ("glsl", dxbc_naga::to_glsl(&t)),
        ("msl", dxbc_naga::to_msl(&t)),
        ("hlsl", dxbc_naga::to_hlsl(&t)),
        ("wgsl", dxbc_naga::to_wgsl(&t)),
    ] {
        let text = text.unwrap_or_else(|e| panic!("{language}: {e}"));
        assert!(!text.contains("double"), "{language} writes no native double type:\n{text}");
        assert!(text.contains("f64_"), "{language}: the software binary64 functions:\n{text}");
    }
}
