//! Opening any file: the containers [`dxbc::carve`] finds in it, as the
//! explorer lists them.
//!
//! A file that is one container from byte 0 to its end, with no other
//! magic inside, opens directly ([`opens_directly`]). Anything else is
//! carved in the worker (`worker.rs`) by a [`Session`], one [`STEP_BYTES`]
//! step per message so that the page can show progress and cancel between
//! steps; the steps resume one [`dxbc::carve::Carver`], so a container
//! that straddles a step's end is found as in a single pass. The worker
//! answers with a [`Listing`] (JSON), which the page's carve list shows.

use crate::text::fmt_thousands;
use dxbc::carve::{Carve, Carver, Checksum, Found, ProgramKind};
use dxbc::program::VersionToken;
use dxbc::reader::dword;
use dxbc::Container;
use serde::{Deserialize, Serialize};

/// Bytes one worker step looks at: small enough that progress moves and
/// a cancel is heard within milliseconds, large enough that a 16 MiB file
/// takes 64 messages.
pub const STEP_BYTES: usize = 256 << 10;

/// Most rows a listing carries. Adversarial input (a header every 64
/// bytes) finds one container per 64 bytes; past this many the list says
/// how many more were found instead of sending them all to the page.
pub const MAX_ROWS: usize = 10_000;

/// Whether `bytes` open as they are: one container from byte 0 whose size
/// field is the file's length, with no other magic inside (an `fx_4_x`
/// effect holds its shaders as nested containers, so it is carved). A
/// file that is not a container at all also opens directly when it holds
/// no magic: the explorer shows why it does not decode.
pub fn opens_directly(bytes: &[u8]) -> bool {
    let whole = bytes.len() >= 28 && bytes.starts_with(b"DXBC") && dword(bytes, 6) as usize == bytes.len();
    let from = if whole { 4 } else { 0 };
    let more = bytes.get(from..).is_some_and(|rest| rest.windows(4).any(|w| w == b"DXBC"));
    !more
}

/// One found container, as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Offset of its magic in the file.
    pub offset: usize,
    /// Its size field.
    pub size: usize,
    /// What its stored checksum says.
    pub checksum: Checksum,
    /// DXBC, DXIL, an effect or no program.
    pub program: ProgramKind,
    /// The program's profile (`ps_5_0`; `ps_6_0` for DXIL), when it has one.
    pub profile: Option<String>,
    /// A name the file gives it (an effect's technique and pass), when known.
    pub name: Option<String>,
    /// Index of the row of the container that encloses it, if any.
    pub parent: Option<usize>,
}

/// What the worker found in a file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listing {
    /// The first [`MAX_ROWS`] containers, in file order.
    pub rows: Vec<Row>,
    /// How many containers were found (more than `rows` when capped).
    pub total: usize,
    /// Magic hits that were not containers.
    pub rejected: usize,
}

impl Listing {
    /// The listing of `carve`, made over `data`.
    pub fn of(data: &[u8], carve: &Carve) -> Listing {
        Listing {
            rows: carve.found.iter().take(MAX_ROWS).map(|f| row_of(data, f)).collect(),
            total: carve.found.len(),
            rejected: carve.rejected.iter().sum(),
        }
    }

    /// True when the carve found the file itself: one container, all of it.
    pub fn is_whole_file(&self, len: usize) -> bool {
        matches!(&self.rows[..], [r] if r.offset == 0 && r.size == len)
    }

    /// The status line after a carve of `file`.
    pub fn summary(&self, file: &str) -> String {
        let shown = if self.rows.len() < self.total {
            format!(" (the first {} are listed)", fmt_thousands(self.rows.len()))
        } else {
            String::new()
        };
        format!(
            "Found {} container{} in {file}{shown}; {} other DXBC magic{} rejected. Click one to open it.",
            fmt_thousands(self.total),
            if self.total == 1 { "" } else { "s" },
            fmt_thousands(self.rejected),
            if self.rejected == 1 { " was" } else { "s were" },
        )
    }
}

/// The row of a found container. Reads only its chunk table and program
/// header: a found container's table is already checked, so this is a few
/// hundred dword reads at most, whatever its size.
pub fn row_of(data: &[u8], f: &Found) -> Row {
    let bytes = &data[f.range()];
    let version = |tag: &[u8; 4]| {
        let c = Container::parse(bytes).ok()?;
        let payload = bytes.get(c.find(tag)?.data_range())?;
        (payload.len() >= 4).then(|| VersionToken(dword(payload, 0)))
    };
    let profile = match f.program {
        ProgramKind::Dxbc => version(b"SHEX").or_else(|| version(b"SHDR")).map(|v| v.profile()),
        ProgramKind::Dxil => version(b"DXIL").map(dxbc::carve::dxil_profile),
        ProgramKind::Effect | ProgramKind::None => None,
    };
    Row {
        offset: f.offset,
        size: f.size,
        checksum: f.checksum,
        program: f.program,
        profile,
        name: name_of(f),
        parent: f.parent,
    }
}

/// The name a carved container has in its file (an effect's
/// group/technique/pass/stage or variable), when carving found one.
fn name_of(found: &Found) -> Option<String> {
    found.name.as_ref().map(|n| n.label())
}

impl Row {
    /// The offset as the list and the hex view print it.
    pub fn offset_text(&self) -> String {
        format!("{:#x}", self.offset)
    }

    /// The size in bytes, with thousands separators.
    pub fn size_text(&self) -> String {
        fmt_thousands(self.size)
    }

    /// The program column: its profile, with DXIL and effects said plainly.
    pub fn program_text(&self) -> String {
        let profile = self.profile.as_deref().unwrap_or("?");
        match self.program {
            ProgramKind::Dxbc => profile.to_string(),
            ProgramKind::Dxil => format!("DXIL {profile} (code not disassembled)"),
            ProgramKind::Effect => "effect (fx_4_x)".to_string(),
            ProgramKind::None => "no program".to_string(),
        }
    }

    /// The checksum column.
    pub fn checksum_text(&self) -> &'static str {
        self.checksum.name()
    }
}

/// The banner over an opened carved shader: "shader 2 of 3 at offset 0x1a4
/// in game.pak" (`index` counts from 0).
pub fn banner(index: usize, total: usize, offset: usize, file: &str) -> String {
    format!("shader {} of {total} at offset {offset:#x} in {file}", index + 1)
}

/// The name a carved shader's downloads get: as `dxbc extract` names it,
/// the file's stem and the decimal offset.
pub fn shader_file_name(file: &str, offset: usize) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = base.rsplit_once('.').map_or(base, |(s, _)| if s.is_empty() { base } else { s });
    format!("{stem}_{offset}.dxbc")
}

/// Share of the file looked at, from 0 to 1 (an empty file is done).
pub fn progress(position: usize, len: usize) -> f64 {
    if len == 0 {
        1.0
    } else {
        position.min(len) as f64 / len as f64
    }
}

/// Rows of the carved file the hex view shows, dimmed, above and below an
/// open shader: enough to see a length prefix or a neighbour's tail.
pub const CONTEXT_ROWS: usize = 8;

/// Bytes per hex view row (the view's own constant).
const ROW: usize = crate::selection::ROW_BYTES;

/// Where an open carved shader sits in its file, and the rows of the file
/// shown around it. Rows are aligned on the shader's start, so its tokens
/// stay whole dwords; the file's bytes fill the rows before it, the cells
/// after its last byte and the rows after that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Surroundings {
    /// Offset of the shader in the file.
    pub origin: usize,
    /// The shader's size in the file (an edit may change the shown bytes'
    /// length; the file after the shader still starts here).
    pub size: usize,
    /// The file's length.
    pub file_len: usize,
    /// Whole rows of the file shown before the shader.
    pub rows_before: usize,
}

/// What a hex view cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// The shader's byte at this offset (in the shader).
    Shader(usize),
    /// The carved file's byte at this offset, around the shader.
    Around(usize),
    /// Nothing: before the file's start or past its end.
    Empty,
}

impl Surroundings {
    /// The surroundings of a shader of `size` bytes at `origin` in a file of `file_len`.
    pub fn new(origin: usize, size: usize, file_len: usize) -> Surroundings {
        Surroundings { origin, size, file_len, rows_before: (origin / ROW).min(CONTEXT_ROWS) }
    }

    /// The rows shown when the shader has `len` bytes.
    pub fn rows(&self, len: usize) -> usize {
        let shader_rows = len.div_ceil(ROW);
        // File bytes after the shader, less those its last row shows.
        let tail = self.file_len.saturating_sub(self.origin + self.size);
        let in_last = shader_rows * ROW - len;
        self.rows_before + shader_rows + tail.saturating_sub(in_last).div_ceil(ROW).min(CONTEXT_ROWS)
    }

    /// The view row of the shader's row `r`.
    pub fn view_row(&self, r: usize) -> usize {
        r + self.rows_before
    }

    /// Offset in the shader of view row `v`'s first cell (negative before it).
    pub fn row_base(&self, v: usize) -> isize {
        (v as isize - self.rows_before as isize) * ROW as isize
    }

    /// The file offset view row `v` starts at, as its offset column prints it.
    pub fn row_offset(&self, v: usize, len: usize) -> usize {
        match self.cell(len, self.row_base(v)) {
            Cell::Shader(b) => self.origin + b,
            Cell::Around(f) => f,
            Cell::Empty => self.origin.saturating_add_signed(self.row_base(v)),
        }
    }

    /// What the cell at `rel` (an offset from the shader's start, negative
    /// before it) shows, when the shader has `len` bytes.
    pub fn cell(&self, len: usize, rel: isize) -> Cell {
        if rel < 0 {
            let back = rel.unsigned_abs();
            return if back <= self.origin { Cell::Around(self.origin - back) } else { Cell::Empty };
        }
        let rel = rel as usize;
        if rel < len {
            return Cell::Shader(rel);
        }
        let f = self.origin + self.size + (rel - len);
        if f < self.file_len {
            Cell::Around(f)
        } else {
            Cell::Empty
        }
    }
}

/// A carve in the worker: the file and the carve so far.
pub struct Session {
    data: Vec<u8>,
    carver: Carver,
}

impl Session {
    /// Starts carving `data`.
    pub fn new(data: Vec<u8>) -> Session {
        let carver = Carver::new(data.len());
        Session { data, carver }
    }

    /// Looks at the next [`STEP_BYTES`]; returns how far the carve is.
    pub fn step(&mut self) -> usize {
        let upto = self.carver.position().saturating_add(STEP_BYTES);
        self.carver.step(&self.data, upto);
        self.carver.position()
    }

    /// True once the whole file has been looked at.
    pub fn is_done(&self) -> bool {
        self.carver.is_done()
    }

    /// The file's length.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// What was found (call when done; before, what was found so far).
    pub fn listing(self) -> Listing {
        let Session { data, carver } = self;
        Listing::of(&data, &carver.finish(&data))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_corpus;
    use dxbc::Shader;

    /// Three corpus shaders among junk, at unaligned offsets, as in the
    /// browser test; with their offsets.
    fn three_among_junk() -> (Vec<u8>, Vec<(usize, Vec<u8>)>) {
        let names = [
            "fxc/angle63_buffertotexture11_gs.dxbc",
            "fxc/dxdecompiler_nbodygravitycs11_nbodygravitycs11.dxbc",
            "fxc/directxtex_vs.dxbc",
        ];
        let mut data = b"PAK\x01 junk before DXBC (a decoy) ".to_vec();
        let mut placed = Vec::new();
        for (i, n) in names.iter().enumerate() {
            let s = test_corpus::file(n);
            placed.push((data.len(), s.clone()));
            data.extend_from_slice(&s);
            // Junk whose length makes the next offset unaligned.
            data.extend((0..(97 + 13 * i)).map(|k| (k * 31 + i) as u8));
        }
        (data, placed)
    }

    #[test]
    fn a_file_of_one_container_opens_directly_and_others_are_carved() {
        let one = test_corpus::file("fxc/directxtex_vs.dxbc");
        assert!(opens_directly(&one));
        let (many, _) = three_among_junk();
        assert!(!opens_directly(&many));
        // A container with bytes after it, or before it.
        let mut tail = one.clone();
        tail.push(0);
        assert!(!opens_directly(&tail));
        assert!(!opens_directly(&[&[0u8][..], &one].concat()));
        // No magic at all: opened as it is (the page says why it does not decode).
        assert!(opens_directly(b"plain text"));
        assert!(opens_directly(&[]));
    }

    #[test]
    fn the_worker_session_lists_every_shader_at_its_offset_with_its_profile() {
        let (data, placed) = three_among_junk();
        let mut s = Session::new(data.clone());
        let mut steps = 0;
        let mut last = 0;
        while !s.is_done() {
            let at = s.step();
            assert!(at > last && at <= data.len());
            last = at;
            steps += 1;
        }
        assert_eq!(steps, data.len().div_ceil(STEP_BYTES));
        let listing = s.listing();
        assert_eq!(listing, Listing::of(&data, &dxbc::carve::carve(&data)));
        assert_eq!(listing.total, 3);
        assert!(listing.rejected >= 1, "the decoy");
        for (row, (offset, bytes)) in listing.rows.iter().zip(&placed) {
            assert_eq!((row.offset, row.size), (*offset, bytes.len()));
            assert_eq!(row.checksum, Checksum::Valid);
            assert_eq!(row.program, ProgramKind::Dxbc);
            // The decoder's own profile of the shader (without a level-9 suffix).
            let decoded = Shader::decode(bytes).unwrap();
            assert_eq!(row.profile, decoded.program.as_ref().map(|p| p.version.profile()));
            assert_eq!(row.program_text(), row.profile.clone().unwrap());
        }
        assert!(!listing.is_whole_file(data.len()));
        let one = test_corpus::file("fxc/directxtex_vs.dxbc");
        assert!(Listing::of(&one, &dxbc::carve::carve(&one)).is_whole_file(one.len()));
    }

    #[test]
    fn a_steps_end_inside_a_container_loses_nothing() {
        // The second shader straddles the first step's end.
        let s = test_corpus::file("fxc/directxtex_vs.dxbc");
        let mut data = vec![0u8; STEP_BYTES - 10];
        data.extend_from_slice(&s);
        data.extend_from_slice(&s);
        let mut session = Session::new(data.clone());
        while !session.is_done() {
            session.step();
        }
        let rows = session.listing().rows;
        assert_eq!(rows.iter().map(|r| r.offset).collect::<Vec<_>>(), [STEP_BYTES - 10, STEP_BYTES - 10 + s.len()]);
    }

    #[test]
    fn rows_are_capped_and_the_summary_says_so() {
        let c = dxbc::container::write_container(1, &[]);
        let data: Vec<u8> = std::iter::repeat_n(&c[..], MAX_ROWS + 5).flatten().copied().collect();
        let listing = Listing::of(&data, &dxbc::carve::carve(&data));
        assert_eq!((listing.rows.len(), listing.total), (MAX_ROWS, MAX_ROWS + 5));
        assert_eq!(listing.rows[1].program_text(), "no program");
        assert_eq!(
            listing.summary("x.pak"),
            "Found 10,005 containers in x.pak (the first 10,000 are listed); 0 other DXBC magics were rejected. Click one to open it."
        );
    }

    #[test]
    fn the_rows_around_a_shader_show_the_files_bytes_in_place() {
        // A 100-byte shader at 0x95 in a 0x200-byte file: 8 rows before it
        // (capped), its 7 rows (the last holds 4 of its bytes and 12 of the
        // file's), then the 0x107 file bytes left (17 rows, capped at 8).
        let file: Vec<u8> = (0..0x200).map(|i| i as u8).collect();
        let a = Surroundings::new(0x95, 100, file.len());
        assert_eq!(a.rows_before, CONTEXT_ROWS);
        assert_eq!(a.rows(100), 8 + 7 + 8);
        assert_eq!(a.view_row(0), 8);
        assert_eq!(a.row_offset(0, 100), 0x95 - 0x80);
        assert_eq!(a.row_offset(8, 100), 0x95);
        assert_eq!(a.cell(100, -1), Cell::Around(0x94));
        assert_eq!(a.cell(100, 0), Cell::Shader(0));
        assert_eq!(a.cell(100, 99), Cell::Shader(99));
        assert_eq!(a.cell(100, 100), Cell::Around(0x95 + 100));
        // Every byte of the file shown is in its place: cell -> file offset.
        for v in 0..a.rows(100) {
            for k in 0..ROW as isize {
                let rel = a.row_base(v) + k;
                let at = 0x95 + rel;
                match a.cell(100, rel) {
                    Cell::Shader(b) => assert_eq!(0x95 + b as isize, at),
                    Cell::Around(f) => assert_eq!(f as isize, at),
                    Cell::Empty => assert!(at < 0 || at >= file.len() as isize),
                }
            }
        }
        // At the file's start and end: no rows before, the last row's rest empty.
        let b = Surroundings::new(0, 32, 40);
        assert_eq!((b.rows_before, b.rows(32)), (0, 3));
        assert_eq!(b.cell(32, 39), Cell::Around(39));
        assert_eq!(b.cell(32, 40), Cell::Empty);
        assert_eq!(b.cell(32, -1), Cell::Empty);
        // An edit that grows the shader pushes the file's bytes after it along.
        assert_eq!(b.cell(36, 36), Cell::Around(32));
        // Fewer bytes before the shader than a row: none shown (rows stay aligned on it).
        assert_eq!(Surroundings::new(7, 32, 40).rows_before, 0);
    }

    #[test]
    fn texts_of_a_row_the_banner_and_the_download_name() {
        let row = Row {
            offset: 0x1a4,
            size: 12345,
            checksum: Checksum::Unsigned,
            program: ProgramKind::Dxil,
            profile: Some("ps_6_0".into()),
            name: None,
            parent: None,
        };
        assert_eq!(row.offset_text(), "0x1a4");
        assert_eq!(row.size_text(), "12,345");
        assert_eq!(row.checksum_text(), "unsigned");
        assert_eq!(row.program_text(), "DXIL ps_6_0 (code not disassembled)");
        assert_eq!(banner(1, 3, 0x1a4, "game.pak"), "shader 2 of 3 at offset 0x1a4 in game.pak");
        assert_eq!(shader_file_name("dir/game.pak", 420), "game_420.dxbc");
        assert_eq!(shader_file_name(".pak", 4), ".pak_4.dxbc");
        assert_eq!(progress(5, 10), 0.5);
        assert_eq!(progress(0, 0), 1.0);
    }
}
