//! The guided tour of the token format. Each step names what it is about
//! and finds those bytes in the live model, so the page can select them.

use crate::model::{Model, SpanKind};
use crate::selection::{select_field, select_span, Selection};
use dxbc::program::TokenRole;

/// One step of the tour.
pub struct Step {
    /// Heading.
    pub title: &'static str,
    /// What to look at, in our words.
    pub text: &'static str,
    /// What a file must have for the step to be part of its tour (None:
    /// every file's; the tour's example stands in for what a file lacks).
    pub needs: Option<fn(&Model) -> bool>,
    /// Finds the bytes the step talks about.
    pub target: fn(&Model) -> Option<Selection>,
}

/// Whether step `k` is part of the tour of `m` (the user's file).
pub fn applies(k: usize, m: &Model) -> bool {
    STEPS.get(k).is_some_and(|s| s.needs.is_none_or(|f| f(m)))
}

/// The step after `k` in the tour of `m`, if any.
pub fn next(k: usize, m: &Model) -> Option<usize> {
    (k + 1..STEPS.len()).find(|&j| applies(j, m))
}

/// The step before `k` in the tour of `m`, if any.
pub fn prev(k: usize, m: &Model) -> Option<usize> {
    (0..k).rev().find(|&j| applies(j, m))
}

/// Step `k`'s number in the tour of `m`, counted from 1, and how many steps that tour has.
pub fn position(k: usize, m: &Model) -> (usize, usize) {
    ((0..k).filter(|&j| applies(j, m)).count() + 1, (0..STEPS.len()).filter(|&j| applies(j, m)).count())
}

fn has_spdb(m: &Model) -> bool {
    m.shader.as_ref().is_some_and(|s| s.spdb.is_some())
}

fn first_token(m: &Model, pred: impl Fn(&Model, usize) -> bool) -> Option<usize> {
    (0..m.spans.len()).find(|&i| m.token(i).is_some() && pred(m, i))
}

fn opcode_of(m: &Model, i: usize) -> Option<u16> {
    let t = m.token(i)?;
    let k = t.instruction?;
    Some(m.program()?.instructions[k].opcode())
}

fn range(start: u32, len: u32, m: &Model) -> Option<Selection> {
    Some(Selection { start, len, span: m.span_at(start as usize), field: None })
}

/// The tour.
pub static STEPS: &[Step] = &[
    Step {
        title: "The container",
        text: "A DXBC file is a container: a 32-byte header, then a table of chunk offsets, then the chunks. The header starts with the magic \"DXBC\", a 16-byte checksum, the format version (1), the file size and the number of chunks. Everything is little-endian. The hex view shows each row as four 32-bit words, most significant byte first, so bit 31 is on the left like in the ribbon below.",
        needs: None,
        target: |m| range(0, 32.min(m.bytes.len() as u32), m),
    },
    Step {
        title: "The checksum",
        text: "Bytes 4 to 19 hold a hash of everything after them. The runtime recomputes it and refuses a file that does not match, so a shader edited by hand must be re-signed. The badge at the top says whether this one is valid.",
        needs: None,
        target: |m| select_span(m, m.span_at(4)?),
    },
    Step {
        title: "Chunks",
        text: "Each entry of the offset table points at a chunk: a FourCC (RDEF, ISGN, OSGN, SHEX …) and a byte size, then the payload. The chunk map lists them. Signatures and RDEF are reflection data; the program itself is in SHDR (shader model 4) or SHEX (5).",
        needs: None,
        target: |m| {
            // The program chunk's FourCC: the leaf just before its size and first token.
            let i = (0..m.spans.len()).find(|&i| {
                m.leaf(i).is_some_and(|l| l.path.ends_with("/fourcc"))
                    && m.spans.get(i + 2).is_some_and(|s| matches!(s.kind, SpanKind::Token(_)))
            })?;
            range(m.spans[i].start, 8, m)
        },
    },
    Step {
        title: "Version token",
        text: "The program is a stream of 32-bit tokens. The first says which stage the program is for (bits 16–31: pixel, vertex, geometry, hull, domain, compute) and the shader model (major in bits 4–7, minor in 0–3).",
        needs: None,
        target: |m| select_span(m, first_token(m, |m, i| m.token(i).unwrap().role == TokenRole::Version)?),
    },
    Step {
        title: "Length token",
        text: "The second token is the program's length in dwords, counting these two. A reader can skip a whole program without understanding a single instruction.",
        needs: None,
        target: |m| select_span(m, first_token(m, |m, i| m.token(i).unwrap().role == TokenRole::Length)?),
    },
    Step {
        title: "Declarations",
        text: "The program opens with declarations: what it reads and writes (constant buffers, samplers, textures, inputs, outputs, how many temporaries). They are instructions too — an opcode token, then operands or plain payload dwords.",
        needs: None,
        target: |m| {
            let i = first_token(m, |m, i| {
                m.token(i).unwrap().role == TokenRole::Opcode
                    && opcode_of(m, i).is_some_and(|c| c == dxbc::spec::opc::DCL_CONSTANT_BUFFER)
            })?;
            select_span(m, i)
        },
    },
    Step {
        title: "Opcode token",
        text: "Every instruction starts with an opcode token: the opcode in bits 0–10, the instruction's length in dwords in bits 24–30, and bit 31 when extended opcode tokens follow. Bits 11–23 are controls that depend on the opcode (saturate, the test of an if, a resource's dimension …). The selected field is the opcode number.",
        needs: None,
        target: |m| {
            let i = first_token(m, |m, i| {
                m.token(i).unwrap().role == TokenRole::Opcode
                    && m.token(i).unwrap().instruction.is_some_and(|k| {
                        m.program().unwrap().instructions[k].info().is_some_and(|o| o.class != dxbc::spec::OpClass::Decl)
                    })
            })?;
            select_field(m, i, 0)
        },
    },
    Step {
        title: "Extended opcode tokens",
        text: "When bit 31 of the opcode token is set, more tokens follow with extra controls: texel offsets (_aoffimmi), the resource's dimension and the return types fxc prints after sample_indexable. Each sets bit 31 again if another follows.",
        needs: None,
        target: |m| select_span(m, first_token(m, |m, i| m.token(i).unwrap().role == TokenRole::ExtendedOpcode)?),
    },
    Step {
        title: "Operand token",
        text: "Each operand starts with its own token. Bits 0–1: how many components (0, 1 or 4). Bits 2–3: for four components, whether bits 4–11 are a write mask (destinations), a swizzle (sources, two bits per component) or one selected component. Bits 12–19: the register file (temp r, input v, output o, constant buffer cb …). Bits 20–21: how many indices follow, and bits 22–30 how each index is stored (an immediate, a register, or both). The selected field is the component selection.",
        needs: None,
        target: |m| {
            let i = first_token(m, |m, i| {
                matches!(m.token(i).unwrap().role, TokenRole::Operand { .. })
                    && opcode_of(m, i).is_some_and(|c| dxbc::spec::opcode(c as u32).is_some_and(|o| o.class != dxbc::spec::OpClass::Decl))
                    && (m.token(i).unwrap().value >> 2) & 3 == 1
            })?;
            select_field(m, i, 4)
        },
    },
    Step {
        title: "Indices",
        text: "After the operand token come its indices: here a 32-bit immediate, the register number. cb0[0] has two: the buffer and the element. Relative indices (r0.x + 3) would be a whole nested operand instead.",
        needs: None,
        target: |m| select_span(m, first_token(m, |m, i| matches!(m.token(i).unwrap().role, TokenRole::Index { .. }) && opcode_of(m, i).is_some_and(|c| c < 80))?),
    },
    Step {
        title: "Extended operand token",
        text: "An operand with bit 31 set is followed by an extended operand token. The usual kind carries a source modifier — here the minus of -r0 — and the operand's minimum precision.",
        needs: None,
        target: |m| select_span(m, first_token(m, |m, i| matches!(m.token(i).unwrap().role, TokenRole::ExtendedOperand { .. }))?),
    },
    Step {
        title: "Immediates",
        text: "A literal, l(1.0, …) in the listing, is an operand of type IMMEDIATE32 whose one or four values follow it in the stream as raw 32-bit words. The instruction decides how to print them: as floats here.",
        needs: None,
        target: |m| select_span(m, first_token(m, |m, i| matches!(m.token(i).unwrap().role, TokenRole::Immediate { .. }) && opcode_of(m, i) != Some(dxbc::spec::opc::DCL_HS_MAX_TESSFACTOR))?),
    },
    Step {
        title: "Custom-data blocks",
        text: "Opcode 53 starts a custom-data block: its class is in bits 11–31, and the next dword is the block's full length, so it can exceed the 7-bit length field. fxc stores immediate constant buffers this way (icb[] in the listing).",
        needs: None,
        target: |m| {
            let i = first_token(m, |m, i| m.token(i).unwrap().role == TokenRole::Opcode && opcode_of(m, i) == Some(dxbc::spec::opc::CUSTOMDATA))?;
            let t = m.token(i)?;
            let ins = &m.program()?.instructions[t.instruction?];
            range(ins.offset, ins.length * 4, m)
        },
    },
    Step {
        title: "Over to you",
        text: "That is the whole format. Hover any byte to see its token and field, click a line of the disassembly to find its bytes, use the arrow keys and Tab in the hex view, and copy a link to share exactly what you are looking at.",
        needs: None,
        target: |m| {
            let p = m.program()?;
            let ins = p.instructions.last()?;
            range(ins.offset, ins.length * 4, m)
        },
    },
    Step {
        title: "Beyond the program: reflection fields",
        text: "The other chunks are tables of records. In an input signature (ISGN), each element is six dwords: where its semantic name lies, the semantic index, the system value, the component type, the register, and the masks. The selected field is an offset — the inspector shows its path, its value, and the name it points at, and the name's own bytes lie further on in the chunk. RDEF (constant buffers, variables, bindings) is built the same way; hover any of their bytes to see which field it is.",
        needs: None,
        target: |m| {
            let i = (0..m.spans.len())
                .find(|&i| m.leaf(i).is_some_and(|l| l.path.starts_with("ISGN/elements[0]/name_offset")))?;
            select_span(m, i)
        },
    },
    Step {
        title: "Debug information (SPDB)",
        text: "Compiled with /Zi, a shader carries an SPDB chunk, and inside it a whole PDB file. A PDB is an MSF container: its bytes are cut into pages of a fixed size, and a directory gives each numbered stream its size and the list of pages that hold it, so one stream may lie scattered over the chunk. Stream 1 identifies the PDB and names other streams; fxc gives each HLSL file it read a stream of its own (/src/files/…) holding the text as it was written. The module stream holds the line tables: for each instruction, by its byte offset from the program's version token, the file, line and column it came from, and where each variable lives in the registers. The source pane over the listing shows those files: click a line to select its instructions, or point at an instruction to find its line.",
        needs: Some(has_spdb),
        target: |m| {
            let i = (0..m.spans.len()).find(|&i| m.leaf(i).is_some_and(|l| l.path == "SPDB/fourcc"))?;
            range(m.spans[i].start, 8, m)
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spdb_step_is_in_the_tour_of_a_zi_shader_only() {
        let zi = Model::new(crate::test_corpus::file("fxc/dxdecompiler_misc_debugtest.dxbc"));
        let plain = Model::new(dxbc::examples::textured_pixel_shader());
        let k = STEPS.iter().position(|s| s.title.contains("SPDB")).unwrap();
        assert!(applies(k, &zi) && !applies(k, &plain));
        assert_eq!(position(k, &zi), (STEPS.len(), STEPS.len()));
        assert_eq!(position(k - 1, &plain), (STEPS.len() - 1, STEPS.len() - 1));
        assert_eq!((next(k - 1, &zi), next(k - 1, &plain)), (Some(k), None));
        assert_eq!(prev(k, &zi), Some(k - 1));
        // It selects the chunk's FourCC and size, as the container's chunk table places it.
        let sel = (STEPS[k].target)(&zi).unwrap();
        let c = zi.shader.as_ref().unwrap().container.chunks.iter().find(|c| &c.tag == b"SPDB").unwrap();
        assert_eq!((sel.start as usize, sel.len), (c.offset, 8));
        assert_eq!(&zi.bytes[c.offset..c.offset + 4], b"SPDB");
        assert_eq!((STEPS[k].target)(&plain), None);
    }

    #[test]
    fn every_step_finds_its_bytes_on_the_tour_example() {
        let m = Model::new(dxbc::examples::textured_pixel_shader());
        for (k, s) in STEPS.iter().enumerate().filter(|(k, _)| applies(*k, &m)) {
            let sel = (s.target)(&m).unwrap_or_else(|| panic!("step {k} {}", s.title));
            assert!(sel.len > 0 && (sel.start + sel.len) as usize <= m.bytes.len());
        }
        let op = (STEPS[8].target)(&m).unwrap();
        let line = crate::selection::line_of(&m, &op).unwrap();
        assert!(m.lines[line].starts_with("sample_indexable"), "{}", m.lines[line]);
        let ext = (STEPS[10].target)(&m).unwrap();
        assert!(m.lines[crate::selection::line_of(&m, &ext).unwrap()].starts_with("add"));
        // The chunk step selects the program chunk's FourCC and size.
        let c = (STEPS[2].target)(&m).unwrap();
        assert_eq!(&m.bytes[c.start as usize..c.start as usize + 4], b"SHEX");
        assert_eq!(c.len, 8);
        // The last step for every file (appended so that links to earlier
        // steps keep their step) selects ISGN element 0's name offset, which
        // points (from the payload start) at the element's semantic name.
        let r = (STEPS[STEPS.len() - 2].target)(&m).unwrap();
        let leaf = m.leaf(r.span.unwrap()).unwrap();
        assert_eq!(leaf.path, "ISGN/elements[0]/name_offset");
        let isgn = m.shader.as_ref().unwrap().container.chunks.iter().find(|c| &c.tag == b"ISGN").unwrap();
        let off = u32::from_le_bytes(m.bytes[r.start as usize..r.start as usize + 4].try_into().unwrap());
        let name_at = isgn.data_range().start + off as usize;
        let name = &m.bytes[name_at..name_at + leaf.meaning.len()];
        assert_eq!(name, leaf.meaning.as_bytes());
        assert_eq!(leaf.meaning, m.shader.as_ref().unwrap().input_signature.as_ref().unwrap().elements[0].name);
    }
}
