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
    g0_[local_invocation_index] = r0_x;
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
        let r0_w = (g0_[(_e55 | local_invocation_index)] >= g0_[(~(_e55) & local_invocation_index)]);
        let r1_x = g0_[(_e55 ^ local_invocation_index)];
        let r1_y = g0_[local_invocation_index];
        workgroupBarrier();
        g0_[local_invocation_index] = select(r1_y, r1_x, (r0_y == r0_w));
        workgroupBarrier();
        r0_z = (_e55 >> 1u);
    }
    let r0_x_1 = g0_[local_invocation_index];
    if (global_invocation_id.x < Data_len) {
        Data[global_invocation_id.x] = r0_x_1;
    }
    return;
}
