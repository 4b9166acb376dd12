//! Which listing line prints which bytes: the map the explorer's two-way
//! linking, search results and diffs share.
//!
//! The listing is the header (comments, ending with the level-9 program when
//! there is one), the profile line, then one line per instruction, except
//! the immediate constant buffer, which takes several. Line numbers are
//! computed by printing each instruction once and counting its newlines, so
//! they follow the printer by construction.

use super::program::{write_instruction, Ctx};
use crate::chunks::aon9::Level9Kind;
use crate::spans::{Leaf, Link};
use crate::Shader;

/// Line numbers (0-based) of the listing `disassemble` prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineMap {
    /// Line of the profile (`ps_5_0`), when there is a program.
    pub program_line: Option<usize>,
    /// First line of each instruction.
    pub ins_line: Vec<u32>,
    /// The line after the last instruction's last line (the trailer's).
    pub end_line: usize,
    /// Line of the first level-9 program's version line, when there is a
    /// level-9 chunk (Aon9, XNAP or XNAS).
    pub l9_base: Option<usize>,
}

/// The level-9 sections that end the header, measured in lines.
pub(crate) struct Level9Layout {
    /// Each section's program version line, counted from the first one's.
    pub starts: Vec<(Level9Kind, usize)>,
    /// Lines from the first version line to the end of the level-9 text.
    pub tail: usize,
}

impl Level9Layout {
    /// The layout of `shader`'s level-9 sections, when it has any.
    pub(crate) fn new(shader: &Shader) -> Option<Level9Layout> {
        let (mut total, mut starts) = (0usize, Vec::new());
        let mut section = String::new();
        for (kind, a) in shader.level9_sections() {
            section.clear();
            a.write_listing(kind, &mut section);
            // The version line follows the heading and one `//` line.
            let heading = section.lines().position(|l| l == kind.heading()).map_or(0, |h| h + 2);
            starts.push((kind, total + heading));
            total += section.lines().count();
        }
        let first = starts.first()?.1;
        for s in &mut starts {
            s.1 -= first;
        }
        Some(Level9Layout { starts, tail: total - first })
    }

    /// Where `kind`'s version line is, counted from the first section's.
    pub(crate) fn start(&self, kind: Level9Kind) -> Option<usize> {
        self.starts.iter().find(|s| s.0 == kind).map(|s| s.1)
    }
}

impl LineMap {
    /// Counts the lines of `shader`'s listing.
    pub fn new(shader: &Shader) -> LineMap {
        let mut header = String::new();
        super::header::write_header(shader, &mut header);
        let header_lines = header.lines().count();
        let l9_base = Level9Layout::new(shader).and_then(|l| header_lines.checked_sub(l.tail));
        let mut ins_line = Vec::new();
        let mut end_line = header_lines;
        let program_line = shader.program.as_ref().map(|p| {
            let cx = Ctx::modern(p);
            let mut at = header_lines + 1;
            let mut buf = String::new();
            ins_line.reserve(p.instructions.len());
            // Debug lines (`#line`, the initial locations block) come before their instruction.
            let debug = super::debug::annotations(shader);
            for (k, ins) in p.instructions.iter().enumerate() {
                buf.clear();
                write_instruction(p, ins, cx, &mut buf);
                at += debug.as_ref().and_then(|d| d.before.get(k)).map_or(0, |t| t.matches('\n').count());
                ins_line.push(at as u32);
                at += 1 + buf.matches('\n').count();
            }
            end_line = at;
            header_lines
        });
        LineMap { program_line, ins_line, end_line, l9_base }
    }

    /// The map of `text`, the listing of `shader` printed with `marks`:
    /// first where the header ends (the profile line, when there is a
    /// program), then each instruction's line start and text end, in bytes.
    /// What [`LineMap::new`] counts, read off the printed text instead.
    pub(crate) fn from_marks(shader: &Shader, text: &str, marks: &[(usize, usize)]) -> LineMap {
        // Line of each mark (marks ascend): the newlines before it, counted in one pass.
        let mut newlines = memchr::memchr_iter(b'\n', text.as_bytes()).peekable();
        let mut seen = 0usize;
        let mut line_at = |offset: usize| {
            while newlines.next_if(|&n| n < offset).is_some() {
                seen += 1;
            }
            seen
        };
        let header_lines = marks.first().map_or(0, |&(h, _)| line_at(h));
        let l9_base = Level9Layout::new(shader).and_then(|l| header_lines.checked_sub(l.tail));
        let mut ins_line = Vec::with_capacity(marks.len().saturating_sub(1));
        let mut end_line = header_lines;
        let program_line = shader.program.as_ref().map(|_| {
            end_line = header_lines + 1;
            for &(start, end) in marks.iter().skip(1) {
                ins_line.push(line_at(start) as u32);
                // The instruction's own lines (the immediate constant buffer takes several).
                end_line = line_at(end) + 1;
            }
            header_lines
        });
        LineMap { program_line, ins_line, end_line, l9_base }
    }

    /// First line of instruction `k`.
    pub fn instruction_line(&self, k: usize) -> Option<usize> {
        self.ins_line.get(k).map(|&l| l as usize)
    }

    /// The instruction printed on `line` (any of its lines).
    pub fn instruction_of_line(&self, line: usize) -> Option<usize> {
        let k = self.ins_line.partition_point(|&l| l as usize <= line).checked_sub(1)?;
        let end = self.ins_line.get(k + 1).map_or(self.end_line, |&l| l as usize);
        (line < end).then_some(k)
    }

    /// The line a leaf of [`crate::spans`] is printed on, when it has one.
    pub fn leaf_line(&self, leaf: &Leaf) -> Option<usize> {
        match leaf.link? {
            Link::Instruction(k) => self.instruction_line(k),
            Link::Level9Line(n) => Some(self.l9_base? + n),
        }
    }

    /// The line of a program dword: its instruction's first line, or the
    /// profile line for the version and length tokens.
    pub fn token_line(&self, instruction: Option<usize>) -> Option<usize> {
        match instruction {
            Some(k) => self.instruction_line(k),
            None => self.program_line,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instruction_lines_are_the_printed_lines() {
        let bytes = crate::examples::tint_pixel_shader();
        let s = Shader::decode(&bytes).unwrap();
        let text = super::super::disassemble(&s);
        let lines: Vec<&str> = text.lines().collect();
        let m = LineMap::new(&s);
        assert_eq!(lines[m.program_line.unwrap()], "ps_5_0");
        let p = s.program.as_ref().unwrap();
        assert_eq!(m.ins_line.len(), p.instructions.len());
        let last = m.instruction_line(p.instructions.len() - 1).unwrap();
        assert_eq!(lines[last], "ret ");
        assert_eq!(m.instruction_of_line(last), Some(p.instructions.len() - 1));
        assert_eq!(m.instruction_of_line(last + 1), None);
        assert_eq!(m.instruction_of_line(0), None);
    }

    #[test]
    fn debug_lines_shift_the_instruction_lines() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/fxc/specialk_vs_colorutil.dxbc");
        let bytes = std::fs::read(path).expect("corpus file specialk_vs_colorutil.dxbc is missing");
        let s = Shader::decode(&bytes).unwrap();
        let text = super::super::disassemble(&s);
        let lines: Vec<&str> = text.lines().collect();
        let m = LineMap::new(&s);
        let p = s.program.as_ref().unwrap();
        for (k, ins) in p.instructions.iter().enumerate() {
            let mut one = String::new();
            let legacy = super::super::creator_major(&s).is_some_and(|v| v < 10);
            write_instruction(p, ins, Ctx { sm51: false, legacy, ties_away: legacy, exact: false }, &mut one);
            let line = lines[m.instruction_line(k).unwrap()];
            assert!(line.trim_start().starts_with(one.as_str()), "instruction {k}: {line:?} vs {one:?}");
        }
    }

    #[test]
    fn one_printing_maps_the_lines_as_counting_them_does() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/fxc");
        let mut n = 0;
        for e in std::fs::read_dir(dir).expect("the fxc corpus is missing") {
            let path = e.unwrap().path();
            let Ok(s) = Shader::decode(&std::fs::read(&path).unwrap()) else { continue };
            let (text, map) = super::super::disassemble_mapped(&s);
            assert_eq!(text, super::super::disassemble(&s), "{}", path.display());
            assert_eq!(map, LineMap::new(&s), "{}", path.display());
            n += 1;
        }
        assert!(n >= 400, "only {n} corpus files decoded");
        for bytes in [crate::examples::tint_pixel_shader(), Vec::new(), vec![0; 64]] {
            if let Ok(s) = Shader::decode(&bytes) {
                assert_eq!(super::super::disassemble_mapped(&s).1, LineMap::new(&s));
            }
        }
    }
}
