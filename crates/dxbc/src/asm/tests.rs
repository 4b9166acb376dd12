//! Unit tests: token values against the spec's layouts, and error positions.

use super::*;
use crate::Shader;

fn words(text: &str) -> Vec<u32> {
    let b = assemble_program(text).unwrap();
    b.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

#[test]
fn tokens_follow_the_spec() {
    // D3D10_SB_OPCODE_MOV (0x36) of length 5; r0.x mask x (0x00100012);
    // a scalar 32-bit immediate (0x00004001) holding 1.0f.
    let w = words("ps_4_0\nmov r0.x, l(1.000000)\n");
    assert_eq!(w, vec![0x0000_0040, 7, 0x0500_0036, 0x0010_0012, 0, 0x0000_4001, 0x3f80_0000]);
    // A source select-1 of r1.y with negate: extended operand token (modifier 1).
    let w = words("vs_5_0\nmov r0.x, -r1.y\n");
    assert_eq!(&w[2..], &[0x0600_0036, 0x0010_0012, 0, 0x8010_001a, 0x0000_0041, 1]);
}

#[test]
fn relative_indices_and_ranges() {
    // cb0[r0.x + 5]: 2-D, swizzle xyxx, index 1 immediate plus relative
    // (representation 3), the relative operand r0.x a select-1.
    let w = words("ps_5_0\nmov r1.xy, cb0[r0.x + 5].xyxx\n");
    assert_eq!(&w[2..], &[0x0800_0036, 0x0010_0032, 1, 0x0620_8046, 0, 5, 0x0010_000a, 0]);
    let s = Shader::parse(&assemble("ps_5_0\nmov r1.xy, cb0[r0.x + 5].xyxx\n").unwrap()).unwrap();
    let text = crate::listing::disassemble(&s);
    assert!(text.contains("mov r1.xy, cb0[r0.x + 5].xyxx\n"), "{text}");
}

#[test]
fn errors_name_line_column_and_offset() {
    let e = assemble("// x\nps_5_0\nmov r0.x, q1.x\n").unwrap_err();
    assert_eq!((e.line, e.column, e.offset), (3, 11, 5 + 7 + 10));
    assert_eq!(e.to_string(), "unknown register `q` at line 3, column 11 (at offset 0x16)");
    let e = assemble("ps_5_0\nadd r0.x, r1.x\n").unwrap_err();
    assert_eq!(e.message, "`add` takes 3 operands, found 2");
    let e = assemble("ps_5_0\nfrobnicate r0.x\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 1));
    let e = assemble("// only a comment\n").unwrap_err();
    assert_eq!(e.message, "no profile line (such as `ps_5_0`) found");
    let e = assemble("ps_5_0\ndcl_immediateConstantBuffer { { 1, 2, 3, 4},\n").unwrap_err();
    assert_eq!(e.message, "unterminated dcl_immediateConstantBuffer");
    let err: crate::Error = assemble("ps_5_0\nmov r0.x r1.x\n").unwrap_err().into();
    assert!(err.to_string().ends_with("at line 2, column 10 (at offset 0x10)"), "{err}");
}

#[test]
fn nesting_and_odd_text_do_not_panic() {
    let deep = format!("ps_5_0\nmov r0.x, {}r0.x{}\n", "cb0[".repeat(100), " + 0]".repeat(100));
    assert!(assemble(&deep).is_err());
    for text in [
        "ps_5_0\nmov r0.\u{e9}, l(\n",
        "ps_5_0\n\u{1f600}\n",
        "ps_5_0\nl(",
        "ps_5_0\ndcl_interface fp0[1][1] = {ft",
        "ps_5_0\nsample_aoffimmi(9,9,9) r0",
    ] {
        let _ = assemble(text);
    }
}
