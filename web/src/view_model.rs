//! Plain-Rust view state, kept out of the components so it is tested with
//! ordinary `#[test]`s.

/// One row of the chunk table.
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkRow {
    pub fourcc: String,
    pub offset: String,
    pub size: usize,
    pub description: &'static str,
}

/// What the page shows about one shader.
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderSummary {
    pub profile: String,
    pub checksum: String,
    pub chunks: Vec<ChunkRow>,
    pub listing: String,
}

impl ShaderSummary {
    /// Decodes `bytes`; a damaged file yields a summary that says why.
    pub fn from_bytes(bytes: &[u8]) -> ShaderSummary {
        match dxbc::Shader::decode(bytes) {
            Err(e) => ShaderSummary {
                profile: "not a DXBC container".into(),
                checksum: String::new(),
                chunks: Vec::new(),
                listing: format!("error: {e}"),
            },
            Ok(s) => {
                let c = &s.container;
                let checksum = if s.checksum_ok() {
                    "checksum valid".to_string()
                } else {
                    format!(
                        "checksum INVALID (expected {})",
                        s.computed_checksum()
                            .iter()
                            .map(|w| format!("{w:08x}"))
                            .collect::<String>()
                    )
                };
                let mut listing = dxbc::listing::disassemble(&s);
                if let Some(e) = s.errors.first() {
                    listing.push_str(&format!("\n// decoding stopped: {e}\n"));
                }
                ShaderSummary {
                    profile: s.profile().unwrap_or_else(|| "no program".into()),
                    checksum,
                    chunks: c
                        .chunks
                        .iter()
                        .map(|ch| ChunkRow {
                            fourcc: ch.fourcc(),
                            offset: format!("0x{:04x}", ch.offset),
                            size: ch.size,
                            description: dxbc::container::chunk_kind_description(&ch.tag),
                        })
                        .collect(),
                    listing,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_summary_lists_program_and_listing() {
        let s = ShaderSummary::from_bytes(&dxbc::examples::tint_pixel_shader());
        assert_eq!(s.profile, "ps_5_0");
        assert_eq!(s.checksum, "checksum valid");
        assert_eq!(s.chunks.len(), 1);
        assert_eq!(s.chunks[0].fourcc, "SHEX");
        assert!(
            s.listing.contains("mul o0.xyzw, v0.xyzw, cb0[0].xyzw\n"),
            "{}",
            s.listing
        );
    }

    #[test]
    fn garbage_says_where_it_failed() {
        let s = ShaderSummary::from_bytes(b"not a shader");
        assert!(s.listing.ends_with("(at offset 0x0)"), "{}", s.listing);
    }
}
