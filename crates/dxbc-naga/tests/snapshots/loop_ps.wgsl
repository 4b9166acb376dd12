diagnostic(off, derivative_uniformity);

struct FragmentOutput {
    @location(0) sv_target0_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> _Globals: array<vec4<f32>, 1>;
var<private> o0_: vec4<f32>;

fn dxbc_main() {
    let a = _Globals[0];
    let r0_x = a.x;
    let r0_y = a.x;
    let r0_x_1 = (r0_x + r0_y);
    let r0_y_1 = a.x;
    let r0_x_2 = (r0_x_1 + r0_y_1);
    let r0_y_2 = a.x;
    let r0_x_3 = (r0_x_2 + r0_y_2);
    let r0_y_3 = a.x;
    let r0_x_4 = (r0_x_3 + r0_y_3);
    let r0_y_4 = a.x;
    let r0_x_5 = (r0_x_4 + r0_y_4);
    let r0_y_5 = a.x;
    let r0_x_6 = (r0_x_5 + r0_y_5);
    let r0_y_6 = a.x;
    let r0_x_7 = (r0_x_6 + r0_y_6);
    let r0_y_7 = a.x;
    let r0_x_8 = (r0_x_7 + r0_y_7);
    let r0_y_8 = a.x;
    let r0_x_9 = (r0_x_8 + r0_y_8);
    let r0_xyzw = vec4(r0_x_9);
    o0_ = r0_xyzw;
    return;
}

@fragment 
fn main() -> FragmentOutput {
    dxbc_main();
    let _e1 = o0_;
    return FragmentOutput(_e1);
}
