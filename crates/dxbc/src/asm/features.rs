//! SFI0 from the header's `// Note: shader requires additional
//! functionality:` list: one line per set bit, named as the printer names
//! it ([`feature_name`]). `Early depth-stencil` is bit 1 (the printer shows
//! that bit under this name for SM5, and also when the program declares
//! `forceEarlyDepthStencil`; the text cannot say which, so the bit is set).

use super::text::{Cursor, Res};
use crate::chunks::sfi0::feature_name;

/// Longest feature list looked up (the flags are 64 bits).
const BITS: u32 = 64;

/// The feature flags read so far, and whether the list is open.
pub(crate) struct FeaturesText {
    flags: u64,
    open: bool,
}

impl FeaturesText {
    pub fn new() -> Self {
        FeaturesText { flags: 0, open: false }
    }

    /// Reads one header line.
    pub fn line(&mut self, c: &Cursor) -> Res<()> {
        if c.line == "// Note: shader requires additional functionality:" {
            self.open = true;
            return Ok(());
        }
        if !self.open {
            return Ok(());
        }
        let Some(name) = c.line.strip_prefix("//       ") else {
            self.open = false;
            return Ok(());
        };
        let bit = if name == "Early depth-stencil" {
            Some(1)
        } else {
            (0..BITS).find(|&b| b != 1 && feature_name(b) == name)
        };
        let bit = bit.ok_or_else(|| c.err_at(9, format!("unknown feature `{name}`")))?;
        self.flags |= 1 << bit;
        Ok(())
    }

    /// The SFI0 payload, or `None` when no feature is listed.
    pub fn finish(&self) -> Option<Vec<u8>> {
        (self.flags != 0).then(|| self.flags.to_le_bytes().to_vec())
    }
}
