struct _Globals_t {
    a: f32,
    pad_0y: u32,
    pad_0zw: vec2<u32>,
}

@group(0) @binding(0) var<uniform> _Globals: _Globals_t;

@fragment 
fn main() -> @location(0) vec4<f32> {
    let a = _Globals.a;
    let r0_x = (((a + a) + a) + a);
    let r0_x_1 = (((r0_x + a) + a) + a);
    let r0_x_2 = (((r0_x_1 + a) + a) + a);
    let out_target = vec4(r0_x_2);
    return out_target;
}
