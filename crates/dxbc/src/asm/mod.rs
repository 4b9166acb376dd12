//! The assembler: fxc's listing text back to a DXBC container.
//!
//! ## Design
//! The printer in [`crate::listing::program`] is the grammar: every line it
//! writes is read back by the module that mirrors the code that wrote it.
//! * [`text`]: a cursor over one line that knows its line number and byte
//!   offset, so every error says `line L, column C` and carries the offset.
//! * [`operand`]: registers, indices, components, modifiers, immediates.
//! * [`instruction`]: mnemonics with their glued suffixes and extended-token
//!   groups; [`decl`]: the `dcl_*` spellings and their payloads.
//! * [`signatures`] and [`rdef`] (with [`bindings`]): the header's tables
//!   back to signature chunks and RDEF; [`stat`]: the few STAT fields the
//!   listing prints; [`features`]: SFI0 from the feature note; [`ifce`]:
//!   IFCE from the class linkage tables; [`aon9`]: the level-9 section
//!   (mapping tables and the SM2 program) back to Aon9.
//! * this module: the line loop (the header up to the profile line feeds
//!   the readers above, `dcl_immediateConstantBuffer` spans several lines)
//!   and the container (XPDP when the creator line says `for Durango`).
//!
//! Tokens are emitted straight into a dword vector, every field packed
//! through the format table ([`crate::spec`]): opcode numbers come from the
//! mnemonic column, bit ranges from the field lists, enum values from their
//! spellings. Nothing here restates a bit position.
//!
//! What the listing does not print, the assembler restores as fxc always
//! writes it (see [`operand`]); what it prints lossily (floats as `%f`
//! with six decimals) comes back as the nearest value, which prints the
//! same.

mod aon9;
mod bindings;
mod decl;
mod features;
mod float;
mod ifce;
mod instruction;
mod lookup;
mod message;
mod operand;
mod rdef;
mod signatures;
mod stat;
mod text;

use crate::chunks::aon9::Level9Kind;
use crate::container::write_container;
use crate::spec::{self, opc, VERSION_FIELDS};
use operand::set;
use std::fmt;
use text::{Cursor, Res};

/// An assembly error: what was expected, where (line and column, 1-based),
/// and the byte offset in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    /// What went wrong.
    pub message: String,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// Byte offset in the whole text.
    pub offset: usize,
}

impl AsmError {
    pub(crate) fn new(message: impl Into<String>, line: usize, column: usize, offset: usize) -> Self {
        AsmError { message: message.into(), line, column, offset }
    }
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at line {}, column {} (at offset {:#x})", self.message, self.line, self.column, self.offset)
    }
}

impl std::error::Error for AsmError {}

impl From<AsmError> for crate::Error {
    fn from(e: AsmError) -> Self {
        crate::Error::new(format!("{} at line {}, column {}", e.message, e.line, e.column), e.offset)
    }
}

/// Assembles a whole listing into a DXBC container: RDEF (when the listing
/// names a compiler), the signature chunks from the header tables, then the
/// program chunk.
pub fn assemble(text: &str) -> Result<Vec<u8>, AsmError> {
    let listing = parse(text)?;
    let major = VERSION_FIELDS.iter().find(|f| f.name == "major version").map_or(0, |f| f.get(dword(&listing.program)));
    let ptype = VERSION_FIELDS.iter().find(|f| f.name == "program type").map_or(0, |f| f.get(dword(&listing.program)));
    let gs5 = major >= 5 && spec::PROGRAM_TYPE.asm(ptype) == Some("gs");
    let mut chunks: Vec<([u8; 4], Vec<u8>)> = Vec::new();
    // fxc puts the level-9 programs first: XNA, XNA prepass, then Aon9.
    let mut level9 = listing.level9;
    level9.sort_by_key(|(k, _)| std::cmp::Reverse(Level9Kind::LISTING_ORDER.iter().position(|x| x == k)));
    for (kind, a) in level9 {
        chunks.push((kind.tag(), a.encode()));
    }
    if let Some(r) = listing.rdef {
        chunks.push((*b"RDEF", r.encode()));
    }
    let precision = listing.tables.iter().any(|t| t.min_precision);
    // fxc's order: inputs, outputs, patch constants.
    for kind in [signatures::Kind::Input, signatures::Kind::Output, signatures::Kind::PatchConstant] {
        for t in listing.tables.iter().filter(|t| t.kind == kind) {
            let (tag, sig) = t.finish(ptype, gs5, precision);
            chunks.push((tag, sig.encode()));
        }
    }
    if let Some(i) = listing.ifce {
        chunks.push((*b"IFCE", i.encode()));
    }
    let tag = if major >= 5 { *b"SHEX" } else { *b"SHDR" };
    chunks.push((tag, listing.program));
    if let Some(sfi0) = listing.sfi0 {
        chunks.push((*b"SFI0", sfi0));
    }
    if let Some(stat) = listing.stat {
        chunks.push((*b"STAT", stat));
    }
    if listing.durango {
        // fxc's Durango (Xbox One) builds carry XPDP, the path of the PDB
        // the debug information went to; the listing only says that the
        // chunk is there (`for Durango` in the creator line), so it is
        // written empty.
        chunks.push((*b"XPDP", Vec::new()));
    }
    let parts: Vec<([u8; 4], &[u8])> = chunks.iter().map(|(t, d)| (*t, d.as_slice())).collect();
    Ok(write_container(1, &parts))
}

fn dword(b: &[u8]) -> u32 {
    b.get(..4).map_or(0, |x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
}

/// Assembles the program part of a listing (from the profile line on) into
/// the bytes of a SHDR/SHEX chunk.
pub fn assemble_program(text: &str) -> Result<Vec<u8>, AsmError> {
    parse(text).map(|l| l.program)
}

/// What a listing holds: the program chunk and the header's tables.
struct Listing {
    program: Vec<u8>,
    tables: Vec<signatures::Table>,
    rdef: Option<crate::chunks::rdef::Rdef>,
    stat: Option<Vec<u8>>,
    sfi0: Option<Vec<u8>>,
    /// The creator line ends `for Durango` (an XPDP chunk is present).
    durango: bool,
    ifce: Option<crate::chunks::ifce::Ifce>,
    /// The level-9 chunks, in listing order.
    level9: Vec<(Level9Kind, crate::chunks::aon9::Aon9)>,
}

fn parse(text: &str) -> Result<Listing, AsmError> {
    let mut lines = Lines::new(text);
    let mut w: Vec<u32> = Vec::with_capacity(text.len() / 8);
    let mut header = read_header(&mut lines)?;
    w.push(header.version);
    w.push(0); // the length, set at the end
    while let Some(mut c) = lines.next() {
        c.skip_ws();
        let rest = c.rest();
        if rest.starts_with("//") {
            header.stat.body_comment(&c)?;
            continue;
        }
        if rest.is_empty() || rest.starts_with("#line") {
            continue;
        }
        header.rdef.program_line(rest.trim_end());
        if message::is_message(rest) {
            message::parse(&mut c, &mut w)?;
        } else if rest.starts_with("dcl_immediateConstantBuffer") {
            immediate_constant_buffer(c, &mut lines, &mut w)?;
        } else if rest.starts_with("dcl_") {
            decl::parse(&mut c, header.legacy, &mut w)?;
        } else {
            instruction::parse(&mut c, &mut w)?;
        }
    }
    let len = w.len() as u32;
    set(&mut w[1], spec::LENGTH_FIELDS, "program length", len);
    let mut program = Vec::with_capacity(w.len() * 4);
    for x in w {
        program.extend_from_slice(&x.to_le_bytes());
    }
    let rdef = header.rdef.finish(header.version);
    let major = VERSION_FIELDS.iter().find(|f| f.name == "major version").map_or(0, |f| f.get(header.version));
    let stat = header.stat.finish(major);
    let sfi0 = header.features.finish();
    Ok(Listing {
        program,
        tables: header.tables,
        rdef,
        stat,
        sfi0,
        durango: header.durango,
        ifce: header.ifce.finish(),
        level9: header.aon9.finish()?,
    })
}

/// What the lines up to the profile line say.
struct Header {
    version: u32,
    legacy: bool,
    durango: bool,
    tables: Vec<signatures::Table>,
    rdef: rdef::RdefText,
    stat: stat::StatText,
    features: features::FeaturesText,
    ifce: ifce::IfceText,
    aon9: aon9::Aon9Text,
}

/// Reads up to and including the profile line: everything before it is
/// header comment or level-9 text, each line offered to every header
/// reader (creator, RDEF, STAT, features, signatures, IFCE, Aon9).
fn read_header(lines: &mut Lines) -> Res<Header> {
    let mut legacy = false;
    let mut durango = false;
    let mut tables: Vec<signatures::Table> = Vec::new();
    let mut open: Option<signatures::Table> = None;
    let mut rdef = rdef::RdefText::new();
    let mut stat = stat::StatText::new();
    let mut features = features::FeaturesText::new();
    let mut ifce = ifce::IfceText::new();
    let mut aon9 = aon9::Aon9Text::new();
    loop {
        let Some(mut c) = lines.next() else {
            let at = lines.text.len();
            return Err(AsmError::new("no profile line (such as `ps_5_0`) found", lines.line_no + 1, 1, at));
        };
        if let Some(version) = version_token(c.line) {
            tables.extend(open);
            return Ok(Header { version, legacy, durango, tables, rdef, stat, features, ifce, aon9 });
        }
        rdef.line(&c)?;
        stat.header_line(&c)?;
        features.line(&c)?;
        ifce.line(&c)?;
        aon9.line(&mut c)?;
        if let Some(creator) = c.line.strip_prefix("// Generated by ") {
            legacy = creator_is_legacy(creator);
            durango = creator.ends_with(" for Durango");
        }
        if let Some(kind) = signatures::Kind::from_title(c.line) {
            tables.extend(open.replace(signatures::Table::new(kind)));
        } else if let Some(t) = open.as_mut() {
            // A table ends at the first blank comment line after its rule.
            if c.line == "//" && t.seen_rule {
                tables.extend(open.take());
            } else {
                t.row(&mut c)?;
            }
        }
    }
}

/// Whether the creator line names an fxc before 10.0, whose listings leave
/// out some defaults (see [`decl`]).
fn creator_is_legacy(creator: &str) -> bool {
    let Some(ver) = creator.strip_prefix("Microsoft (R) HLSL Shader Compiler ") else {
        return false;
    };
    ver.split('.').next().and_then(|m| m.trim().parse::<u32>().ok()).is_some_and(|m| m < 10)
}

/// The version token of a profile line (`cs_5_1`); shader models 4 and 5
/// only, so that level-9 (`ps_2_x`) text before it is skipped.
fn version_token(line: &str) -> Option<u32> {
    let mut parts = line.trim_end().split('_');
    let (stage, major, minor) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let ty = spec::PROGRAM_TYPE.from_asm(stage)?;
    let major: u32 = major.parse().ok().filter(|m| (4..=5).contains(m))?;
    let minor: u32 = minor.parse().ok().filter(|m| *m <= 1)?;
    let mut t = 0;
    set(&mut t, VERSION_FIELDS, "program type", ty);
    set(&mut t, VERSION_FIELDS, "major version", major);
    set(&mut t, VERSION_FIELDS, "minor version", minor);
    Some(t)
}

/// Lines of the text with their numbers and byte offsets.
struct Lines<'a> {
    text: &'a str,
    at: usize,
    line_no: usize,
    /// Every float of the text is printed exactly ([`float::exact_listing`]).
    exact: bool,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines { text, at: 0, line_no: 0, exact: float::exact_listing(text) }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Cursor<'a>;
    fn next(&mut self) -> Option<Cursor<'a>> {
        if self.at >= self.text.len() {
            return None;
        }
        let rest = &self.text[self.at..];
        let n = rest.find('\n').unwrap_or(rest.len());
        let line = rest[..n].strip_suffix('\r').unwrap_or(&rest[..n]);
        let mut c = Cursor::new(line, self.line_no + 1, self.at);
        c.exact = self.exact;
        self.at += n + 1;
        self.line_no += 1;
        Some(c)
    }
}

/// `dcl_immediateConstantBuffer { { a, b, c, d},` … `{ … } }` over as many
/// lines as it takes: a custom-data block of class immediate constant buffer.
fn immediate_constant_buffer<'a>(mut c: Cursor<'a>, lines: &mut Lines<'a>, w: &mut Vec<u32>) -> Res<()> {
    let start = w.len();
    let mut t = 0;
    set(&mut t, spec::CUSTOMDATA_FIELDS, "opcode", opc::CUSTOMDATA as u32);
    set(
        &mut t,
        spec::CUSTOMDATA_FIELDS,
        "class",
        operand::val(&spec::CUSTOMDATA_CLASS, "DCL_IMMEDIATE_CONSTANT_BUFFER"),
    );
    w.push(t);
    w.push(0);
    c.eat("dcl_immediateConstantBuffer");
    let mut depth = 0usize;
    loop {
        loop {
            c.skip_ws();
            let Some(ch) = c.peek() else { break };
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth = depth.checked_sub(1).ok_or_else(|| c.err("unbalanced `}`"))?;
                    if depth == 0 {
                        c.eat("}");
                        c.end()?;
                        w[start + 1] = (w.len() - start) as u32;
                        return Ok(());
                    }
                }
                ',' => {}
                _ => {
                    let at = c.pos;
                    let v = c.take_while(|ch| !matches!(ch, ',' | '}' | ' '));
                    w.push(
                        operand::parse_number(v, spec::NumType::Untyped, c.exact)
                            .ok_or_else(|| c.err_at(at, format!("bad number `{v}`")))?,
                    );
                    continue;
                }
            }
            c.pos += 1;
        }
        c = lines.next().ok_or_else(|| {
            AsmError::new("unterminated dcl_immediateConstantBuffer", lines.line_no, 1, lines.text.len())
        })?;
    }
}

#[cfg(test)]
mod tests;
