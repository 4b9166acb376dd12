//! `wasm-split instrument IN OUT`: writes a copy of IN that records which
//! functions run (see the library's docs).
//! `wasm-split split IN PROFILE PRIMARY SECONDARY [LINKED]`: moves the functions
//! PROFILE (the instrumented module's profile memory, dumped) never saw run
//! from IN to SECONDARY, and writes the rest, with stubs, to PRIMARY. With
//! LINKED (wasm-ld's output for IN, linked with `--emit-relocs`), the data
//! no kept function can reach moves too.

use std::process::ExitCode;

fn run(args: &[String]) -> Result<String, Box<dyn std::error::Error>> {
    match args {
        [cmd, input, output] if cmd == "instrument" => {
            let wasm = std::fs::read(input)?;
            std::fs::write(output, wasm_split::instrument(&wasm)?)?;
            Ok(format!("{output}: instrumented {} functions", wasm_split::defined_functions(&wasm)?))
        }
        [cmd, input, profile, primary, secondary, linked @ ..] if cmd == "split" && linked.len() <= 1 => {
            let wasm = std::fs::read(input)?;
            let hot = wasm_split::hot_from_profile(&std::fs::read(profile)?, wasm_split::defined_functions(&wasm)?)?;
            let layout = match linked {
                [path] => Some(wasm_split::DataLayout::read(&std::fs::read(path)?)?),
                _ => None,
            };
            let split = wasm_split::split_with_data(&wasm, &hot, layout.as_ref())?;
            std::fs::write(primary, &split.primary)?;
            std::fs::write(secondary, &split.secondary)?;
            Ok(format!(
                "{} functions kept ({primary}, {} bytes), {} moved and {} data bytes ({secondary}, {} bytes)",
                split.kept,
                split.primary.len(),
                split.moved,
                split.moved_data,
                split.secondary.len()
            ))
        }
        _ => Err("usage: wasm-split instrument IN OUT | wasm-split split IN PROFILE PRIMARY SECONDARY [LINKED]".into()),
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
