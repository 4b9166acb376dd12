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

@group(0) @binding(0) var<uniform> cbAllShadowData: CbAllShadowData;

@vertex 
fn main(@location(0) position: vec4<f32>, @location(1) normal: vec4<f32>, @location(2) texcoord: vec4<f32>) -> VertexOutput {
    let m_mWorld = cbAllShadowData.m_mWorld;
    let m_mWorldView = cbAllShadowData.m_mWorldView;
    let m_mShadow = cbAllShadowData.m_mShadow;
    let m_mWorldViewProjection = cbAllShadowData.m_mWorldViewProjection;
    let out_normal = vec4<f32>(dot(normal.xyz, m_mWorld[0].xyz), dot(normal.xyz, m_mWorld[1].xyz), dot(normal.xyz, m_mWorld[2].xyz), 0f);
    let o1_ = vec4<f32>(texcoord.xy, dot(position, m_mWorldView[2]), 0f);
    let out_texcoord1_ = vec4<f32>(dot(position, m_mShadow[0]), dot(position, m_mShadow[1]), dot(position, m_mShadow[2]), dot(position, m_mShadow[3]));
    let out_position = vec4<f32>(dot(position, m_mWorldViewProjection[0]), dot(position, m_mWorldViewProjection[1]), dot(position, m_mWorldViewProjection[2]), dot(position, m_mWorldViewProjection[3]));
    return VertexOutput(out_normal, o1_, out_texcoord1_, out_position, position);
}
