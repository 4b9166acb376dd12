use super::*;

#[test]
fn identical_and_saturate_flip() {
    let bytes = crate::examples::tint_pixel_shader();
    let a = Shader::decode(&bytes).unwrap();
    assert!(diff(&a, &a).is_empty());
    let p = a.program.as_ref().unwrap();
    let mul = p.instructions.iter().find(|i| i.op() == Some(crate::spec::Opcode::Mul)).unwrap();
    let e = crate::edit::set_field(&bytes, mul.offset as usize, "saturate", "1").unwrap();
    let d = diff(&a, &e.shader);
    assert!(!d.is_empty());
    // Only the checksum (bytes 4..20) of the header changes.
    assert!(d.header.iter().all(|r| r.start >= 4 && r.end <= 20), "{:?}", d.header);
    let changed: Vec<&InsDiff> = d.instructions.iter().filter(|i| !matches!(i, InsDiff::Same(..))).collect();
    let off = mul.offset as usize;
    match changed.as_slice() {
        [InsDiff::Changed { fields, a_bytes, b_bytes, .. }] => {
            assert_eq!(fields.iter().map(|f| (f.name, f.a, f.b)).collect::<Vec<_>>(), [("saturate", 0, 1)]);
            let want = std::iter::once(off..off + 4).collect::<Vec<_>>();
            assert_eq!((a_bytes, b_bytes), (&want, &want));
        }
        other => panic!("{other:?}"),
    }
}
