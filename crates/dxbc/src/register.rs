//! Registers named as the listing names them (`r3.xy`, `cb0[5]`, `v1`,
//! `x0[2]`, `icb[..]`, `vThreadID`), and how program operands touch them.
//!
//! A [`Register`] is matched against decoded operands, never against
//! listing text: the register file is the operand-type field, the indices
//! are the operand's immediate indices, and the components are the write
//! mask, the swizzle's selectors or the selected component. Search and
//! def-use share this one reading of operands.

use crate::program::{Instruction, Operand, Program, NO_OPERAND};
use crate::spec::{self, OperandType, SelectionMode};
use std::fmt;

/// A register, or a family of them when indices are left open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Register {
    /// The register file.
    pub file: OperandType,
    /// Immediate indices in listing order (`cb0[5]` is `[0, 5]`); `None`
    /// (written `[..]`) matches any index. Indices past these match anything.
    pub index: Vec<Option<u64>>,
    /// Components asked for (bit 0 = x); 0 means all.
    pub mask: u8,
    /// The first index was written as a number after the file (`v1`), not
    /// in brackets (`v[0][1]`): for per-vertex inputs (`v[vertex][register]`)
    /// it then names the register, in any vertex.
    pub bare: bool,
}

/// How an instruction uses an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Access {
    /// Written (a destination).
    Write,
    /// Read (a source, or a relative index).
    Read,
    /// Named by a declaration.
    Declare,
}

impl Register {
    /// Reads `r3`, `r3.xy`, `cb0[5]`, `cb0[..]`, `x0[2]`, `icb[7]`,
    /// `vicp[1][0]`, `oDepth`, … (register files spelled as fxc spells them).
    pub fn parse(text: &str) -> Option<Register> {
        let t = text.trim();
        let (body, mask) = match t.rsplit_once('.') {
            Some((b, m)) if m.bytes().all(|c| c.is_ascii_alphabetic()) => (b, component_mask(m)?),
            _ => (t, 0),
        };
        // The longest file name the text starts with, so `vicp` wins over `v`.
        let (file, rest) = spec::OPERAND_TYPE
            .values
            .iter()
            .filter(|e| !e.asm.is_empty() && body.starts_with(e.asm) && e.asm != "l" && e.asm != "d")
            .max_by_key(|e| e.asm.len())
            .and_then(|e| Some((OperandType::from_u32(e.value)?, &body[e.asm.len()..])))?;
        let mut index = Vec::new();
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let bare = digits > 0;
        if digits > 0 {
            index.push(Some(rest[..digits].parse().ok()?));
        }
        let mut rest = &rest[digits..];
        while let Some(r) = rest.strip_prefix('[') {
            let (inner, after) = r.split_once(']')?;
            let inner = inner.trim();
            index.push(if matches!(inner, ".." | "*" | "") { None } else { Some(inner.parse().ok()?) });
            rest = after;
            if index.len() > 3 {
                return None;
            }
        }
        rest.is_empty().then_some(Register { file, index, mask, bare })
    }

    /// True when `op` names this register (or one of the family).
    pub fn names(&self, op: &Operand) -> bool {
        if op.operand_type() != Some(self.file) {
            return false;
        }
        // `v1` in a geometry shader: register 1 of any vertex.
        let skip = usize::from(self.bare && self.file == OperandType::Input && op.index_dim() == self.index.len() + 1);
        self.index.iter().enumerate().all(|(d, want)| {
            let d = d + skip;
            let Some(want) = want else { return d < op.index_dim() };
            if d >= op.index_dim() {
                return false;
            }
            let relative = op.index_representation(d).is_some_and(|r| r.is_relative());
            !relative && op.index[d].imm == *want
        })
    }

    /// True when `ins` is the `dcl_indexableTemp` of this `x` register, which
    /// names its array in payload, not in an operand.
    pub fn declared_by(&self, p: &Program, ins: &Instruction) -> bool {
        if self.file != OperandType::IndexableTemp || ins.op() != Some(spec::Opcode::DclIndexableTemp) {
            return false;
        }
        let reg = ins.payload(p).first().map(|w| u64::from(w.value));
        match self.index.first() {
            None | Some(None) => true,
            Some(Some(want)) => reg == Some(*want),
        }
    }

    /// Components of this register that `op` touches (0 when none of the
    /// asked-for ones).
    pub fn touched(&self, op: &Operand) -> u8 {
        let c = components(op);
        if self.mask == 0 {
            c
        } else {
            c & self.mask
        }
    }
}

impl fmt::Display for Register {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(spec::OPERAND_TYPE.asm(self.file as u32).unwrap_or("?"))?;
        for (d, i) in self.index.iter().enumerate() {
            match (d, i) {
                (0, Some(i)) if !matches!(self.file, OperandType::ImmediateConstantBuffer) => write!(f, "{i}")?,
                (_, Some(i)) => write!(f, "[{i}]")?,
                (_, None) => f.write_str("[..]")?,
            }
        }
        if self.mask != 0 {
            f.write_str(".")?;
            for (c, n) in ['x', 'y', 'z', 'w'].iter().enumerate() {
                if self.mask & (1 << c) != 0 {
                    write!(f, "{n}")?;
                }
            }
        }
        Ok(())
    }
}

/// `xyzw` / `rgba` letters as a mask (letters may repeat, as in a swizzle).
fn component_mask(s: &str) -> Option<u8> {
    if s.is_empty() || s.len() > 4 {
        return None;
    }
    s.chars().try_fold(0u8, |m, c| {
        let bit = match c {
            'x' | 'r' => 1,
            'y' | 'g' => 2,
            'z' | 'b' => 4,
            'w' | 'a' => 8,
            _ => return None,
        };
        Some(m | bit)
    })
}

/// The components an operand touches: a destination's write mask, the
/// selectors a swizzle uses (fxc pads swizzles with components already
/// used, so their union is what is read), the one selected component, or
/// all four for an operand without components (a resource or sampler).
pub fn components(op: &Operand) -> u8 {
    if op.num_components() != spec::NumComponents::Component4 as u32 {
        return 0xf;
    }
    match op.selection() {
        Some(SelectionMode::MaskMode) => {
            // An empty mask means all four.
            let m = op.mask() as u8;
            if m == 0 {
                0xf
            } else {
                m
            }
        }
        Some(SelectionMode::SwizzleMode) => op.swizzle().iter().fold(0u8, |m, &s| m | (1 << s)),
        Some(SelectionMode::Select1Mode) => 1 << op.select1(),
        None => 0xf,
    }
}

/// One operand use inside an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Use {
    /// Operand id in [`Program::operands`].
    pub operand: u32,
    /// How the instruction uses it.
    pub access: Access,
}

/// Every operand of `ins`, top-level and relative-index ones, in stream
/// order, with how the instruction uses each.
pub fn uses(p: &Program, ins: &Instruction) -> Vec<Use> {
    let info = ins.info();
    let decl = info.is_some_and(|i| i.class == spec::OpClass::Decl);
    let n_dst = info.map_or(0, spec::destination_count);
    let mut out = Vec::new();
    for (i, &id) in ins.ops.as_slice().iter().enumerate() {
        let access = if decl {
            Access::Declare
        } else if i < n_dst {
            Access::Write
        } else {
            Access::Read
        };
        push_use(p, id, access, 0, &mut out);
    }
    out
}

fn push_use(p: &Program, id: u32, access: Access, depth: usize, out: &mut Vec<Use>) {
    let Some(op) = p.operands.get(id as usize).filter(|_| depth < 8) else { return };
    out.push(Use { operand: id, access });
    for d in 0..op.index_dim() {
        let rel = op.index[d].rel;
        if rel != NO_OPERAND && op.index_representation(d).is_some_and(|r| r.is_relative()) {
            push_use(p, rel, Access::Read, depth + 1, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_listing_spellings() {
        let r = Register::parse("r3.xy").unwrap();
        assert_eq!((r.file, r.index.as_slice(), r.mask), (OperandType::Temp, &[Some(3)][..], 3));
        let cb = Register::parse("cb0[5]").unwrap();
        assert_eq!((cb.file, cb.index), (OperandType::ConstantBuffer, vec![Some(0), Some(5)]));
        let icb = Register::parse("icb[..]").unwrap();
        assert_eq!((icb.file, icb.index), (OperandType::ImmediateConstantBuffer, vec![None]));
        assert_eq!(Register::parse("vicp[1][0]").unwrap().file, OperandType::InputControlPoint);
        assert_eq!(Register::parse("vThreadID").unwrap().file, OperandType::InputThreadId);
        assert_eq!(Register::parse("x0[2]").unwrap().index, vec![Some(0), Some(2)]);
        for bad in ["mul", "r3.q", "cb0[", "l0", "r1x", ""] {
            assert_eq!(Register::parse(bad), None, "{bad}");
        }
        // A file alone names all its registers.
        assert_eq!(Register::parse("r").unwrap().index, vec![]);
        assert_eq!(Register::parse("cb0[5]").unwrap().to_string(), "cb0[5]");
        assert_eq!(Register::parse("icb[..].w").unwrap().to_string(), "icb[..].w");
    }
}
