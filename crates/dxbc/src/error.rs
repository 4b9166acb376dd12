//! The one error type of the crate.
//!
//! Every failure names the absolute byte offset (from the start of the container
//! or of whatever buffer was handed to the decoder) where decoding stopped, says
//! what was expected there, and carries an [`ErrorKind`] so that callers decide
//! by kind, never by matching message text. Errors met inside a chunk also name
//! the chunk ([`ChunkRef`]: table slot, FourCC, offset), so a message reads
//! "chunk #1 RDEF at 0x2c: … (at offset 0x…)". Everything is boxed so that
//! `Result<T>` stays one pointer wide on the hot decoding paths.

use std::fmt;

/// What kind of fault an [`Error`] is; the message gives the detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ErrorKind {
    /// The input is not a DXBC container at all (no magic, shorter than the header).
    NotDxbc,
    /// The bytes ran out before what had to be read there.
    Truncated,
    /// A size field disagrees with the bytes it describes.
    SizeMismatch,
    /// An offset or count points outside the block it must lie in.
    OutOfBounds,
    /// An offset is not dword-aligned.
    Misaligned,
    /// A field holds a value the format does not define, or that contradicts another field.
    InvalidValue,
    /// A nesting depth, chain length or text budget past what any real shader needs.
    LimitExceeded,
    /// A well-defined construct this crate does not decode.
    Unsupported,
}

impl ErrorKind {
    /// The kind's name as shown to people, e.g. `truncated`.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::NotDxbc => "not DXBC",
            ErrorKind::Truncated => "truncated",
            ErrorKind::SizeMismatch => "size mismatch",
            ErrorKind::OutOfBounds => "out of bounds",
            ErrorKind::Misaligned => "misaligned",
            ErrorKind::InvalidValue => "invalid value",
            ErrorKind::LimitExceeded => "limit exceeded",
            ErrorKind::Unsupported => "unsupported",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The chunk an error belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ChunkRef {
    /// Index of the chunk-table slot that points at the chunk.
    pub slot: usize,
    /// The chunk's FourCC, when its header lies inside the input.
    #[serde(serialize_with = "serialize_tag")]
    pub tag: Option<[u8; 4]>,
    /// Absolute offset of the chunk header, as the table gives it.
    pub offset: usize,
}

fn serialize_tag<S: serde::Serializer>(tag: &Option<[u8; 4]>, s: S) -> std::result::Result<S::Ok, S::Error> {
    match tag {
        Some(t) => s.serialize_some(&crate::container::fourcc_text(t)),
        None => s.serialize_none(),
    }
}

impl fmt::Display for ChunkRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.tag {
            Some(t) => write!(f, "chunk #{} {} at {:#x}", self.slot, crate::container::fourcc_text(t), self.offset),
            None => write!(f, "chunk #{} at {:#x}", self.slot, self.offset),
        }
    }
}

/// A decoding error: its kind, what was expected, at which byte offset, and
/// the chunk it belongs to where there is one.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    inner: Box<Inner>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Inner {
    kind: ErrorKind,
    message: String,
    offset: usize,
    chunk: Option<ChunkRef>,
}

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A new [`ErrorKind::InvalidValue`] error at absolute byte `offset` (the
    /// most common kind; use [`Error::of`] for the others).
    #[cold]
    pub fn new(message: impl Into<String>, offset: usize) -> Self {
        Error::of(ErrorKind::InvalidValue, message, offset)
    }

    /// A new error of `kind` at absolute byte `offset`.
    #[cold]
    pub fn of(kind: ErrorKind, message: impl Into<String>, offset: usize) -> Self {
        Error { inner: Box::new(Inner { kind, message: message.into(), offset, chunk: None }) }
    }

    /// The same error with another message, keeping kind, offset and chunk
    /// (for decoders that add context to an inner error).
    #[cold]
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.inner.message = message.into();
        self
    }

    /// The same error pointing at another offset, keeping kind, message and chunk.
    #[cold]
    pub fn at(mut self, offset: usize) -> Self {
        self.inner.offset = offset;
        self
    }

    /// The same error, attributed to `chunk`.
    #[cold]
    pub fn in_chunk(mut self, chunk: ChunkRef) -> Self {
        self.inner.chunk = Some(chunk);
        self
    }

    /// What kind of fault this is.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The absolute byte offset the error points at.
    pub fn offset(&self) -> usize {
        self.inner.offset
    }

    /// The message without the chunk prefix and the offset suffix.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// The chunk the error belongs to, if any.
    pub fn chunk(&self) -> Option<&ChunkRef> {
        self.inner.chunk.as_ref()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = &self.inner.chunk {
            write!(f, "{c}: ")?;
        }
        write!(f, "{} (at offset {:#x})", self.inner.message, self.inner.offset)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] ", self.inner.kind)?;
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {}

impl serde::Serialize for Error {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Error", 4)?;
        st.serialize_field("kind", &self.kind())?;
        st.serialize_field("message", self.message())?;
        st.serialize_field("offset", &self.offset())?;
        st.serialize_field("chunk", &self.chunk())?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_one_pointer_wide() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
        assert_eq!(std::mem::size_of::<Result<()>>(), std::mem::size_of::<usize>());
    }

    #[test]
    fn display_names_the_chunk_and_ends_with_the_offset() {
        let e = Error::of(ErrorKind::Truncated, "expected 4 bytes", 0x40).in_chunk(ChunkRef {
            slot: 1,
            tag: Some(*b"RDEF"),
            offset: 0x2c,
        });
        assert_eq!(e.to_string(), "chunk #1 RDEF at 0x2c: expected 4 bytes (at offset 0x40)");
        assert_eq!(e.kind(), ErrorKind::Truncated);
    }
}
