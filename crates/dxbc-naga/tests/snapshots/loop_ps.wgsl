diagnostic(off, derivative_uniformity);

struct _Globals_t {
    a: f32,
    pad_0y: u32,
    pad_0zw: vec2<u32>,
}

struct FragmentOutput {
    @location(0) sv_target0_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> _Globals: _Globals_t;
var<private> o0_: vec4<f32>;

fn dxbc_main() {
    let a = _Globals.a;
    let r0_x = (a + a);
    let r0_x_1 = (r0_x + a);
    let r0_x_2 = (r0_x_1 + a);
    let r0_x_3 = (r0_x_2 + a);
    let r0_x_4 = (r0_x_3 + a);
    let r0_x_5 = (r0_x_4 + a);
    let r0_x_6 = (r0_x_5 + a);
    let r0_x_7 = (r0_x_6 + a);
    let r0_x_8 = (r0_x_7 + a);
    let r0_xyzw = vec4(r0_x_8);
    o0_ = r0_xyzw;
    return;
}

@fragment 
fn main() -> FragmentOutput {
    dxbc_main();
    let _e1 = o0_;
    return FragmentOutput(_e1);
}
