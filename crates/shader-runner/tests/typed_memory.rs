//! Raw and structured memory typed by use must not change what runs. DXBC
//! memory has no type: the lowering declares a region's words f32 (or i32)
//! when its loads and stores favour that kind (`dxbc_naga`'s
//! `memory_kinds`), so a float stored there and loaded back is not bitcast
//! twice. Here a compute shader goes through group-shared memory and a raw
//! UAV, both typed f32, on lavapipe; the values are D3D's, worked by hand.

use dxbc_naga::{BindingKind, Options, RegisterClass};

mod common;

/// Thread i stores i * 0.5 in g0[i], then reads its neighbour's word
/// j = (i + 1) % 64 twice as a float (v = j * 0.5; v * (v + v)) and stores
/// that in u0[i], and its own i * 0.5 in u0[65 + i]; word 64 is stored as
/// an integer (the thread count, a denormal's bits as a float), so the f32
/// UAV must carry bits it never computes with.
const THROUGH_SHARED: &str = "cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_tgsm_raw g0, 256
dcl_thread_group 64, 1, 1
utof r0.x, vThreadIDInGroupFlattened.x
mul r0.y, r0.x, l(0.500000)
ishl r1.x, vThreadIDInGroupFlattened.x, l(2)
store_raw g0.x, r1.x, r0.y
sync_g_t
iadd r1.y, vThreadIDInGroupFlattened.x, l(1)
and r1.y, r1.y, l(63)
ishl r1.y, r1.y, l(2)
ld_raw r0.z, r1.y, g0.xxxx
add r0.w, r0.z, r0.z
mul r0.z, r0.z, r0.w
store_raw u0.x, r1.x, r0.z
iadd r1.z, r1.x, l(260)
store_raw u0.x, r1.z, r0.y
store_raw u0.x, l(256), l(64)
ret
";

fn translate() -> dxbc_naga::Translation {
    let bytes = dxbc::asm::assemble(THROUGH_SHARED).expect("the fixture assembles");
    let s = dxbc::Shader::decode(&bytes).unwrap();
    dxbc_naga::translate(&s, &Options::default()).expect("translates")
}

#[test]
fn memory_typed_by_use_computes_what_d3d_defines() {
    let t = translate();
    // The one binding is u0, where the translation placed it.
    assert_eq!(t.bindings.len(), 1, "{:?}", t.bindings);
    let entry = &t.bindings[0];
    assert!(entry.class == RegisterClass::UnorderedAccess && entry.register == 0);
    assert!(matches!(entry.kind, BindingKind::StorageBuffer { .. }), "{:?}", entry.kind);
    let data = common::run_with_one_buffer(&t, 129 * 4);
    let word = |i: usize| u32::from_le_bytes(data[i * 4..i * 4 + 4].try_into().unwrap());
    for i in 0..64 {
        let v = ((i + 1) % 64) as f32 * 0.5;
        assert_eq!(f32::from_bits(word(i)), v * (v + v), "u0[{i}]");
        assert_eq!(f32::from_bits(word(65 + i)), i as f32 * 0.5, "u0[{}]", 65 + i);
    }
    assert_eq!(word(64), 64, "the integer word keeps its bits");
}

/// Both regions are declared f32, and the float goes in and out of them
/// without a bitcast (the group-shared read is the word itself); the integer stored
/// in the f32 UAV keeps its bits (a subnormal: from a variable, not a
/// literal an implementation may flush).
#[test]
fn memory_read_and_written_as_floats_is_declared_f32() {
    let wgsl = dxbc_naga::to_wgsl(&translate()).expect("WGSL");
    assert!(wgsl.contains("var<workgroup> g0_: array<f32, 64>"), "{wgsl}");
    assert!(wgsl.contains("var<storage, read_write> u0_: array<f32>"), "{wgsl}");
    assert!(wgsl.contains("let r0_z = g0_[("), "{wgsl}");
    assert!(!wgsl.contains("bitcast<f32>(select") && !wgsl.contains("bitcast<u32>((r0_"), "{wgsl}");
    assert!(!wgsl.contains(" u32((r0_"), "{wgsl}");
    assert!(wgsl.contains("var bits_00000040_: u32 = 64u;") && !wgsl.contains("e-44"), "{wgsl}");
}
