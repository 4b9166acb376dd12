diagnostic(off, derivative_uniformity);

struct FragmentOutput {
    @location(0) o0_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> cb0_: array<vec4<u32>, 1>;
var<private> o0_: vec4<u32>;

fn dxbc_main() {
    var r0_: vec4<u32> = vec4<u32>();

    let _e3 = cb0_[0];
    r0_.x = _e3.xxxx.x;
    let _e10 = cb0_[0];
    r0_.y = _e10.xxxx.y;
    let _e16 = r0_;
    let _e20 = r0_;
    r0_.x = bitcast<vec4<u32>>((bitcast<vec4<f32>>(_e16.xxxx) + bitcast<vec4<f32>>(_e20.yyyy))).x;
    let _e30 = cb0_[0];
    r0_.y = _e30.xxxx.y;
    let _e36 = r0_;
    let _e40 = r0_;
    r0_.x = bitcast<vec4<u32>>((bitcast<vec4<f32>>(_e36.xxxx) + bitcast<vec4<f32>>(_e40.yyyy))).x;
    let _e50 = cb0_[0];
    r0_.y = _e50.xxxx.y;
    let _e56 = r0_;
    let _e60 = r0_;
    r0_.x = bitcast<vec4<u32>>((bitcast<vec4<f32>>(_e56.xxxx) + bitcast<vec4<f32>>(_e60.yyyy))).x;
    let _e70 = cb0_[0];
    r0_.y = _e70.xxxx.y;
    let _e76 = r0_;
    let _e80 = r0_;
    r0_.x = bitcast<vec4<u32>>((bitcast<vec4<f32>>(_e76.xxxx) + bitcast<vec4<f32>>(_e80.yyyy))).x;
    let _e90 = cb0_[0];
    r0_.y = _e90.xxxx.y;
    let _e96 = r0_;
    let _e100 = r0_;
    r0_.x = bitcast<vec4<u32>>((bitcast<vec4<f32>>(_e96.xxxx) + bitcast<vec4<f32>>(_e100.yyyy))).x;
    let _e110 = cb0_[0];
    r0_.y = _e110.xxxx.y;
    let _e116 = r0_;
    let _e120 = r0_;
    r0_.x = bitcast<vec4<u32>>((bitcast<vec4<f32>>(_e116.xxxx) + bitcast<vec4<f32>>(_e120.yyyy))).x;
    let _e130 = cb0_[0];
    r0_.y = _e130.xxxx.y;
    let _e136 = r0_;
    let _e140 = r0_;
    r0_.x = bitcast<vec4<u32>>((bitcast<vec4<f32>>(_e136.xxxx) + bitcast<vec4<f32>>(_e140.yyyy))).x;
    let _e150 = cb0_[0];
    r0_.y = _e150.xxxx.y;
    let _e156 = r0_;
    let _e160 = r0_;
    r0_.x = bitcast<vec4<u32>>((bitcast<vec4<f32>>(_e156.xxxx) + bitcast<vec4<f32>>(_e160.yyyy))).x;
    let _e170 = cb0_[0];
    r0_.y = _e170.xxxx.y;
    let _e176 = r0_;
    let _e180 = r0_;
    r0_.x = bitcast<vec4<u32>>((bitcast<vec4<f32>>(_e176.xxxx) + bitcast<vec4<f32>>(_e180.yyyy))).x;
    let _e189 = r0_;
    r0_ = _e189.xxxx;
    let _e193 = r0_;
    o0_ = _e193;
    return;
}

@fragment 
fn main() -> FragmentOutput {
    dxbc_main();
    let _e1 = o0_;
    return FragmentOutput(bitcast<vec4<f32>>(_e1));
}
