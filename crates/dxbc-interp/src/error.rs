//! The interpreter's one error type: what went wrong and where.

use std::fmt;

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The instruction budget ran out (a long or endless loop).
    Budget,
    /// An opcode the interpreter does not execute (yet).
    Unsupported(dxbc::spec::Opcode),
    /// An opcode number the format table does not define.
    UnknownOpcode(u16),
    /// A stage the interpreter does not run (mesh, amplification).
    UnsupportedStage(u32),
    /// A feature of an instruction it does not execute (cube sampling, an
    /// operand form), named by [`Error::detail`].
    UnsupportedFeature,
    /// The program is inconsistent: unbalanced control flow, an operand of
    /// the wrong kind, a label that does not exist.
    Malformed,
    /// A declaration asks for more memory than the caps allow.
    Limit,
    /// The program chunk is missing or could not be decoded.
    NoProgram,
}

/// An error at one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// More words about it.
    pub detail: String,
    /// Byte offset of the instruction's opcode token in the container.
    pub offset: u32,
}

impl Error {
    #[cold]
    pub(crate) fn new(kind: ErrorKind, detail: impl Into<String>, offset: u32) -> Error {
        Error { kind, detail: detail.into(), offset }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ErrorKind::Budget => "instruction budget exhausted".to_string(),
            ErrorKind::Unsupported(op) => format!("instruction {} is not executed", op.info().asm),
            ErrorKind::UnknownOpcode(n) => format!("unknown opcode {n}"),
            ErrorKind::UnsupportedStage(t) => format!("program type {t} is not executed"),
            ErrorKind::UnsupportedFeature => "unsupported".to_string(),
            ErrorKind::Malformed => "malformed program".to_string(),
            ErrorKind::Limit => "over the interpreter's memory caps".to_string(),
            ErrorKind::NoProgram => "no program".to_string(),
        };
        if self.detail.is_empty() {
            write!(f, "{what} (at offset {:#x})", self.offset)
        } else {
            write!(f, "{what}: {} (at offset {:#x})", self.detail, self.offset)
        }
    }
}

impl std::error::Error for Error {}

/// Shorthand.
pub type Result<T> = std::result::Result<T, Error>;
