diagnostic(off, derivative_uniformity);

struct FragmentOutput {
    @location(0) o0_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;
@group(2) @binding(0) 
var s0_: sampler;
@group(1) @binding(0) 
var t0_: texture_2d<f32>;
var<private> o0_: vec4<u32>;

fn dxbc_main() {
    let _e2 = cb0_[0];
    let r0_x = _e2.x;
    let r0_xyzw = textureSampleLevel(t0_, s0_, vec4<f32>(0.5f, 0.5f, 0f, 0f).xy, r0_x);
    o0_ = bitcast<vec4<u32>>(r0_xyzw);
    return;
}

@fragment 
fn main() -> FragmentOutput {
    dxbc_main();
    let _e1 = o0_;
    return FragmentOutput(bitcast<vec4<f32>>(_e1));
}
