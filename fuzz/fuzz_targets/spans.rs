//! Spans of any input that decodes: the leaves tile the file (sorted, no
//! gap, no overlap, every byte covered once) whatever the damage.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = dxbc::Shader::decode(data) else { return };
    let spans = dxbc::spans::leaves(&s);
    let mut end = 0;
    for l in &spans.leaves {
        assert_eq!(l.offset, end, "gap or overlap at {}", l.path);
        assert!(l.len > 0, "empty leaf {}", l.path);
        end = l.offset + l.len;
    }
    assert_eq!(end, data.len());
    let _ = spans.to_tsv(data);
});
