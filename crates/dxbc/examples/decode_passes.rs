//! Decodes every shader under a directory a fixed number of times; a
//! deterministic harness for instruction counting
//! (`valgrind --tool=callgrind --toggle-collect='*passes_run*'`; the
//! count covers decoding and dropping the result, not reading the files).
//! Usage: cargo run --release -p dxbc --example decode_passes -- DIR [PASSES]

fn walk(d: &std::path::Path, out: &mut Vec<Vec<u8>>) {
    let mut entries: Vec<_> = std::fs::read_dir(d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten().collect();
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

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "../shared/corpus/vkd3d".into());
    let passes: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let mut files = Vec::new();
    walk(std::path::Path::new(&dir), &mut files);
    let total: usize = files.iter().map(|f| f.len()).sum();
    let errors = passes_run(&files, passes);
    println!("{} files, {} bytes, {passes} passes, {errors} chunk errors", files.len(), total);
}

/// Decodes (and drops) every file `passes` times; returns the chunk errors met.
#[inline(never)]
fn passes_run(files: &[Vec<u8>], passes: usize) -> usize {
    let mut errors = 0usize;
    for _ in 0..passes {
        for f in files {
            let s = dxbc::Shader::decode(std::hint::black_box(f)).unwrap();
            errors += s.errors.len();
            drop(std::hint::black_box(s));
        }
    }
    errors
}
