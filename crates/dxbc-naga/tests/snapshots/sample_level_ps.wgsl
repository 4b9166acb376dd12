diagnostic(off, derivative_uniformity);

struct FragmentOutput {
    @location(0) sv_target0_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> _Globals: array<vec4<f32>, 1>;
@group(2) @binding(0) 
var s: sampler;
@group(1) @binding(0) 
var t: texture_2d<f32>;
var<private> o0_: vec4<f32>;

fn dxbc_main() {
    let level = _Globals[0];
    let r0_x = level.x;
    let r0_xyzw = textureSampleLevel(t, s, vec4<f32>(0.5f, 0.5f, 0f, 0f).xy, r0_x);
    o0_ = r0_xyzw;
    return;
}

@fragment 
fn main() -> FragmentOutput {
    dxbc_main();
    let _e1 = o0_;
    return FragmentOutput(_e1);
}
