//! The interpreter on arbitrary input: a container that decodes is
//! compiled and run as its stage (a pixel quad, thread group 0, or one
//! vertex) with default resources and a small instruction budget. It must
//! never panic or hang; errors are fine.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = dxbc::Shader::parse(data) else { return };
    let Ok(code) = dxbc_interp::compile_shader(&s) else { return };
    let mut b = dxbc_interp::default_bindings(&code);
    let _ = dxbc_interp::run_default(&code, &mut b, dxbc_interp::Limits { budget: 200_000 });
});
