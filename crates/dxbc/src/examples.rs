//! Example shaders the project assembles itself with its own encoder, so
//! the explorer and tests ship no third-party blobs.

use crate::container::write_container;
use crate::spec::{self, FieldDef};

/// Packs `(field, value)` pairs into one token through the format table.
fn pack(fields: &[(&FieldDef, u32)]) -> u32 {
    fields.iter().fold(0, |t, (f, v)| f.put(t, *v))
}

fn opcode(code: u32, extra: u32, len: u32) -> u32 {
    pack(&[
        (&spec::OPCODE_COMMON_FIELDS[0], code),
        (&spec::OPCODE_COMMON_FIELDS[1], len),
    ]) | extra
}

/// Operand token: `ty` register file, 4 components, `mode` selection with
/// `sel` bits, and a 1-D immediate index (or none for literals).
fn operand(ty: u32, mode: u32, sel: u32, dims: u32) -> u32 {
    let f = spec::OPERAND_FIELDS;
    pack(&[
        (&f[0], 2),
        (&f[1], mode),
        (&f[2], sel),
        (&f[3], ty),
        (&f[4], dims),
    ])
}

const XYZW_SWIZZLE: u32 = 0b11_10_01_00;

/// A small ps_5_0 that tints an interpolated colour by a constant:
/// `mul o0.xyzw, v0.xyzw, cb0[0].xyzw` preceded by its declarations.
pub fn tint_pixel_shader() -> Vec<u8> {
    let mut w: Vec<u32> = Vec::new();
    w.push(pack(&[
        (&spec::VERSION_FIELDS[0], 0),
        (&spec::VERSION_FIELDS[1], 5),
        (&spec::VERSION_FIELDS[3], 0),
    ]));
    w.push(0);
    // dcl_globalFlags refactoringAllowed
    w.push(opcode(106, 1 << 11, 1));
    // dcl_constantbuffer CB0[1], immediateIndexed
    w.extend([opcode(89, 0, 4), operand(8, 1, XYZW_SWIZZLE, 2), 0, 1]);
    // dcl_input_ps linear v0.xyzw
    w.extend([opcode(98, 2 << 11, 3), operand(1, 0, 0xf, 1), 0]);
    // dcl_output o0.xyzw
    w.extend([opcode(101, 0, 3), operand(2, 0, 0xf, 1), 0]);
    // mul o0.xyzw, v0.xyzw, cb0[0].xyzw
    w.extend([
        opcode(56, 0, 8),
        operand(2, 0, 0xf, 1),
        0,
        operand(1, 1, XYZW_SWIZZLE, 1),
        0,
        operand(8, 1, XYZW_SWIZZLE, 2),
        0,
        0,
    ]);
    // ret
    w.push(opcode(62, 0, 1));
    w[1] = w.len() as u32;
    let program: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    write_container(1, &[(*b"SHEX", &program)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tint_shader_decodes_and_prints() {
        let bytes = tint_pixel_shader();
        let s = crate::Shader::parse(&bytes).unwrap();
        assert!(s.checksum_ok());
        let p = s.program.as_ref().unwrap();
        let mut text = String::new();
        crate::listing::program::write_program(p, false, &mut text);
        assert_eq!(
            text,
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_constantbuffer CB0[1], immediateIndexed\n\
             dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\nmul o0.xyzw, v0.xyzw, cb0[0].xyzw\nret \n"
        );
        assert_eq!(s.rebuild(), bytes);
    }
}
