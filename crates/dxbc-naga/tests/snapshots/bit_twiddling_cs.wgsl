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

    let xe_edram_load_store_source_len = arrayLength((&xe_edram_load_store_source));
    let xe_edram_load_store_source_last = (xe_edram_load_store_source_len - 1u);
    let xe_edram_load_store_dest_len = arrayLength((&xe_edram_load_store_dest));
    let xe_edram_rt_color_depth_pitch = XeEdramLoadStoreConstants.xe_edram_rt_color_depth_pitch;
    let r0_x = ((global_invocation_id.y * xe_edram_rt_color_depth_pitch) + (global_invocation_id.x << 4u));
    let xe_edram_rt_color_depth_offset = XeEdramLoadStoreConstants.xe_edram_rt_color_depth_offset;
    let _e17 = ((r0_x + xe_edram_rt_color_depth_offset) / 4u);
    let _e31 = (_e17 + 1u);
    let _e40 = (_e17 + 2u);
    let _e49 = (_e17 + 3u);
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
    let r1_y_1 = (((r1_y + workgroup_id.x) * 5120u) + u32((vec3<i32>(local_invocation_id).yyyy * vec4(320i)).z));
    let r1_y_2 = (((xe_edram_base_samples_2x_depth_pitch >> 13u) & 1u) << 1u);
    let r1_x_3 = (((r1_x << 2u) + r1_y_1) << (r1_y_2 & 0x1fu));
    let _e132 = (r1_x_3 / 4u);
    if (_e132 < xe_edram_load_store_dest_len) {
        xe_edram_load_store_dest[_e132] = select(0u, xe_edram_load_store_source[min(_e17, xe_edram_load_store_source_last)], (_e17 < xe_edram_load_store_source_len));
    }
    let _e142 = (_e132 + 1u);
    if (_e142 < xe_edram_load_store_dest_len) {
        xe_edram_load_store_dest[_e142] = select(0u, xe_edram_load_store_source[min(_e31, xe_edram_load_store_source_last)], (_e31 < xe_edram_load_store_source_len));
    }
    let _e147 = (_e132 + 2u);
    if (_e147 < xe_edram_load_store_dest_len) {
        xe_edram_load_store_dest[_e147] = select(0u, xe_edram_load_store_source[min(_e40, xe_edram_load_store_source_last)], (_e40 < xe_edram_load_store_source_len));
    }
    let _e152 = (_e132 + 3u);
    if (_e152 < xe_edram_load_store_dest_len) {
        xe_edram_load_store_dest[_e152] = select(0u, xe_edram_load_store_source[min(_e49, xe_edram_load_store_source_last)], (_e49 < xe_edram_load_store_source_len));
    }
    return;
}
