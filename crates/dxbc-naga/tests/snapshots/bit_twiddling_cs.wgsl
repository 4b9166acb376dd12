struct XeEdramLoadStoreConstants_t {
    xe_edram_rt_color_depth_offset: u32,
    xe_edram_rt_color_depth_pitch: u32,
    xe_edram_rt_stencil_offset: u32,
    xe_edram_rt_stencil_pitch: u32,
    xe_edram_base_samples_2x_depth_pitch: u32,
    pad_1y: u32,
    pad_1zw: vec2<u32>,
}

@group(0) @binding(0) var<uniform> XeEdramLoadStoreConstants: XeEdramLoadStoreConstants_t;
@group(1) @binding(0) var<storage> xe_edram_load_store_source: array<u32>;
@group(3) @binding(0) var<storage, read_write> xe_edram_load_store_dest: array<u32>;

@compute @workgroup_size(20, 16, 1) 
fn main(@builtin(global_invocation_id) global_invocation_id: vec3<u32>, @builtin(workgroup_id) workgroup_id: vec3<u32>, @builtin(local_invocation_id) local_invocation_id: vec3<u32>) {
    var r1_x: u32 = u32();

    let xe_edram_rt_color_depth_pitch = XeEdramLoadStoreConstants.xe_edram_rt_color_depth_pitch;
    let r0_x = ((global_invocation_id.y * xe_edram_rt_color_depth_pitch) + (global_invocation_id.x << 4u));
    let xe_edram_rt_color_depth_offset = XeEdramLoadStoreConstants.xe_edram_rt_color_depth_offset;
    let r0_x_1 = (r0_x + xe_edram_rt_color_depth_offset);
    let _e17 = (r0_x_1 / 4u);
    let _e19 = arrayLength((&xe_edram_load_store_source));
    let _e21 = (_e19 - 1u);
    let _e26 = xe_edram_load_store_source[min(_e17, _e21)];
    let _e28 = select(0u, _e26, (_e17 < _e19));
    let _e30 = (_e17 + 1u);
    let _e35 = xe_edram_load_store_source[min(_e30, _e21)];
    let _e37 = select(0u, _e35, (_e30 < _e19));
    let _e39 = (_e17 + 2u);
    let _e44 = xe_edram_load_store_source[min(_e39, _e21)];
    let _e46 = select(0u, _e44, (_e39 < _e19));
    let _e48 = (_e17 + 3u);
    let _e53 = xe_edram_load_store_source[min(_e48, _e21)];
    let _e55 = select(0u, _e53, (_e48 < _e19));
    let r1_x_1 = (local_invocation_id.x << 2u);
    let xe_edram_base_samples_2x_depth_pitch = XeEdramLoadStoreConstants.xe_edram_base_samples_2x_depth_pitch;
    let r1_yz = (vec2(xe_edram_base_samples_2x_depth_pitch) & vec2<u32>(0x8000u, 0x7ffu));
    r1_x = r1_x_1;
    if (r1_yz.x != 0u) {
        let r1_yw = select(vec2(0u), vec2<u32>(40u, 4294967256u), vec2<bool>((local_invocation_id.x < 10u), (local_invocation_id.x >= 10u)));
        let r1_x_2 = ((r1_yw.y + r1_yw.x) + r1_x_1);
        r1_x = r1_x_2;
    }
    let r1_y = ((workgroup_id.y * (xe_edram_base_samples_2x_depth_pitch >> 16u)) + r1_yz.y);
    let r1_y_1 = (((r1_y + workgroup_id.x) * 5120u) + bitcast<u32>((bitcast<vec3<i32>>(local_invocation_id).yyyy * vec4(320i)).z));
    let _e116 = r1_x;
    let r1_y_2 = (((xe_edram_base_samples_2x_depth_pitch >> 13u) & 1u) << 1u);
    let r1_x_3 = (((_e116 << 2u) + r1_y_1) << (r1_y_2 & 0x1fu));
    let _e131 = (r1_x_3 / 4u);
    let _e133 = arrayLength((&xe_edram_load_store_dest));
    if (_e131 < _e133) {
        xe_edram_load_store_dest[_e131] = _e28;
    }
    let _e140 = (_e131 + 1u);
    if (_e140 < _e133) {
        xe_edram_load_store_dest[_e140] = _e37;
    }
    let _e145 = (_e131 + 2u);
    if (_e145 < _e133) {
        xe_edram_load_store_dest[_e145] = _e46;
    }
    let _e150 = (_e131 + 3u);
    if (_e150 < _e133) {
        xe_edram_load_store_dest[_e150] = _e55;
    }
    return;
}
