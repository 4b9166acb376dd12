//! STUB (to be replaced): Sfi0 chunk.
use crate::error::Result;
use serde::Serialize;

/// Decoded Sfi0 chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Sfi0 {}

impl Sfi0 {
    /// Parses the chunk payload; `base` is its absolute offset.
    pub fn parse(_data: &[u8], _base: usize) -> Result<Sfi0> {
        Ok(Sfi0 {})
    }
}
