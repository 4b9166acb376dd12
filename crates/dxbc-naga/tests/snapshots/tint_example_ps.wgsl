diagnostic(off, derivative_uniformity);

struct FragmentOutput {
    @location(0) o0_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;
var<private> v0_1: vec4<u32>;
var<private> o0_: vec4<u32>;

fn dxbc_main() {
    let _e1 = v0_1;
    let _e5 = cb0_[0];
    o0_ = bitcast<vec4<u32>>((bitcast<vec4<f32>>(_e1) * _e5));
    return;
}

@fragment 
fn main(@location(0) v0_: vec4<f32>) -> FragmentOutput {
    v0_1 = bitcast<vec4<u32>>(v0_);
    dxbc_main();
    let _e4 = o0_;
    return FragmentOutput(bitcast<vec4<f32>>(_e4));
}
