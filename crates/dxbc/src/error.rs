//! The one error type of the crate.
//!
//! Every failure names the absolute byte offset (from the start of the container
//! or of whatever buffer was handed to the decoder) where decoding stopped, and
//! says what was expected there. The message is boxed so that `Result<T>` stays
//! one pointer wide on the hot decoding paths.

use std::fmt;

/// A decoding error: what was expected, and at which byte offset.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    inner: Box<Inner>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Inner {
    message: String,
    offset: usize,
}

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A new error at absolute byte `offset`.
    #[cold]
    pub fn new(message: impl Into<String>, offset: usize) -> Self {
        Error { inner: Box::new(Inner { message: message.into(), offset }) }
    }

    /// The absolute byte offset the error points at.
    pub fn offset(&self) -> usize {
        self.inner.offset
    }

    /// The message without the offset suffix.
    pub fn message(&self) -> &str {
        &self.inner.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at offset {:#x})", self.inner.message, self.inner.offset)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {}

impl serde::Serialize for Error {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Error", 2)?;
        st.serialize_field("message", self.message())?;
        st.serialize_field("offset", &self.offset())?;
        st.end()
    }
}
