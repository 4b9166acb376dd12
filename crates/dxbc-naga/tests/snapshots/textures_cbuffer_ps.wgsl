diagnostic(off, derivative_uniformity);

struct CbAll {
    g_v4MaterialAmbientColor: vec4<f32>,
    g_v4MaterialDiffuseColor: vec4<f32>,
    g_v3LightDir: vec3<f32>,
    pad_2w: u32,
    g_v4LightDiffuse: vec4<f32>,
    g_fTime: f32,
    pad_4y: u32,
    pad_4zw: vec2<u32>,
    g_m4x4World: mat4x4<f32>,
    g_m4x4WorldViewProjection: mat4x4<f32>,
    g_fAlphaRef: f32,
    pad_13y: u32,
    pad_13zw: vec2<u32>,
}

struct FragmentOutput {
    @location(0) sv_target0_: vec4<f32>,
    @builtin(sample_mask) sample_mask: u32,
}

@group(0) @binding(0) var<uniform> cbAll: CbAll;
@group(2) @binding(0) var g_AlphaTextureSampler: sampler;
@group(1) @binding(0) var g_AlphaTexture: texture_2d<f32>;
var<private> oMask: vec4<u32>;

@fragment 
fn main(@location(1) color: vec4<f32>, @location(2) texcoord: vec4<f32>) -> FragmentOutput {
    let r1_xyzw = dpdy(texcoord.xyxy);
    let r2_xyzw = (r1_xyzw.zwzw * vec4<f32>(-0.375f, -0.375f, -0.125f, -0.125f));
    let r1_xyzw_1 = (r1_xyzw * vec4<f32>(0.125f, 0.125f, 0.375f, 0.375f));
    let r3_xyzw = dpdx(texcoord.xyxy);
    let r2_xyzw_1 = ((r3_xyzw.zwzw * vec4<f32>(-0.125f, -0.125f, 0.375f, 0.375f)) + r2_xyzw);
    let r1_xyzw_2 = ((r3_xyzw * vec4<f32>(-0.375f, -0.375f, 0.125f, 0.125f)) + r1_xyzw_1);
    let r1_xyzw_3 = (r1_xyzw_2 + texcoord.xyxy);
    let r2_xyzw_2 = (r2_xyzw_1 + texcoord.xyxy);
    let r3_xyzw_1 = textureSample(g_AlphaTexture, g_AlphaTextureSampler, r2_xyzw_2.xy);
    let r2_xyzw_3 = textureSample(g_AlphaTexture, g_AlphaTextureSampler, r2_xyzw_2.zw);
    let g_fAlphaRef = cbAll.g_fAlphaRef;
    let r0_z = ((r3_xyzw_1.w - g_fAlphaRef) >= 0f);
    let r0_y = select(0f, r3_xyzw_1.w, r0_z);
    let r0_w = ((r2_xyzw_3.w - g_fAlphaRef) >= 0f);
    let r3_xyz = select(vec3(0f), (r3_xyzw_1.www * r3_xyzw_1.xyz), vec3(r0_z));
    let r0_x = select(select(0u, 1u, r0_z), select(2u, 3u, r0_z), r0_w);
    let r0_y_1 = select(r0_y, (r2_xyzw_3.w + r0_y), r0_w);
    let r4_xyzw = textureSample(g_AlphaTexture, g_AlphaTextureSampler, r1_xyzw_3.xy);
    let r1_xyzw_4 = textureSample(g_AlphaTexture, g_AlphaTextureSampler, r1_xyzw_3.zw);
    let r0_z_1 = ((r4_xyzw.w - g_fAlphaRef) >= 0f);
    let r0_x_1 = select(r0_x, (r0_x + 4u), r0_z_1);
    let r0_y_2 = select(r0_y_1, (r0_y_1 + r4_xyzw.w), r0_z_1);
    let r3_w = ((r1_xyzw_4.w - g_fAlphaRef) >= 0f);
    let r0_y_3 = select(r0_y_2, (r1_xyzw_4.w + r0_y_2), r3_w);
    let r2_xyz = ((r2_xyzw_3.xyz * r2_xyzw_3.www) + r3_xyz);
    let r2_xyz_1 = select(r3_xyz, r2_xyz, vec3(r0_w));
    let r3_xyz_1 = ((r4_xyzw.xyz * r4_xyzw.www) + r2_xyz_1);
    let r2_xyz_2 = select(r2_xyz_1, r3_xyz_1, vec3(r0_z_1));
    let r1_xyz = ((r1_xyzw_4.xyz * r1_xyzw_4.www) + r2_xyz_2);
    let r1_xyz_1 = (select(r2_xyz_2, r1_xyz, vec3(r3_w)) / vec3(r0_y_3));
    oMask.x = select(r0_x_1, (r0_x_1 + 8u), r3_w);
    let out_target = (vec4<f32>(r1_xyz_1.x, r1_xyz_1.y, r1_xyz_1.z, r0_y_3) * color);
    return FragmentOutput(out_target, oMask.x);
}
