//! `wasm-split instrument IN OUT`: writes a copy of IN that records which
//! functions run (see the library's docs).
//! `wasm-split split IN PROFILE PRIMARY SECONDARY`: moves the functions
//! PROFILE (the instrumented module's profile memory, dumped) never saw run
//! from IN to SECONDARY, and writes the rest, with stubs, to PRIMARY.

use std::process::ExitCode;

fn run(args: &[String]) -> Result<String, Box<dyn std::error::Error>> {
    match args {
        [cmd, input, output] if cmd == "instrument" => {
            let wasm = std::fs::read(input)?;
            std::fs::write(output, wasm_split::instrument(&wasm)?)?;
            Ok(format!("{output}: instrumented {} functions", wasm_split::defined_functions(&wasm)?))
        }
        [cmd, input, profile, primary, secondary] if cmd == "split" => {
            let wasm = std::fs::read(input)?;
            let hot = wasm_split::hot_from_profile(&std::fs::read(profile)?, wasm_split::defined_functions(&wasm)?)?;
            let split = wasm_split::split(&wasm, &hot)?;
            std::fs::write(primary, &split.primary)?;
            std::fs::write(secondary, &split.secondary)?;
            Ok(format!(
                "{} functions kept ({primary}, {} bytes), {} moved ({secondary}, {} bytes)",
                split.kept,
                split.primary.len(),
                split.moved,
                split.secondary.len()
            ))
        }
        _ => Err("usage: wasm-split instrument IN OUT | wasm-split split IN PROFILE PRIMARY SECONDARY".into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("wasm-split: {e}");
            ExitCode::FAILURE
        }
    }
}
