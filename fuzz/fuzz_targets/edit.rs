//! The edit API on arbitrary containers: the last nine bytes choose a token
//! offset, a field and a value (or an instruction to delete and re-insert);
//! the rest is the container. Never panics; an accepted edit is a valid,
//! signed container that decodes strictly, and undoing it gives the input
//! back when the input was itself validly signed.
#![no_main]
use dxbc::edit;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let (bytes, k) = data.split_at(data.len() - 9);
    let offset = u32::from_le_bytes([k[0], k[1], k[2], k[3]]) as usize % bytes.len().max(1);
    let pick = k[4];
    let value = u32::from_le_bytes([k[5], k[6], k[7], k[8]]);
    let Ok((tok, fields)) = edit::fields_at(bytes, offset) else { return };
    let original_ok = dxbc::Shader::parse(bytes).is_ok_and(|s| s.checksum_ok());
    if pick & 0x80 != 0 {
        if let Ok(d) = edit::delete_instruction(bytes, tok.offset) {
            assert!(d.shader.checksum_ok());
            let words: Vec<u32> = bytes[tok.offset..]
                .chunks_exact(4)
                .take((bytes.len() - d.bytes.len()) / 4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            let back = edit::insert_instruction(&d.bytes, tok.offset, &words).expect("re-insert what was deleted");
            if original_ok {
                assert_eq!(back.bytes, bytes);
            }
        }
        return;
    }
    let Some(def) = fields.get(pick as usize % fields.len().max(1)) else { return };
    if let Ok(e) = edit::set_field(bytes, offset, def.name, &value.to_string()) {
        assert!(e.shader.checksum_ok());
        let undo = edit::set_bits(&e.bytes, offset, def.lo, def.hi, def.get(tok.value));
        if let (Ok(u), true) = (undo, original_ok) {
            assert_eq!(u.bytes, bytes);
        }
    }
});
