//! Inputs and outputs passed straight through the entry point
//! (`direct_io`): where the body is written into the entry point, an input
//! register one argument fills is read as that argument, named after what
//! it holds, and an output stored once at the top level is returned as the
//! stored value, named after the output. Everything else keeps its private
//! global and its copy.

mod common;
use common::wgsl_of;

/// The signature tables of a pixel shader reading TEXCOORD0 (v0) and
/// COLOR0 with SV_PrimitiveID (both in v1), writing SV_Target0 and
/// SV_Target1.
const PS_SIGNATURES: &str = "\
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// TEXCOORD                 0   xyzw        0     NONE   float   xyzw
// COLOR                    0   x           1     NONE    uint   x
// SV_PrimitiveID           0    y          1   PRIMID    uint    y
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
// SV_Target                1   xyzw        1   TARGET   float   xyzw
//
";

fn ps(body: &str) -> String {
    wgsl_of(&format!(
        "{PS_SIGNATURES}ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_input_ps linear v0.xyzw\n\
         dcl_input_ps constant v1.x\n\
         dcl_input_ps_sgv constant v1.y, primitive_id\n\
         dcl_output o0.xyzw\n\
         dcl_output o1.xyzw\n\
         dcl_temps 1\n\
         {body}"
    ))
}

#[test]
fn an_input_one_argument_fills_is_that_argument_named_after_its_semantic() {
    let w = ps("mul o0.xyzw, v0.xyzw, l(0.5, 0.5, 0.5, 1.0)\n\
                mov o1.xyzw, v0.wzyx\n\
                ret\n");
    assert!(w.contains("@location(0) texcoord: vec4<f32>"), "{w}");
    assert!(w.contains("(texcoord * vec4<f32>(0.5f, 0.5f, 0.5f, 1f))"), "{w}");
    assert!(!w.contains("in_texcoord"), "no global, no copy: {w}");
}

#[test]
fn a_register_two_arguments_fill_keeps_its_global() {
    // v1.x is COLOR0, v1.y the primitive id: two arguments fill v1.
    let w = ps("utof o0.xyzw, v1.xyxy\n\
                mov o1.xyzw, v0.xyzw\n\
                ret\n");
    assert!(w.contains("var<private> v1_: vec4<u32>;"), "{w}");
    assert!(w.contains("v1_.y = "), "the primitive id copied in: {w}");
}

#[test]
fn an_output_stored_once_is_returned_as_its_value() {
    let w = ps("mul o0.xyzw, v0.xyzw, l(0.5, 0.5, 0.5, 1.0)\n\
                mov o1.xyzw, v0.wzyx\n\
                ret\n");
    // Two SV_Target elements: each name keeps its index.
    assert!(w.contains("let out_target0_ = (texcoord * vec4<f32>(0.5f, 0.5f, 0.5f, 1f));"), "{w}");
    assert!(w.contains("let out_target1_ = texcoord.wzyx;"), "{w}");
    assert!(w.contains("return FragmentOutput(out_target0_, out_target1_);"), "{w}");
    assert!(!w.contains("var<private>"), "{w}");
}

#[test]
fn an_output_written_in_a_branch_keeps_its_global() {
    let w = ps("mov o0.xyzw, v0.xyzw\n\
                lt r0.x, v0.x, l(0.5)\n\
                if_nz r0.x\n\
                  mov o1.xyzw, l(1.0, 0, 0, 1.0)\n\
                else\n\
                  mov o1.xyzw, v0.xyzw\n\
                endif\n\
                ret\n");
    // SV_Target1 is written in both branches: it stays a global, loaded for
    // the return; SV_Target0, stored once before, is the input itself.
    assert!(w.contains("var<private> out_target1_: vec4<f32>;"), "{w}");
    assert!(w.contains("return FragmentOutput(texcoord, "), "{w}");
    assert!(!w.contains("out_target0_"), "{w}");
}

#[test]
fn thread_ids_are_the_compute_built_ins() {
    let w = wgsl_of(
        "cs_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_uav_raw u0\n\
         dcl_input vThreadID.xy\n\
         dcl_input vThreadIDInGroupFlattened\n\
         dcl_temps 1\n\
         imad r0.x, vThreadID.y, l(64), vThreadID.x\n\
         iadd r0.x, r0.x, vThreadIDInGroupFlattened.x\n\
         ishl r0.y, r0.x, l(2)\n\
         store_raw u0.x, r0.y, r0.x\n\
         ret\n",
    );
    assert!(!w.contains("var<private>"), "{w}");
    // Read as signed integers: the argument's bits, whole, and the
    // scalar's as itself (WGSL's i32 of a u32 keeps the bits).
    assert!(w.contains("vec3<i32>(global_invocation_id)"), "{w}");
    assert!(w.contains("i32(local_invocation_index)"), "{w}");
}

#[test]
fn each_return_takes_the_values_stored_before_it() {
    let w = ps("lt r0.x, v0.x, l(0.5)\n\
                if_nz r0.x\n\
                  mov o0.xyzw, l(1.0, 0, 0, 1.0)\n\
                  mov o1.xyzw, v0.zyxw\n\
                  ret\n\
                endif\n\
                mov o0.xyzw, v0.xyzw\n\
                mov o1.xyzw, v0.wzyx\n\
                ret\n");
    // Both returns read what was stored just before them: no globals.
    assert!(!w.contains("var<private>"), "{w}");
    assert!(w.contains("return FragmentOutput(out_target0_, out_target1_);"), "{w}");
    assert!(w.contains("return FragmentOutput(texcoord, out_target1_1);"), "{w}");
}

#[test]
fn a_return_after_a_branch_reads_the_global() {
    // o0 is stored before the branch: the early return inside it reads the
    // global, so o0 keeps it; o1 is stored just before each return.
    let w = ps("mov o0.xyzw, v0.xyzw\n\
                lt r0.x, v0.x, l(0.5)\n\
                if_nz r0.x\n\
                  mov o1.xyzw, l(1.0, 0, 0, 1.0)\n\
                  ret\n\
                endif\n\
                mov o1.xyzw, v0.wzyx\n\
                ret\n");
    assert!(w.contains("var<private> out_target0_: vec4<f32>;"), "{w}");
    assert!(!w.contains("var<private> out_target1_"), "{w}");
}

/// A pixel shader reading SV_Position (v0) and writing SV_Target0.
fn position_ps(body: &str) -> String {
    wgsl_of(&format!(
        "// Input signature:\n//\n\
         // Name                 Index   Mask Register SysValue  Format   Used\n\
         // -------------------- ----- ------ -------- -------- ------- ------\n\
         // SV_Position              0   xyzw        0      POS   float   xyzw\n//\n//\n\
         // Output signature:\n//\n\
         // Name                 Index   Mask Register SysValue  Format   Used\n\
         // -------------------- ----- ------ -------- -------- ------- ------\n\
         // SV_Target                0   xyzw        0   TARGET   float   xyzw\n//\n\
         ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_input_ps_siv linear noperspective v0.xyzw, position\n\
         dcl_output o0.xyzw\n\
         {body}"
    ))
}

#[test]
fn sv_position_read_in_x_y_z_is_the_argument() {
    // x, y and z come as D3D gives them: no copy, no global.
    let w = position_ps("mul o0.xyzw, v0.xyzx, l(0.5, 0.5, 0.5, 0.5)\nret\n");
    assert!(w.contains("@builtin(position) position: vec4<f32>"), "{w}");
    assert!(w.contains("position.xyzx"), "{w}");
    assert!(!w.contains("in_position") && !w.contains("1f /"), "no global, no copy: {w}");
    // D3D's w is 1/w of the built-in: the register keeps its converted copy.
    let w = position_ps("mov o0.xyzw, v0.wwww\nret\n");
    assert!(w.contains("var<private> in_position"), "{w}");
    assert!(w.contains("(1f / sv_position0_.w)"), "{w}");
}
