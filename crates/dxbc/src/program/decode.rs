//! Token-stream decoding.

use super::*;
use crate::error::ErrorKind;
use crate::reader::dword;
use crate::spec::{
    ext_operand_token, has_long_length, layout, opcode_token, operand_token, IndexRepresentation, Item, NumComponents,
    Opcode, OperandType, OPCODES,
};

/// The custom-data opcode, as the number the walk compares with.
const CUSTOMDATA: u16 = Opcode::Customdata as u16;
/// Operand types whose value is stored in the instruction.
const IMMEDIATE32: u32 = OperandType::Immediate32 as u32;
const IMMEDIATE64: u32 = OperandType::Immediate64 as u32;
/// The component-count value that no shader model defines.
const N_COMPONENT: u32 = NumComponents::NComponent as u32;
/// Operand token bits that must be clear for the inline reader: every index
/// representation other than a plain 32-bit immediate, and the extension bit.
const NOT_PLAIN: u32 = operand_token::INDEX_REPRESENTATION[0].mask()
    | operand_token::INDEX_REPRESENTATION[1].mask()
    | operand_token::INDEX_REPRESENTATION[2].mask()
    | operand_token::EXTENDED.mask();
const _: () = assert!(IndexRepresentation::Immediate32 as u32 == 0);

/// The extension bit of opcode and operand tokens (bit 31 in both).
const EXTENDED_BIT: u32 = ext_operand_token::EXTENDED.mask();
const _: () = assert!(EXTENDED_BIT == opcode_token::EXTENDED.mask());

/// Deepest nesting of relative-index operands accepted (fxc emits 1).
const MAX_REL_DEPTH: u32 = 4;

/// What the decoder needs to know about one opcode, gathered from the
/// format table ([`OPCODES`], [`layout`], [`has_long_length`]) once, at
/// compile time, so the walk does one small table load per instruction.
#[derive(Clone, Copy)]
struct Desc {
    /// Operand count of an ordinary instruction (-1: unknown opcode, read
    /// operands up to the instruction's end).
    expected: i8,
    /// The extended bit means "a length dword follows".
    long: bool,
    /// A declaration: its payload follows [`layout`] (see [`desc_layout`]).
    decl: bool,
    /// Number of [`Item::Operand`] entries in the layout.
    layout_ops: u8,
}

impl Desc {
    const fn of(code: u16) -> Desc {
        let expected = if (code as usize) < OPCODES.len() { OPCODES[code as usize].operands } else { -1 };
        let layout = layout(code);
        let mut layout_ops = 0u8;
        if let Some(items) = layout {
            let mut i = 0;
            while i < items.len() {
                if matches!(items[i], Item::Operand) {
                    layout_ops += 1;
                }
                i += 1;
            }
        }
        Desc { expected, long: has_long_length(code), decl: layout.is_some(), layout_ops }
    }
}

/// Opcodes below this number are looked up in [`DESCS`] and [`LAYOUTS`];
/// others (none are defined) are described on the fly.
const DESC_TABLE_LEN: usize = 256;

static DESCS: [Desc; DESC_TABLE_LEN] = {
    let mut t = [Desc { expected: -1, long: false, decl: false, layout_ops: 0 }; DESC_TABLE_LEN];
    let mut c = 0;
    while c < DESC_TABLE_LEN {
        t[c] = Desc::of(c as u16);
        c += 1;
    }
    t
};

/// [`layout`] of each opcode below [`DESC_TABLE_LEN`].
static LAYOUTS: [Option<&'static [Item]>; DESC_TABLE_LEN] = {
    let mut t: [Option<&'static [Item]>; DESC_TABLE_LEN] = [None; DESC_TABLE_LEN];
    let mut c = 0;
    while c < DESC_TABLE_LEN {
        t[c] = layout(c as u16);
        c += 1;
    }
    t
};

#[inline]
fn desc(code: u16) -> Desc {
    match DESCS.get(code as usize) {
        Some(d) => *d,
        None => Desc::of(code),
    }
}

#[inline]
fn desc_layout(code: u16) -> Option<&'static [Item]> {
    match LAYOUTS.get(code as usize) {
        Some(l) => *l,
        None => layout(code),
    }
}

pub(super) fn decode(data: &[u8], base: usize) -> (Program, Vec<Error>) {
    let mut p = Program::empty(base);
    let n_words = data.len() / 4;
    if n_words < 2 {
        p.undecoded = data.to_vec();
        return (p, vec![Error::of(ErrorKind::Truncated, "expected a version token and a length token", base)]);
    }
    p.version = VersionToken(dword(data, 0));
    p.length = dword(data, 1);
    let mut len = p.length as usize;
    let mut errors = Vec::new();
    if len < 2 || len > n_words {
        let e = format!("program length token says {len} dwords but the chunk holds {n_words}");
        errors.push(Error::of(ErrorKind::SizeMismatch, e, base + 4));
        if len < 2 {
            p.undecoded = data[8..].to_vec();
            return (p, errors);
        }
        // A cut chunk (truncated file): decode the dwords that are there.
        len = n_words;
    }
    p.trailing = data[len * 4..].to_vec();
    let words = &data[..len * 4];
    // Capacities from a walk over the instruction lengths, so that the
    // vectors are allocated once instead of growing. Each bound is at most
    // one element per dword of the program, so it stays proportional to the
    // input.
    let sizes = Sizes::of(words, len);
    p.instructions.reserve_exact(sizes.instructions);
    // Relative indices add operands the walk does not see: about 1 % of
    // the operands in fxc's output, at most a quarter in any corpus file.
    // An eighth more avoids regrowing (and copying) the vector in nearly
    // every program.
    p.operands.reserve_exact(sizes.operands + sizes.operands / 8);
    let mut pos = 2usize;
    while pos < len {
        if let Some(n) = fast_instruction(&mut p, words, base, pos) {
            pos += n;
            continue;
        }
        match decode_instruction(&mut p, words, base, pos, sizes.payload) {
            Ok(n) => pos += n,
            Err(e) => {
                p.undecoded = data[pos * 4..len * 4].to_vec();
                errors.push(e);
                return (p, errors);
            }
        }
    }
    (p, errors)
}

/// Vector capacities for one program: exact for instructions, upper
/// bounds for well-formed payload and top-level operands
/// (relative-index operands and padding dwords, both rare, grow the
/// vectors as needed).
#[derive(Default)]
struct Sizes {
    instructions: usize,
    operands: usize,
    payload: usize,
}

impl Sizes {
    /// Walks the instruction lengths of the `len`-dword program in `words`
    /// without decoding operands; stops quietly at the first malformed
    /// length (the decoder reports it).
    fn of(words: &[u8], len: usize) -> Sizes {
        let mut s = Sizes::default();
        let mut pos = 2usize;
        while pos < len {
            let token = dword(words, pos);
            let code = opcode_token::OPCODE.get(token) as u16;
            let n = if code == CUSTOMDATA {
                if pos + 1 >= len {
                    break;
                }
                let count = dword(words, pos + 1) as usize;
                if count < 2 || count > len - pos {
                    break;
                }
                s.payload += count - 2;
                count
            } else {
                let d = desc(code);
                let mut n = opcode_token::LENGTH.get(token) as usize;
                if opcode_token::EXTENDED.get(token) != 0 && d.long {
                    if pos + 1 >= len {
                        break;
                    }
                    n = dword(words, pos + 1) as usize;
                }
                if n == 0 || n > len - pos {
                    break;
                }
                // Each operand takes at least its token dword; what is left
                // bounds the payload.
                let body = n - 1;
                if !d.decl {
                    let ops = if d.expected >= 0 { (d.expected as usize).min(body) } else { body };
                    s.operands += ops;
                } else {
                    let ops = (d.layout_ops as usize).min(body);
                    s.operands += ops;
                    s.payload += body - ops;
                }
                n
            };
            s.instructions += 1;
            pos += n;
        }
        s
    }
}

/// The common instruction: an ordinary opcode of known operand count, no
/// extended opcode token, every operand without relative indices and
/// nothing after the operands. Decodes it and returns its length in dwords,
/// or undoes what it read and returns `None` for [`decode_instruction`] to
/// handle (and report faults) the general way.
#[inline(always)]
fn fast_instruction(p: &mut Program, words: &[u8], base: usize, pos: usize) -> Option<usize> {
    let n_words = words.len() / 4;
    let token = dword(words, pos);
    let code = opcode_token::OPCODE.get(token) as u16;
    let d = desc(code);
    let len = opcode_token::LENGTH.get(token) as usize;
    let expected = d.expected;
    if d.decl
        || code == CUSTOMDATA
        || opcode_token::EXTENDED.get(token) != 0
        || !(0..=OpIds::CAPACITY as i8).contains(&expected)
        || len == 0
        || len > n_words - pos
    {
        return None;
    }
    let end = pos + len;
    let op_start = p.operands.len();
    let pool_start = p.pool.len();
    let mut cur = pos + 1;
    let mut ok = true;
    for _ in 0..expected {
        if cur >= end {
            ok = false;
            break;
        }
        if !fast_operand(p, words, base, &mut cur, end, true)
            && read_operand_general(p, words, base, &mut cur, end, 0).is_err()
        {
            ok = false;
            break;
        }
    }
    // Exactly `expected` operands pushed means none had relative-index
    // sub-operands, so the top-level ids are op_start, op_start + 1, ...
    let n_ops = p.operands.len() - op_start;
    if !ok || cur != end || n_ops != expected as usize {
        p.operands.truncate(op_start);
        p.pool.truncate(pool_start);
        return None;
    }
    p.instructions.push(Instruction {
        offset: (base + pos * 4) as u32,
        token,
        length: len as u32,
        ext_start: pool_start as u32,
        n_ext: 0,
        long_length: None,
        op_start: op_start as u32,
        n_ops: n_ops as u8,
        n_payload_before: 0,
        payload_start: p.payload.len() as u32,
        n_payload: 0,
        ops: OpIds::contiguous(op_start as u32, n_ops),
    });
    Some(len)
}

/// Reads one instruction at dword `pos`; returns its length in dwords. On
/// a fault the instruction is not kept (its operands and pool entries are,
/// as they were read).
fn decode_instruction(
    p: &mut Program,
    words: &[u8],
    base: usize,
    pos: usize,
    payload_bound: usize,
) -> Result<usize, Error> {
    // The record is pushed first and filled in place: assembling it on the
    // stack and copying it out made the copy wait on the narrow stores of
    // the operand ids.
    let idx = p.instructions.len();
    let token = dword(words, pos);
    p.instructions.push(Instruction {
        offset: (base + pos * 4) as u32,
        token,
        length: 0,
        ext_start: p.pool.len() as u32,
        n_ext: 0,
        long_length: None,
        op_start: p.operands.len() as u32,
        n_ops: 0,
        n_payload_before: 0,
        payload_start: p.payload.len() as u32,
        n_payload: 0,
        ops: OpIds::default(),
    });
    let r = instruction_body(p, words, base, pos, token, idx, payload_bound);
    if r.is_err() {
        p.instructions.truncate(idx);
    }
    r
}

/// Decodes the instruction at dword `pos` (opcode token `token`) into the
/// record `p.instructions[idx]`; `payload_bound` sizes the payload vector.
#[inline(always)]
fn instruction_body(
    p: &mut Program,
    words: &[u8],
    base: usize,
    pos: usize,
    token: u32,
    idx: usize,
    payload_bound: usize,
) -> Result<usize, Error> {
    let n_words = words.len() / 4;
    let at = |i: usize| base + i * 4;
    let code = opcode_token::OPCODE.get(token) as u16;
    let mut n_ext = 0u8;
    let mut n_payload = 0u32;
    let mut n_payload_before = 0u8;
    let mut long_length = None;
    let mut n_ops = 0u8;
    // Adds a top-level operand id to the record; false when it is full.
    let push_op = |p: &mut Program, n_ops: &mut u8, id: u32| -> bool {
        // The count stays in a register; the record's own count is set at
        // the end.
        let n = *n_ops as usize;
        if n >= OpIds::CAPACITY {
            return false;
        }
        if let Some(ins) = p.instructions.get_mut(idx) {
            ins.ops.ids[n] = id;
        }
        *n_ops += 1;
        true
    };

    if code == CUSTOMDATA {
        if pos + 1 >= n_words {
            return Err(Error::of(ErrorKind::Truncated, "expected the custom-data block's length dword", at(pos + 1)));
        }
        let count = dword(words, pos + 1) as usize;
        if count < 2 || count > n_words - pos {
            return Err(Error::of(
                ErrorKind::OutOfBounds,
                format!("custom-data block length {count} dwords does not fit in the {} dwords left", n_words - pos),
                at(pos + 1),
            ));
        }
        let class = opcode_token::CUSTOMDATA_CLASS.get(token);
        let message = spec::CustomdataClass::from_u32(class) == Some(spec::CustomdataClass::ShaderMessage);
        // A shader message's dwords are named by the layout in `message`;
        // other blocks' are plain custom data.
        let op_words = if message && count > 6 { dword(words, pos + 6) as usize } else { 0 };
        for i in pos + 2..pos + count {
            let word =
                Word::Count(if message { super::message::word_name(i - pos - 2, op_words) } else { "custom data" });
            first_use(&mut p.payload, payload_bound);
            p.payload.push(Payload { offset: at(i) as u32, value: dword(words, i), word });
        }
        if let Some(ins) = p.instructions.get_mut(idx) {
            ins.n_payload = (count - 2) as u32;
            ins.length = count as u32;
        }
        return Ok(count);
    }

    let d = desc(code);
    let mut len = opcode_token::LENGTH.get(token) as usize;
    let mut cur = pos + 1;
    let long = d.long && opcode_token::EXTENDED.get(token) != 0;
    if long {
        if cur >= n_words {
            return Err(Error::of(ErrorKind::Truncated, "expected the declaration's length dword", at(cur)));
        }
        len = dword(words, cur) as usize;
        long_length = Some(len as u32);
        cur += 1;
    }
    if len == 0 {
        return Err(Error::new(format!("instruction length is 0 for opcode {code}"), at(pos)));
    }
    if len > n_words - pos {
        return Err(Error::of(
            ErrorKind::OutOfBounds,
            format!("instruction length {len} dwords runs past the program end ({} dwords left)", n_words - pos),
            at(pos),
        ));
    }
    let end = pos + len;
    if long && len < 2 {
        return Err(Error::of(
            ErrorKind::SizeMismatch,
            "declaration length is shorter than its own header",
            at(pos + 1),
        ));
    }

    // Extended opcode tokens (not for the long-length declarations, whose
    // extended bit means "length dword follows").
    if !long {
        let mut more = opcode_token::EXTENDED.get(token) != 0;
        while more {
            if cur >= end {
                return Err(Error::of(
                    ErrorKind::SizeMismatch,
                    "expected an extended opcode token inside the instruction",
                    at(cur),
                ));
            }
            let e = dword(words, cur);
            first_use(&mut p.pool, n_words - cur);
            p.pool.push(e);
            n_ext += 1;
            if n_ext > 8 {
                return Err(Error::of(ErrorKind::LimitExceeded, "more than 8 chained extended opcode tokens", at(cur)));
            }
            cur += 1;
            more = EXTENDED_BIT & e != 0;
        }
    }

    match desc_layout(code) {
        None => {
            let expected = d.expected;
            let mut n = 0;
            while cur < end && (expected < 0 || n < expected) {
                let id = operand(p, words, base, &mut cur, end)?;
                if !push_op(p, &mut n_ops, id) {
                    return Err(Error::of(
                        ErrorKind::LimitExceeded,
                        "more than 8 operands in one instruction",
                        at(cur),
                    ));
                }
                n += 1;
            }
            if expected >= 0 && n < expected {
                return Err(Error::of(
                    ErrorKind::SizeMismatch,
                    format!("expected {expected} operands, the instruction holds {n}"),
                    at(cur),
                ));
            }
            // Some compilers pad an instruction with dwords after its
            // operands; they are kept (so the bytes rebuild) but mean nothing.
            while cur < end {
                first_use(&mut p.payload, payload_bound);
                p.payload.push(Payload {
                    offset: at(cur) as u32,
                    value: dword(words, cur),
                    word: Word::Count("padding"),
                });
                n_payload += 1;
                cur += 1;
            }
        }
        Some(items) => {
            let mut seen_operand = false;
            for item in items {
                match *item {
                    Item::Operand => {
                        if cur >= end {
                            return Err(Error::of(
                                ErrorKind::SizeMismatch,
                                "expected an operand inside the declaration",
                                at(cur),
                            ));
                        }
                        let id = operand(p, words, base, &mut cur, end)?;
                        push_op(p, &mut n_ops, id);
                        seen_operand = true;
                    }
                    Item::Word(w) => {
                        if cur >= end {
                            return Err(Error::of(
                                ErrorKind::SizeMismatch,
                                format!("expected the declaration's {}", w.name()),
                                at(cur),
                            ));
                        }
                        first_use(&mut p.payload, payload_bound);
                        p.payload.push(Payload { offset: at(cur) as u32, value: dword(words, cur), word: w });
                        n_payload += 1;
                        if !seen_operand {
                            n_payload_before += 1;
                        }
                        cur += 1;
                    }
                    Item::Rest(w) => {
                        while cur < end {
                            first_use(&mut p.payload, payload_bound);
                            p.payload.push(Payload { offset: at(cur) as u32, value: dword(words, cur), word: w });
                            n_payload += 1;
                            cur += 1;
                        }
                    }
                }
            }
            if cur != end {
                return Err(Error::of(
                    ErrorKind::SizeMismatch,
                    format!("declaration has {} dwords its layout does not account for", end - cur),
                    at(cur),
                ));
            }
        }
    }
    if cur != end {
        return Err(Error::of(ErrorKind::SizeMismatch, "operands run past the instruction's length", at(end)));
    }
    if let Some(ins) = p.instructions.get_mut(idx) {
        ins.length = len as u32;
        ins.n_ext = n_ext;
        ins.long_length = long_length;
        ins.n_ops = n_ops;
        ins.ops.len = n_ops;
        ins.n_payload_before = n_payload_before;
        ins.n_payload = n_payload;
    }
    Ok(len)
}

/// Reads one top-level operand: the common shape inline, anything else
/// through [`read_operand`].
#[inline(always)]
fn operand(p: &mut Program, words: &[u8], base: usize, cur: &mut usize, end: usize) -> Result<u32, Error> {
    if fast_operand(p, words, base, cur, end, true) {
        Ok(p.operands.len() as u32 - 1)
    } else {
        read_operand_general(p, words, base, cur, end, 0)
    }
}

/// The common operand shapes, read inline and pushed: no extended token,
/// a component count of 0, 1 or 4, and either every index a plain 32-bit
/// immediate or (a 32-bit literal) no index, all inside the instruction.
/// Returns false, having read nothing, for any other shape (and for a
/// literal when `literal` is false: the general reader then reports the
/// nesting fault it owes).
#[inline(always)]
fn fast_operand(p: &mut Program, words: &[u8], base: usize, cur: &mut usize, end: usize, literal: bool) -> bool {
    let at = *cur;
    if at >= end {
        return false;
    }
    let token = dword(words, at);
    let dims = operand_token::INDEX_DIMENSION.get(token) as usize;
    let ty = operand_token::TYPE.get(token);
    let comps = operand_token::COMPONENTS.get(token);
    let none = Index { offset: 0, imm: 0, rel: NO_OPERAND };
    // No extension and every index a plain 32-bit immediate, a defined
    // component count, not a literal, all inside the instruction.
    let plain = token & NOT_PLAIN == 0
        && comps != N_COMPONENT
        && ty != IMMEDIATE32
        && ty != IMMEDIATE64
        && at + 1 + dims <= end;
    if !plain {
        if ty != IMMEDIATE32 || !literal || token & EXTENDED_BIT != 0 || comps == N_COMPONENT || dims != 0 {
            return false;
        }
        // A 32-bit literal of 0, 1 or 4 components: its dwords go to the pool.
        let n = [0, 1, 4][comps as usize];
        if at + 1 + n > end {
            return false;
        }
        first_use(&mut p.pool, words.len() / 4 - at);
        let pool = p.pool.len() as u32;
        for i in at + 1..at + 1 + n {
            p.pool.push(dword(words, i));
        }
        p.operands.push(Operand {
            offset: (base + at * 4) as u32,
            token,
            pool,
            n_ext: 0,
            n_imm: n as u8,
            index: [none; 3],
        });
        *cur = at + 1 + n;
        return true;
    }
    let index = |d: usize| {
        if d < dims {
            let i = at + 1 + d;
            Index { offset: (base + i * 4) as u32, imm: dword(words, i) as u64, rel: NO_OPERAND }
        } else {
            none
        }
    };
    p.operands.push(Operand {
        offset: (base + at * 4) as u32,
        token,
        pool: p.pool.len() as u32,
        n_ext: 0,
        n_imm: 0,
        index: [index(0), index(1), index(2)],
    });
    *cur = at + 1 + dims;
    true
}

/// Gives `v` its capacity on first use: `bound` elements (an upper bound on
/// what the program can add in all, when well formed), so that it is
/// allocated once, and not at all when nothing is added.
#[inline(always)]
fn first_use<T>(v: &mut Vec<T>, bound: usize) {
    if v.capacity() == 0 {
        v.reserve_exact(bound);
    }
}

/// Reads one operand (with its extended tokens, immediates and indices,
/// recursively for relative indices) at dword `*cur`, not past `end`.
/// Returns its id in [`Program::operands`].
#[inline]
pub fn read_operand(
    p: &mut Program,
    words: &[u8],
    base: usize,
    cur: &mut usize,
    end: usize,
    depth: u32,
) -> Result<u32, Error> {
    if fast_operand(p, words, base, cur, end, depth <= MAX_REL_DEPTH) {
        Ok(p.operands.len() as u32 - 1)
    } else {
        read_operand_general(p, words, base, cur, end, depth)
    }
}

#[inline(never)]
fn read_operand_general(
    p: &mut Program,
    words: &[u8],
    base: usize,
    cur: &mut usize,
    end: usize,
    depth: u32,
) -> Result<u32, Error> {
    let at = |i: usize| base + i * 4;
    if depth > MAX_REL_DEPTH {
        return Err(Error::of(ErrorKind::LimitExceeded, "relative indices nested too deeply", at(*cur)));
    }
    let need = |cur: usize, n: usize, what: &str| -> Result<(), Error> {
        if cur + n > end {
            Err(Error::of(ErrorKind::SizeMismatch, format!("expected {what} inside the instruction"), at(cur)))
        } else {
            Ok(())
        }
    };
    need(*cur, 1, "an operand token")?;
    let token = dword(words, *cur);
    let mut op = Operand {
        offset: at(*cur) as u32,
        token,
        pool: p.pool.len() as u32,
        n_ext: 0,
        n_imm: 0,
        index: [Index { offset: 0, imm: 0, rel: NO_OPERAND }; 3],
    };
    *cur += 1;
    let mut more = opcode_token::EXTENDED.get(token) != 0;
    while more {
        need(*cur, 1, "an extended operand token")?;
        let e = dword(words, *cur);
        first_use(&mut p.pool, words.len() / 4 - *cur);
        p.pool.push(e);
        op.n_ext += 1;
        if op.n_ext > 4 {
            return Err(Error::of(ErrorKind::LimitExceeded, "more than 4 chained extended operand tokens", at(*cur)));
        }
        *cur += 1;
        more = EXTENDED_BIT & e != 0;
    }
    let ncomp = match NumComponents::from_u32(op.num_components()) {
        Some(NumComponents::Component0) => 0,
        Some(NumComponents::Component1) => 1,
        Some(NumComponents::Component4) => 4,
        _ => {
            return Err(Error::new(
                "operand uses the N-component form, which no shader model defines",
                op.offset as usize,
            ))
        }
    };
    let imm_words = match op.operand_type() {
        Some(OperandType::Immediate32) => ncomp,
        // A double takes two 32-bit components, so a 4-component 64-bit
        // immediate holds two doubles (4 dwords) and a scalar one double.
        Some(OperandType::Immediate64) => ncomp.max(2),
        _ => 0,
    };
    if imm_words > 0 {
        need(*cur, imm_words, "the immediate value")?;
        first_use(&mut p.pool, words.len() / 4 - *cur);
        for i in 0..imm_words {
            p.pool.push(dword(words, *cur + i));
        }
        op.n_imm = imm_words as u8;
        *cur += imm_words;
    }
    let dims = op.index_dim();
    for d in 0..dims {
        let rep = op.index_representation(d);
        let idx = &mut op.index[d];
        idx.offset = at(*cur) as u32;
        let Some(rep) = rep else {
            let rep = op.index_rep(d);
            return Err(Error::new(format!("index {d} has undefined representation {rep}"), op.offset as usize));
        };
        // A 32-bit immediate, or a 64-bit one stored high dword first.
        let n = rep.immediate_dwords();
        if n == 1 {
            need(*cur, 1, "a 32-bit index")?;
            idx.imm = dword(words, *cur) as u64;
            *cur += 1;
        } else if n == 2 {
            need(*cur, 2, "a 64-bit index")?;
            idx.imm = ((dword(words, *cur) as u64) << 32) | dword(words, *cur + 1) as u64;
            *cur += 2;
        }
        if rep.is_relative() {
            let id = read_operand(p, words, base, cur, end, depth + 1)?;
            op.index[d].rel = id;
        }
    }
    let id = p.operands.len() as u32;
    p.operands.push(op);
    Ok(id)
}
