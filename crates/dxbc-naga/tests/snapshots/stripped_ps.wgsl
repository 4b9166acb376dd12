diagnostic(off, derivative_uniformity);

@group(0) @binding(0) var<uniform> cb0_: array<vec4<f32>, 1>;
@group(2) @binding(0) var s0_: sampler;
@group(1) @binding(0) var t0_: texture_2d<f32>;

@fragment 
fn main(@location(1) texcoord: vec4<f32>) -> @location(0) vec4<f32> {
    let r0_xyzw = textureSample(t0_, s0_, texcoord.xy);
    let cb0_0_ = cb0_[0];
    let r0_xyz = ((r0_xyzw.xyz * cb0_0_.xxx) + vec3(1f));
    let r0_xyz_1 = ((r0_xyzw.xyz * cb0_0_.xxx) / r0_xyz);
    let out_target = vec4<f32>(exp2((log2(abs(r0_xyz_1)) * vec3(0.45454547f))), r0_xyzw.w);
    return out_target;
}
