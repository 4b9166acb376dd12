//! The software doubles' WGSL computes nothing the translator already knows:
//! the helper functions are written once for every operand, and steps that
//! take constants (a zero high word, a shift by 0, a comparison of two
//! literals) are computed while building them (`soft_f64::ir`'s folding,
//! exact in u32 arithmetic as the CPU form computes it). The GPU test
//! `shader-runner/tests/doubles_software.rs` checks the folded functions
//! bit for bit against Rust's f64.

use dxbc_naga::SoftDouble;

/// Whether `line` holds `(A op B)` with two u32 literals, or a function of a
/// literal alone that folding computes.
fn computes_a_constant(line: &str) -> Option<String> {
    let literal = |t: &str| {
        t.trim_start_matches('(').trim_end_matches([')', ';', ',']).strip_suffix('u').is_some_and(|d| {
            !d.is_empty()
                && (d.chars().all(|c| c.is_ascii_digit())
                    || d.strip_prefix("0x").is_some_and(|h| h.chars().all(|c| c.is_ascii_hexdigit())))
        })
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    for w in words.windows(3) {
        let op = ["+", "-", "*", "&", "|", "^", "<<", ">>", "==", "<"].contains(&w[1]);
        if op
            && w[0].starts_with('(')
            && literal(w[0])
            && literal(w[2])
            && w[2].trim_end_matches([';', ',']).ends_with(')')
        {
            return Some(w.join(" "));
        }
    }
    for call in ["countLeadingZeros(", "select(0u, 0u,", "select(true", "select(false", "true && ", "false || "] {
        if let Some(at) = line.find(call) {
            let rest = &line[at + call.len()..];
            let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
            if !call.starts_with("countLeadingZeros") || (digits > 0 && rest[digits..].starts_with("u)")) {
                return Some(line.trim().to_string());
            }
        }
    }
    None
}

#[test]
fn the_software_double_functions_fold_their_constants() {
    let wgsl = dxbc_naga::software_doubles_wgsl(&SoftDouble::ALL).expect("the library writes as WGSL");
    let found: Vec<String> = wgsl.lines().filter_map(computes_a_constant).collect();
    assert!(found.is_empty(), "{} constant computations left, e.g. {:?}", found.len(), &found[..found.len().min(5)]);
    // The check itself finds what it looks for.
    assert!(computes_a_constant("let _e5 = (0u == 0u);").is_some());
    assert!(computes_a_constant("let _e6 = countLeadingZeros(0u);").is_some());
    assert!(computes_a_constant("let _e7 = (a.x + 32u);").is_none());
}
