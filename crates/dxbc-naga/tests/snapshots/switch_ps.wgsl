struct _Globals_t {
    v: vec4<u32>,
}

@group(0) @binding(0) var<uniform> _Globals: _Globals_t;

@fragment 
fn main() -> @location(0) vec4<f32> {
    var r0_x: f32 = f32();
    var r0_y: f32 = f32();
    var r0_z: f32 = f32();
    var r0_w: f32 = f32();

    let v = _Globals.v;
    switch v.x {
        case 0u: {
            r0_x = 3f;
            r0_y = 3f;
            r0_z = 3f;
            r0_w = 3f;
            break;
        }
        case 1u: {
            r0_x = 4f;
            r0_y = 4f;
            r0_z = 4f;
            r0_w = 4f;
            break;
        }
        default: {
            r0_x = 5f;
            r0_y = 5f;
            r0_z = 5f;
            r0_w = 5f;
            break;
        }
    }
    let out_target = vec4<f32>(r0_x, r0_y, r0_z, r0_w);
    return out_target;
}
