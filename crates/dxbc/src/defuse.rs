//! Def-use: every instruction that writes a register and every one that
//! reads it, per component, with the operand's bytes.
//!
//! Which operands are written comes from the opcode table
//! ([`crate::spec::destination_count`]); relative indices are always read.
//! Components are the destination's write mask, or the union of a source
//! swizzle's selectors (fxc pads a swizzle with components it already
//! uses, so the union is what the instruction reads), or the selected
//! component. This is a listing of sites in program order, not a dataflow
//! analysis: control flow is not followed, so a read is not paired with the
//! write that reaches it.

use crate::program::Program;
use crate::register::{uses, Access, Register};
use std::ops::Range;

/// One place an instruction touches the register.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Site {
    /// Instruction index in [`Program::instructions`].
    pub instruction: usize,
    /// Operand id in [`Program::operands`] ([`crate::program::NO_OPERAND`]
    /// for a `dcl_indexableTemp`, which names its array in payload).
    pub operand: u32,
    /// The operand's bytes in the file.
    pub range: Range<usize>,
    /// Components touched (bit 0 = x), within those asked for.
    pub components: u8,
}

/// Every site of one register, each list in program order.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DefUse {
    /// Destinations naming it.
    pub writes: Vec<Site>,
    /// Sources and relative indices naming it.
    pub reads: Vec<Site>,
    /// Declarations naming it.
    pub declarations: Vec<Site>,
}

/// The sites of `reg` (all of its components when its mask is empty).
pub fn def_use(p: &Program, reg: &Register) -> DefUse {
    let mut out = DefUse::default();
    for (k, ins) in p.instructions.iter().enumerate() {
        if reg.declared_by(p, ins) {
            // The declaration names the array in payload: the whole instruction.
            let start = ins.offset as usize;
            let range = start..start + 4 * ins.length as usize;
            out.declarations.push(Site { instruction: k, operand: crate::program::NO_OPERAND, range, components: 0xf });
        }
        for u in uses(p, ins) {
            let op = &p.operands[u.operand as usize];
            if !reg.names(op) {
                continue;
            }
            let components = reg.touched(op);
            if components == 0 {
                continue;
            }
            let site = Site { instruction: k, operand: u.operand, range: p.operand_range(u.operand), components };
            match u.access {
                Access::Write => out.writes.push(site),
                Access::Read => out.reads.push(site),
                Access::Declare => out.declarations.push(site),
            }
        }
    }
    out
}

/// The counts as a person reads them: `r3: 4 writes, 7 reads, 1 declaration`.
pub fn summary(reg: &Register, d: &DefUse) -> String {
    let n = |k: usize, one: &str| format!("{k} {one}{}", if k == 1 { "" } else { "s" });
    let mut s = format!("{reg}: {}, {}", n(d.writes.len(), "write"), n(d.reads.len(), "read"));
    if !d.declarations.is_empty() {
        s.push_str(&format!(", {}", n(d.declarations.len(), "declaration")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shader;

    #[test]
    fn tint_example() {
        let s = Shader::decode(&crate::examples::tint_pixel_shader()).unwrap();
        let p = s.program.as_ref().unwrap();
        // mul o0.xyzw, v0.xyzw, cb0[0].xyzw
        let mul = p.instructions.iter().position(|i| i.op() == Some(crate::spec::Opcode::Mul)).unwrap();
        let o = def_use(p, &Register::parse("o0.y").unwrap());
        assert_eq!((o.writes.len(), o.reads.len(), o.declarations.len()), (1, 0, 1));
        assert_eq!((o.writes[0].instruction, o.writes[0].components), (mul, 0b10));
        let v = def_use(p, &Register::parse("v0").unwrap());
        assert_eq!((v.writes.len(), v.reads.len()), (0, 1));
        assert_eq!(v.reads[0].components, 0xf);
        let opnd = p.instructions[mul].operand(p, 1).unwrap();
        assert_eq!(v.reads[0].range, opnd.offset as usize..opnd.offset as usize + 8);
        assert!(def_use(p, &Register::parse("r0").unwrap()).writes.is_empty());
        assert_eq!(summary(&Register::parse("o0").unwrap(), &o), "o0: 1 write, 0 reads, 1 declaration");
    }
}
