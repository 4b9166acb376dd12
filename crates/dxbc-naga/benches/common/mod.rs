//! What the translation benches share: reading a corpus and the median
//! per-file time.

use std::path::Path;
use std::time::Instant;

/// Every `.dxbc` under `d`, recursively; a missing corpus fails loudly.
pub fn walk(d: &Path, out: &mut Vec<Vec<u8>>) {
    for e in std::fs::read_dir(d).unwrap_or_else(|e| panic!("corpus {} missing: {e}", d.display())).flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "dxbc") {
            out.push(std::fs::read(&p).unwrap());
        }
    }
}

/// Median seconds per file of `f`, each timed over enough repetitions to
/// last 2 ms.
pub fn median<T: AsRef<[u8]>>(files: &[T], f: impl Fn(&[u8])) -> f64 {
    median_each(files, |file| f(file.as_ref()))
}

/// Median seconds per item of `f` (an item prepared beforehand: a decoded
/// shader, a translation), each timed as [`median`] times a file.
#[allow(dead_code)] // not every bench splits its stages
pub fn median_each<T>(items: &[T], f: impl Fn(&T)) -> f64 {
    let mut t: Vec<f64> = items
        .iter()
        .map(|item| {
            let mut reps = 1u32;
            loop {
                let start = Instant::now();
                for _ in 0..reps {
                    f(item);
                }
                let el = start.elapsed().as_secs_f64();
                if el > 2e-3 {
                    return el / reps as f64;
                }
                reps *= 4;
            }
        })
        .collect();
    t.sort_by(|a, b| a.total_cmp(b));
    t.get(t.len() / 2).copied().unwrap_or(f64::NAN)
}
