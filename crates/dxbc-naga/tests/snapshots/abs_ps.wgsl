diagnostic(off, derivative_uniformity);

struct FragmentOutput {
    @location(0) o0_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> cb0_: array<vec4<u32>, 1>;
var<private> o0_: vec4<u32>;

fn dxbc_main() {
    var r0_: vec4<u32> = vec4<u32>();
    var r1_: vec4<u32> = vec4<u32>();

    let _e4 = cb0_[0];
    let _e5 = _e4.xyxx;
    r1_.x = _e5.x;
    r1_.y = _e5.y;
    let _e12 = r1_;
    let _e16 = bitcast<vec4<u32>>(abs(bitcast<vec4<f32>>(_e12.xyxx)));
    r1_.x = _e16.x;
    r1_.y = _e16.y;
    let _e24 = cb0_[0];
    let _e25 = _e24.xxxy;
    r1_.z = _e25.z;
    r1_.w = _e25.w;
    let _e32 = r1_;
    r1_.z = _e32.zzzz.z;
    let _e38 = r1_;
    r1_.z = bitcast<vec4<u32>>((bitcast<vec4<f32>>(_e38.zzzz) + bitcast<vec4<f32>>(vec4(3204448256u)))).z;
    let _e50 = r1_;
    r1_.z = bitcast<vec4<u32>>(abs(bitcast<vec4<f32>>(_e50.zzzz))).z;
    let _e59 = r1_;
    let _e60 = _e59.xyxx;
    r0_.x = _e60.x;
    r0_.y = _e60.y;
    let _e67 = r1_;
    r0_.z = _e67.zzzz.z;
    r0_.w = vec4(1053609165u).w;
    let _e78 = r0_;
    r1_ = _e78;
    let _e81 = r1_;
    o0_ = _e81;
    return;
}

@fragment 
fn main() -> FragmentOutput {
    dxbc_main();
    let _e1 = o0_;
    return FragmentOutput(bitcast<vec4<f32>>(_e1));
}
