//! Fuzzer findings kept as regression tests (rebuilt from their essence).

/// translate target: a constant-buffer row index past the declared size
/// (cb0[1000] with dcl_constantbuffer CB0[1]) made naga reject a constant
/// out-of-bounds access. D3D reads zero there; the lowering now does too.
#[test]
fn constant_index_past_a_constant_buffer_reads_zero() {
    let mut bytes = dxbc::examples::tint_pixel_shader();
    let s = dxbc::Shader::parse(&bytes).unwrap();
    let p = s.program.as_ref().unwrap();
    let mul = p.instructions.iter().find(|i| i.opcode() == 56).expect("the example multiplies by cb0[0]");
    let cb = mul.operand(p, 2).unwrap();
    assert_eq!(cb.ty(), 8);
    let at = cb.index[1].offset as usize;
    bytes[at..at + 4].copy_from_slice(&1000u32.to_le_bytes());
    let patched = dxbc::Shader::parse(&bytes).unwrap();
    let t = dxbc_naga::translate(&patched, &dxbc_naga::Options::default()).expect("translates and validates");
    let wgsl = dxbc_naga::to_wgsl(&t).unwrap();
    assert!(!wgsl.contains("cb0_[1000]"), "{wgsl}");
}
