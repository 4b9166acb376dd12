//! Carving arbitrary bytes: every found container lies inside the input,
//! starts with the magic, decodes without a container fault, and the
//! checksum work stays within the documented budget.
#![no_main]
use dxbc::carve::{carve, hash_budget, Checksum, Facts};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let r = carve(data);
    let mut hashed = 0usize;
    let mut last = None;
    for (i, f) in r.found.iter().enumerate() {
        assert!(f.range().end <= data.len());
        assert_eq!(&data[f.offset..f.offset + 4], b"DXBC");
        assert!(last.is_none_or(|l| l < f.offset), "found in input order");
        last = Some(f.offset);
        if let Some(p) = f.parent {
            assert!(p < i);
            let outer = &r.found[p];
            assert!(outer.offset < f.offset && f.range().end <= outer.range().end);
        }
        if f.checksum != Checksum::Unchecked {
            hashed += f.size;
        }
        let bytes = &data[f.range()];
        let s = dxbc::Shader::decode(bytes).expect("a carved container parses");
        assert!(s.container.errors.is_empty(), "{:?}", s.container.errors);
        match f.checksum {
            Checksum::Valid => assert!(s.checksum_ok()),
            Checksum::Invalid | Checksum::Unsigned => assert!(!s.checksum_ok()),
            Checksum::Unchecked => {}
        }
        let _ = Facts::of(&s);
    }
    assert!(hashed <= hash_budget(data.len()));
});
