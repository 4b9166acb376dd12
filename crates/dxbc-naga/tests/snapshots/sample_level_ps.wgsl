diagnostic(off, derivative_uniformity);

struct FragmentOutput {
    @location(0) o0_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> cb0_: array<vec4<u32>, 1>;
@group(2) @binding(0) 
var s0_: sampler;
@group(1) @binding(0) 
var t0_: texture_2d<f32>;
var<private> o0_: vec4<u32>;

fn dxbc_main() {
    var r0_: vec4<u32> = vec4<u32>();

    let _e3 = cb0_[0];
    r0_.x = _e3.xxxx.x;
    let _e18 = r0_;
    let _e22 = textureSampleLevel(t0_, s0_, bitcast<vec4<f32>>(vec4<u32>(1056964608u, 1056964608u, 0u, 0u)).xy, bitcast<vec4<f32>>(_e18.xxxx).x);
    r0_ = bitcast<vec4<u32>>(_e22);
    let _e26 = r0_;
    o0_ = _e26;
    return;
}

@fragment 
fn main() -> FragmentOutput {
    dxbc_main();
    let _e1 = o0_;
    return FragmentOutput(bitcast<vec4<f32>>(_e1));
}
