//! `printf "…", operands` and `errorf "…", operands` back to the custom-data
//! block of class `SHADER_MESSAGE` they print ([`crate::program::message`]).

use super::operand::{self, set, val, Role};
use super::text::{Cursor, Res};
use crate::program::message;
use crate::spec::{self, opc, NumType};

/// Whether the line at `c` is a shader message.
pub(crate) fn is_message(rest: &str) -> bool {
    message::MNEMONICS.iter().any(|m| rest.strip_prefix(m).is_some_and(|r| r.starts_with(' ')))
}

/// Parses one message line into its custom-data block.
pub(crate) fn parse(c: &mut Cursor, w: &mut Vec<u32>) -> Res<()> {
    let error = c.word() == message::MNEMONICS[1];
    c.skip_ws();
    let open = c.pos;
    c.expect("\"")?;
    // Operands hold no quotes: the string ends at the line's last one.
    let close = c.line.rfind('"').filter(|&k| k > open).ok_or_else(|| c.err_at(open, "unterminated string"))?;
    let text = &c.line[open + 1..close];
    c.pos = close + 1;
    let (mut count, mut ops) = (0u32, Vec::new());
    while c.eat(",") {
        let op = operand::parse(c, Role::Src, NumType::Untyped)?;
        operand::encode(&op, &mut ops);
        count += 1;
    }
    c.end()?;
    let mut t = 0;
    set(&mut t, spec::CUSTOMDATA_FIELDS, "opcode", opc::CUSTOMDATA as u32);
    set(&mut t, spec::CUSTOMDATA_FIELDS, "class", val(&spec::CUSTOMDATA_CLASS, "SHADER_MESSAGE"));
    let payload = message::payload(error, text, count, &ops);
    w.push(t);
    w.push(2 + payload.len() as u32);
    w.extend(payload);
    Ok(())
}
