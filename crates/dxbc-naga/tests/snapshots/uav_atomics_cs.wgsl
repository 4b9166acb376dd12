struct _Globals_t {
    v: vec4<u32>,
}

@group(0) @binding(0) var<uniform> _Globals: _Globals_t;
@group(3) @binding(1) var<storage, read_write> u: array<atomic<u32>>;

@compute @workgroup_size(3, 1, 1) 
fn main() {
    let v = _Globals.v;
    atomicAnd((&u[0u]), v.x);
    let _e17 = atomicCompareExchangeWeak((&u[1u]), v.y, v.x);
    atomicAdd((&u[2u]), v.x);
    atomicOr((&u[3u]), v.x);
    atomicMax((&u[4u]), v.x);
    atomicMin((&u[5u]), v.x);
    atomicXor((&u[6u]), v.x);
    let _e54 = atomicExchange((&u[7u]), v.x);
    atomicAdd((&u[8u]), select(0u, 1u, (_e54 == 2u)));
    let _e74 = atomicCompareExchangeWeak((&u[9u]), v.y, v.x);
    let r0_x = select(0u, 1u, (_e74.old_value == 5u));
    atomicAdd((&u[10u]), r0_x);
    return;
}
