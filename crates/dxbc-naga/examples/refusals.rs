//! The refusal table over corpus folders: counts by `Limitation` and stage.
//!
//! `cargo run --release -p dxbc-naga --example refusals -- DIR...`

use std::process::ExitCode;

fn main() -> ExitCode {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        eprintln!("usage: refusals DIR...");
        return ExitCode::from(2);
    }
    let mut files = Vec::new();
    for d in &dirs {
        match dxbc_naga::report::dxbc_files(std::path::Path::new(d)) {
            Ok(f) => files.extend(f),
            Err(e) => {
                eprintln!("refusals: {d}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    match dxbc_naga::report::RefusalTable::of_files(&files) {
        Ok(t) => {
            print!("{}", t.render());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("refusals: {e}");
            ExitCode::from(2)
        }
    }
}
