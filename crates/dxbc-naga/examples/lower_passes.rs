//! Lowers every translatable shader under a directory (recursively) N
//! times, for profilers: the instruction counts in the README come from
//!
//! ```sh
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/lower_passes ../shared/corpus/fxc 1   # and 3
//! ```
//!
//! (the difference of the two, halved, is one pass of `translate`; the
//! setup, decoding every file and translating it once to pick the
//! translatable ones, cancels out).
fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("usage: lower_passes DIR [PASSES]");
    let passes: u32 = args.next().map_or(20, |s| s.parse().expect("PASSES is a number"));
    let mut todo = vec![std::path::PathBuf::from(&dir)];
    let mut paths = Vec::new();
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                paths.push(p);
            }
        }
    }
    paths.sort();
    let shaders: Vec<dxbc::Shader> = paths
        .iter()
        .filter_map(|p| dxbc::Shader::parse(&std::fs::read(p).ok()?).ok())
        .filter(|s| dxbc_naga::translate(s, &Default::default()).is_ok())
        .collect();
    let start = std::time::Instant::now();
    for _ in 0..passes {
        for s in &shaders {
            std::hint::black_box(dxbc_naga::translate(s, &Default::default()).ok());
        }
    }
    println!("{} shaders, {:?} per pass", shaders.len(), start.elapsed() / passes.max(1));
}
