//! Buffers and storage images for compute (and pixel-shader UAVs), shown
//! as typed tables and pictures, and the dispatch size.
//!
//! The translator binds every buffer as an array of 32-bit words (see the
//! README's translation notes), so a buffer here is bytes plus a *view*: a
//! row per element and a column per word, each column typed `u32`, `i32`
//! or `f32` from the reflection and switchable to hex. Structured buffers
//! take their column names and types from the RDEF layout fxc stores for
//! them (a "resource bind info" constant buffer named like the binding,
//! holding one `$Element` variable, packed tightly — no 16-byte rule).
//! Raw (byte-address) buffers show rows of four `u32`s; typed buffers one
//! word of the declared type (the translator's one-channel reading).
//!
//! Typed UAV textures are one 32-bit channel (`r32float` / `r32uint` /
//! `r32sint`), also per the translator; they are shown as pictures through
//! [`crate::textures::Image::to_display_rgba8`].

use crate::controls::{class_of, Scalar};
use crate::textures::{Image, TextureDimension, TextureFormat};
use dxbc::chunks::rdef::{Rdef, ResourceBinding, Type};
use dxbc::spec::{CbufferType, ReturnType, ShaderInputType, ShaderVariableClass as C, SrvDimension};
use serde::Serialize;

/// Elements a buffer gets by default.
pub const DEFAULT_ELEMENTS: u32 = 64;
/// Largest buffer the preview allocates (bytes).
pub const MAX_BUFFER_BYTES: u32 = 16 << 20;
/// Most columns a table names; further words of an element are `w<i>`.
pub const MAX_NAMED_COLUMNS: usize = 256;
/// Largest group count per dimension (WebGPU's default limit).
pub const MAX_GROUPS_PER_DIMENSION: u32 = 65535;
/// Most invocations one preview dispatch may run (groups × group size).
pub const MAX_INVOCATIONS: u64 = 1 << 22;

/// How a word is read and shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum CellFormat {
    /// Unsigned decimal.
    U32,
    /// Signed decimal.
    I32,
    /// Float.
    F32,
    /// `0x` and eight hex digits.
    Hex,
}

impl CellFormat {
    /// Text of `word` in this format.
    pub fn format(self, word: u32) -> String {
        match self {
            CellFormat::U32 => word.to_string(),
            CellFormat::I32 => (word as i32).to_string(),
            CellFormat::F32 => format!("{:?}", f32::from_bits(word)),
            CellFormat::Hex => format!("{word:#010x}"),
        }
    }

    fn from_base_type(base: u16) -> CellFormat {
        // Bools are shown as the words they are stored as.
        match Scalar::from_base_type(base) {
            Some(Scalar::I32) => CellFormat::I32,
            Some(Scalar::F32) => CellFormat::F32,
            Some(Scalar::U32 | Scalar::Bool) => CellFormat::U32,
            None => CellFormat::Hex,
        }
    }

    /// The format of a `D3D_RESOURCE_RETURN_TYPE` (the program's return type numbers).
    pub fn from_return_type(rt: u32) -> CellFormat {
        match ReturnType::from_u32(rt) {
            Some(ReturnType::Sint) => CellFormat::I32,
            Some(ReturnType::Uint) => CellFormat::U32,
            Some(ReturnType::Unorm | ReturnType::Snorm | ReturnType::Float) => CellFormat::F32,
            _ => CellFormat::Hex,
        }
    }
}

/// One 32-bit column of a buffer element.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Column {
    /// Name, e.g. `pos.x`, `f1[5]`, `w3`.
    pub name: String,
    /// Byte offset within the element.
    pub offset: u32,
    /// Format from the reflection.
    pub format: CellFormat,
}

/// What sort of buffer a binding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BufferKind {
    /// `(RW)StructuredBuffer<T>` (also append/consume).
    Structured,
    /// `(RW)ByteAddressBuffer`.
    Raw,
    /// `Buffer<T>` / `RWBuffer<T>`: one word per element.
    Typed,
}

/// A buffer binding (`t#` or `u#`) with its view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BufferSlot {
    /// HLSL name.
    pub name: String,
    /// Register number (`t#` or `u#`).
    pub register: u32,
    /// Register space.
    pub space: u32,
    /// True for a UAV (`u#`).
    pub writable: bool,
    /// Sort of buffer.
    pub kind: BufferKind,
    /// Bytes per row of the table (the structure stride; 16 for raw, 4 for typed).
    pub stride: u32,
    /// Rows by default.
    pub elements: u32,
    /// Columns of one row.
    pub columns: Vec<Column>,
}

impl BufferSlot {
    /// A slot for a buffer the reflection does not describe (stripped
    /// files): raw words, [`DEFAULT_ELEMENTS`] rows of 16 bytes.
    pub fn fallback(writable: bool) -> BufferSlot {
        BufferSlot {
            name: String::new(),
            register: 0,
            space: 0,
            writable,
            kind: BufferKind::Raw,
            stride: 16,
            elements: DEFAULT_ELEMENTS,
            columns: (0..4)
                .map(|i| Column { name: format!("+{}", i * 4), offset: i * 4, format: CellFormat::U32 })
                .collect(),
        }
    }

    /// Bytes the buffer gets by default: `stride × elements`, at least 16.
    pub fn byte_size(&self) -> u32 {
        self.stride.saturating_mul(self.elements).clamp(16, MAX_BUFFER_BYTES)
    }

    /// Initial contents: zeros for UAVs; for read-only buffers each word
    /// holds its element index (as a float in float columns), so reads are
    /// visible and distinguishable.
    pub fn initial_data(&self) -> Vec<u8> {
        let size = self.byte_size() as usize;
        let mut out = vec![0u8; size];
        if self.writable || self.stride == 0 {
            return out;
        }
        for row in 0..size / self.stride as usize {
            for c in &self.columns {
                let at = row * self.stride as usize + c.offset as usize;
                let word = match c.format {
                    CellFormat::F32 => (row as f32).to_bits(),
                    _ => row as u32,
                };
                if let Some(d) = out.get_mut(at..at + 4) {
                    d.copy_from_slice(&word.to_le_bytes());
                }
            }
        }
        out
    }

    /// The table of `bytes` (e.g. read back after a dispatch), at most
    /// `max_rows` rows; `formats` overrides column formats by index (e.g.
    /// a "hex" toggle), `None` keeps the reflected ones.
    pub fn table(&self, bytes: &[u8], max_rows: usize, formats: Option<&[CellFormat]>) -> Table {
        let stride = self.stride.max(4) as usize;
        let rows = (bytes.len() / stride).min(max_rows);
        let fmt = |i: usize| formats.and_then(|f| f.get(i).copied()).unwrap_or(self.columns[i].format);
        Table {
            columns: self.columns.iter().enumerate().map(|(i, c)| (c.name.clone(), fmt(i))).collect(),
            rows: (0..rows)
                .map(|r| {
                    self.columns
                        .iter()
                        .enumerate()
                        .map(|(i, c)| {
                            let at = r * stride + c.offset as usize;
                            bytes
                                .get(at..at + 4)
                                .map_or(String::new(), |b| fmt(i).format(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
                        })
                        .collect()
                })
                .collect(),
            total_rows: bytes.len() / stride,
        }
    }
}

/// A buffer shown as text.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// Column names and formats.
    pub columns: Vec<(String, CellFormat)>,
    /// Cells, row by row.
    pub rows: Vec<Vec<String>>,
    /// Rows the bytes hold (more than `rows.len()` when cut).
    pub total_rows: usize,
}

/// A typed UAV texture (`RWTexture*`) and its default extent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StorageTextureSlot {
    /// HLSL name.
    pub name: String,
    /// `u#` register.
    pub register: u32,
    /// Register space.
    pub space: u32,
    /// Shape.
    pub dimension: TextureDimension,
    /// One-channel storage format.
    pub format: TextureFormat,
    /// `(width, height, layers or depth)`.
    pub extent: (u32, u32, u32),
}

impl StorageTextureSlot {
    /// The zeroed image to start from.
    pub fn initial_image(&self) -> Image {
        let (w, h, l) = self.extent;
        let data = vec![0u8; (w * h * l) as usize * self.format.bytes_per_pixel()];
        Image { width: w, height: h, layers: l, format: self.format, data }
    }
}

/// The dispatch the preview runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Dispatch {
    /// `[numthreads]` from the program.
    pub workgroup_size: [u32; 3],
    /// Groups to dispatch (default 1, 1, 1).
    pub groups: [u32; 3],
}

impl Dispatch {
    /// `groups` made safe: each at least 1 and at most
    /// [`MAX_GROUPS_PER_DIMENSION`], then shrunk (largest dimension first)
    /// until the invocations fit [`MAX_INVOCATIONS`].
    pub fn clamp_groups(&self, groups: [u32; 3]) -> [u32; 3] {
        let mut g = groups.map(|x| x.clamp(1, MAX_GROUPS_PER_DIMENSION));
        let per_group: u64 = self.workgroup_size.iter().map(|&x| x.max(1) as u64).product();
        while g.iter().map(|&x| x as u64).product::<u64>() * per_group > MAX_INVOCATIONS {
            let i = (0..3).max_by_key(|&i| g[i]).unwrap_or(0);
            if g[i] == 1 {
                break;
            }
            g[i] = g[i].div_ceil(2);
        }
        g
    }
}

/// What a device allows a compute workgroup (WebGPU's `maxComputeWorkgroupSize*`
/// and `maxComputeInvocationsPerWorkgroup`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupLimits {
    /// Largest size along x, y and z.
    pub size: [u32; 3],
    /// Largest x × y × z.
    pub invocations: u32,
}

/// Why a device cannot run a workgroup, and the size that it can.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupTooLarge {
    /// The shader's `[numthreads]`.
    pub size: [u32; 3],
    /// The device's limits.
    pub limits: GroupLimits,
    /// The largest size within the limits, no larger than `size` in any dimension.
    pub clamped: [u32; 3],
}

impl std::fmt::Display for GroupTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x, y, z] = self.size;
        let [lx, ly, lz] = self.limits.size;
        let [cx, cy, cz] = self.clamped;
        write!(
            f,
            "groups of {x}×{y}×{z} = {} threads; this adapter allows at most {lx}×{ly}×{lz} and {} threads a group. Clamped to {cx}×{cy}×{cz} the shader runs, on fewer threads than it was written for.",
            x as u64 * y as u64 * z as u64,
            self.limits.invocations
        )
    }
}

/// `None` when `size` fits `limits`; else what does.
pub fn check_group(size: [u32; 3], limits: GroupLimits) -> Option<GroupTooLarge> {
    let fits = |s: [u32; 3]| {
        (0..3).all(|i| s[i] <= limits.size[i])
            && s.iter().map(|&x| x as u64).product::<u64>() <= limits.invocations.max(1) as u64
    };
    if fits(size) {
        return None;
    }
    let mut c = [0, 1, 2].map(|i| size[i].clamp(1, limits.size[i].max(1)));
    // Halve the largest dimension until the product fits.
    while !fits(c) {
        let i = (0..3).max_by_key(|&i| c[i]).unwrap_or(0);
        if c[i] == 1 {
            break;
        }
        c[i] = c[i].div_ceil(2);
    }
    Some(GroupTooLarge { size, limits, clamped: c })
}

/// `bytes` with the program's `dcl_thread_group` set to `size`, re-signed.
pub fn set_thread_group(bytes: &[u8], size: [u32; 3]) -> Result<dxbc::edit::Edited, dxbc::edit::EditError> {
    let not_found = || dxbc::edit::EditError {
        kind: dxbc::edit::EditErrorKind::NoToken,
        message: "the program declares no thread group".into(),
        offset: 0,
    };
    let shader = dxbc::Shader::decode(bytes).map_err(|_| not_found())?;
    let p = shader.program.as_ref().ok_or_else(not_found)?;
    let ins =
        p.instructions.iter().find(|i| i.op() == Some(dxbc::spec::Opcode::DclThreadGroup)).ok_or_else(not_found)?;
    let offsets: Vec<usize> = ins.payload(p).iter().take(3).map(|w| w.offset as usize).collect();
    if offsets.len() < 3 {
        return Err(not_found());
    }
    let mut edited: Option<dxbc::edit::Edited> = None;
    for (k, at) in offsets.into_iter().enumerate() {
        let cur = edited.as_ref().map_or(bytes, |e| &e.bytes[..]);
        edited = Some(dxbc::edit::set_field(cur, at, "value", &size[k].to_string())?);
    }
    edited.ok_or_else(not_found)
}

/// Groups that cover the first storage texture (one thread per texel),
/// else the first writable buffer's rows along x, else one group: what a
/// compute shader written for "one thread per output" needs to fill its output.
pub fn covering_groups(workgroup_size: [u32; 3], textures: &[StorageTextureSlot], buffers: &[BufferSlot]) -> [u32; 3] {
    let [x, y, z] = workgroup_size.map(|w| w.max(1));
    if let Some(t) = textures.first() {
        let (w, h, d) = t.extent;
        let d = if t.dimension == TextureDimension::D3 { d } else { 1 };
        return [w.div_ceil(x), h.div_ceil(y), d.div_ceil(z)];
    }
    if let Some(b) = buffers.iter().find(|b| b.writable) {
        return [b.elements.div_ceil(x), 1, 1];
    }
    [1, 1, 1]
}

/// Reads `[numthreads]` from the program (1, 1, 1 when absent).
pub fn dispatch(shader: &dxbc::Shader) -> Dispatch {
    let mut workgroup_size = [1, 1, 1];
    if let Some(p) = &shader.program {
        if let Some(ins) = p.instructions.iter().find(|i| i.op() == Some(dxbc::spec::Opcode::DclThreadGroup)) {
            for (i, w) in ins.payload(p).iter().take(3).enumerate() {
                workgroup_size[i] = w.value.max(1);
            }
        }
    }
    Dispatch { workgroup_size, groups: [1, 1, 1] }
}

/// Buffer slots for every SRV and UAV buffer binding.
pub fn buffer_slots(rdef: &Rdef) -> Vec<BufferSlot> {
    rdef.bindings.iter().filter_map(|b| buffer_slot(rdef, b)).collect()
}

fn buffer_slot(rdef: &Rdef, b: &ResourceBinding) -> Option<BufferSlot> {
    use ShaderInputType as I;
    let dimension = SrvDimension::from_u32(b.dimension);
    let (kind, writable) = match I::from_u32(b.input_type)? {
        I::Texture if matches!(dimension, Some(SrvDimension::Buffer | SrvDimension::Bufferex)) => {
            (BufferKind::Typed, false)
        }
        I::UavRwtyped if dimension == Some(SrvDimension::Buffer) => (BufferKind::Typed, true),
        I::Structured => (BufferKind::Structured, false),
        I::UavRwstructured | I::UavAppendStructured | I::UavConsumeStructured | I::UavRwstructuredWithCounter => {
            (BufferKind::Structured, true)
        }
        I::Byteaddress => (BufferKind::Raw, false),
        I::UavRwbyteaddress => (BufferKind::Raw, true),
        _ => return None,
    };
    let (stride, columns) = match kind {
        BufferKind::Typed => {
            (4, vec![Column { name: "value".into(), offset: 0, format: CellFormat::from_return_type(b.return_type) }])
        }
        BufferKind::Raw => (
            16,
            (0..4).map(|i| Column { name: format!("+{}", i * 4), offset: i * 4, format: CellFormat::U32 }).collect(),
        ),
        BufferKind::Structured => {
            let stride =
                if b.sample_count == u32::MAX || b.sample_count == 0 { 4 } else { b.sample_count.min(2048) / 4 * 4 };
            let stride = stride.max(4);
            let layout = rdef
                .constant_buffers
                .iter()
                .find(|c| c.kind == CbufferType::ResourceBindInfo as u32 && c.name == b.name)
                .and_then(|c| c.variables.first());
            let mut cols = Vec::new();
            if let Some(v) = layout {
                let name = if v.name == "$Element" { String::new() } else { v.name.clone() };
                tight_columns(&v.ty, 0, &name, &mut cols, 0);
            }
            cols.retain(|c| c.offset + 4 <= stride);
            cols.sort_by_key(|c| c.offset);
            cols.dedup_by_key(|c| c.offset);
            // Words the layout does not name (or no layout at all).
            for off in (0..stride).step_by(4) {
                if !cols.iter().any(|c| c.offset == off) {
                    cols.push(Column { name: format!("w{}", off / 4), offset: off, format: CellFormat::Hex });
                }
            }
            cols.sort_by_key(|c| c.offset);
            (stride, cols)
        }
    };
    let elements = match kind {
        BufferKind::Raw => DEFAULT_ELEMENTS / 4,
        _ => DEFAULT_ELEMENTS,
    };
    Some(BufferSlot {
        name: b.name.clone(),
        register: b.bind_point,
        space: b.space.unwrap_or(0),
        writable,
        kind,
        stride,
        elements,
        columns,
    })
}

/// Columns of a tightly packed (structured-buffer) type at `base`.
fn tight_columns(ty: &Type, base: u32, path: &str, out: &mut Vec<Column>, depth: usize) {
    if depth >= dxbc::chunks::rdef::MAX_TYPE_DEPTH || out.len() >= MAX_NAMED_COLUMNS {
        return;
    }
    let elem = tight_size(ty, depth);
    let n = ty.elements.max(1) as u32;
    for i in 0..n {
        if out.len() >= MAX_NAMED_COLUMNS {
            return;
        }
        let p = if ty.elements > 0 { format!("{path}[{i}]") } else { path.to_string() };
        let at = base.saturating_add(elem.saturating_mul(i));
        let class = class_of(ty);
        if class == Some(C::Struct) {
            for m in &ty.members {
                let mp = if p.is_empty() { m.name.clone() } else { format!("{p}.{}", m.name) };
                tight_columns(&m.ty, at.saturating_add(m.start_offset), &mp, out, depth + 1);
            }
            continue;
        }
        let format = CellFormat::from_base_type(ty.base_type);
        let (rows, cols) = (ty.rows.clamp(1, 4) as u32, ty.columns.clamp(1, 4) as u32);
        let words = match class {
            Some(C::Scalar) => 1,
            Some(C::Vector) => cols,
            Some(C::MatrixRows | C::MatrixColumns) => rows * cols,
            _ => 0,
        };
        const XYZW: [&str; 4] = ["x", "y", "z", "w"];
        for k in 0..words {
            let name = match class {
                Some(C::Scalar) => p.clone(),
                Some(C::Vector) => format!("{p}.{}", XYZW[k as usize]),
                // Matrices: `_mRC`, HLSL's zero-based element names; the
                // storage order follows the matrix class.
                Some(C::MatrixRows) => format!("{p}._m{}{}", k / cols, k % cols),
                _ => format!("{p}._m{}{}", k % rows, k / rows),
            };
            out.push(Column { name, offset: at.saturating_add(4 * k), format });
        }
    }
}

fn tight_size(ty: &Type, depth: usize) -> u32 {
    let (rows, cols) = (ty.rows.clamp(1, 4) as u32, ty.columns.clamp(1, 4) as u32);
    match class_of(ty) {
        Some(C::Scalar) => 4,
        Some(C::Vector) => 4 * cols,
        Some(C::MatrixRows | C::MatrixColumns) => 4 * rows * cols,
        Some(C::Struct) if depth < dxbc::chunks::rdef::MAX_TYPE_DEPTH => ty
            .members
            .iter()
            .map(|m| {
                m.start_offset.saturating_add(tight_size(&m.ty, depth + 1).saturating_mul(m.ty.elements.max(1) as u32))
            })
            .max()
            .unwrap_or(0),
        _ => 0,
    }
}

/// Slots for every typed UAV texture binding.
pub fn storage_texture_slots(rdef: &Rdef) -> Vec<StorageTextureSlot> {
    rdef.bindings
        .iter()
        .filter(|b| b.input_type == ShaderInputType::UavRwtyped as u32)
        .filter_map(|b| {
            let dimension = TextureDimension::from_uav(b.dimension)?;
            let extent = match dimension {
                TextureDimension::D1 => (256, 1, 1),
                TextureDimension::D1Array => (256, 1, 4),
                TextureDimension::D2 => (64, 64, 1),
                TextureDimension::D3 => (16, 16, 16),
                _ => (64, 64, 4),
            };
            Some(StorageTextureSlot {
                name: b.name.clone(),
                register: b.bind_point,
                space: b.space.unwrap_or(0),
                dimension,
                format: TextureFormat::storage_for_return_type(b.return_type),
                extent,
            })
        })
        .collect()
}
