//! Translates one file and prints the outcome and timing (debugging aid for
//! fuzzer findings).
fn main() {
    let path = std::env::args().nth(1).expect("usage: translate_bytes FILE");
    let b = std::fs::read(&path).unwrap();
    let t = std::time::Instant::now();
    match dxbc::Shader::parse(&b) {
        Err(e) => println!("decode error: {e}"),
        Ok(s) => match dxbc_naga::translate(&s, &Default::default()) {
            Ok(tr) => {
                let w = dxbc_naga::to_wgsl(&tr).map(|w| w.len());
                let v = dxbc_naga::to_spirv(&tr).map(|v| v.len());
                println!("ok: wgsl {w:?} spirv {v:?}");
            }
            Err(e) => println!("error: {e}"),
        },
    }
    println!("{:?}", t.elapsed());
}
