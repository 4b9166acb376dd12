struct CB_t {
    g_iLevel: u32,
    g_iLevelMask: u32,
    g_iWidth: u32,
    g_iHeight: u32,
}

@group(0) @binding(0) var<uniform> CB: CB_t;
@group(3) @binding(0) var<storage, read_write> Data: array<u32>;
var<workgroup> g0_: array<u32, 512>;

@compute @workgroup_size(512, 1, 1) 
fn main(@builtin(global_invocation_id) global_invocation_id: vec3<u32>, @builtin(local_invocation_index) local_invocation_index: u32) {
    var r0_z: u32 = u32();

    let Data_len = arrayLength((&Data));
    let r0_x = select(0u, Data[min(global_invocation_id.x, (Data_len - 1u))], (global_invocation_id.x < Data_len));
    if (local_invocation_index < 512u) {
        g0_[local_invocation_index] = r0_x;
    }
    workgroupBarrier();
    let g_iLevel = CB.g_iLevel;
    let g_iLevelMask = CB.g_iLevelMask;
    let r0_y = ((global_invocation_id.x & g_iLevelMask) != 0u);
    r0_z = (g_iLevel >> 1u);
    loop {
        let _e55 = r0_z;
        if (0u >= _e55) {
            break;
        }
        let r0_w = (~(_e55) & local_invocation_index);
        let r1_x = (_e55 | local_invocation_index);
        let r0_w_1 = (select(0u, g0_[min(r1_x, 511u)], (r1_x < 512u)) >= select(0u, g0_[min(r0_w, 511u)], (r0_w < 512u)));
        let r1_x_1 = (_e55 ^ local_invocation_index);
        let r0_w_2 = select(select(0u, g0_[min(local_invocation_index, 511u)], (local_invocation_index < 512u)), select(0u, g0_[min(r1_x_1, 511u)], (r1_x_1 < 512u)), (r0_y == r0_w_1));
        workgroupBarrier();
        if (local_invocation_index < 512u) {
            g0_[local_invocation_index] = r0_w_2;
        }
        workgroupBarrier();
        r0_z = (_e55 >> 1u);
    }
    let r0_x_1 = select(0u, g0_[min(local_invocation_index, 511u)], (local_invocation_index < 512u));
    if (global_invocation_id.x < Data_len) {
        Data[global_invocation_id.x] = r0_x_1;
    }
    return;
}
