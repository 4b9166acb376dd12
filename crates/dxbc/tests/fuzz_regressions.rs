//! Inputs the fuzzers found, kept as regression tests (rebuilt here from
//! their essence rather than stored as mutated corpus files).

/// roundtrip target: a chunk whose size is not a multiple of four made the
/// rebuilt container place the next chunk at an unaligned offset, which
/// the decoder (rightly) rejects.
#[test]
fn odd_sized_chunk_rebuilds_to_a_decodable_container() {
    let shex = dxbc::examples::tint_pixel_shader();
    let s = dxbc::Shader::parse(&shex).unwrap();
    let program = &shex[s.container.chunks[0].data_range()];
    let bytes = dxbc::container::write_container(1, &[(*b"PRIV", &[1, 2, 3]), (*b"SHEX", program)]);
    let a = dxbc::Shader::parse(&bytes).expect("padded container decodes");
    assert_eq!(a.container.chunks[0].size, 3);
    assert_eq!(a.container.chunks[1].offset % 4, 0);
    let rebuilt = a.rebuild();
    assert_eq!(rebuilt, bytes, "an already padded container rebuilds identically");
    let b = dxbc::Shader::parse(&rebuilt).unwrap();
    assert_eq!(dxbc::listing::disassemble(&a), dxbc::listing::disassemble(&b));
}
