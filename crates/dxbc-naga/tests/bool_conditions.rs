//! Comparisons as bools: D3D's comparisons write all-ones/zero masks; a
//! temp keeps the comparison's bool, condition readers (`movc`, `if_nz`,
//! `and`/`or`/`ieq` of two results, `and` with a value) use it directly and
//! other readers build the mask. The oracle is D3D's definition of the
//! mask (functional spec: 0xFFFFFFFF for true, 0 for false): every line
//! below computes the same bits as the mask form.

const LISTING: &str = r#"ps_5_0
dcl_globalFlags refactoringAllowed
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_temps 2
lt r0.xy, v0.xyxx, l(0.500000, 0.500000, 0.000000, 0.000000)
movc r1.xyzw, r0.xxxx, v0.xyzw, l(1.000000, 1.000000, 1.000000, 1.000000)
and r1.x, r0.y, l(0x3f800000)
and r0.z, r0.x, r0.y
ieq r0.w, r0.x, r0.y
if_nz r0.z
  mov o0.xyzw, r1.xyzw
  ret 
endif 
mov o0.xyzw, r0.xyzw
ret 
"#;

mod common;

fn wgsl() -> String {
    common::wgsl_of(LISTING)
}

fn assert_line(wgsl: &str, line: &str) {
    assert!(wgsl.lines().any(|l| l.trim() == line), "missing `{line}` in:\n{wgsl}");
}

/// `lt` keeps its bool: no `select(0u, 0xffffffffu, …)` of its own.
#[test]
fn a_comparison_is_a_bool() {
    assert_line(&wgsl(), "let r0_xy = (v0_.xy < vec2(0.5f));");
}

/// `movc` selects on the bool, with no `!= 0u` test of a mask.
#[test]
fn movc_selects_on_the_bool() {
    assert_line(&wgsl(), "let r1_yzw = select(vec3(1f), v0_.yzw, r0_xy.xxx);");
}

/// `and` of a mask with 1.0's bits is the value where the bool holds,
/// zero bits (0f) elsewhere. Read once, but inside the `if`: it keeps its
/// `let` where it is computed (`lets`).
#[test]
fn and_with_a_value_is_a_select() {
    let w = wgsl();
    assert_line(&w, "let r1_x = select(0f, 1f, r0_xy.y);");
    // Returned early, the value stored to o0 is the result's, named after it.
    assert_line(&w, "let o0_ = vec4<f32>(r1_x, r1_yzw.x, r1_yzw.y, r1_yzw.z);");
}

/// `and`/`ieq` of two masks are the bools' `&` and `==`; `if_nz` tests the
/// bool. The `ieq`, read once, is written where it is read.
#[test]
fn masks_combined_stay_bools() {
    let w = wgsl();
    assert_line(&w, "let r0_z = (r0_xy.x & r0_xy.y);");
    assert!(w.contains("select(0u, 0xffffffffu, (r0_xy.x == r0_xy.y))"), "{w}");
    assert_line(&w, "if r0_z {");
}

/// A reader that wants the bits (a move to an output) builds the mask.
#[test]
fn other_readers_get_the_mask() {
    assert_line(
        &wgsl(),
        "let o0_1 = bitcast<vec4<f32>>(vec4<u32>(select(0u, 0xffffffffu, r0_xy.x), select(0u, 0xffffffffu, r0_xy.y), \
         select(0u, 0xffffffffu, r0_z), select(0u, 0xffffffffu, (r0_xy.x == r0_xy.y))));",
    );
}
