//! The workbench verbs: `search`, `diff` and `header`, as text.

use dxbc::defuse::def_use;
use dxbc::diff::{ChunkChange, InsDiff, ShaderDiff};
use dxbc::listing::program::{write_instruction, Ctx};
use dxbc::program::Program;
use dxbc::register::Register;
use dxbc::search::{search, Query};
use dxbc::Shader;
use std::fmt::Write;

/// `offset<TAB>length<TAB>line<TAB>what` per match (line 1-based as
/// `dxbc disasm` prints, `-` when none), and the count line for stderr.
pub fn search_text(s: &Shader, query: &str) -> (String, String) {
    let found = search(s, &Query::parse(query));
    let mut out = String::new();
    for m in &found.matches {
        let line = m.line.map_or_else(|| "-".to_string(), |l| (l + 1).to_string());
        let _ = writeln!(out, "{}\t{}\t{line}\t{}", m.range.start, m.range.len(), m.what);
    }
    let n = found.matches.len();
    let count = format!(
        "{n} match{}{}",
        if n == 1 { "" } else { "es" },
        if found.truncated { " (more not shown)" } else { "" }
    );
    (out, count)
}

/// The sites of `register` as `kind<TAB>offset<TAB>length<TAB>line<TAB>components<TAB>instruction`
/// lines, all in program order, and the counts line for stderr.
pub fn defuse_text(s: &Shader, register: &str) -> Result<(String, String), String> {
    let reg = Register::parse(register)
        .ok_or_else(|| format!("`{register}` is not a register (such as r0, o1.xy, cb0[5])"))?;
    let p = s.program.as_ref().ok_or("the file has no program")?;
    let d = def_use(p, &reg);
    let map = dxbc::listing::lines::LineMap::new(s);
    let mut sites: Vec<(&str, &dxbc::defuse::Site)> = d
        .writes
        .iter()
        .map(|x| ("write", x))
        .chain(d.reads.iter().map(|x| ("read", x)))
        .chain(d.declarations.iter().map(|x| ("declare", x)))
        .collect();
    sites.sort_by_key(|(_, x)| (x.instruction, x.range.start));
    let mut out = String::new();
    for (kind, x) in sites {
        let line = map.instruction_line(x.instruction).map_or_else(|| "-".to_string(), |l| (l + 1).to_string());
        let comps: String =
            "xyzw".chars().enumerate().filter(|(i, _)| x.components & (1 << i) != 0).map(|(_, c)| c).collect();
        let _ = writeln!(
            out,
            "{kind}\t{}\t{}\t{line}\t{comps}\t{}",
            x.range.start,
            x.range.len(),
            self::line(p, x.instruction)
        );
    }
    Ok((out, dxbc::defuse::summary(&reg, &d)))
}

fn line(p: &Program, k: usize) -> String {
    let mut s = String::new();
    write_instruction(p, &p.instructions[k], Ctx::modern(p), &mut s);
    s.lines().next().unwrap_or("").trim_end().to_string()
}

/// The aligned diff as text: header and chunk changes, then the program
/// with unchanged runs elided to a count, `-`/`+` lines with their
/// offsets, and the changed fields of each changed instruction.
pub fn diff_text(a: &Shader, b: &Shader, d: &ShaderDiff) -> String {
    let mut o = String::new();
    for r in &d.header {
        let what = if r.start >= 4 && r.end <= 20 { " (checksum)" } else { "" };
        let _ = writeln!(o, "header bytes {}..{} differ{what}", r.start, r.end);
    }
    let range =
        |r: &Option<std::ops::Range<usize>>| r.as_ref().map_or("-".into(), |r| format!("0x{:x}+{}", r.start, r.len()));
    for c in d.chunks.iter().filter(|c| c.change != ChunkChange::Same) {
        let kind = match c.change {
            ChunkChange::Changed => "changed",
            ChunkChange::Removed => "removed",
            ChunkChange::Added => "added",
            ChunkChange::Same => "same",
        };
        let _ = writeln!(o, "chunk {} {kind} (a {}, b {})", c.tag, range(&c.a), range(&c.b));
    }
    let (Some(pa), Some(pb)) = (&a.program, &b.program) else { return o };
    let mut same = 0;
    let flush = |o: &mut String, same: &mut usize| {
        if *same > 0 {
            let _ = writeln!(o, "  ... {same} unchanged");
            *same = 0;
        }
    };
    for step in &d.instructions {
        match step {
            InsDiff::Same(..) => same += 1,
            InsDiff::Removed(i) => {
                flush(&mut o, &mut same);
                let _ = writeln!(o, "- 0x{:06x}  {}", pa.instructions[*i].offset, line(pa, *i));
            }
            InsDiff::Added(j) => {
                flush(&mut o, &mut same);
                let _ = writeln!(o, "+ 0x{:06x}  {}", pb.instructions[*j].offset, line(pb, *j));
            }
            InsDiff::Changed { a: i, b: j, fields, .. } => {
                flush(&mut o, &mut same);
                let _ = writeln!(o, "- 0x{:06x}  {}", pa.instructions[*i].offset, line(pa, *i));
                let _ = writeln!(o, "+ 0x{:06x}  {}", pb.instructions[*j].offset, line(pb, *j));
                for f in fields {
                    let _ = writeln!(
                        o,
                        "    {}: {} -> {} (dword 0x{:06x} / 0x{:06x})",
                        f.name, f.a, f.b, f.a_offset, f.b_offset
                    );
                }
            }
        }
    }
    flush(&mut o, &mut same);
    o
}
