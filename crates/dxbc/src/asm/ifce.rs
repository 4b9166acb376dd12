//! IFCE (class linkage) from the header's three tables, as
//! `listing::header::write_class_linkage` prints them:
//! * `// Available Class Types:`: name, ID (the row's index), constant
//!   buffer stride, texture and sampler counts;
//! * `// Available Class Instances:`: name, type, constant buffer, offset,
//!   texture and sampler (`-` for none);
//! * `// Interface slots, N total:`: per record, its first slot (or
//!   `first-last` for an array), then the type IDs and table IDs.
//!
//! What the listing does not print is written as fxc writes it: the stored
//! class type ID is 0 (the printer shows the row index), the instance field
//! after the type is 1, and the two trailing header dwords are
//! `0x4e47534f` and `0x00100020` (every IFCE in the corpus holds these).

use super::text::{Cursor, Res};
use crate::chunks::ifce::{ClassInstance, ClassType, Ifce, InterfaceSlot};

/// Header dwords 7 and 8 as fxc writes them.
const UNKNOWN7: u32 = 0x4e47_534f;
const UNKNOWN8: u32 = 0x0010_0020;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Types,
    Instances,
    Slots,
}

/// The class linkage tables read so far.
pub(crate) struct IfceText {
    section: Section,
    /// Rule lines seen in the current section (rows follow the first).
    rules: usize,
    ifce: Option<Ifce>,
}

fn empty() -> Ifce {
    Ifce {
        offset: 0,
        class_instance_count: 0,
        class_type_count: 0,
        interface_slot_record_count: 0,
        interface_slot_count: 0,
        class_instance_offset: 0,
        class_type_offset: 0,
        interface_slot_offset: 0,
        unknown7: UNKNOWN7,
        unknown8: UNKNOWN8,
        class_types: Vec::new(),
        class_instances: Vec::new(),
        interface_slots: Vec::new(),
    }
}

/// The row's name and its last `N` whitespace-separated fields, each with
/// its byte position in the line.
fn fields<'a, const N: usize>(c: &Cursor<'a>) -> Res<(&'a str, [(usize, &'a str); N])> {
    // Skip the leading `//`.
    let words: Vec<(usize, &str)> = c.words().into_iter().skip(1).collect();
    if words.len() < N + 1 {
        return Err(c.err_at(c.line.len(), format!("expected a name and {N} columns")));
    }
    let split = words.len() - N;
    let (first, last) = (words[0].0, words[split - 1]);
    let name = &c.line[first..last.0 + last.1.len()];
    let mut out = [(0, ""); N];
    out.copy_from_slice(&words[split..]);
    Ok((name, out))
}

fn number(c: &Cursor, (at, w): (usize, &str)) -> Res<u16> {
    w.parse().map_err(|_| c.err_at(at, format!("expected a number, found `{w}`")))
}

/// A number, or `-` for none (0xFFFF).
fn optional(c: &Cursor, f: (usize, &str)) -> Res<u16> {
    if f.1 == "-" {
        Ok(0xffff)
    } else {
        number(c, f)
    }
}

impl IfceText {
    pub fn new() -> Self {
        IfceText { section: Section::None, rules: 0, ifce: None }
    }

    fn open(&mut self, s: Section) {
        self.section = s;
        self.rules = 0;
    }

    /// Reads one header line.
    pub fn line(&mut self, c: &Cursor) -> Res<()> {
        let line = c.line.trim_end();
        match line {
            "// Available Class Types:" => {
                self.ifce = Some(empty());
                self.open(Section::Types);
                return Ok(());
            }
            "// Available Class Instances:" if self.ifce.is_some() => {
                self.open(Section::Instances);
                return Ok(());
            }
            _ if line.starts_with("// Interface slots, ") && self.ifce.is_some() => {
                let n = line["// Interface slots, ".len()..].strip_suffix(" total:").unwrap_or("");
                let n = n.parse().map_err(|_| {
                    c.err_at("// Interface slots, ".len(), format!("expected a slot count, found `{n}`"))
                })?;
                if let Some(ifce) = self.ifce.as_mut() {
                    ifce.interface_slot_count = n;
                }
                self.open(Section::Slots);
                return Ok(());
            }
            _ => {}
        }
        let Some(ifce) = self.ifce.as_mut() else { return Ok(()) };
        match self.section {
            Section::None => {}
            Section::Types | Section::Instances => {
                if line.starts_with("// ---") {
                    self.rules += 1;
                } else if self.rules > 0 && line == "//" {
                    self.section = Section::None;
                } else if self.rules > 0 && self.section == Section::Types {
                    let (name, [_, stride, tex, smp]) = fields::<4>(c)?;
                    ifce.class_types.push(ClassType {
                        offset: 0,
                        name_offset: 0,
                        name: name.to_string(),
                        id: 0,
                        cb_stride: number(c, stride)?,
                        texture: number(c, tex)?,
                        sampler: number(c, smp)?,
                    });
                } else if self.rules > 0 {
                    let (name, [ty, cb, off, tex, smp]) = fields::<5>(c)?;
                    ifce.class_instances.push(ClassInstance {
                        offset: 0,
                        name_offset: 0,
                        name: name.to_string(),
                        type_id: number(c, ty)?,
                        unknown: 1,
                        constant_buffer: number(c, cb)?,
                        cb_offset: number(c, off)?,
                        texture: optional(c, tex)?,
                        sampler: optional(c, smp)?,
                    });
                }
            }
            Section::Slots => {
                if let Some(row) = line.strip_prefix("// | Type ID  |") {
                    let (slots, ids) = row.split_once('|').ok_or_else(|| c.err("expected `|` after the slots"))?;
                    let slots = slots.trim();
                    let (first, last) = slots.split_once('-').unwrap_or((slots, slots));
                    let at = c.line.len() - row.len();
                    let bad = || c.err_at(at, format!("bad slot range `{slots}`"));
                    let first: u32 = first.parse().map_err(|_| bad())?;
                    let last: u32 = last.parse().map_err(|_| bad())?;
                    let span = last.checked_sub(first).and_then(|n| n.checked_add(1)).ok_or_else(bad)?;
                    let type_ids = ids_of(c, ids)?;
                    ifce.interface_slots.push(InterfaceSlot {
                        offset: 0,
                        start_slot: first,
                        slot_span: span,
                        count: type_ids.len() as u32,
                        type_ids_offset: 0,
                        table_ids_offset: 0,
                        type_ids,
                        table_ids: Vec::new(),
                    });
                } else if let Some(row) = line.strip_prefix("// | Table ID |") {
                    let ids = row.split_once('|').map_or("", |x| x.1);
                    let s =
                        ifce.interface_slots.last_mut().ok_or_else(|| c.err("a Table ID row before a Type ID row"))?;
                    s.table_ids = ids_of::<u32>(c, ids)?;
                    if s.table_ids.len() != s.type_ids.len() {
                        return Err(c.err("as many table IDs as type IDs expected"));
                    }
                } else if !line.starts_with("// +---") && line != "//" && line != "//             Slots" {
                    self.section = Section::None;
                }
            }
        }
        Ok(())
    }

    /// The IFCE chunk, when the listing has class linkage tables.
    pub fn finish(self) -> Option<Ifce> {
        self.ifce
    }
}

/// The IDs of a slot row (`0    1    2    `).
fn ids_of<T: std::str::FromStr>(c: &Cursor, ids: &str) -> Res<Vec<T>> {
    let at = c.line.len().saturating_sub(ids.len());
    ids.split_whitespace().map(|w| w.parse().map_err(|_| c.err_at(at, format!("bad ID `{w}`")))).collect()
}
