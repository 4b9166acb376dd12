//! The signature tables of the listing header ("Input signature", "Output
//! signature", "Patch Constant signature") back to signature chunks.
//!
//! Each row is printed as `name index mask register sysvalue format used`
//! with fixed widths after the name (which may overflow its 20 columns), so
//! the columns are cut at fixed distances from the end of the index. What
//! the table shows is the whole element except the read/write mask, which
//! is derived from the "Used" column as the printer derives the column from
//! it (inputs: components read; outputs: components never written).

use super::text::{Cursor, Res};
use crate::chunks::signature::{system_value_name, Signature, SignatureElement, SignatureLayout, StringPlacement};

/// Which table a section holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Input,
    Output,
    PatchConstant,
}

impl Kind {
    /// The section title line that starts this table.
    pub fn from_title(line: &str) -> Option<Kind> {
        match line {
            "// Input signature:" => Some(Kind::Input),
            "// Output signature:" => Some(Kind::Output),
            "// Patch Constant signature:" => Some(Kind::PatchConstant),
            _ => None,
        }
    }
}

/// A table being read: its kind and elements so far.
pub(crate) struct Table {
    pub kind: Kind,
    /// Whether the `// ----` rule under the column titles has been read.
    pub seen_rule: bool,
    pub elements: Vec<SignatureElement>,
    /// The "Used" column of each element, as a mask.
    used: Vec<u8>,
    /// Whether a `format` column named a minimum precision.
    pub min_precision: bool,
    /// Whether names carry a `mN:` stream prefix.
    pub streams: bool,
}

impl Table {
    pub fn new(kind: Kind) -> Self {
        Table { kind, seen_rule: false, elements: Vec::new(), used: Vec::new(), min_precision: false, streams: false }
    }

    /// Reads one row (the cursor is at the start of the line). Returns
    /// false at lines that are not rows (column titles, rules, `// no …`).
    pub fn row(&mut self, c: &mut Cursor) -> Res<bool> {
        let Some(body) = c.line.strip_prefix("// ") else { return Ok(false) };
        if body.starts_with("----") {
            self.seen_rule = true;
            return Ok(false);
        }
        if !self.seen_rule || body.starts_with("no ") || body.trim().is_empty() {
            return Ok(false);
        }
        c.pos = 3;
        let name_at = c.pos;
        let mut name = c.take_while(|ch| ch != ' ').to_string();
        let mut stream = None;
        if let Some((m, rest)) = name.strip_prefix('m').and_then(|r| r.split_once(':')) {
            if let Ok(s) = m.parse::<u32>() {
                stream = Some(s);
                name = rest.to_string();
                self.streams = true;
            }
        }
        if name.is_empty() {
            return Err(c.err_at(name_at, "expected a semantic name"));
        }
        let semantic_index = c.uint()?;
        let at = c.pos;
        // After the index: one blank and the mask column (6 wide), then
        // register, system value and format separated by blanks (fxc widens
        // the register column for oStencilRef), then one blank and the used
        // column (6 wide, blanks inside).
        let mask_col = c.line.get(at + 1..(at + 7).min(c.line.len())).unwrap_or("");
        c.pos = (at + 7).min(c.line.len());
        fn field<'a>(c: &mut Cursor<'a>) -> (usize, &'a str) {
            c.skip_ws();
            (c.pos, c.take_while(|ch| ch != ' '))
        }
        let (reg_at, register_col) = field(c);
        let (sv_at, sv_col) = field(c);
        let (_, format) = field(c);
        let used_col = c.line.get(c.pos + 1..(c.pos + 7).min(c.line.len())).unwrap_or("").to_string();
        let at = reg_at;
        let (component_type, min_precision) =
            format_value(format).ok_or_else(|| c.err_at(at, format!("unknown format `{format}`")))?;
        self.min_precision |= min_precision != 0;
        let system_value = (0..=127)
            .find(|&v| system_value_name(v) == sv_col)
            .ok_or_else(|| c.err_at(sv_at, format!("unknown system value `{sv_col}`")))?;
        let special = mask_col.trim() == "N/A";
        let (mask, register, used) = if special {
            let used = used_col.trim() == "YES";
            (1u8, u32::MAX, used as u8)
        } else {
            let register = if register_col == "-1" {
                u32::MAX
            } else {
                register_col.parse().map_err(|_| c.err_at(reg_at, format!("bad register `{register_col}`")))?
            };
            (mask_bits(mask_col), register, mask_bits(&used_col))
        };
        self.used.push(used);
        self.elements.push(SignatureElement {
            offset: 0,
            stream,
            name_offset: 0,
            name,
            semantic_index,
            system_value,
            component_type,
            register,
            mask,
            rw_mask: 0,
            reserved: 0,
            min_precision: Some(min_precision),
        });
        Ok(true)
    }

    /// The chunk: tag and model, for a program of type `ptype` (whose kind
    /// says whether patch constants are written or read). Streams take
    /// OSG5, minimum precision the `…1` tags, others the basic ones.
    /// `precision`: some table of the listing names a minimum precision
    /// (fxc then gives every signature the `…1` layout).
    pub fn finish(&self, ptype: u32, gs5: bool, precision: bool) -> ([u8; 4], Signature) {
        let hull = crate::spec::PROGRAM_TYPE.asm(ptype) == Some("hs");
        let ps = crate::spec::PROGRAM_TYPE.asm(ptype) == Some("ps");
        let outputs = self.kind == Kind::Output || (self.kind == Kind::PatchConstant && hull);
        let (fourcc, layout) = match (self.kind, precision) {
            (Kind::Input, true) => (*b"ISG1", SignatureLayout::Precision),
            (Kind::Output, true) => (*b"OSG1", SignatureLayout::Precision),
            (Kind::PatchConstant, true) => (*b"PSG1", SignatureLayout::Precision),
            (Kind::Output, false) if gs5 || self.streams => (*b"OSG5", SignatureLayout::Stream),
            (Kind::Input, false) => (*b"ISGN", SignatureLayout::Basic),
            (Kind::Output, false) => (*b"OSGN", SignatureLayout::Basic),
            (Kind::PatchConstant, false) => (*b"PCSG", SignatureLayout::Basic),
        };
        let mut elements = self.elements.clone();
        for (e, &used) in elements.iter_mut().zip(&self.used) {
            // Outputs store the components never written, all four counted.
            e.rw_mask = if outputs { !used & 0xf } else { used };
            if ps && self.kind == Kind::Output && e.system_value == pixel_output_value(&e.name) {
                // Pixel-shader outputs store no system value; the printer
                // derives it from the name.
                e.system_value = 0;
            }
            if layout == SignatureLayout::Basic {
                e.stream = None;
            } else {
                e.stream.get_or_insert(0);
            }
            if layout != SignatureLayout::Precision {
                e.min_precision = None;
            }
        }
        let sig = Signature {
            offset: 0,
            fourcc,
            layout,
            element_count: elements.len() as u32,
            element_offset: 8,
            elements,
            strings: StringPlacement::Shared,
        };
        (fourcc, sig)
    }
}

/// The system value the listing shows for a pixel-shader output stored
/// without one (0 when the name implies none).
fn pixel_output_value(name: &str) -> u32 {
    let shown = match name.to_ascii_lowercase().as_str() {
        "sv_target" => "TARGET",
        "sv_depth" => "DEPTH",
        "sv_coverage" => "COVERAGE",
        "sv_depthgreaterequal" => "DEPTHGE",
        "sv_depthlessequal" => "DEPTHLE",
        "sv_stencilref" => "STENCILREF",
        _ => return 0,
    };
    (0..=127).find(|&v| system_value_name(v) == shown).unwrap_or(0)
}

/// `x y z w` letters at fixed places in a column (`  xy  `) as bits.
fn mask_bits(col: &str) -> u8 {
    let t = col.get(2..).unwrap_or("");
    let mut m = 0;
    for (i, ch) in t.chars().take(4).enumerate() {
        if "xyzw".chars().nth(i) == Some(ch) {
            m |= 1 << i;
        }
    }
    m
}

/// Component type and minimum precision of a format column.
fn format_value(s: &str) -> Option<(u32, u32)> {
    Some(match s {
        "unknown" => (0, 0),
        "uint" => (1, 0),
        "int" => (2, 0),
        "float" => (3, 0),
        "min16f" => (3, 1),
        "min2_8f" => (3, 2),
        "min16i" => (2, 4),
        "min16u" => (1, 5),
        "min16" => (3, 0xf0),
        "min10" => (3, 0xf1),
        _ => return None,
    })
}
