//! Decodes every shader under a directory, for profilers.
//!
//! * `decode_loop DIR [SECONDS]`: loops for a few seconds and prints the
//!   throughput (a harness for `perf record`).
//! * `decode_loop DIR --passes N`: exactly N passes over the files in path
//!   order, deterministic for instruction counting
//!   (`valgrind --tool=callgrind --toggle-collect='*passes_run*'`; the count
//!   covers decoding and dropping the result, not reading the files).
//! * `decode_loop DIR --passes N --listing`: the same, each decode followed
//!   by fxc's listing of the shader.
//!
//! Usage: cargo run --release -p dxbc --example decode_loop -- DIR [SECONDS | --passes N [--listing]]

fn walk(d: &std::path::Path, out: &mut Vec<Vec<u8>>) {
    let mut entries: Vec<_> =
        std::fs::read_dir(d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "dxbc") {
            out.push(std::fs::read(&p).unwrap());
        }
    }
}

/// Decodes (and drops) every file `passes` times, writing its listing too
/// when `listing` is set; returns the chunk errors met.
#[inline(never)]
fn passes_run(files: &[Vec<u8>], passes: usize, listing: bool) -> usize {
    let mut errors = 0usize;
    for _ in 0..passes {
        for f in files {
            let s = dxbc::Shader::decode(std::hint::black_box(f)).unwrap();
            errors += s.errors.len();
            if listing {
                drop(std::hint::black_box(dxbc::listing::disassemble(&s)));
            }
            drop(std::hint::black_box(s));
        }
    }
    errors
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args.first().cloned().unwrap_or_else(|| "../shared/corpus/vkd3d".into());
    let mut files = Vec::new();
    walk(std::path::Path::new(&dir), &mut files);
    let total: usize = files.iter().map(|f| f.len()).sum();
    if args.get(1).map(String::as_str) == Some("--passes") {
        let passes: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
        let listing = args.get(3).map(String::as_str) == Some("--listing");
        let errors = passes_run(&files, passes, listing);
        println!("{} files, {} bytes, {passes} passes, {errors} chunk errors", files.len(), total);
        return;
    }
    let secs: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let t = std::time::Instant::now();
    let mut n = 0;
    while t.elapsed().as_secs_f64() < secs {
        passes_run(&files, 1, false);
        n += 1;
    }
    println!(
        "{} files, {} bytes: {:.0} MB/s",
        files.len(),
        total,
        (total * n) as f64 / t.elapsed().as_secs_f64() / 1e6
    );
}
