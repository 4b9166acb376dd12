//! Edits in the field model change exactly the tokens and lengths they
//! should, and the listing reads as fxc would print the edited program.

use super::*;
use crate::listing::program::{write_instruction, Ctx};
use crate::spec::{self, FieldDef};

/// ps_5_0: add r0.xyzw, v0.xyzw, v1.xyzw / mov o0.xyzw, r0.xyzw / ret.
fn sample() -> Program {
    Program {
        version: Version { program_type: ProgramType::PixelShader, major: 5, minor: 0, reserved: 0 },
        instructions: vec![
            Instruction::declaration(Opcode::DclTemps, [], [Payload::Count(2)]),
            Instruction::new(Opcode::Add, [Operand::temp(0), Operand::input(0), Operand::input(1)]),
            Instruction::new(Opcode::Mov, [Operand::output(0), Operand::temp(0).swizzle([0, 1, 2, 3])]),
            Instruction::new(Opcode::Ret, []),
        ],
        undecoded: Vec::new(),
        trailing: Vec::new(),
    }
}

fn words(p: &Program) -> Vec<u32> {
    let bytes = p.encode().expect("encodes");
    bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// The listing, one line per instruction, of the encoded program.
fn listing(p: &Program) -> Vec<String> {
    let bytes = p.encode().expect("encodes");
    let (d, errors) = super::super::Program::decode(&bytes, 0);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(Program::from_decoded(&d).as_ref(), Ok(p), "decoding gives back the fields");
    d.instructions
        .iter()
        .map(|ins| {
            let mut s = String::new();
            write_instruction(&d, ins, Ctx::default(), &mut s);
            s
        })
        .collect()
}

fn named(fields: &'static [FieldDef], name: &str) -> &'static FieldDef {
    fields.iter().find(|f| f.name == name).expect("field in the table")
}

/// Indices of the words that differ.
fn diff(a: &[u32], b: &[u32]) -> Vec<usize> {
    assert_eq!(a.len(), b.len());
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

#[test]
fn constructors_encode_the_program_fxc_would_print() {
    let p = sample();
    assert_eq!(listing(&p), ["dcl_temps 2", "add r0.xyzw, v0.xyzw, v1.xyzw", "mov o0.xyzw, r0.xyzw", "ret "]);
    let w = words(&p);
    // Version token, then the program length in dwords.
    assert_eq!(w[0], 0x50);
    assert_eq!(w[1] as usize, w.len());
    // dcl_temps is 2 dwords, add 1 + 3 * 2, mov 1 + 2 * 2, ret 1.
    assert_eq!(w.len(), 2 + 2 + 7 + 5 + 1);
    assert_eq!(spec::opcode_token::LENGTH.get(w[4]), 7);
}

#[test]
fn saturate_flips_one_bit_of_one_token() {
    let mut p = sample();
    let before = words(&p);
    assert!(p.instructions[1].set_saturate(true));
    let after = words(&p);
    // The add's opcode token (after version, length and the 2-dword dcl_temps).
    assert_eq!(diff(&before, &after), [4]);
    assert_eq!(before[4] ^ after[4], named(spec::ALU_CONTROLS, "saturate").mask());
    assert_eq!(listing(&p)[1], "add_sat r0.xyzw, v0.xyzw, v1.xyzw");
    // ret has no saturate control.
    assert!(!p.instructions[3].set_saturate(true));
}

#[test]
fn swizzle_changes_the_operand_token_only() {
    let mut p = sample();
    let before = words(&p);
    p.instructions[1].operands[2].components = Components::Swizzle([3, 2, 1, 0]);
    let after = words(&p);
    // add's third operand token: opcode, r0 (2 dwords), v0 (2 dwords), then v1.
    assert_eq!(diff(&before, &after), [9]);
    let sel = spec::operand_token::SELECTION;
    assert_eq!(sel.get(after[9]), 0b00_01_10_11);
    assert_eq!(before[9] & !sel.mask(), after[9] & !sel.mask());
    assert_eq!(listing(&p)[1], "add r0.xyzw, v0.xyzw, v1.wzyx");
}

#[test]
fn opcode_with_the_same_operand_shape_changes_the_opcode_field_only() {
    let mut p = sample();
    let before = words(&p);
    p.instructions[1].opcode = Opcode::Mul;
    let after = words(&p);
    assert_eq!(diff(&before, &after), [4]);
    assert_eq!(spec::opcode_token::OPCODE.get(after[4]), Opcode::Mul as u32);
    assert_eq!(before[4] & !spec::opcode_token::OPCODE.mask(), after[4] & !spec::opcode_token::OPCODE.mask());
    assert_eq!(listing(&p)[1], "mul r0.xyzw, v0.xyzw, v1.xyzw");
}

#[test]
fn inserting_and_deleting_instructions_moves_the_rest_and_the_length() {
    let mut p = sample();
    let before = words(&p);
    let ins = Instruction::new(Opcode::Mov, [Operand::temp(1).mask(0b0011), Operand::input(0).swizzle([0, 0, 0, 0])]);
    p.instructions.insert(2, ins);
    let after = words(&p);
    // mov r1.xy, v0.xxxx: opcode + 2 operands of 2 dwords.
    assert_eq!(after.len(), before.len() + 5);
    assert_eq!(after[1] as usize, after.len());
    assert_eq!(after[0], before[0]);
    assert_eq!(after[2..11], before[2..11]);
    assert_eq!(after[16..], before[11..]);
    assert_eq!(spec::opcode_token::LENGTH.get(after[11]), 5);
    assert_eq!(listing(&p)[2], "mov r1.xy, v0.xxxx");

    p.instructions.remove(1);
    let shorter = words(&p);
    assert_eq!(shorter.len(), after.len() - 7);
    assert_eq!(shorter[1] as usize, shorter.len());
    assert_eq!(shorter[2..4], before[2..4]);
    assert_eq!(shorter[4..], after[11..]);
    assert_eq!(listing(&p), ["dcl_temps 2", "mov r1.xy, v0.xxxx", "mov o0.xyzw, r0.xyzw", "ret "]);
}

#[test]
fn modifiers_literals_and_relative_indices_round_trip() {
    let mut p = sample();
    let rel = Operand::temp(0).select(2);
    let mut src = Operand::new(OperandType::ConstantBuffer, Components::Swizzle([0, 1, 2, 3]), &[0, 0]);
    src.indices[1] = Index { imm: Some(Imm::U32(3)), rel: Some(Box::new(rel)) };
    p.instructions[1].operands[1] = src.modifier(OperandModifier::Neg);
    p.instructions[1].operands[2] = Operand::literal_f32([1.0, 0.5, -2.0, 0.0]);
    assert_eq!(listing(&p)[1], "add r0.xyzw, -cb0[r0.z + 3].xyzw, l(1.000000, 0.500000, -2.000000, 0.000000)");
}

#[test]
fn values_that_do_not_fit_are_errors_with_offsets() {
    let mut p = sample();
    p.instructions[1].controls = Controls::Alu { saturate: false, precise_mask: 16 };
    let e = p.encode().unwrap_err();
    assert_eq!(e.offset(), 16, "{e}");
    assert!(e.to_string().contains("precise mask 16 does not fit"), "{e}");

    let mut p = sample();
    p.instructions[1].controls = Controls::Test { test: spec::TestBoolean::Nonzero };
    assert!(p.encode().unwrap_err().to_string().contains("do not belong to Add"));

    let mut p = sample();
    p.instructions[2].operands.pop();
    assert!(p.encode().unwrap_err().to_string().contains("takes 2 operands, not 1"));

    let mut p = sample();
    p.instructions[1].operands[0].components = Components::Select1(4);
    assert!(p.encode().is_err());
}

#[test]
fn immediate_constant_buffer_block_counts_its_own_length() {
    let mut p = sample();
    let rows = [[1.0f32.to_bits(), 2, 3, 4], [0, 0, 0, 0x8000_0000]];
    p.instructions.insert(0, Instruction::immediate_constant_buffer(&rows));
    let w = words(&p);
    // Opcode token (class in bits 31:11), then the block length including both.
    assert_eq!(spec::opcode_token::OPCODE.get(w[2]), Opcode::Customdata as u32);
    assert_eq!(
        spec::opcode_token::CUSTOMDATA_CLASS.get(w[2]),
        spec::CustomdataClass::DclImmediateConstantBuffer as u32
    );
    assert_eq!(w[3], 2 + 8);
    assert_eq!(w[4..12], [1.0f32.to_bits(), 2, 3, 4, 0, 0, 0, 0x8000_0000]);
    assert_eq!(
        listing(&p)[0],
        "dcl_immediateConstantBuffer { { 1.000000, 2, 3, 4},\n                              { 0, 0, 0, -0.000000} }"
    );
}

#[test]
fn undefined_values_are_named_and_such_programs_still_rebuild() {
    // ps_5_0, then an instruction of opcode 250 (undefined) and length 1.
    let words = [0x50u32, 3, (1 << 24) | 250];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let (d, errors) = super::super::Program::decode(&bytes, 0);
    assert!(errors.is_empty(), "{errors:?}");
    let e = Program::from_decoded(&d).unwrap_err();
    assert_eq!(e.to_string(), "opcode 250 is not defined (at offset 0x8)");
    // Program::encode writes such a program back from its stored tokens.
    assert_eq!(d.encode(), bytes);
}
