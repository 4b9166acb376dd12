//! Effects decoding of arbitrary bytes, bare or behind a DXBC container:
//! no panic; every shader lies inside the input; faults point inside it;
//! the spans tile the input; carving names only containers it found.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Force the effect path on most inputs: fx_5_0 tag, then the fuzzed bytes.
    let mut tagged = 0xFEFF_2001u32.to_le_bytes().to_vec();
    tagged.extend_from_slice(data);
    for input in [data, &tagged[..]] {
        if let Some(r) = dxbc::effects::find(input) {
            assert!(r.end <= input.len());
            let (e, parts) = dxbc::effects::layout(input, r.clone());
            assert_eq!(e.shaders, dxbc::effects::decode(input, r).shaders, "recording changes nothing");
            for s in &e.shaders {
                assert!(s.range().end <= input.len());
            }
            for p in &parts {
                assert!(p.range.end <= input.len(), "{}", p.path);
            }
            for err in &e.errors {
                assert!(err.offset() <= input.len(), "{err}");
            }
        }
        if let Some(spans) = dxbc::spans::effect_leaves(input) {
            let mut end = 0;
            for l in &spans.leaves {
                assert_eq!(l.offset, end, "gap or overlap at {}", l.path);
                end = l.offset + l.len;
            }
            assert_eq!(end, input.len());
        }
        for f in dxbc::carve::carve(input).found {
            assert!(f.range().end <= input.len());
        }
    }
});
