//! Times `dxbc::spans::leaves` on one file: `cargo run --release -p dxbc --example spans_time FILE`.

fn main() {
    let path = std::env::args().nth(1).expect("usage: spans_time FILE");
    let bytes = std::fs::read(&path).expect("readable file");
    let s = dxbc::Shader::decode(&bytes).expect("decodable container");
    let runs = 20;
    let t = std::time::Instant::now();
    let mut n = 0;
    for _ in 0..runs {
        n = dxbc::spans::leaves(&s).leaves.len();
    }
    let each = t.elapsed() / runs;
    let t = std::time::Instant::now();
    for _ in 0..runs {
        std::hint::black_box(s.checksum_ok());
    }
    let sum = t.elapsed() / runs;
    let t = std::time::Instant::now();
    for _ in 0..runs {
        std::hint::black_box(s.program.as_ref().map(|p| p.tokens().len()));
    }
    let tokens = t.elapsed() / runs;
    println!(
        "{path}: {} bytes, {n} leaves, leaves() {each:?} (checksum {sum:?}, program tokens {tokens:?})",
        bytes.len()
    );
}
