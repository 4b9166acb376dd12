//! The whole decoded file: container plus every chunk it could decode.

use crate::chunks::{
    aon9::{Aon9, Level9Kind},
    ifce::Ifce,
    rdef::Rdef,
    sfi0::Sfi0,
    signature::Signature,
    spdb::Spdb,
    stat::Stat,
};
use crate::container::{write_container, ChunkEntry, Container, HEADER_SIZE};
use crate::error::{ChunkRef, Error, Result};
use crate::program::Program;
use serde::Serialize;

/// A decoded DXBC file.
#[derive(Clone, Debug, Serialize)]
pub struct Shader {
    /// The input bytes, kept so that undecoded chunks can be carried over.
    #[serde(skip)]
    pub bytes: Vec<u8>,
    /// Header and chunk table.
    pub container: Container,
    /// RDEF: resource definitions.
    pub rdef: Option<Rdef>,
    /// ISGN / ISG1.
    pub input_signature: Option<Signature>,
    /// OSGN / OSG5 / OSG1.
    pub output_signature: Option<Signature>,
    /// PCSG / PSG1.
    pub patch_constant_signature: Option<Signature>,
    /// SHDR / SHEX.
    pub program: Option<Program>,
    /// STAT.
    pub stat: Option<Stat>,
    /// SFI0.
    pub sfi0: Option<Sfi0>,
    /// IFCE.
    pub ifce: Option<Ifce>,
    /// Aon9.
    pub aon9: Option<Box<Aon9>>,
    /// XNAP: the XNA prepass program (laid out as Aon9).
    pub xna_prepass: Option<Box<Aon9>>,
    /// XNAS: the XNA program (laid out as Aon9).
    pub xna: Option<Box<Aon9>>,
    /// SPDB: the `/Zi` debug information (a PDB).
    pub spdb: Option<Box<Spdb>>,
    /// Faults met in the container (the same as `container.errors`, first)
    /// and while decoding chunks (each naming its chunk); each names its
    /// offset. Empty for a well-formed file.
    pub errors: Vec<Error>,
    /// The checksum of `bytes`, worked out on first use: hashing costs more
    /// than decoding, and a page asks for it more than once per file.
    /// (Nothing changes `bytes` after decoding.)
    #[serde(skip)]
    computed_checksum: std::sync::OnceLock<[u32; 4]>,
}

impl Shader {
    /// Decodes as much as possible: only input that is not a container at
    /// all fails (see [`Container::parse`]); container and chunk faults are
    /// collected in [`Shader::errors`], every readable chunk is decoded, and
    /// the parts before each fault are kept.
    pub fn decode(bytes: &[u8]) -> Result<Shader> {
        let container = Container::parse(bytes)?;
        let mut s = Shader {
            bytes: bytes.to_vec(),
            container,
            rdef: None,
            input_signature: None,
            output_signature: None,
            patch_constant_signature: None,
            program: None,
            stat: None,
            sfi0: None,
            ifce: None,
            aon9: None,
            xna_prepass: None,
            xna: None,
            spdb: None,
            errors: Vec::new(),
            computed_checksum: std::sync::OnceLock::new(),
        };
        if !s.container.errors.is_empty() {
            s.errors = s.container.errors.clone();
        }
        for i in 0..s.container.chunks.len() {
            let (tag, range, offset, table_offset) = {
                let c = &s.container.chunks[i];
                (c.tag, c.data_range(), c.offset, c.table_offset)
            };
            let data = &bytes[range];
            let base = offset + 8;
            // Names the chunk in its errors (only built on the error path).
            let at = Site { tag, offset, table_offset };
            let errors = &mut s.errors;
            match &tag {
                b"RDEF" if s.rdef.is_none() => keep(errors, at, Rdef::parse(data, base), &mut s.rdef),
                b"ISGN" | b"ISG1" if s.input_signature.is_none() => {
                    keep(errors, at, Signature::parse(tag, data, base), &mut s.input_signature)
                }
                b"OSGN" | b"OSG5" | b"OSG1" if s.output_signature.is_none() => {
                    keep(errors, at, Signature::parse(tag, data, base), &mut s.output_signature)
                }
                b"PCSG" | b"PSG1" if s.patch_constant_signature.is_none() => {
                    keep(errors, at, Signature::parse(tag, data, base), &mut s.patch_constant_signature)
                }
                b"SHDR" | b"SHEX" if s.program.is_none() => {
                    let (p, e) = Program::decode(data, base);
                    s.program = Some(p);
                    if !e.is_empty() {
                        errors.extend(e.into_iter().map(|e| at.name(e)));
                    }
                }
                b"STAT" if s.stat.is_none() => keep(errors, at, Stat::parse(data, base), &mut s.stat),
                b"SFI0" if s.sfi0.is_none() => keep(errors, at, Sfi0::parse(data, base), &mut s.sfi0),
                b"IFCE" if s.ifce.is_none() => keep(errors, at, Ifce::parse(data, base), &mut s.ifce),
                b"Aon9" if s.aon9.is_none() => keep(errors, at, Aon9::parse(data, base), &mut s.aon9),
                b"XNAP" if s.xna_prepass.is_none() => keep(errors, at, Aon9::parse(data, base), &mut s.xna_prepass),
                b"XNAS" if s.xna.is_none() => keep(errors, at, Aon9::parse(data, base), &mut s.xna),
                b"SPDB" if s.spdb.is_none() => {
                    keep(errors, at, Spdb::parse(data, base), &mut s.spdb);
                    // A stream that did not decode is a fault of the chunk; the others stay.
                    if let Some(p) = &s.spdb {
                        errors.extend(p.faults.iter().cloned().map(|e| at.name(e)));
                    }
                }
                _ => {}
            }
        }
        Ok(s)
    }

    /// Like [`Shader::decode`] but fails on the first fault anywhere.
    pub fn parse(bytes: &[u8]) -> Result<Shader> {
        let s = Shader::decode(bytes)?;
        match s.errors.first() {
            Some(e) => Err(e.clone()),
            None => Ok(s),
        }
    }

    /// Re-serialises the container: every chunk that decoded is encoded
    /// from its model (the program by [`Program::encode`], the others by
    /// their own `encode`), so edits to the models show up in the bytes;
    /// chunks with no model (unknown kinds, a second chunk of a kind) are
    /// carried over as their payload bytes, their only field. Offsets and
    /// the checksum are recomputed. An unmodified, well-formed file comes
    /// back byte-identical.
    pub fn rebuild(&self) -> Vec<u8> {
        let encoded: Vec<Option<Vec<u8>>> = self.container.chunks.iter().map(|c| self.encode_chunk(c)).collect();
        let parts: Vec<([u8; 4], &[u8])> = self
            .container
            .chunks
            .iter()
            .zip(&encoded)
            .map(|(c, e)| (c.tag, e.as_deref().unwrap_or(&self.bytes[c.data_range()])))
            .collect();
        write_container(self.container.version, &parts)
    }

    /// The payload of chunk `c` encoded from its model, when it has one.
    fn encode_chunk(&self, c: &ChunkEntry) -> Option<Vec<u8>> {
        let at = c.offset + 8;
        let sig = |s: &Option<Signature>| s.as_ref().filter(|s| s.offset == at).map(Signature::encode);
        match &c.tag {
            b"SHDR" | b"SHEX" => self.program.as_ref().filter(|p| p.offset == at).map(Program::encode),
            b"RDEF" => self.rdef.as_ref().filter(|r| r.offset == at).map(Rdef::encode),
            b"ISGN" | b"ISG1" => sig(&self.input_signature),
            b"OSGN" | b"OSG5" | b"OSG1" => sig(&self.output_signature),
            b"PCSG" | b"PSG1" => sig(&self.patch_constant_signature),
            b"STAT" => self.stat.as_ref().filter(|s| s.offset == at).map(Stat::encode),
            b"SFI0" => self.sfi0.as_ref().filter(|s| s.offset == at).map(Sfi0::encode),
            b"IFCE" => self.ifce.as_ref().filter(|s| s.offset == at).map(Ifce::encode),
            b"Aon9" | b"XNAP" | b"XNAS" => self.level9_at(at).map(Aon9::encode),
            _ => None,
        }
    }

    /// The level-9 chunk of `kind`, when it decoded.
    pub fn level9(&self, kind: Level9Kind) -> Option<&Aon9> {
        match kind {
            Level9Kind::Aon9 => self.aon9.as_deref(),
            Level9Kind::XnaPrepass => self.xna_prepass.as_deref(),
            Level9Kind::Xna => self.xna.as_deref(),
        }
    }

    /// The level-9 chunks that decoded, in the order the listing prints them.
    pub fn level9_sections(&self) -> impl Iterator<Item = (Level9Kind, &Aon9)> {
        Level9Kind::LISTING_ORDER.into_iter().filter_map(|k| self.level9(k).map(|a| (k, a)))
    }

    /// The decoded level-9 chunk whose payload starts at `at`.
    pub(crate) fn level9_at(&self, at: usize) -> Option<&Aon9> {
        self.level9_sections().map(|(_, a)| a).find(|a| a.offset == at)
    }

    /// True when the stored checksum matches the file's bytes.
    pub fn checksum_ok(&self) -> bool {
        self.container.checksum == self.computed_checksum()
    }

    /// Records that `bytes` carry the checksum they should: for bytes this
    /// crate has just signed, so that nobody hashes them again.
    pub(crate) fn signed(self) -> Shader {
        let _ = self.computed_checksum.set(self.container.checksum);
        self
    }

    /// The checksum the file's bytes should carry (hashed once per shader).
    pub fn computed_checksum(&self) -> [u32; 4] {
        *self.computed_checksum.get_or_init(|| self.container.computed_checksum(&self.bytes))
    }

    /// The profile as fxc names it, e.g. `ps_5_0` or `vs_4_0_level_9_3`.
    pub fn profile(&self) -> Option<String> {
        let p = self.program.as_ref()?;
        let mut s = p.version.profile();
        if let Some(a) = &self.aon9 {
            if let Some(l) = a.level9_suffix() {
                s.push_str(&l);
            }
        }
        Some(s)
    }
}

/// Where a chunk sits, to name it in its errors.
#[derive(Clone, Copy)]
struct Site {
    tag: [u8; 4],
    offset: usize,
    table_offset: usize,
}

impl Site {
    #[cold]
    fn name(self, e: Error) -> Error {
        let slot = self.table_offset.saturating_sub(HEADER_SIZE) / 4;
        e.in_chunk(ChunkRef { slot, tag: Some(self.tag), offset: self.offset })
    }
}

#[inline(always)]
fn keep<T, S: From<T>>(errors: &mut Vec<Error>, at: Site, r: Result<T>, slot: &mut Option<S>) {
    match r {
        Ok(v) => *slot = Some(S::from(v)),
        Err(e) => errors.push(at.name(e)),
    }
}
