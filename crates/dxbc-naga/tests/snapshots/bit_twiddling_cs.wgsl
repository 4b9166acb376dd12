@group(0) @binding(0) 
var<uniform> XeEdramLoadStoreConstants: array<vec4<u32>, 2>;
@group(1) @binding(0) 
var<storage> xe_edram_load_store_source: array<u32>;
@group(3) @binding(0) 
var<storage, read_write> xe_edram_load_store_dest: array<u32>;
var<private> vThreadID: vec4<u32>;
var<private> vThreadIDInGroup: vec4<u32>;
var<private> vThreadGroupID: vec4<u32>;

fn dxbc_main() {
    var r1_x: u32 = u32();

    let _e1 = vThreadID;
    let r0_x = (_e1.x << 4u);
    let _e8 = XeEdramLoadStoreConstants[0];
    let r0_x_1 = ((_e1.y * _e8.y) + r0_x);
    let _e14 = XeEdramLoadStoreConstants[0];
    let r0_x_2 = (r0_x_1 + _e14.x);
    let _e19 = (r0_x_2 / 4u);
    let _e21 = arrayLength((&xe_edram_load_store_source));
    let _e23 = (_e21 - 1u);
    let _e28 = xe_edram_load_store_source[min(_e19, _e23)];
    let _e30 = select(0u, _e28, (_e19 < _e21));
    let _e32 = (_e19 + 1u);
    let _e37 = xe_edram_load_store_source[min(_e32, _e23)];
    let _e39 = select(0u, _e37, (_e32 < _e21));
    let _e41 = (_e19 + 2u);
    let _e46 = xe_edram_load_store_source[min(_e41, _e23)];
    let _e48 = select(0u, _e46, (_e41 < _e21));
    let _e50 = (_e19 + 3u);
    let _e55 = xe_edram_load_store_source[min(_e50, _e23)];
    let _e57 = select(0u, _e55, (_e50 < _e21));
    let _e60 = vThreadIDInGroup;
    let r1_x_1 = (_e60.x << 2u);
    let _e66 = XeEdramLoadStoreConstants[1];
    let r1_yz = (_e66.xx & vec2<u32>(32768u, 2047u));
    r1_x = r1_x_1;
    if (r1_yz.x != 0u) {
        let r1_y = select(0u, 4294967295u, (_e60.x < 10u));
        let r1_w = select(0u, 4294967295u, (_e60.x >= 10u));
        let r1_yw = (vec2<u32>(r1_y, r1_w) & vec2<u32>(40u, 4294967256u));
        let r1_y_1 = (r1_yw.y + r1_yw.x);
        let r1_x_2 = (r1_y_1 + r1_x_1);
        r1_x = r1_x_2;
    }
    let _e101 = XeEdramLoadStoreConstants[1];
    let r1_y_2 = (_e101.x >> 16u);
    let _e106 = vThreadGroupID;
    let r1_y_3 = ((_e106.y * r1_y_2) + r1_yz.y);
    let r1_y_4 = (r1_y_3 + _e106.x);
    let _e114 = vThreadIDInGroup;
    let r1_z = (bitcast<vec4<i32>>(_e114).yyyy * vec4(320i));
    let r1_y_5 = ((r1_y_4 * 5120u) + bitcast<u32>(r1_z.z));
    let _e126 = r1_x;
    let r1_x_3 = (_e126 << 2u);
    let r1_x_4 = (r1_x_3 + r1_y_5);
    let _e132 = XeEdramLoadStoreConstants[1];
    let r1_y_6 = ((_e132.x >> 13u) & 1u);
    let r1_y_7 = (r1_y_6 << 1u);
    let r1_x_5 = (r1_x_4 << (r1_y_7 & 31u));
    let _e145 = (r1_x_5 / 4u);
    let _e147 = arrayLength((&xe_edram_load_store_dest));
    if (_e145 < _e147) {
        xe_edram_load_store_dest[_e145] = _e30;
    }
    let _e154 = (_e145 + 1u);
    if (_e154 < _e147) {
        xe_edram_load_store_dest[_e154] = _e39;
    }
    let _e159 = (_e145 + 2u);
    if (_e159 < _e147) {
        xe_edram_load_store_dest[_e159] = _e48;
    }
    let _e164 = (_e145 + 3u);
    if (_e164 < _e147) {
        xe_edram_load_store_dest[_e164] = _e57;
    }
    return;
}

@compute @workgroup_size(20, 16, 1) 
fn main(@builtin(global_invocation_id) global_invocation_id: vec3<u32>, @builtin(workgroup_id) workgroup_id: vec3<u32>, @builtin(local_invocation_id) local_invocation_id: vec3<u32>) {
    vThreadID.x = global_invocation_id.x;
    vThreadID.y = global_invocation_id.y;
    vThreadID.z = global_invocation_id.z;
    vThreadGroupID.x = workgroup_id.x;
    vThreadGroupID.y = workgroup_id.y;
    vThreadGroupID.z = workgroup_id.z;
    vThreadIDInGroup.x = local_invocation_id.x;
    vThreadIDInGroup.y = local_invocation_id.y;
    vThreadIDInGroup.z = local_invocation_id.z;
    dxbc_main();
    return;
}
