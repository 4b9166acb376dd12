//! Token-stream decoding.

use super::*;
use crate::reader::dword;
use crate::spec::{layout, opc, Item};

/// Deepest nesting of relative-index operands accepted (fxc emits 1).
const MAX_REL_DEPTH: u32 = 4;

pub(super) fn decode(data: &[u8], base: usize) -> (Program, Vec<Error>) {
    let mut p = Program {
        offset: base,
        version: VersionToken(0),
        length: 0,
        instructions: Vec::new(),
        operands: Vec::new(),
        pool: Vec::new(),
        payload: Vec::new(),
        trailing: Vec::new(),
        undecoded: Vec::new(),
    };
    let n_words = data.len() / 4;
    if n_words < 2 {
        p.undecoded = data.to_vec();
        return (p, vec![Error::new("expected a version token and a length token", base)]);
    }
    p.version = VersionToken(dword(data, 0));
    p.length = dword(data, 1);
    let len = p.length as usize;
    if len < 2 || len > n_words {
        p.undecoded = data[8..].to_vec();
        return (
            p,
            vec![Error::new(format!("program length token says {len} dwords but the chunk holds {n_words}"), base + 4)],
        );
    }
    p.trailing = data[len * 4..].to_vec();
    // Rough capacity from the size: about 4 dwords per instruction and 3
    // operands per instruction; never more than the input can hold.
    p.instructions.reserve(len / 8);
    p.operands.reserve(len / 5);
    p.pool.reserve(len / 8);
    let words = &data[..len * 4];
    let mut pos = 2usize;
    while pos < len {
        match decode_instruction(&mut p, words, base, pos) {
            Ok(n) => pos += n,
            Err(e) => {
                p.undecoded = data[pos * 4..len * 4].to_vec();
                return (p, vec![e]);
            }
        }
    }
    (p, Vec::new())
}

/// Reads one instruction at dword `pos`; returns its length in dwords.
fn decode_instruction(p: &mut Program, words: &[u8], base: usize, pos: usize) -> Result<usize, Error> {
    let n_words = words.len() / 4;
    let at = |i: usize| base + i * 4;
    let token = dword(words, pos);
    let code = (token & 0x7ff) as u16;
    let mut ins = Instruction {
        offset: at(pos) as u32,
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
    };

    if code == opc::CUSTOMDATA {
        if pos + 1 >= n_words {
            return Err(Error::new("expected the custom-data block's length dword", at(pos + 1)));
        }
        let count = dword(words, pos + 1) as usize;
        if count < 2 || count > n_words - pos {
            return Err(Error::new(
                format!("custom-data block length {count} dwords does not fit in the {} dwords left", n_words - pos),
                at(pos + 1),
            ));
        }
        let word = Word::Count("custom data");
        for i in pos + 2..pos + count {
            p.payload.push(Payload { offset: at(i) as u32, value: dword(words, i), word });
        }
        ins.n_payload = (count - 2) as u32;
        ins.length = count as u32;
        p.instructions.push(ins);
        return Ok(count);
    }

    let mut len = ((token >> 24) & 0x7f) as usize;
    let mut cur = pos + 1;
    let long = crate::spec::has_long_length(code) && token & 0x8000_0000 != 0;
    if long {
        if cur >= n_words {
            return Err(Error::new("expected the declaration's length dword", at(cur)));
        }
        len = dword(words, cur) as usize;
        ins.long_length = Some(len as u32);
        cur += 1;
    }
    if len == 0 {
        return Err(Error::new(format!("instruction length is 0 for opcode {code}"), at(pos)));
    }
    if len > n_words - pos {
        return Err(Error::new(
            format!("instruction length {len} dwords runs past the program end ({} dwords left)", n_words - pos),
            at(pos),
        ));
    }
    let end = pos + len;
    if long && len < 2 {
        return Err(Error::new("declaration length is shorter than its own header", at(pos + 1)));
    }

    // Extended opcode tokens (not for the long-length declarations, whose
    // extended bit means "length dword follows").
    if !long {
        let mut more = token & 0x8000_0000 != 0;
        while more {
            if cur >= end {
                return Err(Error::new("expected an extended opcode token inside the instruction", at(cur)));
            }
            let e = dword(words, cur);
            p.pool.push(e);
            ins.n_ext += 1;
            if ins.n_ext > 8 {
                return Err(Error::new("more than 8 chained extended opcode tokens", at(cur)));
            }
            cur += 1;
            more = e & 0x8000_0000 != 0;
        }
    }

    match layout(code) {
        None => {
            let expected = crate::spec::opcode(code as u32).map_or(-1, |o| o.operands);
            let mut n = 0;
            while cur < end && (expected < 0 || n < expected) {
                let id = read_operand(p, words, base, &mut cur, end, 0)?;
                if !ins.ops.push(id) {
                    return Err(Error::new("more than 8 operands in one instruction", at(cur)));
                }
                n += 1;
            }
            if expected >= 0 && n < expected {
                return Err(Error::new(format!("expected {expected} operands, the instruction holds {n}"), at(cur)));
            }
            // Some compilers pad an instruction with dwords after its
            // operands; they are kept (so the bytes rebuild) but mean nothing.
            while cur < end {
                p.payload.push(Payload {
                    offset: at(cur) as u32,
                    value: dword(words, cur),
                    word: Word::Count("padding"),
                });
                ins.n_payload += 1;
                cur += 1;
            }
        }
        Some(items) => {
            let mut seen_operand = false;
            for item in items {
                match *item {
                    Item::Operand => {
                        if cur >= end {
                            return Err(Error::new("expected an operand inside the declaration", at(cur)));
                        }
                        let id = read_operand(p, words, base, &mut cur, end, 0)?;
                        ins.ops.push(id);
                        seen_operand = true;
                    }
                    Item::Word(w) => {
                        if cur >= end {
                            return Err(Error::new(format!("expected the declaration's {}", w.name()), at(cur)));
                        }
                        p.payload.push(Payload { offset: at(cur) as u32, value: dword(words, cur), word: w });
                        ins.n_payload += 1;
                        if !seen_operand {
                            ins.n_payload_before += 1;
                        }
                        cur += 1;
                    }
                    Item::Rest(w) => {
                        while cur < end {
                            p.payload.push(Payload { offset: at(cur) as u32, value: dword(words, cur), word: w });
                            ins.n_payload += 1;
                            cur += 1;
                        }
                    }
                }
            }
            if cur != end {
                return Err(Error::new(
                    format!("declaration has {} dwords its layout does not account for", end - cur),
                    at(cur),
                ));
            }
        }
    }
    if cur != end {
        return Err(Error::new("operands run past the instruction's length", at(end)));
    }
    ins.n_ops = ins.ops.len;
    ins.length = len as u32;
    p.instructions.push(ins);
    Ok(len)
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
    // Fast path for the common shape: no extended token, no literal, and
    // every index a plain 32-bit immediate.
    if *cur < end {
        let token = dword(words, *cur);
        let dims = ((token >> 20) & 3) as usize;
        let ty = (token >> 12) & 0xff;
        let reps_zero = (token >> 22) & 0x1ff == 0;
        if token & 0x8000_0000 == 0 && ty != 4 && ty != 5 && reps_zero && token & 3 != 3 && *cur + 1 + dims <= end {
            let mut op = Operand {
                offset: (base + *cur * 4) as u32,
                token,
                pool: p.pool.len() as u32,
                n_ext: 0,
                n_imm: 0,
                index: [Index { offset: 0, imm: 0, rel: NO_OPERAND }; 3],
            };
            for d in 0..dims {
                let i = *cur + 1 + d;
                op.index[d] = Index { offset: (base + i * 4) as u32, imm: dword(words, i) as u64, rel: NO_OPERAND };
            }
            *cur += 1 + dims;
            let id = p.operands.len() as u32;
            p.operands.push(op);
            return Ok(id);
        }
    }
    read_operand_general(p, words, base, cur, end, depth)
}

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
        return Err(Error::new("relative indices nested too deeply", at(*cur)));
    }
    let need = |cur: usize, n: usize, what: &str| -> Result<(), Error> {
        if cur + n > end {
            Err(Error::new(format!("expected {what} inside the instruction"), at(cur)))
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
    let mut more = token & 0x8000_0000 != 0;
    while more {
        need(*cur, 1, "an extended operand token")?;
        let e = dword(words, *cur);
        p.pool.push(e);
        op.n_ext += 1;
        if op.n_ext > 4 {
            return Err(Error::new("more than 4 chained extended operand tokens", at(*cur)));
        }
        *cur += 1;
        more = e & 0x8000_0000 != 0;
    }
    let ty = op.ty();
    let ncomp = match token & 3 {
        0 => 0,
        1 => 1,
        2 => 4,
        _ => {
            return Err(Error::new(
                "operand uses the N-component form, which no shader model defines",
                op.offset as usize,
            ))
        }
    };
    let imm_words = match ty {
        4 => ncomp,
        // A double takes two 32-bit components, so a 4-component 64-bit
        // immediate holds two doubles (4 dwords) and a scalar one double.
        5 => ncomp.max(2),
        _ => 0,
    };
    if imm_words > 0 {
        need(*cur, imm_words, "the immediate value")?;
        for i in 0..imm_words {
            p.pool.push(dword(words, *cur + i));
        }
        op.n_imm = imm_words as u8;
        *cur += imm_words;
    }
    let dims = op.index_dim();
    for d in 0..dims {
        let rep = op.index_rep(d);
        let idx = &mut op.index[d];
        idx.offset = at(*cur) as u32;
        match rep {
            0 | 3 => {
                need(*cur, 1, "a 32-bit index")?;
                idx.imm = dword(words, *cur) as u64;
                *cur += 1;
            }
            1 | 4 => {
                need(*cur, 2, "a 64-bit index")?;
                idx.imm = ((dword(words, *cur) as u64) << 32) | dword(words, *cur + 1) as u64;
                *cur += 2;
            }
            2 => {}
            _ => {
                return Err(Error::new(format!("index {d} has undefined representation {rep}"), op.offset as usize));
            }
        }
        if rep >= 2 {
            let id = read_operand(p, words, base, cur, end, depth + 1)?;
            op.index[d].rel = id;
        }
    }
    let id = p.operands.len() as u32;
    p.operands.push(op);
    Ok(id)
}
