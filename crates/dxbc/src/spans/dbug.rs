//! The `DBUG` comment of an embedded SM2 program (debug information of a
//! `/Zi` compile): header, source files, one line entry per instruction,
//! variables with their type descriptions and the instructions that write
//! them, and the strings. Offsets inside it are relative to its header. The
//! decoder keeps values, not every offset, so the offset dwords are re-read
//! here (a string leaf must then hold the text the decoder found).

use super::{Builder, Texts};
use crate::chunks::aon9::DebugInfo;

const TEXTS: Texts = &[
    ("header_size", "Size of the debug header in bytes (0x28)."),
    ("creator_offset", "Offset of the compiler name from the debug header."),
    ("reserved", "Header dword of unknown purpose (zero)."),
    ("count", "Number of entries in the table."),
    ("table_offset", "Offset of the table from the debug header."),
    ("entry_point_offset", "Offset of the entry-point name from the debug header."),
    ("string", "A name, NUL-terminated."),
    ("name_offset", "Offset of a name from the debug header."),
    ("line", "Source line an instruction came from."),
    ("file", "Index of the source file, 0xFFFF when the instruction has no position."),
    ("code_offset", "Byte offset of the instruction in the SM2 token stream."),
    ("scope_offset", "Offset of the enclosing scope's name (function or constant buffer), 0 for globals."),
    ("type_offset", "Offset of the variable's type description."),
    ("class", "Type class: 0 scalar, 1 vector, 2/3 matrix, 4 object, 5 struct."),
    ("kind", "Base type: 0 void, 1 bool, 2 int, 3 float, …"),
    ("rows", "Rows."),
    ("columns", "Columns."),
    ("elements", "Array elements."),
    ("members", "Struct members."),
    ("member_info", "Offset of the member table."),
    ("instruction", "Index of an instruction that writes the variable."),
    ("component", "Variable component written by this instruction component (0xFFFF = none)."),
    ("member_type_offset", "Offset of the member's type description."),
];

/// Struct members of debug types, which the decoder does not read: a
/// table of (name offset, type offset) pairs, each type a 16-byte
/// description that may have members of its own. Read from the bytes
/// within the comment, bounded by a budget of the comment's dwords and a
/// nesting cap, so cyclic tables end.
struct Members<'b> {
    base: usize,
    end: usize,
    budget: &'b mut usize,
}

const MAX_DEPTH: usize = 16;

impl Members<'_> {
    fn claim(&mut self, count: u16, table: u32, q: &str, b: &mut Builder) {
        self.table(count, table, q, 0, b);
    }

    fn table(&mut self, count: u16, table: u32, q: &str, depth: usize, b: &mut Builder) {
        for k in 0..count as usize {
            let at = self.base + table as usize + 8 * k;
            if *self.budget == 0 || depth >= MAX_DEPTH || at + 8 > self.end {
                return;
            }
            *self.budget -= 1;
            let (Some(name_at), Some(type_at)) = (b.dword(at), b.dword(at + 4)) else { return };
            let mq = format!("{q}/members[{k}]");
            let name = b.cstr(self.base + name_at as usize, self.end);
            let meaning = name.clone().unwrap_or_default();
            b.num_m(TEXTS, "name_offset", format!("{mq}/name_offset"), at, 4, name_at.into(), meaning);
            if let Some(s) = &name {
                b.text(TEXTS, "string", format!("{mq}/name"), self.base + name_at as usize, s);
            }
            b.num(TEXTS, "member_type_offset", format!("{mq}/type_offset"), at + 4, 4, type_at.into());
            self.ty(type_at, &format!("{mq}/type"), depth + 1, b);
        }
    }

    fn ty(&mut self, off: u32, q: &str, depth: usize, b: &mut Builder) {
        let at = self.base + off as usize;
        if at + 16 > self.end {
            return;
        }
        let half = |b: &Builder, k: usize| b.dword(at + 2 * k).map_or(0, |v| v as u16);
        let names = ["class", "kind", "rows", "columns", "elements", "members"];
        for (k, n) in names.into_iter().enumerate() {
            b.num(TEXTS, n, format!("{q}/{n}"), at + 2 * k, 2, half(b, k).into());
        }
        let info = b.dword(at + 12).unwrap_or(0);
        b.num(TEXTS, "member_info", format!("{q}/member_info"), at + 12, 4, info.into());
        self.table(half(b, 5), info, q, depth, b);
    }
}

/// Claims the debug information under `q`.
pub(super) fn claim(d: &DebugInfo, end: usize, q: &str, b: &mut Builder) {
    let o = d.offset;
    let mut budget = end.saturating_sub(o) / 4;
    let word = |b: &Builder, i: usize| b.dword(o + 4 * i).unwrap_or(0);
    b.num(TEXTS, "header_size", format!("{q}/header_size"), o, 4, d.header_size.into());
    let creator_at = word(b, 1);
    b.num_m(TEXTS, "creator_offset", format!("{q}/creator_offset"), o + 4, 4, creator_at.into(), d.creator.clone());
    b.text(TEXTS, "string", format!("{q}/creator"), o + creator_at as usize, &d.creator);
    b.num(TEXTS, "reserved", format!("{q}/reserved"), o + 8, 4, d.reserved.into());
    let counts = [("files", d.files.len()), ("lines", d.lines.len()), ("variables", d.variables.len())];
    for (k, (n, count)) in counts.into_iter().enumerate() {
        b.num(TEXTS, "count", format!("{q}/{n}_count"), o + 12 + 8 * k, 4, count as u64);
        b.num(TEXTS, "table_offset", format!("{q}/{n}_offset"), o + 16 + 8 * k, 4, word(b, 4 + 2 * k).into());
    }
    let entry_at = word(b, 9);
    b.num_m(
        TEXTS,
        "entry_point_offset",
        format!("{q}/entry_point_offset"),
        o + 36,
        4,
        entry_at.into(),
        d.entry_point.clone(),
    );
    b.text(TEXTS, "string", format!("{q}/entry_point"), o + entry_at as usize, &d.entry_point);
    for (i, f) in d.files.iter().enumerate() {
        let at = b.dword(f.offset).unwrap_or(0);
        b.num_m(TEXTS, "name_offset", format!("{q}/files[{i}]"), f.offset, 4, at.into(), f.name.clone());
        b.text(TEXTS, "string", format!("{q}/files[{i}]/name"), o + at as usize, &f.name);
    }
    for (i, l) in d.lines.iter().enumerate() {
        let lq = format!("{q}/lines[{i}]");
        b.num(TEXTS, "line", format!("{lq}/line"), l.offset, 2, l.line.into());
        b.num(TEXTS, "file", format!("{lq}/file"), l.offset + 2, 2, l.file.into());
        b.num(TEXTS, "code_offset", format!("{lq}/code_offset"), l.offset + 4, 4, l.code_offset.into());
    }
    for (i, v) in d.variables.iter().enumerate() {
        let vq = format!("{q}/variables[{i}]");
        let scope_at = b.dword(v.offset).unwrap_or(0);
        let scope = v.scope.clone().unwrap_or_default();
        b.num_m(TEXTS, "scope_offset", format!("{vq}/scope_offset"), v.offset, 4, scope_at.into(), scope);
        if let Some(s) = &v.scope {
            b.text(TEXTS, "string", format!("{vq}/scope"), o + scope_at as usize, s);
        }
        let name_at = b.dword(v.offset + 4).unwrap_or(0);
        b.num_m(TEXTS, "name_offset", format!("{vq}/name_offset"), v.offset + 4, 4, name_at.into(), v.name.clone());
        b.text(TEXTS, "string", format!("{vq}/name"), o + name_at as usize, &v.name);
        let t = &v.type_info;
        b.num(TEXTS, "type_offset", format!("{vq}/type_offset"), v.offset + 8, 4, (t.offset - o) as u64);
        b.num(TEXTS, "count", format!("{vq}/entry_count"), v.offset + 12, 4, v.entries.len() as u64);
        let entries_at = b.dword(v.offset + 16).unwrap_or(0);
        b.num(TEXTS, "table_offset", format!("{vq}/entries_offset"), v.offset + 16, 4, entries_at.into());
        let halves = [
            ("class", t.class),
            ("kind", t.kind),
            ("rows", t.rows),
            ("columns", t.columns),
            ("elements", t.elements),
            ("members", t.members),
        ];
        for (k, (n, x)) in halves.into_iter().enumerate() {
            b.num(TEXTS, n, format!("{vq}/type/{n}"), t.offset + 2 * k, 2, x.into());
        }
        b.num(TEXTS, "member_info", format!("{vq}/type/member_info"), t.offset + 12, 4, t.member_info.into());
        let mut m = Members { base: o, end, budget: &mut budget };
        m.claim(t.members, t.member_info, &format!("{vq}/type"), b);
        for (j, e) in v.entries.iter().enumerate() {
            let eq = format!("{vq}/entries[{j}]");
            b.num(TEXTS, "instruction", format!("{eq}/instruction"), e.offset, 4, e.instruction.into());
            for (k, &c) in e.components.iter().enumerate() {
                b.num(TEXTS, "component", format!("{eq}/components[{k}]"), e.offset + 4 + 2 * k, 2, c.into());
            }
        }
    }
}
