//! STUB (to be replaced): Ifce chunk.
use crate::error::Result;
use serde::Serialize;

/// Decoded Ifce chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Ifce {}

impl Ifce {
    /// Parses the chunk payload; `base` is its absolute offset.
    pub fn parse(_data: &[u8], _base: usize) -> Result<Ifce> {
        Ok(Ifce {})
    }
}
