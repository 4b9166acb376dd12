//! Reads of read-only memory written where they are used (`wgsl_loads`):
//! a load from a constant buffer or a read-only buffer that one expression
//! reads is printed inside it, not as a `let`; a load used twice, or from
//! memory the shader writes, keeps its `let` where it stands. And the
//! `derivative_uniformity` diagnostic only where a derivative is taken.

mod common;
use common::{body_of, wgsl_of};

fn ps(decls: &str, body: &str) -> String {
    wgsl_of(&format!(
        "ps_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         {decls}\
         dcl_input_ps linear v0.xyzw\n\
         dcl_output o0.xyzw\n\
         dcl_output o1.xyzw\n\
         dcl_temps 1\n\
         {body}"
    ))
}

fn reparses(wgsl: &str) {
    let module = naga::front::wgsl::parse_str(wgsl).unwrap_or_else(|e| panic!("{}", e.emit_to_string(wgsl)));
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(wgsl)));
}

#[test]
fn a_constant_buffer_row_read_once_is_written_at_its_use() {
    let w = ps(
        "dcl_constantbuffer CB0[2], immediateIndexed\n",
        "mul o0.xyzw, v0.xyzw, cb0[0].xyzw\n\
         mov o1.xyzw, cb0[1].yyyy\n\
         ret\n",
    );
    let body = body_of(&w);
    assert!(body.contains("(v0_ * cb0_[0])"), "{w}");
    assert!(body.contains("let o1_ = cb0_[1].yyyy;"), "{w}");
    assert!(!body.contains("let cb0_"), "{w}");
    reparses(&w);
}

#[test]
fn a_row_read_twice_keeps_its_let() {
    let w = ps(
        "dcl_constantbuffer CB0[1], immediateIndexed\n",
        "mul o0.xyzw, v0.xyzw, cb0[0].xyzw\n\
         add o1.xyzw, v0.xyzw, cb0[0].xyzw\n\
         ret\n",
    );
    let body = body_of(&w);
    assert_eq!(body.matches("cb0_[0]").count(), 1, "{w}");
    assert!(body.contains("let cb0_0_ = cb0_[0];"), "{w}");
    reparses(&w);
}

/// A read of a buffer the shader also writes must happen where it stands,
/// before the store after it; a read-only buffer's read may move.
#[test]
fn a_read_of_writable_memory_keeps_its_place() {
    let w = wgsl_of(
        "cs_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_resource_raw t0\n\
         dcl_uav_raw u0\n\
         dcl_temps 1\n\
         dcl_thread_group 1, 1, 1\n\
         ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.x, l(0), u0.xxxx\n\
         ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.y, l(0), t0.xxxx\n\
         store_raw u0.x, l(0), l(7)\n\
         store_raw u0.x, l(4), r0.x\n\
         store_raw u0.x, l(8), r0.y\n\
         ret\n",
    );
    let body = body_of(&w);
    let read = body.find("= u0_[min(0u,").unwrap_or_else(|| panic!("the UAV read is a let: {w}"));
    let store = body.find("u0_[0u] = 7u").unwrap_or_else(|| panic!("the store: {w}"));
    assert!(read < store, "the UAV read stays before the store: {w}");
    // The SRV's word is read inside the select that guards it.
    assert!(!body.contains("= t0_[min(0u,"), "{w}");
    assert!(body.contains(", t0_[min(0u,"), "{w}");
    reparses(&w);
}

#[test]
fn only_a_shader_taking_derivatives_turns_off_their_uniformity_check() {
    let plain = ps("", "mul o0.xyzw, v0.xyzw, l(2.0, 2.0, 2.0, 2.0)\nmov o1.xyzw, v0.xyzw\nret\n");
    assert!(!plain.contains("diagnostic("), "{plain}");
    let derivative = ps("", "deriv_rtx o0.xyzw, v0.xyzw\nmov o1.xyzw, v0.xyzw\nret\n");
    assert!(derivative.starts_with("diagnostic(off, derivative_uniformity);"), "{derivative}");
    let sampled = ps(
        "dcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\n",
        "sample_indexable(texture2d)(float,float,float,float) o0.xyzw, v0.xyxx, t0.xyzw, s0\n\
         sample_l_indexable(texture2d)(float,float,float,float) o1.xyzw, v0.xyxx, t0.xyzw, s0, l(0)\n\
         ret\n",
    );
    assert!(sampled.starts_with("diagnostic(off, derivative_uniformity);"), "{sampled}");
    let explicit = ps(
        "dcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\n",
        "sample_l_indexable(texture2d)(float,float,float,float) o0.xyzw, v0.xyxx, t0.xyzw, s0, l(0)\n\
         mov o1.xyzw, v0.xyzw\n\
         ret\n",
    );
    assert!(!explicit.contains("diagnostic("), "{explicit}");
    for w in [plain, derivative, sampled, explicit] {
        reparses(&w);
    }
}
