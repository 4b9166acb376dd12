//! The HLSL source a `/Zi` shader carries (its SPDB chunk) linked to the
//! program's instructions, both ways: a source line to every instruction
//! the line tables give it, an instruction (or any of its bytes) to its
//! source line.
//!
//! Which line an instruction has follows the listing's `#line` rules
//! (`dxbc::listing::debug`): the first line entry at its code offset (fxc
//! writes the statement's first), the inline site's line inside inlined
//! code, and for an instruction without an entry of its own (or with an
//! entry whose column range is empty, which fxc prints nothing for) the
//! line of the instruction before it. Declarations before the first entry
//! have no line.

use dxbc::Shader;

/// A line of an embedded source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Loc {
    /// Index into [`SourceMap::files`].
    pub file: u32,
    /// Line number, counted from 1 as the line tables count.
    pub line: u32,
}

/// One embedded file, split into lines once.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name as the line tables spell it.
    pub name: String,
    /// The text as stored.
    pub text: String,
    /// Byte range of each line, line ends excluded.
    lines: Vec<(u32, u32)>,
}

impl SourceFile {
    fn new(name: String, text: String) -> SourceFile {
        let mut lines = Vec::new();
        let mut at = 0usize;
        for l in text.split_inclusive('\n') {
            let body = l.strip_suffix('\n').unwrap_or(l);
            let body = body.strip_suffix('\r').unwrap_or(body);
            lines.push((at as u32, (at + body.len()) as u32));
            at += l.len();
        }
        SourceFile { name, text, lines }
    }

    /// Number of lines.
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// Line `k`, counted from 0 (empty past the end).
    pub fn line(&self, k: usize) -> &str {
        self.lines.get(k).map_or("", |&(a, b)| &self.text[a as usize..b as usize])
    }
}

/// The embedded sources and the two-way map between their lines and the
/// program's instructions.
#[derive(Clone, Debug)]
pub struct SourceMap {
    /// The embedded files, in the order the PDB names them.
    pub files: Vec<SourceFile>,
    /// The line of each instruction of the program, by index.
    ins_loc: Vec<Option<Loc>>,
    /// Absolute byte range (start, end) of each instruction, by index.
    ins_bytes: Vec<(u32, u32)>,
    /// (line, instruction) for every instruction with a line, sorted.
    by_loc: Vec<(Loc, u32)>,
}

impl SourceMap {
    /// The map of `shader`, when it embeds at least one source file.
    pub fn new(shader: &Shader) -> Option<SourceMap> {
        let spdb = shader.spdb.as_deref()?;
        if spdb.sources.is_empty() {
            return None;
        }
        let files: Vec<SourceFile> =
            spdb.sources.iter().map(|f| SourceFile::new(f.name.clone(), f.text.clone())).collect();
        let file_of = |id: u32| -> Option<u32> {
            let name = spdb.file_name(id)?;
            files.iter().position(|f| f.name.eq_ignore_ascii_case(name)).map(|i| i as u32)
        };
        let (mut ins_loc, mut ins_bytes) = (Vec::new(), Vec::new());
        if let Some(p) = shader.program.as_ref() {
            let module = spdb.module.as_ref();
            let mut current: Option<Loc> = None;
            for ins in &p.instructions {
                ins_bytes.push((ins.offset, ins.offset.saturating_add(ins.length.saturating_mul(4))));
                let off = ins.offset.wrapping_sub(p.offset as u32);
                let entry = module.and_then(|m| m.line_at(off).map(|e| (m, e)));
                if let Some((m, e)) = entry.filter(|(_, e)| e.columns.is_none_or(|(a, b)| a != b)) {
                    let (file, line) = m.inline_line_at(off).unwrap_or((e.file, e.line));
                    current = file_of(file).map(|file| Loc { file, line });
                }
                ins_loc.push(current);
            }
        }
        let mut by_loc: Vec<(Loc, u32)> =
            ins_loc.iter().enumerate().filter_map(|(k, l)| l.map(|l| (l, k as u32))).collect();
        by_loc.sort_unstable();
        Some(SourceMap { files, ins_loc, ins_bytes, by_loc })
    }

    /// The line of instruction `k`.
    pub fn loc_of_instruction(&self, k: usize) -> Option<Loc> {
        self.ins_loc.get(k).copied().flatten()
    }

    /// The instruction holding byte `b`.
    pub fn instruction_at_byte(&self, b: usize) -> Option<usize> {
        let b = u32::try_from(b).ok()?;
        let k = self.ins_bytes.partition_point(|&(start, _)| start <= b).checked_sub(1)?;
        (b < self.ins_bytes[k].1).then_some(k)
    }

    /// The line of the instruction holding byte `b`.
    pub fn loc_at_byte(&self, b: usize) -> Option<Loc> {
        self.loc_of_instruction(self.instruction_at_byte(b)?)
    }

    /// The instructions of line `loc`, in program order.
    pub fn instructions_at(&self, loc: Loc) -> &[(Loc, u32)] {
        let a = self.by_loc.partition_point(|x| x.0 < loc);
        let b = self.by_loc.partition_point(|x| x.0 <= loc);
        &self.by_loc[a..b]
    }

    /// Whether line `loc` has any instruction.
    pub fn has_instructions(&self, loc: Loc) -> bool {
        !self.instructions_at(loc).is_empty()
    }

    /// The byte ranges (start, length) of the instructions of `loc`.
    pub fn ranges_at(&self, loc: Loc) -> Vec<(u32, u32)> {
        self.instructions_at(loc)
            .iter()
            .map(|&(_, k)| {
                let (a, b) = self.ins_bytes[k as usize];
                (a, b - a)
            })
            .collect()
    }

    /// `file:line` for a person.
    pub fn label(&self, loc: Loc) -> String {
        let name = self.files.get(loc.file as usize).map_or("?", |f| f.name.as_str());
        format!("{name}:{}", loc.line)
    }

    /// The line a selection starting at byte `sel_start` is about: the line
    /// the user picked, while the selection lies in one of its
    /// instructions; else the line of the selected instruction.
    pub fn focus(&self, picked: Option<Loc>, sel_start: Option<usize>) -> Option<Loc> {
        let k = self.instruction_at_byte(sel_start?)?;
        if let Some(p) = picked.filter(|&p| self.instructions_at(p).iter().any(|&(_, i)| i as usize == k)) {
            return Some(p);
        }
        self.loc_of_instruction(k)
    }
}

/// The instructions and bytes of one source line, for the views to mark.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Instruction indices, sorted.
    pub instructions: Vec<u32>,
    /// Byte ranges (start, length), sorted.
    pub ranges: Vec<(u32, u32)>,
}

impl Marks {
    /// The marks of line `loc`.
    pub fn of(map: &SourceMap, loc: Loc) -> Marks {
        Marks { instructions: map.instructions_at(loc).iter().map(|x| x.1).collect(), ranges: map.ranges_at(loc) }
    }

    /// Whether instruction `k` is marked.
    pub fn has_instruction(&self, k: usize) -> bool {
        u32::try_from(k).is_ok_and(|k| self.instructions.binary_search(&k).is_ok())
    }

    /// Which of the `ROW_BYTES` bytes from `base` are marked (bit k: byte `base + k`).
    pub fn row_mask(&self, base: usize) -> u16 {
        let rows = crate::selection::ROW_BYTES;
        let mut mask = 0u16;
        // The ranges are sorted and disjoint: start at the last one beginning at or before the row.
        let first = self.ranges.partition_point(|&(a, _)| (a as usize) <= base).saturating_sub(1);
        for &(a, len) in &self.ranges[first.min(self.ranges.len())..] {
            let (a, b) = (a as usize, a as usize + len as usize);
            if a >= base + rows {
                break;
            }
            for k in a.max(base)..b.min(base + rows) {
                mask |= 1 << (k - base);
            }
        }
        mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;
    use crate::test_corpus;

    /// For every executable instruction, the line of the last `#line`
    /// printed before it in our listing (which matches fxc's), with the
    /// file named by the last `#line` that named one.
    fn listing_lines(m: &Model) -> Vec<Option<(String, u32)>> {
        let mut out = vec![None; m.n_instructions];
        let (mut file, mut line) = (None::<String>, None::<u32>);
        for (l, text) in m.lines.iter().enumerate() {
            if let Some(rest) = text.strip_prefix("#line ") {
                let (n, name) = rest.split_once(' ').unwrap_or((rest, ""));
                line = Some(n.parse().unwrap());
                if !name.is_empty() {
                    file = Some(name.trim_matches('"').to_string());
                }
            } else if let (Some(k), Some(n)) = (m.instruction_of_line(l), line) {
                out[k] = Some((file.clone().unwrap(), n));
            }
        }
        out
    }

    fn check_against_listing(name: &str) -> (Model, SourceMap) {
        let m = Model::new(test_corpus::file(&format!("fxc/{name}.dxbc")));
        let map = SourceMap::new(m.shader.as_ref().unwrap()).expect("embedded sources");
        let want = listing_lines(&m);
        assert!(want.iter().filter(|w| w.is_some()).count() >= 5, "{name}: too few #line");
        for (k, w) in want.iter().enumerate() {
            let got = map.loc_of_instruction(k).map(|l| (map.files[l.file as usize].name.clone(), l.line));
            assert_eq!(&got, w, "{name}: instruction {k} ({})", m.lines[m.ins_line[k] as usize]);
        }
        (m, map)
    }

    #[test]
    fn every_instruction_maps_to_the_line_the_listing_prints_before_it() {
        for name in ["dxdecompiler_misc_debugtest", "specialk_vs_colorutil"] {
            let (m, map) = check_against_listing(name);
            // And back: each line's instructions are exactly those under its #line.
            let want = listing_lines(&m);
            for (k, w) in want.iter().enumerate() {
                let Some((_, line)) = w else { continue };
                let loc = map.loc_of_instruction(k).unwrap();
                assert_eq!(loc.line, *line);
                let back: Vec<usize> = map.instructions_at(loc).iter().map(|x| x.1 as usize).collect();
                let expect: Vec<usize> =
                    (0..want.len()).filter(|&j| want[j].as_ref().is_some_and(|x| x.1 == *line)).collect();
                assert_eq!(back, expect, "{name}: line {line}");
            }
        }
    }

    #[test]
    fn a_line_with_instructions_in_several_places_gets_them_all() {
        let (m, map) = check_against_listing("specialk_vs_colorutil");
        // fxc's listing prints `#line 37` three times: the line's code is
        // interleaved with line 27's.
        let loc = Loc { file: 0, line: 37 };
        let texts: Vec<&str> =
            map.instructions_at(loc).iter().map(|&(_, k)| m.lines[m.ins_line[k as usize] as usize].as_str()).collect();
        assert_eq!(
            texts,
            [
                "mov o0.zw, l(0,0,0,1.000000)",
                "mov o2.xy, r0.xyxx",
                "mov o1.xyz, cb0[0].xyzx",
                "mov o1.w, l(1.000000)",
                "mad o2.zw, cb0[0].zzzw, l(0.000000, 0.000000, 0.500000, 0.500000), l(0.000000, 0.000000, 0.500000, 0.500000)",
                "ret ",
            ]
        );
        // The source line itself is the one holding the return's assignment.
        assert!(map.files[0].line(36).contains("return"), "{}", map.files[0].line(36));
        // Bytes: each range is one instruction; every byte maps back to the line.
        let marks = Marks::of(&map, loc);
        let p = m.program().unwrap();
        for (&(a, len), &k) in marks.ranges.iter().zip(&marks.instructions) {
            let ins = &p.instructions[k as usize];
            assert_eq!((a, len), (ins.offset, ins.length * 4));
            for b in a..a + len {
                assert_eq!(map.loc_at_byte(b as usize), Some(loc));
            }
        }
        // A declaration has no line, nor does a byte outside the program.
        assert_eq!(map.loc_of_instruction(0), None);
        assert_eq!(map.loc_at_byte(0), None);
        assert_eq!(map.loc_at_byte(usize::MAX), None);
        assert!(!map.has_instructions(Loc { file: 0, line: 1 }));
    }

    #[test]
    fn inlined_code_maps_to_the_inlined_function_lines() {
        let m = Model::new(test_corpus::file("fxc/specialk_rec2020_pq_10bit_fixed.dxbc"));
        let map = SourceMap::new(m.shader.as_ref().unwrap()).unwrap();
        let want = listing_lines(&m);
        let module = m.shader.as_ref().unwrap().spdb.as_ref().unwrap().module.as_ref().unwrap();
        let p = m.program().unwrap();
        let mut inlined = 0;
        for (k, w) in want.iter().enumerate() {
            let Some((_, printed)) = w else { continue };
            let off = p.instructions[k].offset - p.offset as u32;
            let got = map.loc_of_instruction(k).unwrap();
            match module.inline_line_at(off) {
                // Inside the inlined function: its own line, at or after
                // the line the listing printed when the call began.
                Some((_, line)) => {
                    inlined += 1;
                    assert_eq!(got.line, line);
                    assert!(line >= *printed, "instruction {k}: line {line} before {printed}");
                }
                None => assert_eq!(got.line, *printed, "instruction {k}"),
            }
        }
        assert!(inlined >= 5, "{inlined} inlined instructions");
    }

    #[test]
    fn focus_keeps_the_picked_line_while_the_selection_is_in_it() {
        let m = Model::new(test_corpus::file("fxc/specialk_vs_colorutil.dxbc"));
        let map = SourceMap::new(m.shader.as_ref().unwrap()).unwrap();
        let l37 = Loc { file: 0, line: 37 };
        let l27 = Loc { file: 0, line: 27 };
        let (a37, _) = map.ranges_at(l37)[1];
        let (a27, _) = map.ranges_at(l27)[0];
        assert_eq!(map.focus(Some(l37), Some(a37 as usize + 3)), Some(l37));
        // A selection elsewhere follows its own instruction.
        assert_eq!(map.focus(Some(l37), Some(a27 as usize)), Some(l27));
        assert_eq!(map.focus(None, Some(a27 as usize)), Some(l27));
        assert_eq!(map.focus(Some(l37), None), None);
    }

    #[test]
    fn row_masks_cover_exactly_the_marked_bytes() {
        let marks = Marks { instructions: vec![1, 4], ranges: vec![(20, 8), (40, 12)] };
        assert_eq!(marks.row_mask(16), 0xff << 4);
        assert_eq!(marks.row_mask(32), 0xfff << 8);
        assert_eq!(marks.row_mask(48), 0xf);
        assert_eq!(marks.row_mask(0), 0);
        assert_eq!(marks.row_mask(64), 0);
        assert!(marks.has_instruction(4) && !marks.has_instruction(2));
        assert_eq!(Marks::default().row_mask(0), 0);
    }

    #[test]
    fn a_shader_without_debug_info_has_no_map() {
        let m = Model::new(dxbc::examples::textured_pixel_shader());
        assert!(SourceMap::new(m.shader.as_ref().unwrap()).is_none());
    }

    #[test]
    fn source_lines_split_on_any_line_end() {
        let f = SourceFile::new("a.hlsl".into(), "one\r\ntwo\n\nfour".into());
        assert_eq!(f.line_count(), 4);
        assert_eq!([f.line(0), f.line(1), f.line(2), f.line(3), f.line(9)], ["one", "two", "", "four", ""]);
    }
}
