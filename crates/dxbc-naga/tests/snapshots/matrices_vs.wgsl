struct VertexOutput {
    @location(0) normal0_: vec4<f32>,
    @location(1) color0_: vec4<f32>,
    @location(2) texcoord1_: vec4<f32>,
    @builtin(position) sv_position0_: vec4<f32>,
    @location(4) texcoord2_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> cbAllShadowData: array<vec4<f32>, 16>;
var<private> v1_: vec4<f32>;
var<private> o0_: vec4<f32>;
var<private> v0_: vec4<f32>;
var<private> o1_: vec4<f32>;
var<private> v2_: vec4<f32>;
var<private> o2_: vec4<f32>;
var<private> o3_: vec4<f32>;
var<private> o4_: vec4<f32>;

fn dxbc_main() {
    let _e1 = v1_;
    let m_mWorld = cbAllShadowData[4];
    let m_mWorld_1_ = cbAllShadowData[5];
    let m_mWorld_2_ = cbAllShadowData[6];
    let _e21 = v0_;
    let m_mWorldView_2_ = cbAllShadowData[10];
    let _e27 = v2_;
    let m_mShadow = cbAllShadowData[12];
    let m_mShadow_1_ = cbAllShadowData[13];
    let m_mShadow_2_ = cbAllShadowData[14];
    let m_mShadow_3_ = cbAllShadowData[15];
    let m_mWorldViewProjection = cbAllShadowData[0];
    let m_mWorldViewProjection_1_ = cbAllShadowData[1];
    let m_mWorldViewProjection_2_ = cbAllShadowData[2];
    let m_mWorldViewProjection_3_ = cbAllShadowData[3];
    o0_ = vec4<f32>(dot(_e1.xyz, m_mWorld.xyz), dot(_e1.xyz, m_mWorld_1_.xyz), dot(_e1.xyz, m_mWorld_2_.xyz), 0f);
    o1_ = vec4<f32>(_e27.xy, dot(_e21, m_mWorldView_2_), 0f);
    o2_ = vec4<f32>(dot(_e21, m_mShadow), dot(_e21, m_mShadow_1_), dot(_e21, m_mShadow_2_), dot(_e21, m_mShadow_3_));
    o3_ = vec4<f32>(dot(_e21, m_mWorldViewProjection), dot(_e21, m_mWorldViewProjection_1_), dot(_e21, m_mWorldViewProjection_2_), dot(_e21, m_mWorldViewProjection_3_));
    o4_ = _e21;
    return;
}

@vertex 
fn main(@location(0) position0_: vec4<f32>, @location(1) normal0_: vec4<f32>, @location(2) texcoord0_: vec4<f32>) -> VertexOutput {
    v0_ = position0_;
    v1_ = normal0_;
    v2_ = texcoord0_;
    dxbc_main();
    let _e7 = o0_;
    let _e9 = o1_;
    let _e11 = o2_;
    let _e13 = o3_;
    let _e15 = o4_;
    return VertexOutput(_e7, _e9, _e11, _e13, _e15);
}
