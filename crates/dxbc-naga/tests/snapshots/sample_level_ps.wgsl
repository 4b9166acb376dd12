struct _Globals_t {
    level: f32,
    pad_0y: u32,
    pad_0zw: vec2<u32>,
}

@group(0) @binding(0) var<uniform> _Globals: _Globals_t;
@group(2) @binding(0) var s: sampler;
@group(1) @binding(0) var t: texture_2d<f32>;

@fragment 
fn main() -> @location(0) vec4<f32> {
    let level = _Globals.level;
    let out_target = textureSampleLevel(t, s, vec2<f32>(0.5f, 0.5f), level);
    return out_target;
}
