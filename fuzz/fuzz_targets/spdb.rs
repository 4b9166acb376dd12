//! SPDB (`/Zi` debug information) on arbitrary bytes: whole containers whose
//! SPDB chunk drives the annotated listing, its line map and the spans, and
//! raw bytes taken as an SPDB payload.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = dxbc::Shader::decode(data) {
        if let Some(p) = s.spdb.as_deref() {
            let _ = p.source_text();
            let _ = dxbc::listing::disassemble(&s);
            let _ = dxbc::listing::lines::LineMap::new(&s);
            let sp = dxbc::spans::leaves(&s);
            let mut end = 0;
            for l in &sp.leaves {
                assert_eq!(l.offset, end, "spans must tile the file");
                end += l.len;
            }
            assert_eq!(end, data.len());
        }
    } else if let Ok(p) = dxbc::chunks::spdb::Spdb::parse(data, 0) {
        let _ = p.source_text();
        let _ = p.source_summary();
        for st in &p.msf.streams {
            assert!(st.data.len() <= data.len() * 2);
        }
    }
});
