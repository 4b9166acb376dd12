//! The `DBUG` comment block from what the level-9 listing shows of it: the
//! `#line N "file"` directives and the `// scope::name<components>`
//! annotations (the inverse of `Sm2Program::write_listing_lines` and
//! `Sm2Program::annotations`).
//!
//! * Lines: the printer writes `#line` where the file changes or the line
//!   moves by more than two, so each instruction is given the position of
//!   the last directive before it (none before the first: file `0xFFFF`).
//!   That prints the same directives; lines the printer skipped are lost.
//! * Variables: each annotation is an entry (instruction, components in
//!   x, y, z, w order); variables are ordered so that every instruction's
//!   annotations come out in the printed order. A name printed without a
//!   scope lives in the entry point's scope.
//!
//! Not printed, so chosen: the entry point is `main` (or `main_N` when an
//! annotation names `main::` explicitly), every variable's type is `float4`
//! (class vector, type float, 1x4), the creator is the listing's creator when
//! it names the compiler, else fxc 10.1's. The layout follows fxc's order:
//! header, file names and table, line table, per variable its name, type and
//! entries, then the scope names, the variable table and the creator.

use crate::asm::text::{Cursor, Res};
use crate::chunks::aon9::Sm2Comment;
use crate::chunks::write::Writer;

/// Creator written when the listing names none.
const DEFAULT_CREATOR: &str = "Microsoft (R) HLSL Shader Compiler 10.1";
/// Header size, the block's first dword.
const HEADER: u32 = 0x28;
/// File index of an instruction without a source position.
const NO_FILE: u16 = 0xFFFF;

/// Scope of an annotated variable as printed.
#[derive(Clone, PartialEq, Eq)]
enum Scope {
    /// `::name`: global.
    Global,
    /// `name`: the entry point's.
    Entry,
    /// `scope::name`.
    Named(String),
}

/// What the debug information of the listing shows so far.
#[derive(Default)]
pub(super) struct DebugText {
    files: Vec<String>,
    /// The position of the last `#line` directive.
    current: Option<(u16, u16)>,
    /// The first instruction after that directive.
    since: usize,
    /// Each instruction's (line, file).
    lines: Vec<(u16, u16)>,
    /// Each annotation: instruction, scope, name, components.
    notes: Vec<(usize, Scope, String, Vec<u16>)>,
}

impl DebugText {
    /// `#line N` or `#line N "file"`.
    pub fn directive(&mut self, c: &mut Cursor) -> Res<()> {
        c.eat("#line");
        let at = c.pos;
        let n = c.uint()?;
        let line = u16::try_from(n).map_err(|_| c.err_at(at, format!("line {n} does not fit 16 bits")))?;
        c.skip_ws();
        let cur_file = self.current.map(|(_, f)| f);
        let file = if c.eat("\"") {
            let name = c.take_while(|ch| ch != '"');
            c.expect("\"")?;
            let cur_name = cur_file.and_then(|f| self.files.get(f as usize));
            // The printer names a file only when the index changes: the same
            // name again is another entry of the file table.
            match self.files.iter().position(|f| f == name).filter(|_| cur_name.map(String::as_str) != Some(name)) {
                Some(i) => i,
                None => {
                    self.files.push(name.to_string());
                    self.files.len() - 1
                }
            }
        } else {
            // No name: the file of the directive before (or one the table lacks).
            cur_file.map_or(usize::from(NO_FILE - 1), usize::from)
        };
        c.end()?;
        let file = u16::try_from(file).ok().filter(|&f| f < NO_FILE).ok_or_else(|| c.err_at(at, "too many files"))?;
        if let Some((last, f)) = self.current.filter(|&(_, f)| f == file) {
            if (i32::from(line) - i32::from(last)).abs() <= 2 {
                self.drift(f, line);
            }
        }
        self.current = Some((line, file));
        self.since = self.lines.len();
        Ok(())
    }

    /// A directive close to the one before was printed, so the lines in
    /// between moved away from it in steps the printer does not show (of at
    /// most two): the instructions after the first since the last
    /// directive step two lines at a time away from `to`.
    fn drift(&mut self, file: u16, to: u16) {
        let run = &mut self.lines[self.since..];
        let Some(&(from, _)) = run.first() else { return };
        let k = run.len().saturating_sub(1) as i32;
        let far = |l: i32| (l - i32::from(to)).abs() > 2 && (0..=0xFFFF).contains(&l);
        let (up, down) = (i32::from(from) + 2 * k, i32::from(from) - 2 * k);
        let step = if to <= from && far(up) || !far(down) { 2 } else { -2 };
        for (j, l) in run.iter_mut().enumerate() {
            *l = ((i32::from(from) + step * j as i32).clamp(0, 0xFFFF) as u16, file);
        }
    }

    /// Records the next instruction's position.
    pub fn instruction(&mut self) {
        self.lines.push(self.current.unwrap_or((0, NO_FILE)));
    }

    /// `scope::name<0,1>, name<2>` after an instruction's `  // `.
    pub fn annotations(&mut self, c: &Cursor, instruction: usize, at: usize) -> Res<()> {
        let text = &c.line[at..];
        let mut pos = at;
        for note in text.split(", ") {
            let bad = || c.err_at(pos, format!("expected `scope::name<components>`, found `{note}`"));
            let (head, comps) = note.strip_suffix('>').and_then(|n| n.split_once('<')).ok_or_else(bad)?;
            let (scope, name) = match head.strip_prefix("::") {
                Some(name) => (Scope::Global, name),
                None => match head.rsplit_once("::") {
                    Some((s, name)) => (Scope::Named(s.to_string()), name),
                    None => (Scope::Entry, head),
                },
            };
            let comps: Vec<u16> = if comps.is_empty() {
                Vec::new()
            } else {
                comps
                    .split(',')
                    .map(|x| x.parse::<u16>().ok().filter(|&v| v != 0xFFFF))
                    .collect::<Option<_>>()
                    .ok_or_else(bad)?
            };
            if comps.len() > 4 || name.is_empty() {
                return Err(bad());
            }
            self.notes.push((instruction, scope, name.to_string(), comps));
            pos += note.len() + 2;
        }
        Ok(())
    }

    /// The `DBUG` comment, placed before the first instruction, or `None`
    /// when the listing shows no debug information. `sizes` are the
    /// instructions' dword counts (for the line table's code offsets).
    pub fn finish(self, creator: Option<&str>, sizes: &[u32]) -> Option<Sm2Comment> {
        if self.notes.is_empty() && self.lines.iter().all(|l| l.1 == NO_FILE) {
            return None;
        }
        let entry = entry_point(&self.notes);
        let creator = creator.filter(|c| c.starts_with("Microsoft (R) HLSL")).unwrap_or(DEFAULT_CREATOR);
        // The code offsets follow the block itself: lay it out once to
        // learn its size.
        let size = self.encode(&entry, creator, sizes, 0).len() as u32;
        // Version token, comment token, "DBUG", the block.
        let data = self.encode(&entry, creator, sizes, 4 + 4 + 4 + size);
        let mut bytes = b"DBUG".to_vec();
        bytes.extend_from_slice(&data);
        Some(Sm2Comment {
            offset: 0,
            token: 0,
            dwords: (bytes.len() / 4) as u32,
            fourcc: Some("DBUG".into()),
            before_instruction: 0,
            data: bytes,
        })
    }

    fn encode(&self, entry: &str, creator: &str, sizes: &[u32], code_start: u32) -> Vec<u8> {
        let mut w = Writer::default();
        let h: Vec<usize> = (0..10).map(|_| w.u32(0)).collect();
        w.patch(h[0], HEADER);
        let names: Vec<u32> = self.files.iter().map(|f| w.string_unshared(f)).collect();
        w.align();
        w.patch(h[3], names.len() as u32);
        let p = w.pos();
        w.patch(h[4], p);
        for n in names {
            w.u32(n);
        }
        w.patch(h[5], self.lines.len() as u32);
        let p = w.pos();
        w.patch(h[6], p);
        let mut code = code_start;
        for (i, &(line, file)) in self.lines.iter().enumerate() {
            w.u32(u32::from(line) | u32::from(file) << 16);
            w.u32(code);
            code = code.wrapping_add(4 * sizes.get(i).copied().unwrap_or(0));
        }
        // Per variable: name, type, entries.
        let vars = variables(&self.notes);
        let mut records = Vec::with_capacity(vars.len());
        for (scope, name, entries) in &vars {
            let name_at = w.string(name);
            w.align();
            let type_at = w.pos();
            for v in [1u16, 3, 1, 4, 1, 0] {
                w.u16(v);
            }
            w.u32(0);
            let entries_at = w.pos();
            for (ins, comps) in entries {
                w.u32(*ins as u32);
                for k in 0..4 {
                    w.u16(comps.get(k).copied().unwrap_or(0xFFFF));
                }
            }
            records.push((scope, name_at, type_at, entries.len() as u32, entries_at));
        }
        let entry_at = w.string(entry);
        let scopes: Vec<u32> = records
            .iter()
            .map(|r| match r.0 {
                Scope::Global => 0,
                Scope::Entry => entry_at,
                Scope::Named(s) => w.string(s),
            })
            .collect();
        w.align();
        w.patch(h[9], entry_at);
        w.patch(h[7], records.len() as u32);
        let p = w.pos();
        w.patch(h[8], p);
        for (r, scope) in records.iter().zip(scopes) {
            for v in [scope, r.1, r.2, r.3, r.4] {
                w.u32(v);
            }
        }
        let c = w.string_unshared(creator);
        w.patch(h[1], c);
        w.align();
        w.out
    }
}

/// `main`, unless an annotation names a scope `main` explicitly.
fn entry_point(notes: &[(usize, Scope, String, Vec<u16>)]) -> String {
    let taken = |n: &str| notes.iter().any(|x| x.1 == Scope::Named(n.to_string()));
    let mut name = "main".to_string();
    let mut k = 0;
    while taken(&name) {
        k += 1;
        name = format!("main_{k}");
    }
    name
}

type Entries = Vec<(usize, Vec<u16>)>;

/// The variables with their entries, in an order that prints each
/// instruction's annotations as listed: a topological order of "comes
/// before on some instruction", ties (and cycles, which no decoded file
/// has) by first appearance.
fn variables(notes: &[(usize, Scope, String, Vec<u16>)]) -> Vec<(Scope, String, Entries)> {
    let mut vars: Vec<(Scope, String, Entries)> = Vec::new();
    let mut of_note = Vec::with_capacity(notes.len());
    for (ins, scope, name, comps) in notes {
        let k = match vars.iter().position(|v| v.0 == *scope && v.1 == *name) {
            Some(k) => k,
            None => {
                vars.push((scope.clone(), name.clone(), Vec::new()));
                vars.len() - 1
            }
        };
        vars[k].2.push((*ins, comps.clone()));
        of_note.push((*ins, k));
    }
    let n = vars.len();
    let mut after: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut preds = vec![0usize; n];
    for pair in of_note.windows(2) {
        let ((i, a), (j, b)) = (pair[0], pair[1]);
        if i == j && a != b && !after[a].contains(&b) {
            after[a].push(b);
            preds[b] += 1;
        }
    }
    let mut order = Vec::with_capacity(n);
    let mut done = vec![false; n];
    while order.len() < n {
        let next = (0..n).find(|&k| !done[k] && preds[k] == 0).or_else(|| (0..n).find(|&k| !done[k]));
        let Some(k) = next else { break };
        done[k] = true;
        order.push(k);
        for &b in &after[k] {
            preds[b] = preds[b].saturating_sub(1);
        }
    }
    let mut slots: Vec<Option<(Scope, String, Entries)>> = vars.into_iter().map(Some).collect();
    order.into_iter().filter_map(|k| slots[k].take()).collect()
}
