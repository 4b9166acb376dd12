struct _Globals_t {
    u: vec2<f32>,
    pad_0zw: vec2<u32>,
}

@group(0) @binding(0) var<uniform> _Globals: _Globals_t;

@fragment 
fn main() -> @location(0) vec4<f32> {
    let u = _Globals.u;
    let r1_xy = abs(u);
    let out_target = vec4<f32>(r1_xy.x, r1_xy.y, abs((u.x - 0.5f)), 0.4f);
    return out_target;
}
