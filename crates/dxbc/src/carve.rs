//! Carving: every DXBC container inside arbitrary bytes (a game archive, an
//! executable's resources, an Effects `.fxo`, a capture dump).
//!
//! ## Design
//! * **One linear pass.** A substring search (`memchr::memmem`) walks the
//!   input once for the magic `DXBC`. Each hit is a *candidate*; it becomes a
//!   container only when its header is plausible:
//!   - the 32-byte header is inside the input and the size field is at least
//!     the header plus the chunk table, at most [`MAX_CONTAINER_SIZE`], and
//!     inside the input (a container cut short by the end of the input is
//!     rejected: its checksum cannot be checked);
//!   - the chunk count is at most [`MAX_CHUNKS`] and its table fits;
//!   - every chunk offset is dword-aligned, after the table, and its header
//!     and payload lie inside the declared size.
//! * **Confirmed by the checksum** ([`crate::checksum::dxbc_checksum`], the
//!   one the decoder uses). A plausible candidate whose checksum disagrees is
//!   still reported, with [`Checksum::Invalid`] (or [`Checksum::Unsigned`]
//!   when the stored sum is all zero, as DXC leaves unvalidated DXIL), never
//!   dropped. Implausible candidates are counted by [`Reject`] reason.
//! * **Nested containers are found too.** An `fx_4_x` effect is itself a
//!   container (one `FX10` chunk) whose payload holds the effect's shaders as
//!   whole containers, so the scan does not skip past a container: it goes on
//!   at the next magic, and [`Found::parent`] names the innermost enclosing
//!   container that was found. (`fx_5_0` effects have no outer container; their
//!   shaders are found the same way.)
//! * **Effects name their shaders.** When the input is an effect file, or a
//!   found container is an `fx_4` effect, the effect is decoded
//!   ([`crate::effects`]) and each shader it holds gets [`Found::name`]
//!   (technique, pass, stage, or variable). An `fx_5_0` effect embedded at
//!   another offset of a larger file is not looked for: its shaders are
//!   found, unnamed.
//! * **Bounded work.** Magic hits are at least 4 bytes apart, so there are at
//!   most `len / 4` candidates; each costs at most [`MAX_CHUNKS`] table checks.
//!   Checksums are the only work proportional to a candidate's size, so the
//!   bytes hashed are capped at [`hash_budget`]`(len)` (four times the input
//!   plus 1 MiB): ordinary files hash each byte once (twice inside an effect),
//!   while input built from overlapping plausible headers, which would
//!   otherwise hash quadratically many bytes, gets [`Checksum::Unchecked`]
//!   for the candidates past the budget. Memory is one [`Found`] per
//!   plausible candidate.
//! * **DXIL is named, not disassembled.** A container whose program is a
//!   `DXIL` chunk (shader model 6, from DXC) is listed as [`ProgramKind::Dxil`]
//!   with the profile from its program header; its signatures and other
//!   chunks decode as usual, but DXIL code (LLVM bitcode) is not disassembled.

use crate::checksum::dxbc_checksum;
use crate::container::{HEADER_SIZE, MAX_CONTAINER_SIZE};
use crate::program::VersionToken;
use crate::reader::dword;
use crate::Shader;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Most chunks a candidate may declare (fxc writes at most about a dozen,
/// DXC about fifteen); bounds the work per candidate.
pub const MAX_CHUNKS: usize = 256;

/// Bytes the checksums of one carve may hash: see the module notes.
pub fn hash_budget(len: usize) -> usize {
    len.saturating_mul(4).saturating_add(1 << 20)
}

/// What the stored checksum says about a found container.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Checksum {
    /// The stored checksum matches the bytes.
    Valid,
    /// It does not: damaged, edited without re-signing, or a false match.
    Invalid,
    /// All zero and not matching: a container nobody signed (DXC without
    /// its validator leaves it so).
    Unsigned,
    /// Not computed: the carve's hashing budget was spent (see the module notes).
    Unchecked,
}

impl Checksum {
    /// The word `dxbc scan` prints.
    pub fn name(self) -> &'static str {
        match self {
            Checksum::Valid => "valid",
            Checksum::Invalid => "invalid",
            Checksum::Unsigned => "unsigned",
            Checksum::Unchecked => "unchecked",
        }
    }
}

/// What kind of program a found container holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProgramKind {
    /// An SM4/SM5 token stream (`SHDR` or `SHEX`): decoded and disassembled.
    Dxbc,
    /// DXIL (`DXIL` chunk, shader model 6): signatures and reflection chunks
    /// decode, the code itself is not disassembled.
    Dxil,
    /// A Direct3D 10 / `fx_4_x` effect (`FX10` chunk); its shaders are found
    /// as nested containers.
    Effect,
    /// No program chunk (a root signature alone, a reflection-only blob, …).
    None,
}

/// Why a `DXBC` magic was not taken for a container.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reject {
    /// Fewer than 32 bytes follow the magic.
    ShortHeader,
    /// The size field is smaller than the header and chunk table, or larger
    /// than [`MAX_CONTAINER_SIZE`].
    ImplausibleSize,
    /// The declared size runs past the end of the input.
    Truncated,
    /// More than [`MAX_CHUNKS`] chunks.
    TooManyChunks,
    /// A chunk offset is misaligned, inside the header or table, or its
    /// chunk runs past the declared size.
    BadChunkTable,
}

/// One container found in the input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    /// Byte offset of the magic in the input.
    pub offset: usize,
    /// The container's size field (its bytes are `offset..offset + size`).
    pub size: usize,
    /// Whether the stored checksum matches.
    pub checksum: Checksum,
    /// What its program is.
    pub program: ProgramKind,
    /// Index in [`Carve::found`] of the innermost found container that
    /// encloses this one (an effect holding its shaders), if any.
    pub parent: Option<usize>,
    /// What the enclosing effect calls this shader (technique, pass, stage
    /// or variable), when it lies in an effect (see the module notes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<crate::effects::ShaderName>,
}

impl Found {
    /// The container's bytes within the input.
    pub fn range(&self) -> Range<usize> {
        self.offset..self.offset + self.size
    }
}

/// Everything one pass found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Carve {
    /// Containers in input order (by offset).
    pub found: Vec<Found>,
    /// Magic hits not taken, counted by reason (in [`Reject`] order).
    pub rejected: [usize; 5],
}

impl Carve {
    /// How many magic hits were rejected for `reason`.
    pub fn rejected_for(&self, reason: Reject) -> usize {
        self.rejected[reason as usize]
    }
}

/// Finds every DXBC container in `data` in one pass (see the module notes).
pub fn carve(data: &[u8]) -> Carve {
    let mut c = Carver::new(data.len());
    c.step(data, data.len());
    c.finish(data)
}

/// A carve made in steps, for callers that report progress or stop early
/// (the web worker): each [`Carver::step`] looks at the magic hits that
/// start before a given position, resuming where the last step stopped.
/// Steps share the hashing budget and the stack of open containers, so
/// any split of the input into steps finds exactly what [`carve`] finds,
/// containers straddling a step's end included (a step only bounds where
/// a magic may start; the candidate's bytes are read from the whole input).
#[derive(Clone, Debug)]
pub struct Carver {
    out: Carve,
    budget: usize,
    // Found containers that may still enclose later hits: (end, index).
    open: Vec<(usize, usize)>,
    // Every magic starting before this has been looked at.
    pos: usize,
    len: usize,
}

impl Carver {
    /// A carve of an input of `len` bytes; every step must be given the
    /// same input.
    pub fn new(len: usize) -> Carver {
        Carver { out: Carve::default(), budget: hash_budget(len), open: Vec::new(), pos: 0, len }
    }

    /// Where the next step starts: every magic before it has been looked at.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// True once the whole input has been looked at.
    pub fn is_done(&self) -> bool {
        self.pos >= self.len
    }

    /// What was found so far, in input order.
    pub fn found(&self) -> &[Found] {
        &self.out.found
    }

    /// Looks at every magic that starts in `position()..upto` (`upto` is
    /// clamped to the input). `data` must be the input given to [`Carver::new`]
    /// (a shorter or longer slice only ends the carve early).
    pub fn step(&mut self, data: &[u8], upto: usize) {
        let end = upto.min(data.len()).min(self.len);
        if end <= self.pos {
            return;
        }
        // Three bytes past `end`: a magic starting just before it is whole,
        // one starting at it is not (the next step finds that one).
        let window = &data[self.pos..(end + 3).min(data.len())];
        let base = self.pos;
        for rel in memchr::memmem::find_iter(window, b"DXBC") {
            self.candidate(data, base + rel);
        }
        self.pos = end;
    }

    /// Everything found, with the shaders of effects named (`data` is the
    /// input the steps were given).
    pub fn finish(self, data: &[u8]) -> Carve {
        let mut out = self.out;
        name_effect_shaders(data, &mut out);
        out
    }

    fn candidate(&mut self, data: &[u8], at: usize) {
        let out = &mut self.out;
        let (size, program) = match plausible(data, at) {
            Ok(v) => v,
            Err(r) => {
                out.rejected[r as usize] += 1;
                return;
            }
        };
        let bytes = &data[at..at + size];
        let checksum = if size <= self.budget {
            self.budget -= size;
            let stored = std::array::from_fn(|i| dword(bytes, 1 + i));
            if stored == dxbc_checksum(bytes) {
                Checksum::Valid
            } else if stored == [0; 4] {
                Checksum::Unsigned
            } else {
                Checksum::Invalid
            }
        } else {
            Checksum::Unchecked
        };
        let open = &mut self.open;
        while open.last().is_some_and(|&(end, _)| end <= at) {
            open.pop();
        }
        // Containers nest, or overlap only when false: the innermost open
        // one that reaches past this whole container encloses it.
        let parent = open.iter().rev().find(|&&(end, _)| end >= at + size).map(|&(_, i)| i);
        open.push((at + size, out.found.len()));
        out.found.push(Found { offset: at, size, checksum, program, parent, name: None });
    }
}

/// Names the found shaders that an effect holds: the input itself when it
/// is an effect file, and every found `fx_4` container (`FX10` chunk). The
/// effects decoded are bounded by [`hash_budget`] bytes in all, so
/// overlapping false containers cannot make this quadratic.
fn name_effect_shaders(data: &[u8], out: &mut Carve) {
    let mut budget = hash_budget(data.len());
    let mut effects: Vec<std::ops::Range<usize>> = Vec::new();
    if let Some(r) = crate::effects::find(data).filter(|r| r.start == 0) {
        effects.push(r);
    }
    for f in out.found.iter().filter(|f| f.program == ProgramKind::Effect) {
        if let Some(r) = crate::effects::find(&data[f.range()]) {
            effects.push(f.offset + r.start..f.offset + r.end);
        }
    }
    for r in effects {
        if r.len() > budget {
            break;
        }
        budget -= r.len();
        for s in crate::effects::decode(data, r).shaders {
            if let Ok(i) = out.found.binary_search_by_key(&s.offset, |f| f.offset) {
                if out.found[i].size == s.size && out.found[i].name.is_none() {
                    out.found[i].name = Some(s.name());
                }
            }
        }
    }
}

/// Checks the header and chunk table of the candidate at `at`; returns
/// its declared size and program kind.
fn plausible(data: &[u8], at: usize) -> Result<(usize, ProgramKind), Reject> {
    let rest = &data[at..];
    if rest.len() < HEADER_SIZE {
        return Err(Reject::ShortHeader);
    }
    let size = dword(rest, 6) as usize;
    let count = dword(rest, 7) as usize;
    if count > MAX_CHUNKS {
        return Err(Reject::TooManyChunks);
    }
    let table_end = HEADER_SIZE + 4 * count;
    if size < table_end || size > MAX_CONTAINER_SIZE {
        return Err(Reject::ImplausibleSize);
    }
    if size > rest.len() {
        return Err(Reject::Truncated);
    }
    let mut program = ProgramKind::None;
    for slot in 0..count {
        let off = dword(rest, 8 + slot) as usize;
        if !off.is_multiple_of(4) || off < table_end || off > size - 8 {
            return Err(Reject::BadChunkTable);
        }
        let len = dword(rest, off / 4 + 1) as usize;
        if len > size - off - 8 {
            return Err(Reject::BadChunkTable);
        }
        program = match (&rest[off..off + 4], program) {
            (b"SHDR" | b"SHEX", _) => ProgramKind::Dxbc,
            (b"DXIL", ProgramKind::None | ProgramKind::Effect) => ProgramKind::Dxil,
            (b"FX10", ProgramKind::None) => ProgramKind::Effect,
            (_, p) => p,
        };
    }
    Ok((size, program))
}

/// An optional capability a shader uses, as `dxbc scan` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Feature {
    /// Declares a read-write resource (`dcl_uav_*`).
    Uavs,
    /// Declares group-shared memory (`dcl_tgsm_*`).
    Groupshared,
    /// Uses double-precision arithmetic or conversions.
    Doubles,
    /// Dynamic linkage: interfaces, function bodies or an `IFCE` chunk.
    Interfaces,
    /// A hull or domain shader.
    Tessellation,
    /// A geometry shader.
    Geometry,
    /// A compute shader.
    Compute,
    /// Atomic memory operations.
    Atomics,
    /// Barriers or memory fences (`sync`).
    Barriers,
    /// Indexable temporary arrays (`x#`).
    IndexableTemps,
    /// A feature-level 9 program rides along (`Aon9`).
    Level9,
}

impl Feature {
    /// The word `dxbc scan` prints.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Uavs => "uavs",
            Feature::Groupshared => "groupshared",
            Feature::Doubles => "doubles",
            Feature::Interfaces => "interfaces",
            Feature::Tessellation => "tessellation",
            Feature::Geometry => "geometry",
            Feature::Compute => "compute",
            Feature::Atomics => "atomics",
            Feature::Barriers => "barriers",
            Feature::IndexableTemps => "indexable_temps",
            Feature::Level9 => "level9",
        }
    }
}

/// What a scan reports about one decoded container: the same decoder the
/// disassembler uses, nothing re-parsed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Facts {
    /// What the program is.
    pub program: ProgramKind,
    /// Profile as fxc names it (`ps_5_0`), or a DXIL program's (`ps_6_0`).
    pub profile: Option<String>,
    /// Stage prefix (`ps`, `vs`, …, `lib`, `ms`).
    pub stage: Option<&'static str>,
    /// Instruction count the compiler recorded in `STAT` (fxc's
    /// "Approximately N instruction slots used").
    pub instructions: Option<u32>,
    /// Temporary registers recorded in `STAT`.
    pub temps: Option<u32>,
    /// Capabilities the program uses (sorted, no repeats).
    pub features: Vec<Feature>,
    /// The optional hardware features `SFI0` says it requires, by name.
    pub requires: Vec<&'static str>,
    /// The compiler that wrote it (`RDEF` creator string).
    pub creator: Option<String>,
    /// How often each opcode occurs, by mnemonic, in program order of first use.
    pub opcodes: Vec<(&'static str, u32)>,
}

impl Facts {
    /// Reads the facts from a decoded container.
    pub fn of(s: &Shader) -> Facts {
        use crate::spec::{NumType, OpClass, Opcode};
        let dxil = dxil_version(s);
        let program = match (&s.program, dxil) {
            (Some(_), _) => ProgramKind::Dxbc,
            (None, Some(_)) => ProgramKind::Dxil,
            _ if s.container.find(b"FX10").is_some() => ProgramKind::Effect,
            _ => ProgramKind::None,
        };
        let (profile, stage) = match (&s.program, dxil) {
            (Some(p), _) => (s.profile(), Some(p.version.stage_prefix())),
            (None, Some(v)) => (Some(dxil_profile(v)), Some(dxil_stage(v))),
            _ => (None, None),
        };
        let mut features = Vec::new();
        let mut opcodes: Vec<(&'static str, u32)> = Vec::new();
        if let Some(p) = &s.program {
            match p.version.program_type() {
                2 => features.push(Feature::Geometry),
                3 | 4 => features.push(Feature::Tessellation),
                5 => features.push(Feature::Compute),
                _ => {}
            }
            for ins in &p.instructions {
                let info = ins.info();
                let name = info.map_or("(unknown opcode)", |i| i.asm);
                match opcodes.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, c)) => *c += 1,
                    None => opcodes.push((name, 1)),
                }
                let op = ins.op();
                let feature = match op {
                    Some(
                        Opcode::DclUnorderedAccessViewTyped
                        | Opcode::DclUnorderedAccessViewRaw
                        | Opcode::DclUnorderedAccessViewStructured,
                    ) => Some(Feature::Uavs),
                    Some(Opcode::DclThreadGroupSharedMemoryRaw | Opcode::DclThreadGroupSharedMemoryStructured) => {
                        Some(Feature::Groupshared)
                    }
                    Some(Opcode::DclInterface | Opcode::DclFunctionBody) => Some(Feature::Interfaces),
                    Some(Opcode::Sync) => Some(Feature::Barriers),
                    Some(Opcode::DclIndexableTemp) => Some(Feature::IndexableTemps),
                    Some(Opcode::Ftod) => Some(Feature::Doubles),
                    _ => match info {
                        Some(i) if i.imm == NumType::Double => Some(Feature::Doubles),
                        Some(i) if i.class == OpClass::Atomic => Some(Feature::Atomics),
                        _ => None,
                    },
                };
                features.extend(feature);
            }
        }
        if s.ifce.is_some() {
            features.push(Feature::Interfaces);
        }
        if s.aon9.is_some() {
            features.push(Feature::Level9);
        }
        features.sort();
        features.dedup();
        let requires = s.sfi0.as_ref().map_or(Vec::new(), |f| {
            (0..crate::chunks::sfi0::FEATURE_NAMES.len() as u32)
                .filter(|&b| f.has(b))
                .map(|b| crate::chunks::sfi0::FEATURE_NAMES[b as usize])
                .collect()
        });
        Facts {
            program,
            profile,
            stage,
            instructions: s.stat.as_ref().map(|t| t.instruction_count.value),
            temps: s.stat.as_ref().map(|t| t.temp_register_count.value),
            features,
            requires,
            creator: s.rdef.as_ref().map(|r| r.creator.clone()),
            opcodes,
        }
    }
}

/// The version token of a `DXIL` chunk's program header (same layout as a
/// DXBC version token: stage, major and minor shader model), when present.
pub fn dxil_version(shader: &Shader) -> Option<VersionToken> {
    let c = shader.container.find(b"DXIL")?;
    let payload = shader.bytes.get(c.data_range())?;
    (payload.len() >= 4).then(|| VersionToken(dword(payload, 0)))
}

/// A DXIL program's profile, e.g. `ps_6_0` (`lib_6_3` for libraries).
pub fn dxil_profile(v: VersionToken) -> String {
    format!("{}_{}_{}", dxil_stage(v), v.major(), v.minor())
}

/// The stage prefix of a DXIL program type: the DXBC ones plus library,
/// ray-tracing, mesh and amplification stages (DXC's numbering).
pub fn dxil_stage(v: VersionToken) -> &'static str {
    match v.program_type() {
        0 => "ps",
        1 => "vs",
        2 => "gs",
        3 => "hs",
        4 => "ds",
        5 => "cs",
        6 => "lib",
        7 => "raygeneration",
        8 => "intersection",
        9 => "anyhit",
        10 => "closesthit",
        11 => "miss",
        12 => "callable",
        13 => "ms",
        14 => "as",
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::container::write_container;

    fn shdr() -> Vec<u8> {
        // ps_4_0, length 2 dwords: an empty program.
        let mut p = 0x0000_0040u32.to_le_bytes().to_vec();
        p.extend_from_slice(&2u32.to_le_bytes());
        p
    }

    #[test]
    fn finds_a_container_among_junk_and_names_its_checksum() {
        let c = write_container(1, &[(*b"SHDR", &shdr())]);
        let mut data = b"junk DXBC junk".to_vec();
        data.extend_from_slice(&c);
        data.extend_from_slice(b"tail");
        let r = carve(&data);
        assert_eq!(
            r.found,
            vec![Found {
                offset: 14,
                size: c.len(),
                checksum: Checksum::Valid,
                program: ProgramKind::Dxbc,
                parent: None,
                name: None
            }]
        );
        // The magic in the junk is taken as a header and rejected.
        assert_eq!(r.rejected.iter().sum::<usize>(), 1);
        data[14 + c.len() - 1] ^= 1;
        assert_eq!(carve(&data).found[0].checksum, Checksum::Invalid);
    }

    #[test]
    fn a_container_cut_short_is_rejected_as_truncated() {
        let c = write_container(1, &[(*b"SHDR", &shdr())]);
        let r = carve(&c[..c.len() - 1]);
        assert!(r.found.is_empty());
        assert_eq!(r.rejected_for(Reject::Truncated), 1);
    }

    #[test]
    fn nested_containers_name_their_parent() {
        let inner = write_container(1, &[(*b"SHEX", &shdr())]);
        let mut payload = vec![0u8; 12];
        payload.extend_from_slice(&inner);
        let outer = write_container(1, &[(*b"FX10", &payload)]);
        let r = carve(&outer);
        assert_eq!(r.found.len(), 2);
        assert_eq!(r.found[0].program, ProgramKind::Effect);
        assert_eq!(r.found[1].parent, Some(0));
        assert_eq!(r.found[1].checksum, Checksum::Valid);
        assert_eq!(&outer[r.found[1].range()], &inner[..]);
    }

    #[test]
    fn carving_in_steps_finds_what_one_pass_finds() {
        // Containers at unaligned offsets, one nested in an effect, with
        // magic decoys between them: every step size, including steps that
        // end inside a magic or a container, gives the same carve.
        let shader = write_container(1, &[(*b"SHDR", &shdr())]);
        let mut payload = vec![0u8; 12];
        payload.extend_from_slice(&shader);
        let effect = write_container(1, &[(*b"FX10", &payload)]);
        let mut data = b"xDXBCjunk".to_vec();
        data.extend_from_slice(&shader);
        data.extend_from_slice(b"DXB");
        data.extend_from_slice(&effect);
        data.extend_from_slice(b"DXBC");
        data.extend_from_slice(&shader);
        data.extend_from_slice(b"tailDX");
        let whole = carve(&data);
        assert_eq!(whole.found.len(), 4);
        for step in 1..data.len() + 2 {
            let mut c = Carver::new(data.len());
            let mut steps = 0;
            while !c.is_done() {
                let before = c.position();
                c.step(&data, before + step);
                assert!(c.position() > before, "a step makes progress");
                steps += 1;
            }
            assert_eq!(steps, data.len().div_ceil(step));
            assert_eq!(c.finish(&data), whole, "steps of {step} bytes");
        }
    }

    #[test]
    fn a_step_past_the_end_or_backwards_is_harmless() {
        let shader = write_container(1, &[(*b"SHDR", &shdr())]);
        let mut c = Carver::new(shader.len());
        c.step(&shader, usize::MAX);
        assert!(c.is_done());
        c.step(&shader, 0);
        assert_eq!(c.found().len(), 1);
        assert_eq!(c.finish(&shader), carve(&shader));
    }

    #[test]
    fn the_hash_budget_holds_on_overlapping_headers() {
        // Every 64 bytes a header claiming all the rest: without the budget,
        // hashing would be quadratic in the input.
        let n = 1 << 22;
        let mut data = vec![0u8; n];
        for at in (0..n - 64).step_by(64) {
            data[at..at + 4].copy_from_slice(b"DXBC");
            data[at + 24..at + 28].copy_from_slice(&((n - at) as u32).to_le_bytes());
        }
        let r = carve(&data);
        assert_eq!(r.found.len(), (n - 64) / 64);
        let hashed: usize = r.found.iter().filter(|f| f.checksum != Checksum::Unchecked).map(|f| f.size).sum();
        assert!(hashed <= hash_budget(n), "{hashed} bytes hashed");
        assert!(r.found.iter().any(|f| f.checksum == Checksum::Unchecked));
    }

    #[test]
    fn dxil_containers_are_typed_with_their_profile() {
        // DXIL program header: version (ps_6_0), size in dwords, then the
        // bitcode header ("DXIL", version, offset, size); no bitcode.
        let mut dxil = Vec::new();
        for w in [0x0000_0060u32, 6, u32::from_le_bytes(*b"DXIL"), 0x100, 16, 0] {
            dxil.extend_from_slice(&w.to_le_bytes());
        }
        let c = write_container(1, &[(*b"DXIL", &dxil)]);
        let r = carve(&c);
        assert_eq!(r.found[0].program, ProgramKind::Dxil);
        let s = Shader::decode(&c).unwrap();
        assert_eq!(dxil_version(&s).map(dxil_profile).as_deref(), Some("ps_6_0"));
    }
}
