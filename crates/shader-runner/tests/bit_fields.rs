//! Bit fields with immediate widths run as D3D defines them. The lowering
//! decides what an immediate width alone decides (`bfi`'s field mask as a
//! literal, `ubfe`/`ibfe`'s `32 - width` and their lanes of width 0), and
//! converts a literal half in place (`f16tof32`). Here a compute shader does
//! each with register offsets and values, every lane case at once (width 0,
//! a field that fits, one past bit 31), on lavapipe through the WGSL the page
//! runs; the expected words follow the D3D 11 definitions, written out below.

mod common;

/// Thread t takes the value v = t * 0x9e3779b9 and the offset t (masked to
/// five bits by the instructions: 0..31 twice over 64 threads), and stores
/// 24 words at t * 96 bytes: ubfe, ibfe, bfi over a base, bfi over 0, and
/// f16tof32 of literals, each four lanes, then ubfe with width and offset
/// both immediate (the path decided entirely at translation).
const SHADER: &str = "cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 3
dcl_thread_group 64, 1, 1
imul null, r0.x, vThreadIDInGroupFlattened.x, l(-1640531527)
mov r0.y, vThreadIDInGroupFlattened.x
imul null, r0.z, vThreadIDInGroupFlattened.x, l(96)
ubfe r1.xyzw, l(0, 5, 31, 7), r0.yyyy, r0.xxxx
store_raw u0.xyzw, r0.z, r1.xyzw
ibfe r1.xyzw, l(0, 5, 31, 7), r0.yyyy, r0.xxxx
iadd r0.w, r0.z, l(16)
store_raw u0.xyzw, r0.w, r1.xyzw
bfi r1.xyzw, l(7, 0, 31, 3), r0.yyyy, r0.xxxx, l(0, -1, 305419896, 0)
iadd r0.w, r0.z, l(32)
store_raw u0.xyzw, r0.w, r1.xyzw
bfi r1.xyzw, l(4, 4, 4, 4), r0.yyyy, r0.xxxx, l(0, 0, 0, 0)
iadd r0.w, r0.z, l(48)
store_raw u0.xyzw, r0.w, r1.xyzw
f16tof32 r1.xyzw, l(15360, 1, 49152, 1023)
iadd r0.w, r0.z, l(64)
store_raw u0.xyzw, r0.w, r1.xyzw
ubfe r2.xyzw, l(0, 5, 31, 8), l(3, 30, 1, 24), r0.xxxx
iadd r0.w, r0.z, l(80)
store_raw u0.xyzw, r0.w, r2.xyzw
ret
";

/// D3D's `ubfe` (`signed`: `ibfe`): width and offset masked to five bits;
/// width 0 gives 0; a field that ends past bit 31 is `value >> offset`.
fn bfe(width: u32, offset: u32, value: u32, signed: bool) -> u32 {
    let (w, o) = (width & 31, offset & 31);
    if w == 0 {
        return 0;
    }
    let shifted = |v: u32, by: u32| if signed { ((v as i32) >> by) as u32 } else { v >> by };
    if w + o < 32 {
        shifted(value << (32 - (w + o)), 32 - w)
    } else {
        shifted(value, o)
    }
}

/// D3D's `bfi`: the low `width` bits of `insert`, at `offset`, over `base`.
fn bfi(width: u32, offset: u32, insert: u32, base: u32) -> u32 {
    let (w, o) = (width & 31, offset & 31);
    let mask = ((1u32 << w) - 1) << o;
    ((insert << o) & mask) | (base & !mask)
}

#[test]
fn immediate_bit_fields_compute_what_d3d_defines() {
    let bytes = dxbc::asm::assemble(SHADER).expect("the fixture assembles");
    let s = dxbc::Shader::decode(&bytes).unwrap();
    let t = dxbc_naga::translate(&s, &dxbc_naga::Options::default()).expect("translates");
    let wgsl = dxbc_naga::to_wgsl(&t).expect("WGSL");
    // The forms this test is about: literal masks, no width-0 shift by 32, halves converted.
    assert!(wgsl.contains("vec4(0xfu) << ") && !wgsl.contains("unpack2x16float"), "{wgsl}");
    let data = common::run_with_one_buffer(&t, 64 * 96);
    let word = |i: usize| u32::from_le_bytes(data[i * 4..i * 4 + 4].try_into().unwrap());
    let halves = [1.0f32, 2f32.powi(-24), -2.0, 1023.0 * 2f32.powi(-24)].map(f32::to_bits);
    for t in 0..64u32 {
        let (v, o) = (t.wrapping_mul(0x9e37_79b9), t);
        let mut expected = Vec::new();
        expected.extend([0, 5, 31, 7].map(|w| bfe(w, o, v, false)));
        expected.extend([0, 5, 31, 7].map(|w| bfe(w, o, v, true)));
        expected.extend([(7, 0), (0, u32::MAX), (31, 0x1234_5678), (3, 0)].map(|(w, base)| bfi(w, o, v, base)));
        expected.extend([4; 4].map(|w| bfi(w, o, v, 0)));
        expected.extend(halves);
        expected.extend([(0, 3), (5, 30), (31, 1), (8, 24)].map(|(w, o)| bfe(w, o, v, false)));
        let got: Vec<u32> = (0..24).map(|k| word(t as usize * 24 + k)).collect();
        assert_eq!(got, expected, "thread {t}");
    }
}
