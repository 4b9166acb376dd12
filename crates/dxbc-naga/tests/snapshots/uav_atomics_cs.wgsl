@group(0) @binding(0) 
var<uniform> cb0_: array<vec4<u32>, 1>;
@group(3) @binding(1) 
var<storage, read_write> u1_: array<atomic<u32>>;

fn dxbc_main() {
    var r0_: vec4<u32> = vec4<u32>();
    var r1_: vec4<u32> = vec4<u32>();

    let _e4 = cb0_[0];
    r0_ = _e4;
    let _e7 = r0_;
    r0_.x = _e7.xxxx.x;
    let _e18 = r0_;
    atomicAnd((&u1_[vec4(0u).x]), _e18.xxxx.x);
    let _e23 = cb0_[0];
    r0_ = _e23;
    let _e26 = r0_;
    r0_.x = _e26.yxxx.x;
    let _e33 = cb0_[0];
    r1_ = _e33;
    let _e36 = r1_;
    r0_.y = _e36.xxxx.y;
    let _e47 = r0_;
    let _e51 = r0_;
    let _e54 = atomicCompareExchangeWeak((&u1_[vec4(1u).x]), _e47.xxxx.x, _e51.yyyy.x);
    let _e57 = cb0_[0];
    r0_ = _e57;
    let _e60 = r0_;
    r0_.x = _e60.xxxx.x;
    let _e71 = r0_;
    atomicAdd((&u1_[vec4(2u).x]), _e71.xxxx.x);
    let _e76 = cb0_[0];
    r0_ = _e76;
    let _e79 = r0_;
    r0_.x = _e79.xxxx.x;
    let _e90 = r0_;
    atomicOr((&u1_[vec4(3u).x]), _e90.xxxx.x);
    let _e95 = cb0_[0];
    r0_ = _e95;
    let _e98 = r0_;
    r0_.x = _e98.xxxx.x;
    let _e109 = r0_;
    atomicMax((&u1_[vec4(4u).x]), _e109.xxxx.x);
    let _e114 = cb0_[0];
    r0_ = _e114;
    let _e117 = r0_;
    r0_.x = _e117.xxxx.x;
    let _e128 = r0_;
    atomicMin((&u1_[vec4(5u).x]), _e128.xxxx.x);
    let _e133 = cb0_[0];
    r0_ = _e133;
    let _e136 = r0_;
    r0_.x = _e136.xxxx.x;
    let _e147 = r0_;
    atomicXor((&u1_[vec4(6u).x]), _e147.xxxx.x);
    let _e152 = cb0_[0];
    r0_ = _e152;
    let _e155 = r0_;
    r0_.x = _e155.xxxx.x;
    let _e166 = r0_;
    let _e169 = atomicExchange((&u1_[vec4(7u).x]), _e166.xxxx.x);
    r0_.x = vec4(_e169).x;
    let _e175 = r0_;
    r0_.x = select(vec4(0u), vec4(4294967295u), (bitcast<vec4<i32>>(_e175.xxxx) == bitcast<vec4<i32>>(vec4(2u)))).x;
    let _e191 = r0_;
    r0_.x = (_e191.xxxx & vec4(1u)).x;
    let _e205 = r0_;
    atomicAdd((&u1_[vec4(8u).x]), _e205.xxxx.x);
    let _e210 = cb0_[0];
    r0_ = _e210;
    let _e213 = r0_;
    r0_.x = _e213.yxxx.x;
    let _e220 = cb0_[0];
    r1_ = _e220;
    let _e223 = r1_;
    r0_.y = _e223.xxxx.y;
    let _e234 = r0_;
    let _e238 = r0_;
    let _e241 = atomicCompareExchangeWeak((&u1_[vec4(9u).x]), _e234.xxxx.x, _e238.yyyy.x);
    r0_.x = vec4(_e241.old_value).x;
    let _e248 = r0_;
    r0_.x = select(vec4(0u), vec4(4294967295u), (bitcast<vec4<i32>>(_e248.xxxx) == bitcast<vec4<i32>>(vec4(5u)))).x;
    let _e264 = r0_;
    r0_.x = (_e264.xxxx & vec4(1u)).x;
    let _e278 = r0_;
    atomicAdd((&u1_[vec4(10u).x]), _e278.xxxx.x);
    return;
}

@compute @workgroup_size(3, 1, 1) 
fn main() {
    dxbc_main();
    return;
}
