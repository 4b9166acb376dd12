//! Unit tests per token kind, on programs assembled word by word here.

use super::*;
use crate::listing::program::{write_instruction, Ctx};

const BASE: usize = 0x40;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A ps_5_0 program around `body`, with the length token filled in.
fn program(body: &[u32]) -> Vec<u32> {
    let mut w = vec![0x0000_0050, 0];
    w.extend_from_slice(body);
    w[1] = w.len() as u32;
    w
}

fn decode_ok(body: &[u32]) -> Program {
    let words = program(body);
    let (p, errors) = Program::decode(&bytes(&words), BASE);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(p.encode(), bytes(&words), "re-encoding changed the bytes");
    p
}

fn text(p: &Program, i: usize) -> String {
    let mut s = String::new();
    write_instruction(p, &p.instructions[i], Ctx::modern(p), &mut s);
    s
}

/// Opcode token with `len` and extra control bits.
fn opc(code: u32, len: u32, controls: u32) -> u32 {
    code | (len << 24) | controls
}

const SWZ_XYZW: u32 = 0xe4 << 4 | 1 << 2 | 2; // 4 components, swizzle mode, .xyzw
const MASK_XYZW: u32 = 0xf << 4 | 2; // 4 components, mask mode, .xyzw

fn reg(ty: u32, sel: u32, dims: u32) -> u32 {
    sel | ty << 12 | dims << 20
}

#[test]
fn version_and_length_tokens() {
    let p = decode_ok(&[opc(62, 1, 0)]);
    assert_eq!(p.version.profile(), "ps_5_0");
    assert_eq!(p.length, 3);
    let t = p.locate(BASE).unwrap();
    assert_eq!(t.role, TokenRole::Version);
    let f = t.fields(&p);
    assert_eq!(f.iter().find(|f| f.name == "program type").unwrap().meaning, Some("PIXEL_SHADER"));
    assert_eq!(p.locate(BASE + 5).unwrap().role, TokenRole::Length);
}

#[test]
fn alu_with_saturate_precise_and_modifiers() {
    // add_sat [precise(x)] r0.x, -r1.yyyy, |v2.x|
    let neg = 1 | 1 << 6; // modifier extension, negate
    let abs = 1 | 2 << 6;
    let body = [
        opc(0, 8, 1 << 13 | 1 << 19),
        reg(0, 1 << 4 | 2, 1),
        0,
        reg(0, 0x55 << 4 | 1 << 2 | 2, 1) | 1 << 31,
        neg,
        1,
        reg(1, (2 << 2) | 2, 1) | 1 << 31,
        abs,
        2,
    ];
    // The instruction is 9 dwords long.
    let mut b = body.to_vec();
    b[0] = opc(0, 9, 1 << 13 | 1 << 19);
    let p = decode_ok(&b);
    assert_eq!(text(&p, 0), "add_sat [precise(x)] r0.x, -r1.yyyy, |v2.x|");
    let op = p.instructions[0].operand(&p, 1).unwrap();
    assert_eq!(op.modifier(&p), 1);
    // Byte 0 of the extended operand token is the modifier extension.
    let ext_at = op.offset as usize + 4;
    let (t, f) = p.locate_bit(ext_at, 6).unwrap();
    assert_eq!(t.role, TokenRole::ExtendedOperand { operand: op_id(&p, 0, 1) });
    assert_eq!(f.unwrap().meaning, Some("NEG"));
}

fn op_id(p: &Program, ins: usize, i: usize) -> u32 {
    p.instructions[ins].ops.as_slice()[i]
}

#[test]
fn immediates_typed_by_opcode() {
    // mul r0.xyzw, r0.xyzw, l(0.5, -1, 0, 2) ; iadd r0.x, r0.x, l(-1) ; mov r0.xy, l(0,0,0,1.0)
    let half = 0.5f32.to_bits();
    let body = [
        opc(56, 9, 0),
        reg(0, MASK_XYZW, 1),
        0,
        reg(0, SWZ_XYZW, 1),
        0,
        reg(4, 2, 0),
        half,
        (-1.0f32).to_bits(),
        0,
        // second instruction
        opc(30, 7, 0),
        reg(0, 1 << 4 | 2, 1),
        0,
        reg(0, 2 << 2 | 2, 1),
        0,
        reg(4, 1, 0),
    ];
    let mut b = body.to_vec();
    // the 4-component literal needs 4 dwords: patch in the last one
    b.insert(9, 2.0f32.to_bits());
    b[0] = opc(56, 10, 0);
    b.push(u32::MAX);
    let p = decode_ok(&b);
    assert_eq!(text(&p, 0), "mul r0.xyzw, r0.xyzw, l(0.500000, -1.000000, 0.000000, 2.000000)");
    assert_eq!(text(&p, 1), "iadd r0.x, r0.x, l(-1)");
    let lit = p.instructions[0].operand(&p, 2).unwrap();
    assert_eq!(lit.imm(&p), &[half, (-1.0f32).to_bits(), 0, 2.0f32.to_bits()]);
    let loc = p.locate(lit.offset as usize + 8).unwrap();
    assert_eq!(loc.role, TokenRole::Immediate { operand: op_id(&p, 0, 2), component: 1 });
}

#[test]
fn untyped_mov_guesses_each_component() {
    let body = [opc(54, 7, 0), reg(0, 0x3 << 4 | 2, 1), 0, reg(4, 2, 0), 0, 1, 0x8000_0000, 1.0f32.to_bits()];
    let mut b = body.to_vec();
    b[0] = opc(54, 8, 0);
    let p = decode_ok(&b);
    assert_eq!(text(&p, 0), "mov r0.xy, l(0,1,-0.000000,1.000000)");
}

#[test]
fn relative_and_two_dimensional_indices() {
    // mov r0.x, cb2[r1.y + 3].z ; mov o[r0.x + 0].x, icb[r0.x + 0].x
    let rel_y = reg(0, 1 << 4 | 2 << 2 | 2, 1);
    let body = [opc(54, 9, 0), reg(0, 1 << 4 | 2, 1), 0, reg(8, 2 << 4 | 2 << 2 | 2, 2) | 3 << 25, 2, 3, rel_y, 1];
    let mut b = body.to_vec();
    b[0] = opc(54, 8, 0);
    let p = decode_ok(&b);
    assert_eq!(text(&p, 0), "mov r0.x, cb2[r1.y + 3].z");
    let cb = p.instructions[0].operand(&p, 1).unwrap();
    assert_eq!(cb.index_dim(), 2);
    assert_eq!(cb.index_rep(1), 3);
    assert_ne!(cb.index[1].rel, NO_OPERAND);
    // Purely relative (representation 2) still prints "+ 0" as fxc does.
    let body2 = [
        opc(54, 7, 0),
        reg(2, 1 << 4 | 2, 1) | 2 << 22,
        reg(0, 2 << 2 | 2, 1),
        0,
        reg(9, 2 << 2 | 2, 1) | 2 << 22,
        reg(0, 2 << 2 | 2, 1),
        0,
    ];
    let p = decode_ok(&body2);
    assert_eq!(text(&p, 0), "mov o[r0.x + 0].x, icb[r0.x + 0].x");
}

#[test]
fn sixty_four_bit_index_and_double_literal() {
    // dmov r0.xy, d(1.0, 0) with a 64-bit index on the destination
    let one = 1.0f64.to_bits();
    let body =
        [opc(199, 9, 0), reg(0, 0x3 << 4 | 2, 1) | 1 << 22, 0, 0, reg(5, 2, 0), one as u32, (one >> 32) as u32, 0, 0];
    let p = decode_ok(&body);
    assert_eq!(text(&p, 0), "dmov r0.xy, d(1.000000l, 0.000000l)");
    assert_eq!(p.instructions[0].operand(&p, 0).unwrap().index[0].imm, 0);
}

#[test]
fn extended_opcode_tokens_print_as_fxc_suffixes() {
    // sample_aoffimmi_indexable(-1,2,0)(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, t0.xyzw, s0
    let ctl = 1 | 1 << 31 | (0xf << 9) | (2 << 13);
    let dim = 2 | 1 << 31 | 3 << 6;
    let ret = 3 | (5 << 6 | 5 << 10 | 5 << 14 | 5 << 18);
    let body = [
        opc(69, 12, 1 << 31),
        ctl,
        dim,
        ret,
        reg(0, MASK_XYZW, 1),
        0,
        reg(1, 0x04 << 4 | 1 << 2 | 2, 1),
        0,
        reg(7, SWZ_XYZW, 1),
        0,
        reg(6, 0, 1),
        0,
    ];
    let p = decode_ok(&body);
    assert_eq!(
        text(&p, 0),
        "sample_aoffimmi_indexable(-1,2,0)(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, t0.xyzw, s0"
    );
    let ins = &p.instructions[0];
    assert_eq!(ins.ext(&p).len(), 3);
    let (t, f) = p.locate_bit(ins.offset as usize + 4, 10).unwrap();
    assert_eq!(t.role, TokenRole::ExtendedOpcode);
    let f = f.unwrap();
    assert_eq!((f.name, f.value), ("u offset", 0xf));
}

#[test]
fn conditional_and_control_flow_indentation() {
    use crate::listing::program::write_program;
    let body = [opc(31, 3, 1 << 18), reg(0, 2 << 2 | 2, 1), 0, opc(2, 1, 0), opc(21, 1, 0), opc(62, 1, 0)];
    let p = decode_ok(&body);
    let mut s = String::new();
    write_program(&p, false, false, &mut s);
    assert_eq!(s, "ps_5_0\nif_nz r0.x\n  break \nendif \nret \n");
}

#[test]
fn declarations_with_payload() {
    let body = [
        // dcl_resource_texture2d (float,float,float,float) t3
        opc(88, 4, 3 << 11),
        reg(7, 0, 1),
        3,
        0x5555,
        // dcl_input_ps_siv linear noperspective v1.xy, position
        opc(100, 4, 4 << 11),
        reg(1, 0x3 << 4 | 2, 1),
        1,
        1,
        // dcl_indexableTemp x0[6], 4
        opc(105, 4, 0),
        0,
        6,
        4,
        // dcl_thread_group 8, 8, 1
        opc(155, 4, 0),
        8,
        8,
        1,
        // dcl_function_table ft1 = {fb0, fb2} with an explicit length dword
        opc(145, 0, 1 << 31),
        6,
        1,
        2,
        0,
        2,
    ];
    let p = decode_ok(&body);
    assert_eq!(text(&p, 0), "dcl_resource_texture2d (float,float,float,float) t3");
    assert_eq!(text(&p, 1), "dcl_input_ps_siv linear noperspective v1.xy, position");
    assert_eq!(text(&p, 2), "dcl_indexableTemp x0[6], 4");
    assert_eq!(text(&p, 3), "dcl_thread_group 8, 8, 1");
    assert_eq!(text(&p, 4), "dcl_function_table ft1 = {fb0, fb2}");
    assert_eq!(p.instructions[4].long_length, Some(6));
    let name = p.instructions[1].payload(&p)[0];
    assert_eq!(name.word, Word::Name);
    let t = p.locate(name.offset as usize).unwrap();
    assert_eq!(t.fields(&p)[0].meaning, Some("POSITION"));
}

#[test]
fn immediate_constant_buffer_block() {
    let body = [53 | 3 << 11, 10, 1.0f32.to_bits(), 0, 0, 0, 0x0000_abcd, 2, 3, 4];
    let p = decode_ok(&body);
    assert!(p.instructions[0].is_customdata());
    assert_eq!(
        text(&p, 0),
        "dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},\n                              { 0x0000abcd, 2, 3, 4} }"
    );
    assert_eq!(p.locate(BASE + 12).unwrap().role, TokenRole::InstructionLength);
}

#[test]
fn padding_after_operands_is_kept_and_ignored() {
    // samplepos with one trailing zero dword inside its declared length
    let body = [opc(110, 8, 0), reg(0, 0x3 << 4 | 2, 1), 1, reg(7, 0x04 << 4 | 1 << 2 | 2, 1), 1, reg(4, 1, 0), 0, 0];
    let p = decode_ok(&body);
    assert_eq!(text(&p, 0), "samplepos r1.xy, t1.xyxx, l(0)");
    assert_eq!(p.instructions[0].payload(&p)[0].word, Word::Count("padding"));
}

fn decode_err(body: &[u32]) -> (Program, Error) {
    let (p, mut e) = Program::decode(&bytes(&program(body)), BASE);
    assert_eq!(e.len(), 1, "expected exactly one error");
    (p, e.remove(0))
}

#[test]
fn errors_name_the_offset_and_keep_what_decoded() {
    // ret, then an instruction claiming 5 dwords with only 2 left
    let (p, e) = decode_err(&[opc(62, 1, 0), opc(54, 5, 0), reg(0, 0, 1)]);
    assert_eq!(p.instructions.len(), 1);
    assert_eq!(e.offset(), BASE + 12);
    assert!(e.to_string().ends_with("(at offset 0x4c)"), "{e}");
    // zero length
    let (_, e) = decode_err(&[opc(54, 0, 0)]);
    assert_eq!(e.offset(), BASE + 8);
    // operand runs past the instruction: mov with a 2-D operand cut short
    let (_, e) = decode_err(&[opc(54, 4, 0), reg(0, MASK_XYZW, 1), 0, reg(8, SWZ_XYZW, 2)]);
    assert_eq!(e.offset(), BASE + 8 + 16);
    // undefined index representation
    let (_, e) = decode_err(&[opc(54, 4, 0), reg(0, MASK_XYZW, 1) | 7 << 22, 0, 0]);
    assert_eq!(e.offset(), BASE + 12);
    // length token larger than the chunk
    let mut w = program(&[opc(62, 1, 0)]);
    w[1] = 100;
    let (_, e) = Program::decode(&bytes(&w), BASE);
    assert_eq!(e[0].offset(), BASE + 4);
}

#[test]
fn custom_data_length_is_checked() {
    let (_, e) = decode_err(&[53 | 3 << 11, 50, 0]);
    assert_eq!(e.offset(), BASE + 12);
    let (_, e) = decode_err(&[53 | 3 << 11, 1]);
    assert_eq!(e.offset(), BASE + 12);
}

#[test]
fn encoder_recomputes_lengths_after_an_edit() {
    let mut p = decode_ok(&[opc(54, 5, 0), reg(0, 1 << 4 | 2, 1), 0, reg(4, 1, 0), 7, opc(62, 1, 0)]);
    // Edit one bitfield: the literal's value, then re-encode.
    let id = op_id(&p, 0, 1) as usize;
    let at = p.operands[id].pool as usize;
    p.pool[at] = 9;
    let again = Program::decode(&p.encode(), BASE).0;
    assert_eq!(text(&again, 0), "mov r0.x, l(9)");
    assert_eq!(again.length, 8);
}

#[test]
fn op_ids_without_drops_one_position() {
    let ids = OpIds::contiguous(10, 4);
    assert_eq!(ids.without(1).as_slice(), &[10, 12, 13]);
    assert_eq!(ids.without(0).as_slice(), &[11, 12, 13]);
    assert_eq!(ids.without(4).as_slice(), &[10, 11, 12, 13]);
    assert_eq!(OpIds::default().without(0).as_slice(), &[] as &[u32]);
}
