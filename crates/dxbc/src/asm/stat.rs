//! STAT from the lines of the listing that the printer derives from it.
//!
//! Only what the text shows is written; every other count is 0:
//! * `instruction_count`: the trailer `// Approximately N instruction slots
//!   used`;
//! * `tessellator_domain`, `control_points`: the `// Tessellation Domain`
//!   table (hull and domain shaders);
//! * `hs_output_primitive`, `hs_partitioning`: the `// Tessellation Output
//!   Primitive` table (hull shaders);
//! * `sample_frequency`: 1 after `// Pixel Shader runs at sample frequency`.
//!
//! So `disasm(asm(L))` prints these lines as `L` has them, but the chunk's
//! bytes match fxc's only in those fields (fxc counts instructions by kind,
//! temporaries, declarations…, which the listing never prints). No STAT is
//! written when all of these are 0 (a listing of a file without STAT).

use super::text::{Cursor, Res};
use crate::chunks::stat::FIELD_NAMES;
use crate::spec::{TessDomain, TessOutputPrimitive, TessPartitioning};

/// STAT dwords fxc writes for SM4 and for SM5 programs.
const SM4_FIELDS: usize = 29;
const SM5_FIELDS: usize = 37;

/// Which table row comes next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    Nothing,
    DomainRule,
    DomainRow,
    OutputRule,
    OutputRow,
}

/// STAT's values as the listing shows them.
pub(crate) struct StatText {
    fields: Vec<(&'static str, u32)>,
    expect: Expect,
}

impl StatText {
    pub fn new() -> Self {
        StatText { fields: Vec::new(), expect: Expect::Nothing }
    }

    fn set(&mut self, name: &'static str, v: u32) {
        self.fields.push((name, v));
    }

    /// Reads one header line (before the profile line).
    pub fn header_line(&mut self, c: &Cursor) -> Res<()> {
        let line = c.line.trim_end();
        let row = line.get(3..).unwrap_or("");
        match self.expect {
            Expect::DomainRule | Expect::OutputRule => {
                self.expect = if self.expect == Expect::DomainRule { Expect::DomainRow } else { Expect::OutputRow };
                return Ok(());
            }
            Expect::DomainRow => {
                self.expect = Expect::Nothing;
                let (domain, cp) = row.rsplit_once(' ').ok_or_else(|| c.err("expected a tessellation domain row"))?;
                let domain = match domain.trim() {
                    "Isoline" => TessDomain::Isoline,
                    "Triangle" => TessDomain::Tri,
                    "Quadrilateral" => TessDomain::Quad,
                    d => return Err(c.err(format!("unknown tessellation domain `{d}`"))),
                };
                self.set("tessellator_domain", domain as u32);
                let cp = cp.parse().map_err(|_| c.err(format!("bad control point count `{cp}`")))?;
                self.set("control_points", cp);
                return Ok(());
            }
            Expect::OutputRow => {
                self.expect = Expect::Nothing;
                let (prim, part) = (row.get(..30).unwrap_or(row).trim(), row.get(31..).unwrap_or("").trim());
                let prim = match prim {
                    "Point" => Some(TessOutputPrimitive::Point),
                    "Line" => Some(TessOutputPrimitive::Line),
                    "Clockwise Triangles" => Some(TessOutputPrimitive::TriangleCw),
                    "Counter-Clockwise Triangles" => Some(TessOutputPrimitive::TriangleCcw),
                    _ => None,
                };
                let part = match part {
                    "Integer" => Some(TessPartitioning::Integer),
                    "Integer Power of 2" => Some(TessPartitioning::Pow2),
                    "Odd Fractional" => Some(TessPartitioning::FractionalOdd),
                    "Even Fractional" => Some(TessPartitioning::FractionalEven),
                    _ => None,
                };
                // "Undefined" is whatever the enums do not name: 0.
                self.set("hs_output_primitive", prim.map_or(0, |p| p as u32));
                self.set("hs_partitioning", part.map_or(0, |p| p as u32));
                return Ok(());
            }
            Expect::Nothing => {}
        }
        match line {
            "// Tessellation Domain   # of control points" => self.expect = Expect::DomainRule,
            "// Tessellation Output Primitive  Partitioning Type" => self.expect = Expect::OutputRule,
            "// Pixel Shader runs at sample frequency" => self.set("sample_frequency", 1),
            _ => {}
        }
        Ok(())
    }

    /// Reads a comment line of the program part (the trailer).
    pub fn body_comment(&mut self, c: &Cursor) -> Res<()> {
        let Some(rest) = c.rest().strip_prefix("// Approximately ") else { return Ok(()) };
        let Some(n) = rest.strip_suffix(" instruction slots used") else { return Ok(()) };
        let n = n.parse().map_err(|_| c.err(format!("bad instruction slot count `{n}`")))?;
        self.set("instruction_count", n);
        Ok(())
    }

    /// The chunk payload for a program of shader model `major`, or `None`
    /// when every field the text shows is 0.
    pub fn finish(&self, major: u32) -> Option<Vec<u8>> {
        if self.fields.iter().all(|&(_, v)| v == 0) {
            return None;
        }
        let mut d = vec![0u32; if major >= 5 { SM5_FIELDS } else { SM4_FIELDS }];
        for &(name, v) in &self.fields {
            if let Some(slot) = FIELD_NAMES.iter().position(|n| *n == name).and_then(|i| d.get_mut(i)) {
                *slot = v;
            }
        }
        Some(d.iter().flat_map(|v| v.to_le_bytes()).collect())
    }
}
