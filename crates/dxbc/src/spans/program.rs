//! SHDR/SHEX: one leaf per token dword, from [`Program::tokens`]. The
//! bitfields inside a token stay sub-fields of that leaf
//! ([`Program::locate_bit`] names them); the leaf's path says which
//! instruction, operand and index the dword belongs to, and links to the
//! instruction's listing line.

use super::{Builder, Link, Texts};
use crate::program::{Program, TokenRole, NO_OPERAND};
use crate::spec;

const TEXTS: Texts = &[
    ("version", "Version token: program type (bits 16–31) and shader model (major bits 4–7, minor 0–3)."),
    ("length", "Length token: the program's size in dwords, version and length tokens included."),
    (
        "opcode",
        "Opcode token: the opcode (bits 0–10), its controls, the instruction length (24–30) and the extended bit (31).",
    ),
    ("instruction_length", "Explicit length in dwords of a long declaration or custom-data block."),
    ("extended_opcode", "Extended opcode token: sample offsets, resource dimension or return type of the instruction."),
    ("operand", "Operand token: register file, component selection, index dimension and how each index is stored."),
    ("extended_operand", "Extended operand token: source modifier (neg/abs), minimum precision, non-uniform flag."),
    ("immediate", "A 32-bit immediate value of an operand (l(…) in the listing)."),
    ("index", "An immediate register index of an operand (a 64-bit index takes two dwords, high first)."),
    ("payload", "A declaration or custom-data payload dword."),
];

/// Claims every decoded dword; the tiling names what follows a fault.
pub(super) fn claim(p: &Program, payload_len: usize, prefix: &str, b: &mut Builder) {
    let mut cur: Option<usize> = None;
    let mut paths: Vec<(u32, String)> = Vec::new();
    let mut q = String::new();
    let (mut ext, mut payload, mut last_index) = (0usize, 0usize, None::<(u32, u8)>);
    for t in p.tokens() {
        let v = t.value as u64;
        let Some(i) = t.instruction else {
            // The decoder reads the version and length only from a payload
            // that holds both.
            if payload_len < 8 {
                continue;
            }
            let (key, meaning) = match t.role {
                TokenRole::Version => ("version", p.version.profile()),
                _ => ("length", String::new()),
            };
            b.num_m(TEXTS, key, format!("{prefix}/{key}"), t.offset, 4, v, meaning);
            continue;
        };
        if cur != Some(i) {
            cur = Some(i);
            paths = operand_paths(p, i);
            (ext, payload, last_index) = (0, 0, None);
            q = format!("{prefix}/instructions[{i}]");
        }
        let path_of = |id: u32| paths.iter().find(|(x, _)| *x == id).map_or("operands[?]", |(_, s)| s.as_str());
        // Paths are built by pushing pieces into a sized string: this loop
        // runs once per dword, and `format!` here cost most of its time.
        let mut path = String::with_capacity(q.len() + 48);
        path.push_str(&q);
        path.push('/');
        let (key, meaning): (&str, &'static str) = match t.role {
            TokenRole::Opcode => {
                path.push_str("opcode");
                ("opcode", opcode_meaning(t.value))
            }
            TokenRole::InstructionLength => {
                path.push_str("length");
                ("instruction_length", "")
            }
            TokenRole::ExtendedOpcode => {
                push_indexed(&mut path, "extended", ext);
                ext += 1;
                ("extended_opcode", "")
            }
            TokenRole::Operand { operand } => {
                path.push_str(path_of(operand));
                path.push_str("/token");
                ("operand", spec::OPERAND_TYPE.get((t.value >> 12) & 0xff).map_or("", |e| e.spec_name))
            }
            TokenRole::ExtendedOperand { operand } => {
                path.push_str(path_of(operand));
                path.push_str("/extended");
                ("extended_operand", "")
            }
            TokenRole::Immediate { operand, component } => {
                path.push_str(path_of(operand));
                path.push('/');
                push_indexed(&mut path, "immediate", component as usize);
                ("immediate", "")
            }
            TokenRole::Index { operand, dim } => {
                let wide = p.operands.get(operand as usize).is_some_and(|o| matches!(o.index_rep(dim as usize), 1 | 4));
                let second = last_index == Some((operand, dim));
                last_index = Some((operand, dim));
                path.push_str(path_of(operand));
                path.push('/');
                push_indexed(&mut path, "index", dim as usize);
                path.push_str(match (wide, second) {
                    (false, _) => "",
                    (true, false) => "/high",
                    (true, true) => "/low",
                });
                ("index", "")
            }
            TokenRole::Payload(w) => {
                push_indexed(&mut path, "payload", payload);
                payload += 1;
                ("payload", w.name())
            }
            TokenRole::Version | TokenRole::Length => ("length", ""),
        };
        b.num_m(TEXTS, key, path, t.offset, 4, v, meaning);
        b.link(Link::Instruction(i));
    }
}

/// The mnemonic (or custom-data class) an opcode token stands for.
fn opcode_meaning(token: u32) -> &'static str {
    let code = token & 0x7ff;
    if code == spec::opc::CUSTOMDATA as u32 {
        return spec::CUSTOMDATA_CLASS.get(token >> 11).map_or("customdata", |e| e.spec_name);
    }
    spec::opcode(code).map_or("", |o| o.asm)
}

/// Appends `name[i]`.
fn push_indexed(s: &mut String, name: &str, i: usize) {
    s.push_str(name);
    s.push('[');
    crate::listing::push_decimal(s, i as u64);
    s.push(']');
}

/// Path of every operand of instruction `i` relative to the instruction:
/// `operands[k]` for top-level ones, `…/index[d]/relative` for the operands
/// that compute a relative index. Walked with a worklist, so nesting depth
/// costs no stack.
fn operand_paths(p: &Program, i: usize) -> Vec<(u32, String)> {
    let Some(ins) = p.instructions.get(i) else { return Vec::new() };
    let mut out: Vec<(u32, String)> =
        ins.ops.as_slice().iter().enumerate().map(|(k, &id)| (id, format!("operands[{k}]"))).collect();
    let mut next = 0;
    while next < out.len() {
        let (id, path) = out[next].clone();
        next += 1;
        let Some(op) = p.operands.get(id as usize) else { continue };
        for d in 0..op.index_dim() {
            let rel = op.index[d].rel;
            if op.index_rep(d) >= 2 && rel != NO_OPERAND && out.len() < p.operands.len() {
                out.push((rel, format!("{path}/index[{d}]/relative")));
            }
        }
    }
    out
}
