struct CbAllShadowData {
    m_mWorldViewProjection: mat4x4<f32>,
    m_mWorld: mat4x4<f32>,
    m_mWorldView: mat4x4<f32>,
    m_mShadow: mat4x4<f32>,
}

struct VertexOutput {
    @location(0) normal0_: vec4<f32>,
    @location(1) color0_: vec4<f32>,
    @location(2) texcoord1_: vec4<f32>,
    @builtin(position) sv_position0_: vec4<f32>,
    @location(4) texcoord2_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> cbAllShadowData: CbAllShadowData;
var<private> in_normal: vec4<f32>;
var<private> out_normal: vec4<f32>;
var<private> in_position: vec4<f32>;
var<private> o1_: vec4<f32>;
var<private> in_texcoord: vec4<f32>;
var<private> out_texcoord1_: vec4<f32>;
var<private> out_position: vec4<f32>;
var<private> out_texcoord2_: vec4<f32>;

@vertex 
fn main(@location(0) position0_: vec4<f32>, @location(1) normal0_: vec4<f32>, @location(2) texcoord0_: vec4<f32>) -> VertexOutput {
    in_position = position0_;
    in_normal = normal0_;
    in_texcoord = texcoord0_;
    let normal = in_normal;
    let m_mWorld = cbAllShadowData.m_mWorld;
    let position = in_position;
    let m_mWorldView = cbAllShadowData.m_mWorldView;
    let texcoord = in_texcoord;
    let m_mShadow = cbAllShadowData.m_mShadow;
    let m_mWorldViewProjection = cbAllShadowData.m_mWorldViewProjection;
    out_normal = vec4<f32>(dot(normal.xyz, m_mWorld[0].xyz), dot(normal.xyz, m_mWorld[1].xyz), dot(normal.xyz, m_mWorld[2].xyz), 0f);
    o1_ = vec4<f32>(texcoord.xy, dot(position, m_mWorldView[2]), 0f);
    out_texcoord1_ = vec4<f32>(dot(position, m_mShadow[0]), dot(position, m_mShadow[1]), dot(position, m_mShadow[2]), dot(position, m_mShadow[3]));
    out_position = vec4<f32>(dot(position, m_mWorldViewProjection[0]), dot(position, m_mWorldViewProjection[1]), dot(position, m_mWorldViewProjection[2]), dot(position, m_mWorldViewProjection[3]));
    out_texcoord2_ = position;
    let _e67 = out_normal;
    let _e69 = o1_;
    let _e71 = out_texcoord1_;
    let _e73 = out_position;
    let _e75 = out_texcoord2_;
    return VertexOutput(_e67, _e69, _e71, _e73, _e75);
}
