diagnostic(off, derivative_uniformity);

var<private> icb: array<vec4<f32>, 8> = array<vec4<f32>, 8>(vec4<f32>(1.5f, 0f, 0f, 1f), vec4<f32>(0f, 1.5f, 0f, 1f), vec4<f32>(0f, 0f, 5.5f, 1f), vec4<f32>(1.5f, 0f, 5.5f, 1f), vec4<f32>(1.5f, 1.5f, 0f, 1f), vec4<f32>(1f, 1f, 1f, 1f), vec4<f32>(0f, 1f, 5.5f, 1f), vec4<f32>(0.5f, 3.5f, 0.75f, 1f));
@group(0) @binding(0) var<uniform> cbAllShadowData: array<vec4<f32>, 37>;
@group(2) @binding(0) var g_samLinear: sampler;
@group(2) @binding(5) var g_samShadow: sampler;
@group(1) @binding(0) var g_txDiffuse: texture_2d<f32>;
@group(1) @binding(5) var g_txShadow: texture_2d_array<f32>;

@fragment 
fn main(@location(0) normal: vec4<f32>, @location(1) v1_: vec4<f32>, @location(2) texcoord1_: vec4<f32>) -> @location(0) vec4<f32> {
    var r1_y: i32 = i32();
    var r2_x: f32 = f32();
    var r2_y: f32 = f32();
    var r2_z: f32 = f32();
    var r3_x: u32 = u32();
    var r3_y: i32 = i32();

    let r0_xyzw = textureSample(g_txDiffuse, g_samLinear, v1_.xy);
    r1_y = 0i;
    r2_x = 0f;
    r2_y = 0f;
    r2_z = 0f;
    r3_x = 0u;
    r3_y = 0i;
    loop {
        let _e26 = r1_y;
        let _e30 = r3_x;
        let r1_z = ((_e30 == 0u) & (_e26 < 3i));
        if !(r1_z) {
            break;
        }
        let m_vCascadeScale = cbAllShadowData[(u32(_e26) + 24u)];
        let m_vCascadeOffset = cbAllShadowData[(u32(_e26) + 16u)];
        let r2_xyz = ((texcoord1_.xyz * m_vCascadeScale.xyz) + m_vCascadeOffset.xyz);
        let m_nCascadeLevels = cbAllShadowData[32];
        let m_fMinBorderPadding = m_nCascadeLevels.z;
        let r1_z_1 = (m_fMinBorderPadding < min(r2_xyz.y, r2_xyz.x));
        let m_fMaxBorderPadding = m_nCascadeLevels.w;
        let r1_w = (max(r2_xyz.y, r2_xyz.x) < m_fMaxBorderPadding);
        let r1_z_2 = (r1_w & r1_z_1);
        r1_y = (_e26 + 1i);
        r2_x = r2_xyz.x;
        r2_y = r2_xyz.y;
        r2_z = r2_xyz.z;
        r3_x = select(_e30, 1u, r1_z_2);
        r3_y = select(r3_y, _e26, r1_z_2);
    }
    let r1_xyz = dpdxCoarse(texcoord1_.xyx);
    let m_vCascadeScale_1 = cbAllShadowData[(u32(r3_y) + 24u)];
    let r3_xzw = dpdyCoarse(texcoord1_.xyx);
    let m_vCascadeScale_2 = cbAllShadowData[(u32(r3_y) + 24u)];
    let r1_xy = textureSampleGrad(g_txShadow, g_samShadow, vec2<f32>(r2_x, r2_y), i32(max(round(f32(r3_y)), 0f)), (r1_xyz * m_vCascadeScale_1.xyx).xy, (r3_xzw * m_vCascadeScale_2.xyx).xy);
    let r1_y_1 = ((-(r1_xy.x) * r1_xy.x) + r1_xy.y);
    let r1_y_2 = saturate((r1_y_1 + 1e-5f));
    let r1_x = (r2_z - r1_xy.x);
    let r1_x_1 = (r1_y_2 / ((r1_x * r1_x) + r1_y_2));
    let r1_x_2 = (r1_x_1 * r1_x_1);
    let r1_x_3 = select((r1_x_2 * r1_x_2), 1f, (r1_xy.x >= r2_z));
    let _e151 = icb[u32(r3_y)];
    let m_nCascadeLevels_1 = cbAllShadowData[32];
    let m_iVisualizeCascades = bitcast<vec4<u32>>(m_nCascadeLevels_1).yyyy;
    let r2_xyzw = select(vec4(1f), vec4<f32>(_e151.x, _e151.y, _e151.z, 1f), (m_iVisualizeCascades != vec4(0u)));
    let r1_y_3 = saturate(dot(vec3<f32>(-1f, 1f, -1f), normal.xyz));
    let r1_z_3 = saturate(dot(vec3<f32>(1f, 1f, -1f), normal.xyz));
    let r1_y_4 = ((r1_y_3 * 0.05f) + (r1_z_3 * 0.05f));
    let r1_y_5 = ((saturate(-(normal.y)) * 0.05f) + r1_y_4);
    let r1_y_6 = ((saturate(dot(vec3(1f), normal.xyz)) * 0.05f) + r1_y_5);
    let m_vLightDir = cbAllShadowData[36];
    let r1_w_1 = (saturate(dot(m_vLightDir.xyz, normal.xyz)) + r1_y_6);
    let r1_x_4 = ((r1_x_3 * ((-(r1_y_6) * 0.5f) + r1_w_1)) + (r1_y_6 * 0.5f));
    let out_target = (r0_xyzw * (r2_xyzw * vec4(r1_x_4)));
    return out_target;
}
