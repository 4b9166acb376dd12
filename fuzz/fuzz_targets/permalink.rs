//! Permalink decoding on arbitrary text: never panics, bounded work, and
//! whatever decodes re-encodes to a link that decodes to the same value.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for fragment in [text.to_string(), format!("#v1/{text}")] {
        if let Ok(link) = dxbc::permalink::decode(&fragment) {
            let again = dxbc::permalink::encode(&link);
            assert_eq!(dxbc::permalink::decode(&again).as_ref(), Ok(&link));
        }
    }
});
