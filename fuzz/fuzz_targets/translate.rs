//! Translation on arbitrary input: decoding, lowering and naga validation
//! never panic; whatever validates also goes through the WGSL and SPIR-V
//! writers, which may refuse but not fail. The same for every compute pass
//! of a GS, HS or DS.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = dxbc::Shader::parse(data) else { return };
    let forms = std::iter::once(dxbc_naga::StageForm::Native).chain(dxbc_naga::StageForm::passes(&s).iter().copied());
    for form in forms {
        match dxbc_naga::translate_pipeline_stage(&s, &Default::default(), form) {
            Ok(t) => {
                // A writer may refuse (typed) or withhold; failing on a
                // module that validated is a bug (the SPIR-V post-pass's
                // errors are writer failures too).
                for out in [dxbc_naga::to_wgsl(&t).map(|_| ()), dxbc_naga::to_spirv(&t).map(|_| ())] {
                    if let Err(e) = out {
                        assert!(!matches!(e, dxbc_naga::OutputError::Backend { .. }), "{e}");
                    }
                }
            }
            Err(e) => {
                // Validation failures are translator bugs: fail loudly.
                assert!(!matches!(e, dxbc_naga::TranslateError::Validation { .. }), "{e}");
            }
        }
    }
});
