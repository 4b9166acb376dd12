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

/// effects target: a type record whose member strings or member types were
/// out of bounds failed the walk only when the reader recorded its fields
/// (the spans' layout), so the layout and the decode named different
/// shaders. Every first visit of a type record now reads all of it. The
/// input is the fuzzer's, as it found it (with and without the fx_5_0 tag
/// the target puts before it).
#[test]
fn recording_the_effect_layout_finds_the_same_shaders() {
    let hex = "0000000000000000020000000000000000000000000000000000f700480000003f8080808080500080808080808080802f808000000000000000008005000000000000000000000000000000fc000000210000000000000000000080060000000200000010000000008000808004000000ffffff0800000000bbbbbbbb0000000f000500000000000000000000000600000000000000000000000000000000000000000000000000050000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000f00000000000000000000ffffff110000000000000000000000000000000000000000000000f8ff000000000000000000000000000000060000001000030000000000000000000000000000000000000000000447000000000000000000000073735959595959005959595f5900152473";
    let data: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
    let mut tagged = 0xFEFF_2001u32.to_le_bytes().to_vec();
    tagged.extend_from_slice(&data);
    let mut checked = 0;
    for input in [&data[..], &tagged[..]] {
        if let Some(r) = dxbc::effects::find(input) {
            let (recorded, _) = dxbc::effects::layout(input, r.clone());
            assert_eq!(recorded.shaders, dxbc::effects::decode(input, r).shaders);
            checked += 1;
        }
    }
    assert!(checked > 0, "the input is taken as an effect");
}
