//! The explorer's input auto-detection (files and pasted text: hex, base64,
//! C arrays, fxc headers, links) on arbitrary input. The module is the web
//! app's own plain-Rust file, included here so the fuzzer runs exactly the
//! code the page runs.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../../web/src/input.rs"]
#[allow(dead_code)]
mod input;

fuzz_target!(|data: &[u8]| {
    let _ = input::detect_file(data);
    let _ = input::detect_text(&String::from_utf8_lossy(data));
});
