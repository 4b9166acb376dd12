diagnostic(off, derivative_uniformity);

struct FragmentOutput {
    @location(0) sv_target0_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> cb0_: array<vec4<f32>, 1>;
@group(2) @binding(0) 
var s0_: sampler;
@group(1) @binding(0) 
var t0_: texture_2d<f32>;
var<private> in_texcoord: vec4<f32>;
var<private> out_target: vec4<f32>;

@fragment 
fn main(@location(1) texcoord0_: vec4<f32>) -> FragmentOutput {
    in_texcoord = texcoord0_;
    let texcoord = in_texcoord;
    let r0_xyzw = textureSample(t0_, s0_, texcoord.xyxx.xy);
    let cb0_0_ = cb0_[0];
    let r0_xyz = ((r0_xyzw.xyz * cb0_0_.xxx) + vec3(1f));
    let r0_xyz_1 = ((r0_xyzw.xyz * cb0_0_.xxx) / r0_xyz);
    out_target = vec4<f32>(exp2((log2(abs(r0_xyz_1)) * vec3(0.45454547f))), r0_xyzw.w);
    let _e32 = out_target;
    return FragmentOutput(_e32);
}
