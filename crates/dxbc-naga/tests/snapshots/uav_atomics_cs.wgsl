struct _Globals_t {
    v: vec4<u32>,
}

@group(0) @binding(0) var<uniform> _Globals: _Globals_t;
@group(3) @binding(1) var<storage, read_write> u: array<atomic<u32>>;

@compute @workgroup_size(3, 1, 1) 
fn main() {
    let v = _Globals.v;
    let r0_x = v.x;
    atomicAnd((&u[0u]), r0_x);
    let r0_y = v.y;
    let r1_x = v.x;
    let _e17 = atomicCompareExchangeWeak((&u[1u]), r0_y, r1_x);
    let r0_x_1 = v.x;
    atomicAdd((&u[2u]), r0_x_1);
    let r0_x_2 = v.x;
    atomicOr((&u[3u]), r0_x_2);
    let r0_x_3 = v.x;
    atomicMax((&u[4u]), r0_x_3);
    let r0_x_4 = v.x;
    atomicMin((&u[5u]), r0_x_4);
    let r0_x_5 = v.x;
    atomicXor((&u[6u]), r0_x_5);
    let r0_x_6 = v.x;
    let _e54 = atomicExchange((&u[7u]), r0_x_6);
    let r0_x_7 = select(0u, 1u, (_e54 == 2u));
    atomicAdd((&u[8u]), r0_x_7);
    let r0_y_1 = v.y;
    let r1_x_1 = v.x;
    let _e74 = atomicCompareExchangeWeak((&u[9u]), r0_y_1, r1_x_1);
    let r0_x_8 = select(0u, 1u, (_e74.old_value == 5u));
    atomicAdd((&u[10u]), r0_x_8);
    return;
}
