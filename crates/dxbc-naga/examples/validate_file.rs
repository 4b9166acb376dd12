//! Prints naga's full validation error for one file (a debugging aid).
fn main() {
    for path in std::env::args().skip(1) {
        let b = std::fs::read(&path).unwrap();
        let s = dxbc::Shader::parse(&b).unwrap();
        match dxbc_naga::translate(&s, &Default::default()) {
            Ok(_) => println!("{path}: ok"),
            Err(e) => println!("{path}: {e}"),
        }
    }
}
