//! The live preview on arbitrary input: the model and plan of any shader
//! that decodes (reflection is attacker-controlled), and the codecs a link
//! or a dropped file reaches (control values, settings, reference files).
//! Never panics; what decodes re-encodes to the same bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use preview_model::{payload, plan, reference, settings, PreviewModel};

fuzz_target!(|data: &[u8]| {
    if let Ok(shader) = dxbc::Shader::decode(data) {
        let model = PreviewModel::new(&shader);
        let values = model.defaults();
        let _ = model.pack_all(&values);
        let _ = plan::build(&shader, &model, &values, &settings::Settings::default());
    }
    if let Ok(v) = payload::decode(data) {
        let once = payload::encode(&v);
        assert_eq!(payload::encode(&payload::decode(&once).unwrap()), once);
    }
    if let Ok(s) = settings::decode(data) {
        assert_eq!(settings::decode(&settings::encode(&s)).as_ref(), Ok(&s));
    }
    if let Ok(r) = reference::decode(data) {
        assert_eq!(reference::decode(&reference::encode(&r)).as_ref(), Ok(&r));
    }
});
