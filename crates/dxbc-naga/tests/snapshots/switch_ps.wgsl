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
    r1_ = _e4;
    let _e7 = r1_;
    r1_.x = _e7.xxxx.x;
    let _e13 = r1_;
    switch _e13.xxxx.x {
        case 0u: {
            r0_ = vec4<u32>(1077936128u, 1077936128u, 1077936128u, 1077936128u);
            break;
        }
        case 1u: {
            r0_ = vec4<u32>(1082130432u, 1082130432u, 1082130432u, 1082130432u);
            break;
        }
        default: {
            r0_ = vec4<u32>(1084227584u, 1084227584u, 1084227584u, 1084227584u);
            break;
        }
    }
    let _e35 = r0_;
    r1_ = _e35;
    let _e38 = r1_;
    o0_ = _e38;
    return;
}

@fragment 
fn main() -> FragmentOutput {
    dxbc_main();
    let _e1 = o0_;
    return FragmentOutput(bitcast<vec4<f32>>(_e1));
}
