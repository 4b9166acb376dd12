//! STUB (to be replaced): Stat chunk.
use crate::error::Result;
use serde::Serialize;

/// Decoded Stat chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Stat {}

impl Stat {
    /// Parses the chunk payload; `base` is its absolute offset.
    pub fn parse(_data: &[u8], _base: usize) -> Result<Stat> {
        Ok(Stat {})
    }
}
