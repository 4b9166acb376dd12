//! Def-use highlighting: a register clicked in the listing, and every
//! listing line that writes, reads or declares it, with the operands'
//! bytes for the hex view (`dxbc::defuse` finds the sites; the CLI's
//! `dxbc defuse` prints the same ones).

use crate::model::Model;
use crate::selection::ROW_BYTES;
use crate::syntax::{self, Class};
use dxbc::register::Register;

/// What a line does with the highlighted register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Write,
    Read,
    Declare,
}

impl Role {
    /// CSS class of a line in this role.
    pub fn css(self) -> &'static str {
        match self {
            Role::Write => "def",
            Role::Read => "use",
            Role::Declare => "decl",
        }
    }
}

/// The sites of one register in the current file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Highlight {
    /// The register as clicked (`r0`, `cb0[3]`).
    pub register: String,
    /// `r0: 4 writes, 7 reads, 1 declaration`.
    pub summary: String,
    /// (line, role) per listing line touching it, sorted by line; a line
    /// that writes and reads it is a write.
    pub lines: Vec<(usize, Role)>,
    /// Lines that write and read it (sorted).
    both: Vec<usize>,
    /// Per hex-view row, the operand bytes (bit k: byte k of the row).
    row_masks: Vec<u16>,
}

/// The register named by piece `k` of `line` as the syntax highlighter
/// splits it, with its immediate index when one follows (`cb0[3]`, `icb[5]`).
pub fn register_at(line: &str, k: usize) -> Option<String> {
    let pieces = syntax::highlight(line);
    let (class, name) = *pieces.get(k)?;
    if class != Class::Register {
        return None;
    }
    let mut out = name.to_string();
    if let (Some((Class::Plain, open)), Some((Class::Number, n)), Some((Class::Plain, close))) =
        (pieces.get(k + 1), pieces.get(k + 2), pieces.get(k + 3))
    {
        if *open == "[" && close.starts_with(']') && n.bytes().all(|b| b.is_ascii_digit()) {
            out.push('[');
            out.push_str(n);
            out.push(']');
        }
    }
    Register::parse(&out).map(|_| out)
}

impl Highlight {
    /// The sites of `register` in `m` (None when it is not a register or
    /// the file has no program).
    pub fn find(m: &Model, register: &str) -> Option<Highlight> {
        let reg = Register::parse(register)?;
        let p = m.program()?;
        let d = dxbc::defuse::def_use(p, &reg);
        let mut lines: Vec<(usize, Role)> = Vec::new();
        let mut row_masks = vec![0u16; m.bytes.len().div_ceil(ROW_BYTES)];
        for (role, sites) in [(Role::Write, &d.writes), (Role::Read, &d.reads), (Role::Declare, &d.declarations)] {
            for x in sites {
                if let Some(&l) = m.ins_line.get(x.instruction) {
                    lines.push((l as usize, role));
                }
                for b in x.range.start..x.range.end.min(m.bytes.len()) {
                    row_masks[b / ROW_BYTES] |= 1 << (b % ROW_BYTES);
                }
            }
        }
        // One entry per line, the write first (stable sort keeps role
        // order); a line that also reads it is marked as both.
        lines.sort_by_key(|&(l, _)| l);
        let mut both = Vec::new();
        for w in lines.windows(2) {
            if w[0].0 == w[1].0 && w[0].1 == Role::Write && w[1].1 == Role::Read {
                both.push(w[0].0);
            }
        }
        lines.dedup_by_key(|&mut (l, _)| l);
        Some(Highlight {
            register: register.to_string(),
            summary: dxbc::defuse::summary(&reg, &d),
            lines,
            both,
            row_masks,
        })
    }

    /// The role of listing line `l`, if it touches the register.
    pub fn role(&self, l: usize) -> Option<Role> {
        let k = self.lines.binary_search_by_key(&l, |&(x, _)| x).ok()?;
        Some(self.lines[k].1)
    }

    /// The CSS classes of listing line `l` (`def`, `use`, `def use`, `decl`).
    pub fn classes(&self, l: usize) -> Option<&'static str> {
        let r = self.role(l)?;
        Some(if r == Role::Write && self.both.binary_search(&l).is_ok() { "def use" } else { r.css() })
    }

    /// The operand bytes among the `ROW_BYTES` bytes from `base`.
    pub fn row_mask(&self, base: usize) -> u16 {
        self.row_masks.get(base / ROW_BYTES).copied().unwrap_or(0)
    }

    /// The next (or previous) line touching the register from line `from`,
    /// wrapping.
    pub fn step(&self, from: Option<usize>, forward: bool) -> Option<usize> {
        let n = self.lines.len();
        if n == 0 {
            return None;
        }
        let Some(at) = from else { return Some(self.lines[if forward { 0 } else { n - 1 }].0) };
        let k = if forward {
            self.lines.iter().position(|&(l, _)| l > at).unwrap_or(0)
        } else {
            self.lines.iter().rposition(|&(l, _)| l < at).unwrap_or(n - 1)
        };
        Some(self.lines[k].0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(name: &str) -> Model {
        Model::new(crate::test_corpus::file(&format!("fxc/{name}.dxbc")))
    }

    #[test]
    fn registers_are_read_from_the_clicked_piece() {
        let line = "mul r0.xyzw, v0.xyzw, cb0[3].xyzw";
        let p = syntax::highlight(line);
        let at = |name: &str| p.iter().position(|x| x.1 == name).unwrap();
        assert_eq!(register_at(line, at("r0")).as_deref(), Some("r0"));
        assert_eq!(register_at(line, at("cb0")).as_deref(), Some("cb0[3]"));
        assert_eq!(register_at(line, 0), None, "the mnemonic");
        assert_eq!(register_at(line, 99), None);
        let rel = "mov r1.xy, cb0[r0.x + 5].xyxx";
        let p = syntax::highlight(rel);
        assert_eq!(register_at(rel, p.iter().position(|x| x.1 == "cb0").unwrap()).as_deref(), Some("cb0"));
    }

    #[test]
    fn the_lines_are_those_fxcs_listing_shows_writing_and_reading_r0() {
        let m = corpus("dxdecompiler_apps_tesselation_vs");
        let h = Highlight::find(&m, "r0").unwrap();
        // fxc: four `dp4 r0.?` lines, then four `dp4 r1.?, r0.xyzw` lines.
        let writes: Vec<usize> = (0..m.lines.len()).filter(|&l| m.lines[l].starts_with("dp4 r0.")).collect();
        let reads: Vec<usize> = (0..m.lines.len()).filter(|&l| m.lines[l].contains(", r0.xyzw")).collect();
        assert_eq!((writes.len(), reads.len()), (4, 4));
        let want: Vec<(usize, Role)> =
            writes.iter().map(|&l| (l, Role::Write)).chain(reads.iter().map(|&l| (l, Role::Read))).collect();
        assert_eq!(h.lines, want);
        assert_eq!(h.summary, "r0: 4 writes, 4 reads");
        assert_eq!(h.role(writes[0]).map(Role::css), Some("def"));
        assert_eq!(h.role(reads[0]).map(Role::css), Some("use"));
        assert_eq!(h.role(0), None);
        assert_eq!(h.classes(writes[0]), Some("def"));
        // `add r0.x, r0.x, …` writes and reads: both classes.
        let m2 = Model::new(
            dxbc::asm::assemble("ps_4_0\ndcl_temps 1\nmov r0.x, l(1.000000)\nadd r0.x, r0.x, l(1.000000)\nret\n")
                .unwrap(),
        );
        let h2 = Highlight::find(&m2, "r0").unwrap();
        let add = m2.lines.iter().position(|l| l.starts_with("add ")).unwrap();
        assert_eq!(h2.classes(add), Some("def use"));
        assert_eq!(h2.classes(add - 1), Some("def"));
        assert_eq!(h.step(None, true), Some(writes[0]));
        assert_eq!(h.step(Some(writes[3]), true), Some(reads[0]));
        assert_eq!(h.step(Some(reads[3]), true), Some(writes[0]), "wraps");
        assert_eq!(h.step(Some(writes[0]), false), Some(reads[3]), "wraps back");
        // The operand bytes are lit, and nothing in the container header.
        let p = m.program().unwrap();
        let ins = &p.instructions[m.line_ins[writes[0]].unwrap() as usize];
        let dst = ins.operand(p, 0).unwrap().offset as usize;
        assert_ne!(h.row_mask(dst / ROW_BYTES * ROW_BYTES) & (1 << (dst % ROW_BYTES)), 0);
        assert_eq!(h.row_mask(0), 0);
    }

    #[test]
    fn a_declared_register_lights_its_declaration() {
        let m = corpus("dxdecompiler_apps_tesselation_vs");
        let h = Highlight::find(&m, "o1").unwrap();
        let decl = m.lines.iter().position(|l| l == "dcl_output o1.xyzw").unwrap();
        let mov = m.lines.iter().position(|l| l == "mov o1.xyzw, v1.xyzw").unwrap();
        assert_eq!(h.lines, vec![(decl, Role::Declare), (mov, Role::Write)]);
        assert!(Highlight::find(&m, "not a register").is_none());
        assert!(Highlight::find(&Model::new(Vec::new()), "r0").is_none());
    }
}
