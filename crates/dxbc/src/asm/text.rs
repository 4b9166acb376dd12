//! The line cursor: where the parser is in the listing, and errors that say
//! so (`line L, column C`, plus the byte offset in the text).

use super::AsmError;

/// A cursor over one line of the listing.
pub(crate) struct Cursor<'a> {
    /// The line without its newline.
    pub line: &'a str,
    /// Byte position within the line.
    pub pos: usize,
    /// 1-based line number.
    pub line_no: usize,
    /// Byte offset of the line's first character in the whole text.
    pub line_start: usize,
    /// Nesting of relative-index operands being parsed (bounded).
    pub depth: u8,
    /// The listing prints its floats exactly ([`super::float::exact_listing`]).
    pub exact: bool,
}

pub(crate) type Res<T> = Result<T, AsmError>;

impl<'a> Cursor<'a> {
    pub fn new(line: &'a str, line_no: usize, line_start: usize) -> Self {
        Cursor { line, pos: 0, line_no, line_start, depth: 0, exact: false }
    }

    /// An error at the current position.
    pub fn err(&self, message: impl Into<String>) -> AsmError {
        self.err_at(self.pos, message)
    }

    /// An error at byte `pos` of the line.
    pub fn err_at(&self, pos: usize, message: impl Into<String>) -> AsmError {
        // A position past a short line (a table row cut short) points at its end.
        let mut pos = pos.min(self.line.len());
        while !self.line.is_char_boundary(pos) {
            pos -= 1;
        }
        let column = self.line.get(..pos).map_or(pos, |s| s.chars().count()) + 1;
        AsmError::new(message, self.line_no, column, self.line_start + pos)
    }

    pub fn rest(&self) -> &'a str {
        self.line.get(self.pos..).unwrap_or("")
    }

    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// True at the end of the line or at a trailing `//` comment (debug
    /// listings annotate registers with variable names there).
    pub fn at_end(&self) -> bool {
        let r = self.rest().trim_start();
        r.is_empty() || r.starts_with("//")
    }

    pub fn skip_ws(&mut self) {
        let r = self.rest();
        self.pos += r.len() - r.trim_start().len();
    }

    /// Consumes `s` if the line continues with it.
    pub fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Skips blanks, then requires `s`.
    pub fn expect(&mut self, s: &str) -> Res<()> {
        self.skip_ws();
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.err(format!("expected `{s}`")))
        }
    }

    /// A run of characters that satisfy `f` (possibly empty).
    pub fn take_while(&mut self, f: impl Fn(char) -> bool) -> &'a str {
        let r = self.rest();
        let n = r.find(|c: char| !f(c)).unwrap_or(r.len());
        self.pos += n;
        &r[..n]
    }

    /// A word: letters, digits and underscores.
    pub fn word(&mut self) -> &'a str {
        self.take_while(|c| c.is_ascii_alphanumeric() || c == '_')
    }

    /// An unsigned decimal or `0x` hexadecimal number that fits 32 bits.
    pub fn uint(&mut self) -> Res<u32> {
        self.skip_ws();
        let start = self.pos;
        let v = if self.eat("0x") || self.eat("0X") {
            let h = self.take_while(|c| c.is_ascii_hexdigit());
            u32::from_str_radix(h, 16).ok()
        } else {
            self.take_while(|c| c.is_ascii_digit()).parse().ok()
        };
        v.ok_or_else(|| self.err_at(start, "expected an unsigned 32-bit number"))
    }

    /// The blank-separated words of the whole line, each with its byte
    /// position (header table rows).
    pub fn words(&self) -> Vec<(usize, &'a str)> {
        let mut out = Vec::new();
        let mut at = 0;
        for w in self.line.split(' ') {
            if !w.is_empty() {
                out.push((at, w));
            }
            at += w.len() + 1;
        }
        out
    }

    /// Requires the end of the line (blanks allowed).
    pub fn end(&mut self) -> Res<()> {
        if self.at_end() {
            Ok(())
        } else {
            self.skip_ws();
            Err(self.err(format!("unexpected `{}`", self.rest())))
        }
    }
}
