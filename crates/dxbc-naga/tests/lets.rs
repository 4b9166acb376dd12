//! Which register values keep a `let` of their own (`lets`): a value read
//! once, in the block that computes it, and small is written inside its
//! reader; a value read inside a loop it was computed before keeps its
//! `let` before the loop.

mod common;
use common::wgsl_of as wgsl;

fn body(wgsl: &str) -> Vec<&str> {
    common::body_of(wgsl).lines().take_while(|l| *l != "}").map(str::trim).collect()
}

#[test]
fn a_value_read_once_is_written_in_its_reader() {
    let w = wgsl(
        "ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_input_ps linear v0.xyz\n\
         dcl_output o0.xyzw\n\
         dcl_temps 1\n\
         dp3 r0.x, v0.xyzx, v0.xyzx\n\
         rsq r0.x, r0.x\n\
         mul o0.xyz, r0.xxxx, v0.xyzx\n\
         mov o0.w, l(1.000000)\n\
         ret\n",
    );
    let lines = body(&w);
    // The normalisation is one line; neither the dot nor the rsq has a let.
    assert!(lines.iter().any(|l| l.contains("vec3(inverseSqrt(dot(v0_.xyz, v0_.xyz)))")), "{w}");
    assert!(!lines.iter().any(|l| l.starts_with("let r0_x")), "{w}");
}

#[test]
fn a_value_computed_before_a_loop_keeps_its_let() {
    let w = wgsl(
        "ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_input_ps linear v0.xy\n\
         dcl_output o0.xyzw\n\
         dcl_temps 2\n\
         mul r0.x, v0.x, v0.y\n\
         mov r1.xy, l(0, 0, 0, 0)\n\
         loop\n\
           uge r1.z, r1.y, l(4)\n\
           breakc_nz r1.z\n\
           add r1.x, r0.x, r1.x\n\
           iadd r1.y, r1.y, l(1)\n\
         endloop\n\
         mov o0.xyzw, r1.xxxx\n\
         ret\n",
    );
    let lines = body(&w);
    let product =
        lines.iter().position(|l| l.starts_with("let r0_x = (v0_.x * v0_.y);")).unwrap_or_else(|| panic!("{w}"));
    let loop_at = lines.iter().position(|l| *l == "loop {").unwrap_or_else(|| panic!("{w}"));
    assert!(product < loop_at, "{w}");
}
