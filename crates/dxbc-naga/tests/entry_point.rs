//! The program's body is written into the entry point, between the copies
//! of its arguments in and of its outputs out; an early return returns the
//! result where it stands, so that no return skips the outputs.

mod common;
use common::wgsl_of;

#[test]
fn a_body_that_returns_only_at_its_end_is_the_entry_point() {
    let w = wgsl_of(
        "ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_input_ps linear v0.xyzw\n\
         dcl_output o0.xyzw\n\
         mul o0.xyzw, v0.xyzw, l(0.5, 0.5, 0.5, 1)\n\
         ret\n",
    );
    assert!(!w.contains("dxbc_main"), "{w}");
    let main = &w[w.find("fn main(").expect("the entry point")..];
    // The one output is the result itself, bound as SV_Target0.
    assert!(w.contains(") -> @location(0) vec4<f32> {"), "{w}");
    assert!(!w.contains("struct FragmentOutput"), "{w}");
    // The body's one instruction, then the output, then the only return.
    let mul = main.find("0.5f").unwrap_or_else(|| panic!("the mul in main: {w}"));
    let ret = main.find("return ").expect("the output returned");
    assert!(mul < ret && main.matches("return").count() == 1, "{w}");
}

#[test]
fn an_early_return_returns_the_result_where_it_stands() {
    let w = wgsl_of(
        "ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_input_ps linear v0.xyzw\n\
         dcl_output o0.xyzw\n\
         dcl_temps 1\n\
         lt r0.x, v0.x, l(0.5)\n\
         if_nz r0.x\n\
           mov o0.xyzw, l(1.0, 0, 0, 1.0)\n\
           ret\n\
         endif\n\
         mov o0.xyzw, v0.xyzw\n\
         ret\n",
    );
    assert!(!w.contains("dxbc_main"), "{w}");
    let main = &w[w.find("fn main(").expect("the entry point")..];
    // Inside the `if`, the early return returns the result; the end returns it too.
    let branch = &main[main.find("if (").expect("the branch")..];
    let inner = &branch[..branch.find("\n    }").expect("the branch's end")];
    assert!(inner.contains("return "), "{w}");
    assert_eq!(main.matches("return ").count(), 2, "{w}");
}
