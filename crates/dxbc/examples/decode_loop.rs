//! Decodes every shader under a directory in a loop for a few seconds and
//! prints the throughput; a harness for profilers (`perf record`).
//! Usage: cargo run --release -p dxbc --example decode_loop -- DIR [SECONDS]

fn walk(d: &std::path::Path, out: &mut Vec<Vec<u8>>) {
    for e in std::fs::read_dir(d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "dxbc") {
            out.push(std::fs::read(&p).unwrap());
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "../shared/corpus/vkd3d".into());
    let secs: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let mut files = Vec::new();
    walk(std::path::Path::new(&dir), &mut files);
    let total: usize = files.iter().map(|f| f.len()).sum();
    let t = std::time::Instant::now();
    let mut n = 0;
    while t.elapsed().as_secs_f64() < secs {
        for f in &files {
            std::hint::black_box(dxbc::Shader::decode(std::hint::black_box(f)).unwrap());
        }
        n += 1;
    }
    println!(
        "{} files, {} bytes: {:.0} MB/s",
        files.len(),
        total,
        (total * n) as f64 / t.elapsed().as_secs_f64() / 1e6
    );
}
