diagnostic(off, derivative_uniformity);

struct FragmentOutput {
    @location(0) sv_target0_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;
var<private> v0_: vec4<f32>;
var<private> o0_: vec4<f32>;

@fragment 
fn main(@location(0) v00_: vec4<f32>) -> FragmentOutput {
    v0_ = v00_;
    let _e1 = v0_;
    let cb0_0_ = cb0_[0];
    o0_ = (_e1 * cb0_0_);
    let _e10 = o0_;
    return FragmentOutput(_e10);
}
