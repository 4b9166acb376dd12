@group(0) @binding(0) var<uniform> cb0_: array<vec4<f32>, 1>;

@fragment 
fn main(@location(0) v0_: vec4<f32>) -> @location(0) vec4<f32> {
    let o0_ = (v0_ * cb0_[0]);
    return o0_;
}
