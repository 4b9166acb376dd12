//! Names from the reflection data, resolved to the bytes of their strings
//! and to the registers the program reads them through.
//!
//! * a constant-buffer variable: the `cb` elements its bytes lie in;
//! * a resource binding: its register range in the file its input type
//!   says (`cb`, `t`, `s` or `u`);
//! * a signature semantic (`TEXCOORD`, `TEXCOORD1`, case-insensitive): its
//!   input, output or patch-constant register, with its component mask.
//!
//! Shader model 5.1 names registers by range id, with the bind point as the
//! second index; the registers built here leave the id open there.

use crate::chunks::signature::Signature;
use crate::register::Register;
use crate::spec::OperandType;
use crate::Shader;
use std::ops::Range;

/// Register ranges longer than this resolve to their first registers only.
const MAX_REGISTERS: u32 = 4096;

/// The name strings (bytes, and the record they name) and registers `name` stands for.
pub fn resolve(s: &Shader, name: &str) -> (Vec<(Range<usize>, String)>, Vec<Register>) {
    let sm51 = s.program.as_ref().is_some_and(|p| p.version.is_sm51());
    let mut strings = Vec::new();
    let mut regs = Vec::new();
    let string = |base: usize, off: u32, text: &str| base + off as usize..base + off as usize + text.len() + 1;
    let reg = |file, bind: u32, rest: &[Option<u64>], mask| {
        let mut index = if sm51 { vec![None] } else { Vec::new() };
        index.push(Some(bind as u64));
        index.extend_from_slice(rest);
        Register { file, index, mask, bare: false }
    };
    if let Some(r) = &s.rdef {
        for (i, cb) in r.constant_buffers.iter().enumerate() {
            let bind = r.bindings.iter().find(|b| b.input_type == 0 && b.name == cb.name).map(|b| b.bind_point);
            for (j, v) in cb.variables.iter().enumerate() {
                if v.name != name {
                    continue;
                }
                let what = format!("RDEF/constant_buffers[{i}]/variables[{j}] {} in {}", v.name, cb.name);
                strings.push((string(r.offset, v.name_offset, &v.name), what));
                let Some(bind) = bind else { continue };
                let first = u64::from(v.start_offset) / 16;
                let last = (u64::from(v.start_offset) + u64::from(v.size.max(1)) - 1) / 16;
                for e in first..=last.min(first + u64::from(MAX_REGISTERS)) {
                    regs.push(reg(OperandType::ConstantBuffer, bind, &[Some(e)], 0));
                }
            }
        }
        for (i, b) in r.bindings.iter().enumerate() {
            if b.name != name {
                continue;
            }
            strings.push((string(r.offset, b.name_offset, &b.name), format!("RDEF/bindings[{i}] {}", b.name)));
            let file = match b.input_type {
                0 => OperandType::ConstantBuffer,
                1 | 2 | 5 | 7 => OperandType::Resource,
                3 => OperandType::Sampler,
                _ => OperandType::UnorderedAccessView,
            };
            let count = if b.bind_count == 0 { 1 } else { b.bind_count.min(MAX_REGISTERS) };
            for k in 0..count {
                regs.push(reg(file, b.bind_point.saturating_add(k), &[], 0));
            }
        }
    }
    let stage = s.program.as_ref().map(|p| p.version.program_type());
    let sigs = [
        (&s.input_signature, Side::Input),
        (&s.output_signature, Side::Output),
        (&s.patch_constant_signature, Side::Patch),
    ];
    for (sig, side) in sigs {
        if let Some(sig) = sig {
            signature(sig, side, stage, name, &mut strings, &mut regs);
        }
    }
    (strings, regs)
}

#[derive(Clone, Copy)]
enum Side {
    Input,
    Output,
    Patch,
}

/// Program types: 2 geometry, 3 hull, 4 domain.
fn signature(
    sig: &Signature,
    side: Side,
    stage: Option<u32>,
    name: &str,
    strings: &mut Vec<(Range<usize>, String)>,
    regs: &mut Vec<Register>,
) {
    let tag = crate::container::fourcc_text(&sig.fourcc);
    for (i, e) in sig.elements.iter().enumerate() {
        let indexed = format!("{}{}", e.name, e.semantic_index);
        let hit = e.name.eq_ignore_ascii_case(name) || indexed.eq_ignore_ascii_case(name);
        if !hit {
            continue;
        }
        let at = sig.offset + e.name_offset as usize;
        strings.push((at..at + e.name.len() + 1, format!("{tag}/elements[{i}] {indexed}")));
        if e.register == u32::MAX {
            continue;
        }
        let r = Some(e.register as u64);
        let (file, index) = match (side, stage) {
            (Side::Input, Some(2)) => (OperandType::Input, vec![None, r]),
            (Side::Input, Some(3 | 4)) => (OperandType::InputControlPoint, vec![None, r]),
            (Side::Input, _) => (OperandType::Input, vec![r]),
            (Side::Output, _) => (OperandType::Output, vec![r]),
            (Side::Patch, Some(4)) => (OperandType::InputPatchConstant, vec![r]),
            (Side::Patch, _) => (OperandType::Output, vec![r]),
        };
        regs.push(Register { file, index, mask: e.mask & 0xf, bare: false });
    }
}
