//! STUB (to be replaced): signature chunks.
use crate::error::Result;
use serde::Serialize;

/// Decoded signature chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Signature {}

impl Signature {
    /// Parses a signature chunk payload of kind `tag`; `base` is its absolute offset.
    pub fn parse(_tag: [u8; 4], _data: &[u8], _base: usize) -> Result<Signature> {
        Ok(Signature {})
    }
}
