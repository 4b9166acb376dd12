//! The `Aon9` chunk: the Direct3D 9 style (SM2.x) program that fxc embeds for
//! `*_4_0_level_9_x` profiles, plus the tables that tie its constant and
//! sampler registers to the D3D10+ resources of the SM4 program.
//!
//! ```text
//! payload (offsets relative to the start of the payload)
//! 0x00  u32 size of the payload (repeats the chunk header's size)
//! 0x04  u32 D3D9 version token of the lowest target (always x_2_0 in practice)
//! 0x08  u32 byte size of the SM2 token stream
//! 0x0c  u32 offset of the SM2 token stream
//! 0x10  u16 count, u16 offset  constant-buffer mappings      (12 bytes each)
//! 0x14  u16 count, u16 offset  loop-register mappings        ( 8 bytes each)
//! 0x18  u16 count, u16 offset  a table of unknown layout (never seen non-empty)
//! 0x1c  u16 count, u16 offset  sampler mappings              ( 4 bytes each)
//! 0x20  u16 count, u16 offset  runtime constant mappings     ( 4 bytes each)
//! 0x24  the tables, then the SM2 token stream
//!
//! constant-buffer mapping: u16 buffer, u16 first source register,
//!     u16 register count, u16 target c#, u8 data conversion x4 (0 FLT,
//!     1 BOOL, 2 INT, 3 UINT)
//! loop-register mapping:   u16 buffer, u16 source register, u16 component,
//!     u16 target i#
//! sampler mapping:         u8 source resource t#, u8 source sampler s#,
//!     u8 target sampler s#, u8 padding
//! runtime constant:        u16 kind (0 = vertex shader position offset),
//!     u16 target c#
//! ```
//!
//! The SM2 token stream is the classic D3D9 format: a version token
//! (`0xFFFE_mmnn` vertex, `0xFFFF_mmnn` pixel), instructions (opcode in bits
//! 0–15, specific controls in 16–23, dword length in 24–27, predicated bit
//! 28, co-issue bit 30) each followed by parameter tokens (bit 31 set), comment
//! blocks (`0xFFFE` with a dword count in bits 16–30) and the end token
//! `0x0000FFFF`. A comment block starting with `DBUG` carries the debug
//! information (`/Zi`) from which the listing takes `#line` directives and
//! the `// scope::variable<components>` annotations.
//!
//! `XNAP` and `XNAS` (the "XNA prepass" and "XNA" programs fxc adds for
//! some level-9 vertex shaders, `D3D_BLOB_XNA_PREPASS_SHADER` and
//! `D3D_BLOB_XNA_SHADER`) have this same layout; [`Level9Kind`] tells the
//! three apart.

mod encode;

/// Which of the three level-9 chunks (all laid out as above) a section is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Level9Kind {
    /// `Aon9`: the program a level-9 device runs.
    Aon9,
    /// `XNAP`: the XNA prepass program.
    XnaPrepass,
    /// `XNAS`: the XNA program.
    Xna,
}

impl Level9Kind {
    /// The order fxc's listing prints the sections in.
    pub const LISTING_ORDER: [Level9Kind; 3] = [Level9Kind::Aon9, Level9Kind::XnaPrepass, Level9Kind::Xna];

    /// The chunk's FourCC.
    pub fn tag(self) -> [u8; 4] {
        match self {
            Level9Kind::Aon9 => *b"Aon9",
            Level9Kind::XnaPrepass => *b"XNAP",
            Level9Kind::Xna => *b"XNAS",
        }
    }

    /// The kind whose chunk has FourCC `tag`.
    pub fn from_tag(tag: &[u8; 4]) -> Option<Level9Kind> {
        Self::LISTING_ORDER.into_iter().find(|k| &k.tag() == tag)
    }

    /// The listing's title line of the section's program.
    pub fn heading(self) -> &'static str {
        match self {
            Level9Kind::Aon9 => "// Level9 shader bytecode:",
            Level9Kind::XnaPrepass => "// XNA Prepass shader bytecode:",
            Level9Kind::Xna => "// XNA shader bytecode:",
        }
    }
}

use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;
use crate::spec::sm2::{
    self, comment_token, decl_token, instruction_token, param_token, version_token, Sm2MinorVersion, Sm2Misctype,
    Sm2Opcode, Sm2ProgramType, Sm2Rastout, Sm2RegisterType, AON9_CONVERSION, AON9_RUNTIME_CONSTANT, CONST_FILE_SIZE,
    SM2_COMPARISON, SM2_DECL_USAGE, SM2_RESULT_SHIFT, SM2_SOURCE_MODIFIER, SM2_TEXLD_CONTROL, SM2_TEXTURE_TYPE,
};
use serde::Serialize;

/// Byte size of the fixed payload header.
const HEADER_SIZE: usize = 0x24;

/// Decoded Aon9 chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Aon9 {
    /// Absolute offset of the payload (the header's first dword).
    pub offset: usize,
    /// Payload size as the header repeats it (dword at `offset`).
    pub size: u32,
    /// D3D9 version token at `offset + 4` (the lowest target; `x_2_0`).
    pub min_version: Sm2Version,
    /// Byte size of the SM2 token stream (dword at `offset + 8`).
    pub shader_size: u32,
    /// Offset of the SM2 token stream relative to the payload (dword at
    /// `offset + 0xc`).
    pub shader_offset: u32,
    /// Table directory at `offset + 0x10`: constant buffers, loop registers,
    /// unknown, samplers, runtime constants, in that order.
    pub tables: Vec<TableRef>,
    /// Constant-buffer ranges copied into D3D9 float constants.
    pub constant_buffer_mappings: Vec<ConstantBufferMapping>,
    /// Constant-buffer values copied into D3D9 integer (loop) registers.
    pub loop_register_mappings: Vec<LoopRegisterMapping>,
    /// Sampler/resource pairs bound to D3D9 samplers (file order).
    pub sampler_mappings: Vec<SamplerMapping>,
    /// Constants the runtime fills itself.
    pub runtime_constant_mappings: Vec<RuntimeConstantMapping>,
    /// The embedded SM2 program.
    pub program: Sm2Program,
}

/// One entry of the table directory.
#[derive(Clone, Debug, Serialize)]
pub struct TableRef {
    /// What the table holds.
    pub name: &'static str,
    /// Absolute offset of the directory entry (u16 count, u16 offset).
    pub field_offset: usize,
    /// Number of entries.
    pub count: u16,
    /// Offset of the first entry relative to the payload.
    pub relative_offset: u16,
    /// Absolute offset of the first entry.
    pub offset: usize,
}

/// A range of constant-buffer registers mapped to D3D9 `c#` registers.
#[derive(Clone, Debug, Serialize)]
pub struct ConstantBufferMapping {
    /// Absolute offset of the 12-byte entry.
    pub offset: usize,
    /// Source constant buffer (`cb#`).
    pub buffer: u16,
    /// First source register in that buffer.
    pub start_register: u16,
    /// Number of registers.
    pub register_count: u16,
    /// First target `c#` register.
    pub target_register: u16,
    /// Per-component data conversion (0 FLT, 1 BOOL, 2 INT, 3 UINT).
    pub conversion: [u8; 4],
}

/// A constant-buffer value mapped to a D3D9 integer (`i#`) register.
#[derive(Clone, Debug, Serialize)]
pub struct LoopRegisterMapping {
    /// Absolute offset of the 8-byte entry.
    pub offset: usize,
    /// Source constant buffer.
    pub buffer: u16,
    /// Source register.
    pub source_register: u16,
    /// Source component.
    pub component: u16,
    /// Target `i#` register.
    pub target_register: u16,
}

/// A D3D10 sampler/resource pair mapped to a D3D9 sampler.
#[derive(Clone, Debug, Serialize)]
pub struct SamplerMapping {
    /// Absolute offset of the 4-byte entry.
    pub offset: usize,
    /// Source resource (`t#`).
    pub source_resource: u8,
    /// Source sampler (`s#`).
    pub source_sampler: u8,
    /// Target D3D9 sampler (`s#`).
    pub target_sampler: u8,
    /// Fourth byte (zero in practice).
    pub padding: u8,
}

/// A D3D9 constant the runtime fills.
#[derive(Clone, Debug, Serialize)]
pub struct RuntimeConstantMapping {
    /// Absolute offset of the 4-byte entry.
    pub offset: usize,
    /// What is stored (0 = vertex shader position offset).
    pub kind: u16,
    /// Target `c#` register.
    pub target_register: u16,
}

/// A D3D9 version token.
#[derive(Clone, Debug, Serialize)]
pub struct Sm2Version {
    /// Absolute offset of the token.
    pub offset: usize,
    /// Raw token.
    pub token: u32,
    /// `true` for a pixel shader (`0xFFFF` in the high half), `false` for a
    /// vertex shader (`0xFFFE`).
    pub pixel: bool,
    /// Major version (bits 8–15).
    pub major: u8,
    /// Minor version (bits 0–7; 1 is printed `x`).
    pub minor: u8,
}

impl Sm2Version {
    fn parse(token: u32, offset: usize) -> Result<Sm2Version> {
        let pixel = match Sm2ProgramType::from_u32(version_token::PROGRAM_TYPE.get(token)) {
            Some(Sm2ProgramType::Pixel) => true,
            Some(Sm2ProgramType::Vertex) => false,
            None => {
                return Err(Error::new(
                    format!("expected a D3D9 version token (0xFFFE.... or 0xFFFF....), found {token:#010x}"),
                    offset,
                ))
            }
        };
        let major = version_token::MAJOR.get(token) as u8;
        Ok(Sm2Version { offset, token, pixel, major, minor: version_token::MINOR.get(token) as u8 })
    }

    /// The version as the disassembler prints it, e.g. `vs_2_0`, `ps_2_x`.
    pub fn name(&self) -> String {
        let minor = match Sm2MinorVersion::from_u32(u32::from(self.minor)) {
            Some(m) => m.row().asm.to_string(),
            None => self.minor.to_string(),
        };
        format!("{}_{}_{}", if self.pixel { "ps" } else { "vs" }, self.major, minor)
    }
}

/// The embedded SM2 program.
#[derive(Clone, Debug, Serialize)]
pub struct Sm2Program {
    /// Absolute offset of the version token.
    pub offset: usize,
    /// Byte size of the token stream as the header gives it.
    pub size: usize,
    /// The version token.
    pub version: Sm2Version,
    /// Instructions in order (comments and the end token excluded).
    pub instructions: Vec<Sm2Instruction>,
    /// Comment blocks in order.
    pub comments: Vec<Sm2Comment>,
    /// Absolute offset of the end token.
    pub end_offset: usize,
    /// Bytes after the end token inside `size`.
    pub trailing_bytes: usize,
    /// Those bytes.
    #[serde(skip)]
    pub trailing: Vec<u8>,
    /// Decoded `DBUG` comment, if any.
    pub debug_info: Option<DebugInfo>,
}

/// A comment block.
#[derive(Clone, Debug, Serialize)]
pub struct Sm2Comment {
    /// Absolute offset of the comment token.
    pub offset: usize,
    /// Raw comment token (`0xFFFE` and the dword count in bits 16–30).
    pub token: u32,
    /// Number of payload dwords after the token.
    pub dwords: u32,
    /// First four payload bytes when they are printable (e.g. `DBUG`, `CTAB`).
    pub fourcc: Option<String>,
    /// Index of the instruction the comment comes before (the instruction
    /// count when it follows the last one).
    pub before_instruction: usize,
    /// The payload dwords as bytes: comments carry opaque blobs (`CTAB`,
    /// and `DBUG`, of which [`Sm2Program::debug_info`] is a read-only view).
    #[serde(skip)]
    pub data: Vec<u8>,
}

/// One instruction with its parameters.
#[derive(Clone, Debug, Serialize)]
pub struct Sm2Instruction {
    /// Absolute offset of the instruction token.
    pub offset: usize,
    /// Raw instruction token.
    pub token: u32,
    /// Opcode (bits 0–15).
    pub opcode: u16,
    /// Base mnemonic (before controls and modifiers are added).
    pub mnemonic: &'static str,
    /// Specific controls (bits 16–23): comparison for `ifc`/`breakc`/`setp`,
    /// project/bias for `texld`.
    pub controls: u8,
    /// Number of parameter dwords that follow (bits 24–27).
    pub length: u8,
    /// Predicated (bit 28): a predicate register follows the destination.
    pub predicated: bool,
    /// Co-issue (bit 30, ps_1_x only).
    pub coissue: bool,
    /// Destination parameter.
    pub dst: Option<DstParam>,
    /// Predicate register of a predicated instruction.
    pub predicate: Option<SrcParam>,
    /// Source parameters.
    pub src: Vec<SrcParam>,
    /// Usage token of `dcl`.
    pub decl: Option<DeclToken>,
    /// Immediate values of `def`/`defi`/`defb`.
    pub constant: Option<ConstValue>,
}

/// The usage/sampler-type token of `dcl`.
#[derive(Clone, Debug, Serialize)]
pub struct DeclToken {
    /// Absolute offset of the token.
    pub offset: usize,
    /// Raw token.
    pub token: u32,
    /// Usage (bits 0–4): 0 position … 5 texcoord … 10 color.
    pub usage: u8,
    /// Usage index (bits 16–19).
    pub usage_index: u8,
    /// Sampler texture type (bits 27–30): 2 = 2d, 3 = cube, 4 = volume.
    pub texture_type: u8,
}

/// Immediate operands of `def`, `defi` and `defb`.
#[derive(Clone, Debug, Serialize)]
pub enum ConstValue {
    /// `def`: four floats.
    Float {
        /// Absolute offset of the first value.
        offset: usize,
        /// The values.
        values: [f32; 4],
        /// Their bit patterns.
        bits: [u32; 4],
    },
    /// `defi`: four integers.
    Int {
        /// Absolute offset of the first value.
        offset: usize,
        /// The values.
        values: [i32; 4],
    },
    /// `defb`: one boolean dword.
    Bool {
        /// Absolute offset of the value.
        offset: usize,
        /// The raw dword (non-zero is true).
        value: u32,
    },
}

/// A destination parameter token.
#[derive(Clone, Debug, Serialize)]
pub struct DstParam {
    /// Absolute offset of the token.
    pub offset: usize,
    /// Raw token.
    pub token: u32,
    /// Register type (bits 28–30 and 11–12).
    pub register_type: u8,
    /// Register number (bits 0–10).
    pub number: u16,
    /// Write mask (bits 16–19).
    pub write_mask: u8,
    /// Result modifiers (bits 20–23): 1 saturate, 2 partial precision,
    /// 4 centroid.
    pub result_modifier: u8,
    /// Shift scale (bits 24–27, signed).
    pub shift: i8,
    /// Relative addressing (bit 13).
    pub relative: Option<RelativeAddress>,
}

/// A source parameter token.
#[derive(Clone, Debug, Serialize)]
pub struct SrcParam {
    /// Absolute offset of the token.
    pub offset: usize,
    /// Raw token.
    pub token: u32,
    /// Register type (bits 28–30 and 11–12).
    pub register_type: u8,
    /// Register number (bits 0–10).
    pub number: u16,
    /// Swizzle (bits 16–23, two bits per component, `0xE4` = identity).
    pub swizzle: u8,
    /// Source modifier (bits 24–27): 1 negate, 2 bias, … 11 abs, 13 not.
    pub modifier: u8,
    /// Relative addressing (bit 13).
    pub relative: Option<RelativeAddress>,
}

/// The address register of a relatively addressed parameter.
#[derive(Clone, Debug, Serialize)]
pub struct RelativeAddress {
    /// Absolute offset of the relative-address token.
    pub offset: usize,
    /// Raw token.
    pub token: u32,
    /// Register type (3 = `a0`, 15 = `aL`).
    pub register_type: u8,
    /// Register number.
    pub number: u16,
    /// Selected component (0–3).
    pub component: u8,
}

/// The decoded `DBUG` comment (debug information of a `/Zi` compile).
/// Offsets inside it are relative to `offset`.
#[derive(Clone, Debug, Serialize)]
pub struct DebugInfo {
    /// Absolute offset of the debug header (just after `DBUG`).
    pub offset: usize,
    /// Header size (first dword, 0x28).
    pub header_size: u32,
    /// Compiler name.
    pub creator: String,
    /// Third header dword (zero in practice).
    pub reserved: u32,
    /// Source files.
    pub files: Vec<DebugFile>,
    /// One entry per instruction: where it came from.
    pub lines: Vec<DebugLine>,
    /// Variables and the instructions that write them.
    pub variables: Vec<DebugVariable>,
    /// Entry point name.
    pub entry_point: String,
}

/// A source file of the debug information.
#[derive(Clone, Debug, Serialize)]
pub struct DebugFile {
    /// Absolute offset of the table entry.
    pub offset: usize,
    /// File name.
    pub name: String,
}

/// Source position of one instruction.
#[derive(Clone, Debug, Serialize)]
pub struct DebugLine {
    /// Absolute offset of the 8-byte entry.
    pub offset: usize,
    /// Line number.
    pub line: u16,
    /// File index (`0xFFFF` = no position).
    pub file: u16,
    /// Byte offset of the instruction inside the token stream.
    pub code_offset: u32,
}

/// A variable of the debug information.
#[derive(Clone, Debug, Serialize)]
pub struct DebugVariable {
    /// Absolute offset of the 20-byte entry.
    pub offset: usize,
    /// Enclosing scope (function or constant buffer), `None` when the scope
    /// offset is zero.
    pub scope: Option<String>,
    /// Name.
    pub name: String,
    /// Type description.
    pub type_info: DebugType,
    /// Instructions that write parts of the variable.
    pub entries: Vec<DebugVariableEntry>,
}

/// Type description of a debug variable (D3DX type-info layout).
#[derive(Clone, Debug, Serialize)]
pub struct DebugType {
    /// Absolute offset.
    pub offset: usize,
    /// Class (0 scalar, 1 vector, 2/3 matrix, 4 object, 5 struct).
    pub class: u16,
    /// Type (0 void, 1 bool, 2 int, 3 float, …).
    pub kind: u16,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array elements.
    pub elements: u16,
    /// Struct members.
    pub members: u16,
    /// Offset of the member table (relative to the debug header).
    pub member_info: u32,
}

/// One instruction writing (parts of) a debug variable.
#[derive(Clone, Debug, Serialize)]
pub struct DebugVariableEntry {
    /// Absolute offset of the 12-byte entry.
    pub offset: usize,
    /// Instruction index (0 = first instruction after the version token).
    pub instruction: u32,
    /// Variable component written by each of x, y, z, w (`0xFFFF` = none).
    pub components: [u16; 4],
}

// ---------------------------------------------------------------------------
// Parsing

impl Aon9 {
    /// Parses the chunk payload; `base` is its absolute offset.
    pub fn parse(data: &[u8], base: usize) -> Result<Aon9> {
        let mut r = Reader::new(data, base);
        let size = r.u32("Aon9 payload size")?;
        let vpos = r.offset();
        let min_version = Sm2Version::parse(r.u32("Aon9 version token")?, vpos)?;
        let shader_size = r.u32("Aon9 shader size")?;
        let shader_offset = r.u32("Aon9 shader offset")?;
        const NAMES: [&str; 5] = [
            "constant buffer mappings",
            "loop register mappings",
            "unknown mappings",
            "sampler mappings",
            "runtime constant mappings",
        ];
        let mut tables = Vec::with_capacity(NAMES.len());
        for name in NAMES {
            let field_offset = r.offset();
            let count = r.u16(name)?;
            let relative_offset = r.u16(name)?;
            tables.push(TableRef {
                name,
                field_offset,
                count,
                relative_offset,
                offset: base + relative_offset as usize,
            });
        }

        let cb = table_slice(data, &tables[0], 12)?;
        let mut constant_buffer_mappings = Vec::with_capacity(tables[0].count as usize);
        for (i, e) in cb.chunks_exact(12).enumerate() {
            constant_buffer_mappings.push(ConstantBufferMapping {
                offset: tables[0].offset + 12 * i,
                buffer: le16(e, 0),
                start_register: le16(e, 2),
                register_count: le16(e, 4),
                target_register: le16(e, 6),
                conversion: [e[8], e[9], e[10], e[11]],
            });
        }
        let lr = table_slice(data, &tables[1], 8)?;
        let mut loop_register_mappings = Vec::with_capacity(tables[1].count as usize);
        for (i, e) in lr.chunks_exact(8).enumerate() {
            loop_register_mappings.push(LoopRegisterMapping {
                offset: tables[1].offset + 8 * i,
                buffer: le16(e, 0),
                source_register: le16(e, 2),
                component: le16(e, 4),
                target_register: le16(e, 6),
            });
        }
        // tables[2]: entry layout unknown; only its directory entry is kept.
        let sm = table_slice(data, &tables[3], 4)?;
        let mut sampler_mappings = Vec::with_capacity(tables[3].count as usize);
        for (i, e) in sm.chunks_exact(4).enumerate() {
            sampler_mappings.push(SamplerMapping {
                offset: tables[3].offset + 4 * i,
                source_resource: e[0],
                source_sampler: e[1],
                target_sampler: e[2],
                padding: e[3],
            });
        }
        let rc = table_slice(data, &tables[4], 4)?;
        let mut runtime_constant_mappings = Vec::with_capacity(tables[4].count as usize);
        for (i, e) in rc.chunks_exact(4).enumerate() {
            runtime_constant_mappings.push(RuntimeConstantMapping {
                offset: tables[4].offset + 4 * i,
                kind: le16(e, 0),
                target_register: le16(e, 2),
            });
        }

        let start = shader_offset as usize;
        let end = start.checked_add(shader_size as usize).filter(|&e| start >= HEADER_SIZE && e <= data.len());
        let Some(end) = end else {
            return Err(Error::of(ErrorKind::OutOfBounds,
                format!(
                    "Aon9 shader bytes {start:#x}..+{shader_size:#x} do not lie inside the {}-byte payload after its header",
                    data.len()
                ),
                base + 0x0c,
            ));
        };
        let program = Sm2Program::parse(&data[start..end], base + start)?;

        Ok(Aon9 {
            offset: base,
            size,
            min_version,
            shader_size,
            shader_offset,
            tables,
            constant_buffer_mappings,
            loop_register_mappings,
            sampler_mappings,
            runtime_constant_mappings,
            program,
        })
    }

    /// `_level_9_1` / `_level_9_3` as fxc appends to the profile name.
    ///
    /// Derived from the embedded program's version token: `x_2_0` comes from
    /// `level_9_1` (and `level_9_2`, which compiles to the same shader model
    /// and cannot be told apart from the chunk), `x_2_x` from `level_9_3`.
    pub fn level9_suffix(&self) -> Option<String> {
        let v = &self.program.version;
        match (v.major, v.minor) {
            (2, 0) => Some("_level_9_1".to_string()),
            (2, 1) => Some("_level_9_3".to_string()),
            _ => None,
        }
    }

    /// Writes the level-9 sections of fxc's listing header.
    ///
    /// Boundary: fxc ends the signature block (the last thing the header
    /// prints before the level-9 sections) with one `//` line after the last
    /// signature row, exactly as in a listing without `Aon9`. Everything
    /// after that line belongs to this function, which therefore starts with
    /// a second `//` line:
    ///
    /// ```text
    /// // SV_Target                0   xyzw        0   TARGET   float   xyzw   <- signature row
    /// //                                                                       <- signature writer
    /// //                                                                       <- first line written here
    /// // Constant buffer to DX9 shader constant mappings:
    /// ...
    /// // Level9 shader bytecode:
    /// //
    ///     ps_2_0
    ///     ...
    ///
    /// // approximately 8 instruction slots used (1 texture, 7 arithmetic)   <- last line written here (with its '\n')
    /// ps_4_0                                                                   <- program writer
    /// ```
    ///
    /// Sections, each opened by `//` and closed by `//` after its rows:
    /// constant-buffer mappings (loop-register table first when present),
    /// sampler mappings (sorted by target sampler), runtime constant
    /// mappings, then the bytecode section (never closed by `//`) under
    /// `kind`'s heading: the SM2 program indented by four spaces, with
    /// `#line` directives and variable annotations when the program carries
    /// debug information, a blank line, and the instruction slot count.
    ///
    /// A file with several level-9 chunks prints one such section per chunk,
    /// in [`Level9Kind::LISTING_ORDER`]; each starts with its own `//` line
    /// right after the previous one's slot count.
    pub fn write_listing(&self, kind: Level9Kind, out: &mut String) {
        if !self.constant_buffer_mappings.is_empty() || !self.loop_register_mappings.is_empty() {
            out.push_str("//\n// Constant buffer to DX9 shader constant mappings:\n//\n");
            if !self.loop_register_mappings.is_empty() {
                out.push_str("// Target Reg Buffer  Source Reg Component\n");
                out.push_str("// ---------- ------- ---------- ---------\n");
                for m in &self.loop_register_mappings {
                    out.push_str(&format!(
                        "// {:<10} {:<7} {:>10} {:>9}\n",
                        format!("i{}", m.target_register),
                        format!("cb{}", m.buffer),
                        m.source_register,
                        m.component
                    ));
                }
                out.push_str("//\n");
            }
            if !self.constant_buffer_mappings.is_empty() {
                out.push_str("// Target Reg Buffer  Start Reg # of Regs        Data Conversion\n");
                out.push_str("// ---------- ------- --------- --------- ----------------------\n");
                for m in &self.constant_buffer_mappings {
                    let conv: Vec<String> =
                        m.conversion.iter().map(|&c| format!("{:>4}", conversion_name(c))).collect();
                    out.push_str(&format!(
                        "// {:<10} {:<7} {:>9} {:>9} {:>22}\n",
                        format!("c{}", m.target_register),
                        format!("cb{}", m.buffer),
                        m.start_register,
                        m.register_count,
                        format!("({})", conv.join(","))
                    ));
                }
                out.push_str("//\n");
            }
        }
        if !self.sampler_mappings.is_empty() {
            out.push_str("//\n// Sampler/Resource to DX9 shader sampler mappings:\n//\n");
            out.push_str("// Target Sampler Source Sampler  Source Resource\n");
            out.push_str("// -------------- --------------- ----------------\n");
            let mut sorted: Vec<&SamplerMapping> = self.sampler_mappings.iter().collect();
            sorted.sort_by_key(|m| m.target_sampler);
            for m in sorted {
                out.push_str(&format!(
                    "// {:<14} {:<15} {:<17}\n",
                    format!("s{}", m.target_sampler),
                    format!("s{}", m.source_sampler),
                    format!("t{}", m.source_resource)
                ));
            }
            out.push_str("//\n");
        }
        if !self.runtime_constant_mappings.is_empty() {
            out.push_str("//\n// Runtime generated constant mappings:\n//\n");
            out.push_str("// Target Reg                               Constant Description\n");
            out.push_str("// ---------- --------------------------------------------------\n");
            for m in &self.runtime_constant_mappings {
                let what = match AON9_RUNTIME_CONSTANT.asm(u32::from(m.kind)) {
                    Some(w) => w.to_string(),
                    None => format!("Unknown runtime constant {}", m.kind),
                };
                out.push_str(&format!("// {:<10} {:>50}\n", format!("c{}", m.target_register), what));
            }
            out.push_str("//\n");
        }
        out.push_str("//\n");
        out.push_str(kind.heading());
        out.push_str("\n//\n");
        self.program.write_listing(out);
    }
}

fn conversion_name(c: u8) -> String {
    match AON9_CONVERSION.asm(u32::from(c)) {
        Some(n) => n.to_string(),
        None => format!("?{c}"),
    }
}

fn le16(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn le32(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

/// The bytes of a mapping table, checked to lie inside the payload.
fn table_slice<'a>(data: &'a [u8], t: &TableRef, entry: usize) -> Result<&'a [u8]> {
    let start = t.relative_offset as usize;
    let len = t.count as usize * entry;
    if t.count == 0 {
        return Ok(&[]);
    }
    if start < HEADER_SIZE || start + len > data.len() {
        return Err(Error::of(ErrorKind::OutOfBounds,
            format!(
                "Aon9 {}: {} entries of {entry} bytes at payload offset {start:#x} do not fit in the {}-byte payload after its header",
                t.name,
                t.count,
                data.len()
            ),
            t.field_offset,
        ));
    }
    Ok(&data[start..start + len])
}

impl Sm2Program {
    /// Decodes an SM2.x token stream; `base` is the absolute offset of its
    /// version token.
    pub fn parse(data: &[u8], base: usize) -> Result<Sm2Program> {
        let mut r = Reader::new(data, base);
        let version = Sm2Version::parse(r.u32("SM2 version token")?, base)?;
        if version.major < 2 {
            return Err(Error::of(
                ErrorKind::Unsupported,
                format!("{} token streams (no instruction length field) are not decoded", version.name()),
                base,
            ));
        }
        let mut instructions = Vec::new();
        let mut comments = Vec::new();
        let mut debug_info = None;
        // Every iteration consumes at least one dword, so the loop ends.
        let end_offset = loop {
            let at = r.offset();
            if r.remaining() < 4 {
                return Err(Error::of(
                    ErrorKind::Truncated,
                    "SM2 token stream ends without the end token 0x0000ffff",
                    at,
                ));
            }
            let token = r.u32("SM2 instruction token")?;
            if token == sm2::END_TOKEN {
                break at;
            }
            let opcode = instruction_token::OPCODE.get(token) as u16;
            if opcode == sm2::COMMENT {
                let dwords = comment_token::LENGTH.get(token);
                let body = r.bytes(dwords as usize * 4, "SM2 comment block")?;
                let fourcc = (body.len() >= 4 && body[..4].iter().all(|b| b.is_ascii_graphic()))
                    .then(|| body[..4].iter().map(|&b| b as char).collect::<String>());
                if debug_info.is_none() && fourcc.as_deref() == Some("DBUG") {
                    debug_info = Some(DebugInfo::parse(&body[4..], at + 8)?);
                }
                comments.push(Sm2Comment {
                    offset: at,
                    token,
                    dwords,
                    fourcc,
                    before_instruction: instructions.len(),
                    data: body.to_vec(),
                });
                continue;
            }
            if param_token::PARAM.get(token) != 0 {
                return Err(Error::new(
                    format!("expected an SM2 instruction token, found a parameter token {token:#010x}"),
                    at,
                ));
            }
            let Some(op) = Sm2Opcode::from_u32(u32::from(opcode)) else {
                return Err(Error::new(format!("unknown SM2 opcode {opcode} in token {token:#010x}"), at));
            };
            let length = instruction_token::LENGTH.get(token) as u8;
            let params = r.bytes(length as usize * 4, "SM2 instruction parameters")?;
            let pbase = at + 4;
            let mut ins = Sm2Instruction {
                offset: at,
                token,
                opcode,
                mnemonic: op.row().asm,
                controls: instruction_token::CONTROLS.get(token) as u8,
                length,
                predicated: instruction_token::PREDICATED.get(token) != 0,
                coissue: instruction_token::COISSUE.get(token) != 0,
                dst: None,
                predicate: None,
                src: Vec::new(),
                decl: None,
                constant: None,
            };
            ins.decode_params(params, pbase, &version)?;
            instructions.push(ins);
        };
        let trailing = data.get(r.pos()..).unwrap_or_default().to_vec();
        let trailing_bytes = trailing.len();
        Ok(Sm2Program {
            offset: base,
            size: data.len(),
            version,
            instructions,
            comments,
            end_offset,
            trailing_bytes,
            trailing,
            debug_info,
        })
    }
}

/// Reads parameter tokens out of one instruction's parameter dwords.
struct ParamCursor<'a> {
    data: &'a [u8],
    base: usize,
    pos: usize,
    mnemonic: &'static str,
}

impl ParamCursor<'_> {
    fn left(&self) -> usize {
        (self.data.len() - self.pos) / 4
    }
    fn next(&mut self, what: &str) -> Result<(u32, usize)> {
        if self.data.len() - self.pos < 4 {
            return Err(Error::of(
                ErrorKind::SizeMismatch,
                format!("SM2 `{}` needs a {what}, but its length field leaves no dword for it", self.mnemonic),
                self.base + self.pos,
            ));
        }
        let v = le32(self.data, self.pos);
        let at = self.base + self.pos;
        self.pos += 4;
        Ok((v, at))
    }
    fn param(&mut self, what: &str) -> Result<(u32, usize)> {
        let (t, at) = self.next(what)?;
        if param_token::PARAM.get(t) == 0 {
            return Err(Error::new(format!("expected an SM2 {what} token (bit 31 set), found {t:#010x}"), at));
        }
        Ok((t, at))
    }
    fn relative(&mut self, token: u32, version: &Sm2Version) -> Result<Option<RelativeAddress>> {
        // SM2+ vertex shaders and ps_3_0 follow the bit with an address token.
        if param_token::RELATIVE.get(token) == 0 || (version.pixel && version.major < 3) {
            return Ok(None);
        }
        let (t, at) = self.param("relative-address")?;
        Ok(Some(RelativeAddress {
            offset: at,
            token: t,
            register_type: param_token::register_type(t) as u8,
            number: param_token::NUMBER.get(t) as u16,
            // The component is replicated over the swizzle; x holds it.
            component: (param_token::SWIZZLE.get(t) & 3) as u8,
        }))
    }
    fn dst(&mut self, version: &Sm2Version) -> Result<DstParam> {
        let (t, at) = self.param("destination parameter")?;
        let relative = self.relative(t, version)?;
        Ok(DstParam {
            offset: at,
            token: t,
            register_type: param_token::register_type(t) as u8,
            number: param_token::NUMBER.get(t) as u16,
            write_mask: param_token::WRITE_MASK.get(t) as u8,
            result_modifier: param_token::RESULT_MODIFIER.get(t) as u8,
            // Sign-extend the 4-bit field.
            shift: ((param_token::SHIFT.get(t) as i8) << 4) >> 4,
            relative,
        })
    }
    fn src(&mut self, version: &Sm2Version) -> Result<SrcParam> {
        let (t, at) = self.param("source parameter")?;
        let relative = self.relative(t, version)?;
        Ok(SrcParam {
            offset: at,
            token: t,
            register_type: param_token::register_type(t) as u8,
            number: param_token::NUMBER.get(t) as u16,
            swizzle: param_token::SWIZZLE.get(t) as u8,
            modifier: param_token::SOURCE_MODIFIER.get(t) as u8,
            relative,
        })
    }
}

impl Sm2Instruction {
    fn decode_params(&mut self, data: &[u8], base: usize, version: &Sm2Version) -> Result<()> {
        let mut c = ParamCursor { data, base, pos: 0, mnemonic: self.mnemonic };
        let op = Sm2Opcode::from_u32(u32::from(self.opcode));
        match op {
            Some(Sm2Opcode::Dcl) => {
                let (t, at) = c.param("declaration usage")?;
                self.decl = Some(DeclToken {
                    offset: at,
                    token: t,
                    usage: decl_token::USAGE.get(t) as u8,
                    usage_index: decl_token::USAGE_INDEX.get(t) as u8,
                    texture_type: decl_token::TEXTURE_TYPE.get(t) as u8,
                });
                self.dst = Some(c.dst(version)?);
            }
            Some(Sm2Opcode::Def | Sm2Opcode::Defi) => {
                self.dst = Some(c.dst(version)?);
                let at = c.base + c.pos;
                let mut bits = [0u32; 4];
                for b in &mut bits {
                    *b = c.next("constant value")?.0;
                }
                self.constant = Some(if op == Some(Sm2Opcode::Def) {
                    ConstValue::Float { offset: at, values: bits.map(f32::from_bits), bits }
                } else {
                    ConstValue::Int { offset: at, values: bits.map(|b| b as i32) }
                });
            }
            Some(Sm2Opcode::Defb) => {
                self.dst = Some(c.dst(version)?);
                let (value, at) = c.next("boolean value")?;
                self.constant = Some(ConstValue::Bool { offset: at, value });
            }
            _ => {
                let has_dst = op.is_some_and(Sm2Opcode::has_dst);
                if has_dst {
                    self.dst = Some(c.dst(version)?);
                }
                if self.predicated {
                    self.predicate = Some(c.src(version)?);
                }
                while c.left() > 0 {
                    let s = c.src(version)?;
                    self.src.push(s);
                }
            }
        }
        if c.left() > 0 {
            return Err(Error::of(
                ErrorKind::SizeMismatch,
                format!("SM2 `{}` has {} parameter dwords more than it uses", self.mnemonic, c.left()),
                c.base + c.pos,
            ));
        }
        Ok(())
    }
}

impl DebugInfo {
    /// Decodes the body of a `DBUG` comment; `base` is its absolute offset.
    fn parse(data: &[u8], base: usize) -> Result<DebugInfo> {
        let r = Reader::new(data, base);
        let mut h = [0u32; 10];
        {
            let mut hr = r;
            for v in &mut h {
                *v = hr.u32("DBUG header")?;
            }
        }
        let string = |off: u32, what: &str| r.cstr_at(off as usize, what);
        let creator = string(h[1], "DBUG creator")?;
        let entry_point = string(h[9], "DBUG entry point")?;

        let table = |count: u32, off: u32, entry: usize, what: &str| -> Result<usize> {
            let need = (count as u64) * entry as u64;
            if count > 0 && (off as u64 + need) > data.len() as u64 {
                return Err(Error::of(
                    ErrorKind::OutOfBounds,
                    format!(
                        "DBUG {what}: {count} entries of {entry} bytes at {off:#x} do not fit in the {}-byte block",
                        data.len()
                    ),
                    base,
                ));
            }
            Ok(off as usize)
        };

        let fo = table(h[3], h[4], 4, "file table")?;
        let mut files = Vec::with_capacity(h[3] as usize);
        for i in 0..h[3] as usize {
            let p = fo + 4 * i;
            let name = string(le32(data, p), "DBUG file name")?;
            files.push(DebugFile { offset: base + p, name });
        }

        let lo = table(h[5], h[6], 8, "line table")?;
        let mut lines = Vec::with_capacity(h[5] as usize);
        for i in 0..h[5] as usize {
            let p = lo + 8 * i;
            let w = le32(data, p);
            lines.push(DebugLine {
                offset: base + p,
                line: w as u16,
                file: (w >> 16) as u16,
                code_offset: le32(data, p + 4),
            });
        }

        let vo = table(h[7], h[8], 20, "variable table")?;
        let mut variables = Vec::with_capacity(h[7] as usize);
        for i in 0..h[7] as usize {
            let p = vo + 20 * i;
            let scope_off = le32(data, p);
            let scope = if scope_off == 0 { None } else { Some(string(scope_off, "DBUG variable scope")?) };
            let name = string(le32(data, p + 4), "DBUG variable name")?;
            let to = table(1, le32(data, p + 8), 16, "variable type")?;
            let type_info = DebugType {
                offset: base + to,
                class: le16(data, to),
                kind: le16(data, to + 2),
                rows: le16(data, to + 4),
                columns: le16(data, to + 6),
                elements: le16(data, to + 8),
                members: le16(data, to + 10),
                member_info: le32(data, to + 12),
            };
            let count = le32(data, p + 12);
            let eo = table(count, le32(data, p + 16), 12, "variable entries")?;
            let mut entries = Vec::with_capacity(count as usize);
            for j in 0..count as usize {
                let q = eo + 12 * j;
                entries.push(DebugVariableEntry {
                    offset: base + q,
                    instruction: le32(data, q),
                    components: [le16(data, q + 4), le16(data, q + 6), le16(data, q + 8), le16(data, q + 10)],
                });
            }
            variables.push(DebugVariable { offset: base + p, scope, name, type_info, entries });
        }

        Ok(DebugInfo { offset: base, header_size: h[0], creator, reserved: h[2], files, lines, variables, entry_point })
    }
}

// ---------------------------------------------------------------------------
// Listing

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

impl Sm2Program {
    fn register_name(&self, ty: u8, number: u16) -> String {
        use Sm2RegisterType as R;
        let n = number as u32;
        let Some(t) = R::from_u32(u32::from(ty)) else {
            return format!("?{ty}_{n}");
        };
        let prefix = t.row().asm;
        match t {
            R::Addr if self.version.pixel => format!("t{n}"),
            R::Rastout => match Sm2Rastout::from_u32(n) {
                Some(r) => r.row().asm.to_string(),
                None => format!("{prefix}{n}"),
            },
            R::Output if self.version.major >= 3 => format!("o{n}"),
            R::Depthout | R::Loop => prefix.to_string(),
            R::Const2 => format!("c{}", n + CONST_FILE_SIZE),
            R::Const3 => format!("c{}", n + 2 * CONST_FILE_SIZE),
            R::Const4 => format!("c{}", n + 3 * CONST_FILE_SIZE),
            R::Misctype => match Sm2Misctype::from_u32(n) {
                Some(m) => m.row().asm.to_string(),
                None => format!("{prefix}{n}"),
            },
            _ => format!("{prefix}{n}"),
        }
    }

    fn relative_text(&self, rel: &RelativeAddress) -> String {
        let name = self.register_name(rel.register_type, rel.number);
        if rel.register_type == Sm2RegisterType::Loop as u8 {
            name
        } else {
            format!("{name}.{}", COMPONENTS[rel.component as usize & 3])
        }
    }

    fn dst_text(&self, d: &DstParam) -> String {
        let mut s = self.register_name(d.register_type, d.number);
        if let Some(rel) = &d.relative {
            s.push_str(&format!("[{}]", self.relative_text(rel)));
        }
        if d.write_mask != 0xF {
            s.push('.');
            for (i, c) in COMPONENTS.iter().enumerate() {
                if d.write_mask & (1 << i) != 0 {
                    s.push(*c);
                }
            }
        }
        s
    }

    fn src_text(&self, p: &SrcParam) -> String {
        let mut reg = self.register_name(p.register_type, p.number);
        if let Some(rel) = &p.relative {
            reg.push_str(&format!("[{}]", self.relative_text(rel)));
        }
        // The table spells each modifier as a template around the register.
        let template = SM2_SOURCE_MODIFIER.asm(u32::from(p.modifier)).unwrap_or("#_?");
        let (prefix, suffix) = template.split_once('#').unwrap_or(("", template));
        format!("{prefix}{reg}{suffix}{}", swizzle_text(p.swizzle))
    }

    /// The text of one instruction, without indentation or annotation.
    fn instruction_text(&self, ins: &Sm2Instruction) -> String {
        let mut m = ins.mnemonic.to_string();
        match Sm2Opcode::from_u32(u32::from(ins.opcode)) {
            Some(Sm2Opcode::Dcl) => {
                if let (Some(d), Some(dst)) = (&ins.decl, &ins.dst) {
                    if dst.register_type == Sm2RegisterType::Sampler as u8 {
                        m.push_str(SM2_TEXTURE_TYPE.asm(u32::from(d.texture_type)).unwrap_or(""));
                    } else if !self.version.pixel || self.version.major >= 3 {
                        m.push('_');
                        m.push_str(usage_name(d.usage));
                        if d.usage_index != 0 {
                            m.push_str(&d.usage_index.to_string());
                        }
                    }
                }
            }
            Some(Sm2Opcode::Tex) => m.push_str(SM2_TEXLD_CONTROL.asm(u32::from(ins.controls)).unwrap_or("")),
            Some(Sm2Opcode::Ifc | Sm2Opcode::Breakc | Sm2Opcode::Setp) => {
                m.push_str(SM2_COMPARISON.asm(u32::from(ins.controls)).unwrap_or("_?"))
            }
            _ => {}
        }
        if let Some(d) = &ins.dst {
            // The table is keyed by the raw 4-bit field; `shift` holds it
            // sign-extended (stored back into the field to drop the sign).
            let raw = param_token::SHIFT.get(param_token::SHIFT.put(0, d.shift as u8 as u32));
            m.push_str(SM2_RESULT_SHIFT.asm(raw).unwrap_or(""));
            if d.result_modifier & 1 != 0 {
                m.push_str("_sat");
            }
            if d.result_modifier & 2 != 0 {
                m.push_str("_pp");
            }
            if d.result_modifier & 4 != 0 {
                m.push_str("_centroid");
            }
        }
        let mut ops: Vec<String> = Vec::new();
        if let Some(d) = &ins.dst {
            ops.push(self.dst_text(d));
        }
        match &ins.constant {
            Some(ConstValue::Float { values, .. }) => ops.extend(values.iter().map(|&v| format_g9(v))),
            Some(ConstValue::Int { values, .. }) => ops.extend(values.iter().map(|v| v.to_string())),
            Some(ConstValue::Bool { value, .. }) => ops.push(if *value != 0 { "true" } else { "false" }.to_string()),
            None => {}
        }
        ops.extend(ins.src.iter().map(|s| self.src_text(s)));
        let mut s = String::new();
        if ins.coissue {
            s.push_str("+ ");
        }
        if let Some(p) = &ins.predicate {
            s.push_str(&format!("({}) ", self.src_text(p)));
        }
        s.push_str(&m);
        if !ops.is_empty() {
            s.push(' ');
            s.push_str(&ops.join(", "));
        }
        s
    }

    /// `scope::name<components>, …` for every instruction, from the debug
    /// information (empty strings where nothing is annotated). One pass over
    /// the variable entries, in variable order.
    fn annotations(&self) -> Vec<String> {
        let mut notes = vec![String::new(); self.instructions.len()];
        let Some(dbg) = self.debug_info.as_ref() else {
            return notes;
        };
        for v in &dbg.variables {
            let prefix = match &v.scope {
                None => "::".to_string(),
                Some(s) if *s == dbg.entry_point => String::new(),
                Some(s) => format!("{s}::"),
            };
            for e in &v.entries {
                let Some(note) = notes.get_mut(e.instruction as usize) else {
                    continue;
                };
                let comps: Vec<String> = e.components.iter().filter(|&&c| c != 0xFFFF).map(|c| c.to_string()).collect();
                if !note.is_empty() {
                    note.push_str(", ");
                }
                note.push_str(&format!("{prefix}{}<{}>", v.name, comps.join(",")));
            }
        }
        notes
    }

    /// Instruction slots: (total, texture, arithmetic).
    pub fn slot_counts(&self) -> (u32, u32, u32) {
        let mut tex = 0u32;
        let mut arith = 0u32;
        for ins in &self.instructions {
            let op = Sm2Opcode::from_u32(u32::from(ins.opcode));
            let c = op.map_or(1, Sm2Opcode::slots);
            if op.is_some_and(Sm2Opcode::is_texture_load) {
                tex = tex.saturating_add(c);
            } else {
                arith = arith.saturating_add(c);
            }
        }
        (tex.saturating_add(arith), tex, arith)
    }

    /// Writes the program as fxc prints it under `// Level9 shader
    /// bytecode:` and `//`: indented instructions (with `#line` directives
    /// and annotations from debug information), a blank line and the slot
    /// count line.
    pub fn write_listing(&self, out: &mut String) {
        self.write_listing_lines(out, &mut Vec::new());
    }

    /// For each instruction, its line in [`Sm2Program::write_listing`]'s
    /// output, counted from the version line (line 0). Lets a byte of the
    /// token stream be linked to the listing line it prints as.
    pub fn listing_lines(&self) -> Vec<usize> {
        let mut lines = Vec::with_capacity(self.instructions.len());
        self.write_listing_lines(&mut String::new(), &mut lines);
        lines
    }

    /// [`Sm2Program::write_listing`], recording each instruction's line.
    fn write_listing_lines(&self, out: &mut String, lines: &mut Vec<usize>) {
        let (mut mark, mut line) = (out.len(), 0usize);
        out.push_str("    ");
        out.push_str(&self.version.name());
        out.push('\n');
        let dbg = self.debug_info.as_ref();
        let notes = self.annotations();
        let mut cur_file: Option<u16> = None;
        let mut last_line: i64 = 0;
        for (i, ins) in self.instructions.iter().enumerate() {
            if let Some(l) = dbg.and_then(|d| d.lines.get(i)).filter(|l| l.file != 0xFFFF) {
                let line = l.line as i64;
                let file_changed = cur_file != Some(l.file);
                if file_changed || (line - last_line).abs() > 2 {
                    out.push_str(&format!("\n#line {line}"));
                    if file_changed {
                        if let Some(f) = dbg.and_then(|d| d.files.get(l.file as usize)) {
                            out.push_str(&format!(" \"{}\"", f.name));
                        }
                    }
                    out.push('\n');
                }
                cur_file = Some(l.file);
                last_line = line;
            }
            line += out[mark..].matches('\n').count();
            mark = out.len();
            lines.push(line);
            out.push_str("    ");
            out.push_str(&self.instruction_text(ins));
            if let Some(a) = notes.get(i).filter(|a| !a.is_empty()) {
                out.push_str("  // ");
                out.push_str(a);
            }
            out.push('\n');
        }
        let (total, tex, arith) = self.slot_counts();
        // The D3D9 disassembler says "slot" for one (fxc 9.x listings of
        // `ps_3_0` programs show `// approximately 1 instruction slot used`).
        let slots = if total == 1 { "slot" } else { "slots" };
        out.push_str(&format!("\n// approximately {total} instruction {slots} used"));
        if self.version.pixel && tex > 0 {
            out.push_str(&format!(" ({tex} texture, {arith} arithmetic)"));
        }
        out.push('\n');
    }
}

fn usage_name(u: u8) -> &'static str {
    SM2_DECL_USAGE.asm(u32::from(u)).unwrap_or("unknown")
}

/// `.xyzw` suffix: nothing for the identity, one letter when all four are
/// equal, otherwise all four.
fn swizzle_text(sw: u8) -> String {
    if sw == 0xE4 {
        return String::new();
    }
    let c: Vec<char> = (0..4).map(|i| COMPONENTS[((sw >> (2 * i)) & 3) as usize]).collect();
    if c.iter().all(|&x| x == c[0]) {
        format!(".{}", c[0])
    } else {
        format!(".{}{}{}{}", c[0], c[1], c[2], c[3])
    }
}

/// `printf("%.9g")` as the Microsoft C runtime prints it (three-digit
/// exponent).
fn format_g9(v: f32) -> String {
    let v = v as f64;
    if v.is_nan() {
        return if v.is_sign_negative() { "-1.#IND" } else { "1.#QNAN" }.to_string();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-1.#INF" } else { "1.#INF" }.to_string();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    let sci = format!("{v:.8e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..9).contains(&exp) {
        format!("{}e{}{:03}", strip_fraction_zeros(mantissa), if exp < 0 { '-' } else { '+' }, exp.abs())
    } else {
        strip_fraction_zeros(&format!("{:.*}", (8 - exp) as usize, v)).to_string()
    }
}

fn strip_fraction_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::sm2::END_TOKEN;

    /// Builds an Aon9 payload around an SM2 token stream.
    struct Builder {
        cb: Vec<[u16; 4]>,
        samplers: Vec<[u8; 3]>,
        runtime: Vec<[u16; 2]>,
        loops: Vec<[u16; 4]>,
    }

    impl Builder {
        fn new() -> Self {
            Builder { cb: vec![], samplers: vec![], runtime: vec![], loops: vec![] }
        }
        fn build(&self, program: &[u32]) -> Vec<u8> {
            let mut tables = Vec::new();
            let mut dir = [(0u16, 0u16); 5];
            let mut pos = HEADER_SIZE;
            let mut put = |idx: usize, bytes: Vec<u8>, count: usize, tables: &mut Vec<u8>| {
                dir[idx] = (count as u16, pos as u16);
                pos += bytes.len();
                tables.extend(bytes);
            };
            let cb: Vec<u8> = self
                .cb
                .iter()
                .flat_map(|e| e.iter().flat_map(|v| v.to_le_bytes()).chain([0u8; 4]).collect::<Vec<_>>())
                .collect();
            put(0, cb, self.cb.len(), &mut tables);
            let lp: Vec<u8> =
                self.loops.iter().flat_map(|e| e.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>()).collect();
            put(1, lp, self.loops.len(), &mut tables);
            put(2, vec![], 0, &mut tables);
            let sm: Vec<u8> = self.samplers.iter().flat_map(|e| [e[0], e[1], e[2], 0]).collect();
            put(3, sm, self.samplers.len(), &mut tables);
            let rt: Vec<u8> =
                self.runtime.iter().flat_map(|e| e.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>()).collect();
            put(4, rt, self.runtime.len(), &mut tables);
            let shader_off = pos;
            let code: Vec<u8> = program.iter().flat_map(|t| t.to_le_bytes()).collect();
            let total = shader_off + code.len();
            let mut out = Vec::new();
            out.extend((total as u32).to_le_bytes());
            out.extend((program[0] & 0xFFFF_FF00).to_le_bytes());
            out.extend((code.len() as u32).to_le_bytes());
            out.extend((shader_off as u32).to_le_bytes());
            for (c, o) in dir {
                out.extend(c.to_le_bytes());
                out.extend(o.to_le_bytes());
            }
            out.extend(tables);
            out.extend(code);
            out
        }
    }

    fn ins(op: u32, len: u32) -> u32 {
        op | (len << 24)
    }
    fn dst(ty: u32, n: u32, mask: u32) -> u32 {
        0x8000_0000 | ((ty & 7) << 28) | ((ty & 0x18) << 8) | (mask << 16) | n
    }
    fn src(ty: u32, n: u32, swz: u32, m: u32) -> u32 {
        0x8000_0000 | ((ty & 7) << 28) | ((ty & 0x18) << 8) | (swz << 16) | (m << 24) | n
    }

    /// The D3D9 disassembler's count is singular for one slot, as fxc's
    /// `ps_3_0` listings show (`// approximately 1 instruction slot used`).
    #[test]
    fn one_instruction_slot_is_singular() {
        let count = |prog: &[u32]| {
            let a = Aon9::parse(&Builder::new().build(prog), 0).unwrap();
            let mut s = String::new();
            a.program.write_listing(&mut s);
            s.lines().last().unwrap().to_string()
        };
        let mov = [ins(1, 2), dst(4, 0, 0xF), src(1, 0, 0xE4, 0)];
        let one: Vec<u32> = [0xFFFE_0200].into_iter().chain(mov).chain([END_TOKEN]).collect();
        let two: Vec<u32> = [0xFFFE_0200].into_iter().chain(mov).chain(mov).chain([END_TOKEN]).collect();
        assert_eq!(count(&one), "// approximately 1 instruction slot used");
        assert_eq!(count(&two), "// approximately 2 instruction slots used");
    }

    #[test]
    fn vertex_shader_with_runtime_constant() {
        let mut b = Builder::new();
        b.runtime.push([0, 0]);
        let prog = [
            0xFFFE_0201,
            ins(81, 5),
            dst(2, 1, 0xF),
            0,
            0x3F80_0000,
            0,
            0,
            ins(31, 2),
            0x8000_0005,
            dst(1, 0, 0xF),
            ins(31, 2),
            0x8001_0005,
            dst(1, 1, 0xF),
            ins(2, 3),
            dst(4, 0, 0x3),
            src(1, 0, 0xE4, 0),
            src(2, 0, 0xE4, 0),
            ins(1, 2),
            dst(4, 0, 0xC),
            src(2, 1, 0x44, 0),
            ins(1, 2),
            dst(6, 0, 0x3),
            src(1, 1, 0xE4, 0),
            END_TOKEN,
        ];
        let bytes = b.build(&prog);
        let a = Aon9::parse(&bytes, 0x40).unwrap();
        assert_eq!(a.level9_suffix().as_deref(), Some("_level_9_3"));
        assert_eq!(a.program.instructions.len(), 6);
        assert_eq!(a.program.offset, 0x40 + 0x28);
        assert_eq!(a.program.instructions[0].offset, 0x40 + 0x2c);
        assert_eq!(a.runtime_constant_mappings[0].offset, 0x40 + 0x24);
        let mut s = String::new();
        a.write_listing(Level9Kind::Aon9, &mut s);
        let want = "//
// Runtime generated constant mappings:
//
// Target Reg                               Constant Description
// ---------- --------------------------------------------------
// c0                              Vertex Shader position offset
//
//
// Level9 shader bytecode:
//
    vs_2_x
    def c1, 0, 1, 0, 0
    dcl_texcoord v0
    dcl_texcoord1 v1
    add oPos.xy, v0, c0
    mov oPos.zw, c1.xyxy
    mov oT0.xy, v1

// approximately 3 instruction slots used
";
        assert_eq!(s, want);
    }

    #[test]
    fn pixel_shader_tables_and_counts() {
        let mut b = Builder::new();
        b.cb.push([0, 2, 3, 0]);
        b.samplers.push([1, 0, 1]);
        b.samplers.push([0, 0, 0]);
        let prog = [
            0xFFFF_0200,
            ins(31, 2),
            0x8000_0000,
            dst(3, 0, 0x3),
            ins(31, 2),
            0x9000_0000,
            dst(10, 0, 0xF),
            ins(66, 3),
            dst(0, 0, 0xF),
            src(3, 0, 0xE4, 0),
            src(10, 0, 0xE4, 0),
            ins(36, 2),
            dst(0, 1, 0x7) | (1 << 20),
            src(0, 0, 0xFF, 1),
            ins(1, 2),
            dst(8, 0, 0xF),
            src(0, 1, 0xE4, 0),
            END_TOKEN,
        ];
        let bytes = b.build(&prog);
        let a = Aon9::parse(&bytes, 0).unwrap();
        assert_eq!(a.level9_suffix().as_deref(), Some("_level_9_1"));
        let mut s = String::new();
        a.write_listing(Level9Kind::Aon9, &mut s);
        let want = "//
// Constant buffer to DX9 shader constant mappings:
//
// Target Reg Buffer  Start Reg # of Regs        Data Conversion
// ---------- ------- --------- --------- ----------------------
// c0         cb0             2         3  ( FLT, FLT, FLT, FLT)
//
//
// Sampler/Resource to DX9 shader sampler mappings:
//
// Target Sampler Source Sampler  Source Resource
// -------------- --------------- ----------------
// s0             s0              t0               
// s1             s0              t1               
//
//
// Level9 shader bytecode:
//
    ps_2_0
    dcl t0.xy
    dcl_2d s0
    texld r0, t0, s0
    nrm_sat r1.xyz, -r0.w
    mov oC0, r1

// approximately 5 instruction slots used (1 texture, 4 arithmetic)
";
        assert_eq!(s, want);
    }

    #[test]
    fn relative_addressing_in_vertex_shader() {
        let b = Builder::new();
        // mul r0, v4.y, c26[a0.x]
        let prog = [
            0xFFFE_0200,
            ins(5, 4),
            dst(0, 0, 0xF),
            src(1, 4, 0x55, 0),
            src(2, 26, 0xE4, 0) | (1 << 13),
            src(3, 0, 0x00, 0),
            END_TOKEN,
        ];
        let bytes = b.build(&prog);
        let a = Aon9::parse(&bytes, 0).unwrap();
        let i = &a.program.instructions[0];
        let rel = i.src[1].relative.as_ref().unwrap();
        assert_eq!(rel.offset, 0x24 + 4 * 5);
        assert_eq!(a.program.instruction_text(i), "mul r0, v4.y, c26[a0.x]");
    }

    #[test]
    fn debug_info_lines_and_annotations() {
        // DBUG body: header, one file, 3 line entries, one variable.
        let mut body = vec![0u8; 0x28];
        let file_name = b"a.fx\0";
        let entry = b"main\0";
        let var = b"v\0";
        let mut strings = Vec::new();
        let fname_off = 0x28 + strings.len();
        strings.extend_from_slice(file_name);
        let entry_off = 0x28 + strings.len();
        strings.extend_from_slice(entry);
        let var_off = 0x28 + strings.len();
        strings.extend_from_slice(var);
        while strings.len() % 4 != 0 {
            strings.push(0);
        }
        body.extend(&strings);
        let files_off = body.len();
        body.extend((fname_off as u32).to_le_bytes());
        let lines_off = body.len();
        for (line, file) in [(0u32, 0xFFFFu32), (10, 0), (11, 0), (20, 0)] {
            body.extend((line | (file << 16)).to_le_bytes());
            body.extend(0u32.to_le_bytes());
        }
        let type_off = body.len();
        body.extend([1u8, 0, 3, 0, 1, 0, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        let ent_off = body.len();
        body.extend(2u32.to_le_bytes());
        body.extend([0u8, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
        let vars_off = body.len();
        for v in [0u32, var_off as u32, type_off as u32, 1, ent_off as u32] {
            body.extend(v.to_le_bytes());
        }
        let hdr = [
            0x28u32,
            fname_off as u32,
            0,
            1,
            files_off as u32,
            4,
            lines_off as u32,
            1,
            vars_off as u32,
            entry_off as u32,
        ];
        for (i, h) in hdr.iter().enumerate() {
            body[4 * i..4 * i + 4].copy_from_slice(&h.to_le_bytes());
        }
        let mut prog = vec![0xFFFE_0200, 0xFFFE | (((body.len() / 4 + 1) as u32) << 16), u32::from_le_bytes(*b"DBUG")];
        prog.extend(body.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
        prog.extend([
            ins(31, 2),
            0x8000_0005,
            dst(1, 0, 0xF),
            ins(1, 2),
            dst(0, 0, 0xF),
            src(1, 0, 0xE4, 0),
            ins(6, 2),
            dst(0, 0, 0x1),
            src(0, 0, 0xE4, 0),
            ins(9, 3),
            dst(4, 0, 0xF),
            src(0, 0, 0xE4, 0),
            src(2, 0, 0xE4, 0),
            END_TOKEN,
        ]);
        let bytes = Builder::new().build(&prog);
        let a = Aon9::parse(&bytes, 0).unwrap();
        let d = a.program.debug_info.as_ref().unwrap();
        assert_eq!(d.files[0].name, "a.fx");
        assert_eq!(d.entry_point, "main");
        let mut s = String::new();
        a.program.write_listing(&mut s);
        let want = "    vs_2_0
    dcl_texcoord v0

#line 10 \"a.fx\"
    mov r0, v0
    rcp r0.x, r0  // ::v<0>

#line 20
    dp4 oPos, r0, c0

// approximately 3 instruction slots used
";
        assert_eq!(s, want);
    }

    #[test]
    fn float_format_matches_msvc_g9() {
        assert_eq!(format_g9(1e-4), "9.99999975e-005");
        assert_eq!(format_g9(0.06666667), "0.0666666701");
        assert_eq!(format_g9(-0.0), "-0");
        assert_eq!(format_g9(0.9903), "0.9903");
        assert_eq!(format_g9(50.0), "50");
        assert_eq!(format_g9(1e10), "1e+010");
        assert_eq!(format_g9(123456789.0), "123456792");
    }

    #[test]
    fn malformed_inputs_error_without_panicking() {
        let good = {
            let prog = [0xFFFE_0200, ins(1, 2), dst(0, 0, 0xF), src(1, 0, 0xE4, 0), END_TOKEN];
            Builder::new().build(&prog)
        };
        assert!(Aon9::parse(&good, 0).is_ok());
        // Every truncation fails cleanly.
        for n in 0..good.len() {
            assert!(Aon9::parse(&good[..n], 0).is_err(), "truncated to {n}");
        }
        // Every single-byte corruption terminates (error or success).
        for i in 0..good.len() {
            for v in [0x00u8, 0xFF, 0x7F, 0x80] {
                let mut b = good.clone();
                b[i] = v;
                let _ = Aon9::parse(&b, 0);
            }
        }
        // Huge table counts are rejected before allocating.
        let mut b = good.clone();
        b[0x10..0x12].copy_from_slice(&0xFFFFu16.to_le_bytes());
        let e = Aon9::parse(&b, 0x100).unwrap_err();
        assert_eq!(e.offset(), 0x110);
        // Missing end token.
        let prog = [0xFFFE_0200, ins(1, 2), dst(0, 0, 0xF), src(1, 0, 0xE4, 0)];
        let e = Aon9::parse(&Builder::new().build(&prog), 0).unwrap_err();
        assert!(e.message().contains("end token"));
        assert_eq!(e.kind(), ErrorKind::Truncated);
        // Length field larger than what remains.
        let prog = [0xFFFE_0200, ins(1, 9), dst(0, 0, 0xF), END_TOKEN];
        assert!(Aon9::parse(&Builder::new().build(&prog), 0).is_err());
    }
}
