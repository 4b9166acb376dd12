//! RDEF: resource definitions.
//!
//! ```text
//! 0x00  u32 constant buffer count      0x04  u32 offset of the first buffer record
//! 0x08  u32 resource binding count     0x0c  u32 offset of the first binding record
//! 0x10  u8 minor, u8 major, u16 program type (0xFFFF ps, 0xFFFE vs, "GS" "HS" "DS" "CS")
//! 0x14  u32 compile flags               0x18  u32 offset of the creator string
//! SM5 only (major >= 5):
//! 0x1c  u32 magic: "RD11" (5.0) or 0x25441313 (5.1)
//! 0x20  u32 header size (60), u32 buffer record size (24), u32 binding record size
//!       (32, or 40 in 5.1), u32 variable record size (40), u32 type record size (36),
//!       u32 member record size (12), u32 interface slot count
//! ```
//! Buffer record: name, variable count, variable offset, size, flags, kind.
//! Variable record: name, start offset, size, flags, type offset, default
//! value offset, and in SM5 texture start/size and sampler start/size.
//! Type record: class, base type, rows, columns, elements, member count (u16
//! each), member offset; SM5 adds sub-type, base class, interface count,
//! interface offset and the type's name.
//! Member record: name, type offset, byte offset within the parent.
//! Binding record: name, input type, return type, dimension, sample count,
//! bind point, bind count, flags; SM5.1 adds register space and range ID.
//!
//! All offsets inside the chunk are relative to the start of the payload.

mod encode;
pub(crate) use encode::type_key;

use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;
use crate::spec::{CBUFFER_TYPE, RDEF_PROGRAM_TYPE, SHADER_VARIABLE_CLASS, SHADER_VARIABLE_TYPE};
use serde::Serialize;

/// Deepest type nesting followed; deeper (or cyclic) member chains are an error.
pub const MAX_TYPE_DEPTH: usize = 32;

/// Magic of the SM5.0 extended header.
pub const MAGIC_RD11: u32 = u32::from_le_bytes(*b"RD11");
/// Magic of the SM5.1 extended header.
pub const MAGIC_RD11_51: u32 = 0x2544_1313;

/// Decoded RDEF chunk.
#[derive(Clone, Debug, Serialize)]
pub struct Rdef {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// Constant buffer count as stored.
    pub constant_buffer_count: u32,
    /// Offset (within the chunk) of the buffer records.
    pub constant_buffer_offset: u32,
    /// Binding count as stored.
    pub binding_count: u32,
    /// Offset (within the chunk) of the binding records.
    pub binding_offset: u32,
    /// Target minor version.
    pub minor_version: u8,
    /// Target major version.
    pub major_version: u8,
    /// Program type: 0xFFFF pixel, 0xFFFE vertex, 0x4753 geometry, 0x4853 hull,
    /// 0x4453 domain, 0x4353 compute.
    pub program_type: u16,
    /// Compile flags (`D3DCOMPILE_*`).
    pub compile_flags: u32,
    /// Offset (within the chunk) of the creator string.
    pub creator_offset: u32,
    /// The creator string, e.g. `Microsoft (R) HLSL Shader Compiler 10.1`.
    pub creator: String,
    /// The SM5 extended header, when present.
    pub rd11: Option<Rd11Header>,
    /// Constant buffers (also tbuffers, interface pointers and structured-buffer layouts).
    pub constant_buffers: Vec<ConstantBuffer>,
    /// Resource bindings.
    pub bindings: Vec<ResourceBinding>,
    /// Which compiler's layout the encoder follows.
    pub layout: RdefLayout,
}

/// The compiler whose layout an RDEF follows: where strings and type
/// records go is not determined by the fields, and fxc and vkd3d-shader
/// place them differently (see `rdef::encode`). Decoding takes it from the
/// creator string, which names the compiler.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, Default)]
pub enum RdefLayout {
    /// Microsoft's fxc / d3dcompiler.
    #[default]
    Fxc,
    /// vkd3d-shader.
    Vkd3d,
}

impl RdefLayout {
    /// The layout of the compiler a creator string names.
    pub fn from_creator(creator: &str) -> RdefLayout {
        if creator.starts_with("vkd3d-shader") {
            RdefLayout::Vkd3d
        } else {
            RdefLayout::Fxc
        }
    }
}

/// SM5 extension of the RDEF header.
#[derive(Clone, Debug, Serialize)]
pub struct Rd11Header {
    /// Absolute offset of the magic.
    pub offset: usize,
    /// `RD11` (5.0) or 0x25441313 (5.1).
    pub magic: u32,
    /// True for the SM5.1 layout (bindings carry space and ID).
    pub sm51: bool,
    /// Header size in bytes (60).
    pub header_size: u32,
    /// Size of a buffer record (24).
    pub constant_buffer_record_size: u32,
    /// Size of a binding record (32, or 40 in 5.1).
    pub binding_record_size: u32,
    /// Size of a variable record (40).
    pub variable_record_size: u32,
    /// Size of a type record (36).
    pub type_record_size: u32,
    /// Size of a member record (12).
    pub member_record_size: u32,
    /// Number of interface slots.
    pub interface_slot_count: u32,
}

/// A constant buffer, tbuffer, interface-pointer block or structured-buffer layout.
#[derive(Clone, Debug, Serialize)]
pub struct ConstantBuffer {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Offset (within the chunk) of the name.
    pub name_offset: u32,
    /// Name.
    pub name: String,
    /// Variable count as stored.
    pub variable_count: u32,
    /// Offset (within the chunk) of the variable records.
    pub variable_offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// `D3D_SHADER_CBUFFER_FLAGS` (1 = user packed).
    pub flags: u32,
    /// `D3D_CBUFFER_TYPE`: 0 cbuffer, 1 tbuffer, 2 interface pointers, 3 resource bind info.
    pub kind: u32,
    /// Variables.
    pub variables: Vec<Variable>,
}

impl ConstantBuffer {
    /// The buffer's kind as fxc names it.
    pub fn kind_name(&self) -> &'static str {
        CBUFFER_TYPE.asm(self.kind).unwrap_or("unknown")
    }
}

/// A variable of a constant buffer.
#[derive(Clone, Debug, Serialize)]
pub struct Variable {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Offset (within the chunk) of the name.
    pub name_offset: u32,
    /// Name.
    pub name: String,
    /// Byte offset within the buffer.
    pub start_offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// `D3D_SHADER_VARIABLE_FLAGS`: 1 user packed, 2 used, 4 interface pointer, 8 interface parameter.
    pub flags: u32,
    /// Offset (within the chunk) of the type record.
    pub type_offset: u32,
    /// Offset (within the chunk) of the default value, 0 when none.
    pub default_value_offset: u32,
    /// Absolute offset of the default value bytes.
    pub default_value_at: Option<usize>,
    /// Default value bytes (`size` bytes), when present.
    pub default_value: Option<Vec<u8>>,
    /// SM5: first texture slot (0xFFFFFFFF when none).
    pub texture_start: Option<u32>,
    /// SM5: number of texture slots.
    pub texture_size: Option<u32>,
    /// SM5: first sampler slot (0xFFFFFFFF when none).
    pub sampler_start: Option<u32>,
    /// SM5: number of sampler slots.
    pub sampler_size: Option<u32>,
    /// The variable's type.
    pub ty: Type,
}

impl Variable {
    /// A variable of an SM5 RDEF to be encoded: no default value and no
    /// texture or sampler slots (start `u32::MAX`, size 0, as fxc writes
    /// them); offsets are computed by the encoder.
    pub fn new_sm5(name: String, start_offset: u32, size: u32, flags: u32, ty: Type) -> Variable {
        Variable {
            offset: 0,
            name_offset: 0,
            name,
            start_offset,
            size,
            flags,
            type_offset: 0,
            default_value_offset: 0,
            default_value_at: None,
            default_value: None,
            texture_start: Some(u32::MAX),
            texture_size: Some(0),
            sampler_start: Some(u32::MAX),
            sampler_size: Some(0),
            ty,
        }
    }

    /// True when the shader reads the variable (`D3D_SVF_USED`).
    pub fn used(&self) -> bool {
        self.flags & 2 != 0
    }
}

/// A type record.
#[derive(Clone, Debug, Serialize)]
pub struct Type {
    /// Absolute offset of the record.
    pub offset: usize,
    /// `D3D_SHADER_VARIABLE_CLASS`: 0 scalar, 1 vector, 2 matrix rows, 3 matrix
    /// columns, 4 object, 5 struct, 6 interface class, 7 interface pointer.
    pub class: u16,
    /// `D3D_SHADER_VARIABLE_TYPE` (1 bool, 2 int, 3 float, 19 uint, 39 double, …).
    pub base_type: u16,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array elements (0 when not an array).
    pub elements: u16,
    /// Member count as stored.
    pub member_count: u16,
    /// Offset (within the chunk) of the member records.
    pub member_offset: u32,
    /// SM5: offset of the sub-type record (0 when none).
    pub subtype_offset: Option<u32>,
    /// SM5: offset of the base class type record (0 when none).
    pub base_class_offset: Option<u32>,
    /// SM5: number of interfaces the class implements.
    pub interface_count: Option<u32>,
    /// SM5: offset of the table of interface type offsets.
    pub interface_offset: Option<u32>,
    /// SM5: offset of the type name.
    pub name_offset: Option<u32>,
    /// SM5: the type name (e.g. `float4`, `MyStruct`).
    pub name: Option<String>,
    /// Members (structs and classes).
    pub members: Vec<Member>,
    /// SM5: the type `subtype_offset` points at (interface pointers name
    /// their interface here).
    pub subtype: Option<Box<Type>>,
    /// SM5: the type `base_class_offset` points at.
    pub base_class: Option<Box<Type>>,
    /// SM5: the interfaces a class implements (the table at `interface_offset`).
    pub interfaces: Vec<Type>,
    /// `Some(k)` when this reference points at a type record an earlier
    /// variable or member already uses: the k-th distinct record met in
    /// reading order (variables in order, members depth-first). Compilers
    /// write some identical types once and others again, and point at one
    /// copy among several, by rules the fields do not settle (vkd3d keeps
    /// `const float4` and `float4` apart), so the encoder follows this.
    pub shares: Option<u32>,
}

impl Type {
    /// An SM5 type record to be encoded, with no members, elements or
    /// linked types; offsets are computed by the encoder.
    pub fn new_sm5(class: u16, base_type: u16, rows: u16, columns: u16, name: Option<String>) -> Type {
        Type {
            offset: 0,
            class,
            base_type,
            rows,
            columns,
            elements: 0,
            member_count: 0,
            member_offset: 0,
            subtype_offset: Some(0),
            base_class_offset: Some(0),
            interface_count: Some(0),
            interface_offset: Some(0),
            name_offset: Some(0),
            name,
            members: Vec::new(),
            subtype: None,
            base_class: None,
            interfaces: Vec::new(),
            shares: None,
        }
    }

    /// Name of the class field.
    pub fn class_name(&self) -> &'static str {
        SHADER_VARIABLE_CLASS.asm(u32::from(self.class)).unwrap_or("unknown")
    }

    /// HLSL spelling of the base type (`float`, `uint`, …) as fxc prints it.
    pub fn base_type_name(&self) -> &'static str {
        variable_type_name(self.base_type)
    }
}

/// HLSL name of a `D3D_SHADER_VARIABLE_TYPE`.
pub fn variable_type_name(t: u16) -> &'static str {
    SHADER_VARIABLE_TYPE.asm(u32::from(t)).unwrap_or("<unknown>")
}

/// A member of a struct or class type.
#[derive(Clone, Debug, Serialize)]
pub struct Member {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Offset (within the chunk) of the name.
    pub name_offset: u32,
    /// Name.
    pub name: String,
    /// Offset (within the chunk) of the member's type record.
    pub type_offset: u32,
    /// Byte offset of the member within its parent.
    pub start_offset: u32,
    /// The member's type.
    pub ty: Type,
}

/// A resource binding.
#[derive(Clone, Debug, Serialize)]
pub struct ResourceBinding {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Offset (within the chunk) of the name.
    pub name_offset: u32,
    /// Name.
    pub name: String,
    /// `D3D_SHADER_INPUT_TYPE`: 0 cbuffer, 1 tbuffer, 2 texture, 3 sampler, 4 RW typed,
    /// 5 structured, 6 RW structured, 7 byte address, 8 RW byte address, 9 append,
    /// 10 consume, 11 RW structured with counter.
    pub input_type: u32,
    /// `D3D_RESOURCE_RETURN_TYPE`: 1 unorm, 2 snorm, 3 sint, 4 uint, 5 float,
    /// 6 mixed, 7 double, 8 continued (0 for non-textures).
    pub return_type: u32,
    /// `D3D_SRV_DIMENSION`: 1 buffer, 2 1d, 3 1d array, 4 2d, 5 2d array, 6 2d MS,
    /// 7 2d MS array, 8 3d, 9 cube, 10 cube array, 11 buffer ex.
    pub dimension: u32,
    /// Sample count (multisampled textures), or structure stride for structured
    /// buffers, 0xFFFFFFFF when not applicable.
    pub sample_count: u32,
    /// First register.
    pub bind_point: u32,
    /// Register count (0 = unbounded).
    pub bind_count: u32,
    /// `D3D_SHADER_INPUT_FLAGS`: 1 user packed, 2 comparison sampler, bits 2-3
    /// component count − 1, 0x10 unused.
    pub flags: u32,
    /// SM5.1: register space.
    pub space: Option<u32>,
    /// SM5.1: range ID.
    pub id: Option<u32>,
}

impl ResourceBinding {
    /// Number of components of a texture's return type (1–4), from the flags.
    pub fn components(&self) -> u32 {
        crate::spec::field_value(crate::spec::SHADER_INPUT_FLAGS_FIELDS, "texture components", self.flags) + 1
    }
}

/// Type record offsets in the order first read, for [`Type::shares`].
/// Real RDEFs hold a few dozen records, where a linear scan beats hashing;
/// past [`SeenTypes::SMALL`] a map keeps hostile files linear.
#[derive(Default)]
struct SeenTypes {
    order: Vec<u32>,
    map: Option<std::collections::HashMap<u32, u32>>,
}

impl SeenTypes {
    const SMALL: usize = 64;

    /// The index of `pos` among the records read before, or `None` (and
    /// `pos` is recorded) when it is new.
    fn index_or_insert(&mut self, pos: u32) -> Option<u32> {
        let next = self.order.len() as u32;
        if let Some(map) = &mut self.map {
            return match map.entry(pos) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(next);
                    self.order.push(pos);
                    None
                }
            };
        }
        if let Some(i) = self.order.iter().position(|&p| p == pos) {
            return Some(i as u32);
        }
        self.order.push(pos);
        if self.order.len() > Self::SMALL {
            self.map = Some(self.order.iter().enumerate().map(|(i, &p)| (p, i as u32)).collect());
        }
        None
    }
}

struct Ctx<'a> {
    r: Reader<'a>,
    sm5: bool,
    /// Type records still allowed; bounded so that shared sub-types cannot
    /// multiply the work beyond a fixed factor of the input size.
    budget: usize,
    /// Bytes of names still allowed (records may share one string).
    text_budget: usize,
    /// Bytes of default values still allowed (legitimate values do not overlap).
    data_budget: usize,
    /// Type record offset → index among the distinct records read so far
    /// (for [`Type::shares`]).
    seen_types: SeenTypes,
}

fn count_fits(r: &Reader, at: u32, count: u32, record: usize, what: &str, field_at: usize) -> Result<()> {
    let len = r.data().len();
    let need = (count as usize).checked_mul(record);
    match need {
        Some(n) if (at as usize) <= len && n <= len - at as usize => Ok(()),
        _ => Err(Error::of(ErrorKind::OutOfBounds,
            format!(
                "{count} {what} records of {record} bytes at chunk offset {at:#x} do not fit in the {len}-byte RDEF chunk"
            ),
            field_at,
        )),
    }
}

impl Rdef {
    /// Parses the chunk payload; `base` is its absolute offset.
    pub fn parse(data: &[u8], base: usize) -> Result<Rdef> {
        let mut r = Reader::new(data, base);
        let cb_count_at = r.offset();
        let constant_buffer_count = r.u32("RDEF constant buffer count")?;
        let constant_buffer_offset = r.u32("RDEF constant buffer offset")?;
        let bind_count_at = r.offset();
        let binding_count = r.u32("RDEF resource binding count")?;
        let binding_offset = r.u32("RDEF resource binding offset")?;
        let minor_version = r.u8("RDEF target minor version")?;
        let major_version = r.u8("RDEF target major version")?;
        let program_type = r.u16("RDEF program type")?;
        let compile_flags = r.u32("RDEF compile flags")?;
        let creator_at = r.offset();
        let creator_offset = r.u32("RDEF creator string offset")?;
        let creator = r.cstr_at(creator_offset as usize, "RDEF creator").map_err(|e| e.at(creator_at))?;

        let mut rd11 = None;
        if major_version >= 5 {
            let at = r.offset();
            let magic = r.u32("RDEF SM5 header magic \"RD11\"")?;
            if magic != MAGIC_RD11 && magic != MAGIC_RD11_51 {
                return Err(Error::new(
                    format!("expected RDEF SM5 header magic \"RD11\" or 0x25441313, found {magic:#010x}"),
                    at,
                ));
            }
            let header_size = r.u32("RDEF header size")?;
            let constant_buffer_record_size = r.u32("RDEF buffer record size")?;
            let binding_record_size = r.u32("RDEF binding record size")?;
            let variable_record_size = r.u32("RDEF variable record size")?;
            let type_record_size = r.u32("RDEF type record size")?;
            let member_record_size = r.u32("RDEF member record size")?;
            let interface_slot_count = r.u32("RDEF interface slot count")?;
            rd11 = Some(Rd11Header {
                offset: at,
                magic,
                sm51: magic == MAGIC_RD11_51,
                header_size,
                constant_buffer_record_size,
                binding_record_size,
                variable_record_size,
                type_record_size,
                member_record_size,
                interface_slot_count,
            });
        }
        let sm5 = rd11.is_some();
        let sm51 = rd11.as_ref().is_some_and(|h| h.sm51);

        // Constant buffers.
        count_fits(&r, constant_buffer_offset, constant_buffer_count, 24, "constant buffer", cb_count_at)?;
        let mut ctx = Ctx {
            r,
            sm5,
            budget: data.len().max(4096),
            text_budget: data.len().saturating_mul(4).max(1 << 16),
            data_budget: data.len().saturating_mul(2),
            seen_types: Default::default(),
        };
        let mut constant_buffers = Vec::with_capacity(constant_buffer_count as usize);
        for i in 0..constant_buffer_count as usize {
            let pos = constant_buffer_offset as usize + i * 24;
            constant_buffers.push(ctx.constant_buffer(pos)?);
        }

        // Bindings.
        let record = if sm51 { 40 } else { 32 };
        count_fits(&ctx.r, binding_offset, binding_count, record, "resource binding", bind_count_at)?;
        let mut bindings = Vec::with_capacity(binding_count as usize);
        for i in 0..binding_count as usize {
            let mut b = ctx.r;
            b.seek(binding_offset as usize + i * record, "RDEF binding record")?;
            let offset = b.offset();
            let name_offset = b.u32("binding name offset")?;
            let name = ctx.name(name_offset, "binding name", offset)?;
            let input_type = b.u32("binding input type")?;
            let return_type = b.u32("binding return type")?;
            let dimension = b.u32("binding dimension")?;
            let sample_count = b.u32("binding sample count")?;
            let bind_point = b.u32("binding bind point")?;
            let bind_count = b.u32("binding bind count")?;
            let flags = b.u32("binding flags")?;
            let (space, id) = if sm51 {
                (Some(b.u32("binding register space")?), Some(b.u32("binding range ID")?))
            } else {
                (None, None)
            };
            bindings.push(ResourceBinding {
                offset,
                name_offset,
                name,
                input_type,
                return_type,
                dimension,
                sample_count,
                bind_point,
                bind_count,
                flags,
                space,
                id,
            });
        }

        Ok(Rdef {
            layout: RdefLayout::from_creator(&creator),
            offset: base,
            constant_buffer_count,
            constant_buffer_offset,
            binding_count,
            binding_offset,
            minor_version,
            major_version,
            program_type,
            compile_flags,
            creator_offset,
            creator,
            rd11,
            constant_buffers,
            bindings,
        })
    }

    /// True for the SM5.1 layout (bindings with space and ID).
    pub fn is_sm51(&self) -> bool {
        self.rd11.as_ref().is_some_and(|h| h.sm51)
    }

    /// Program type as the two-letter prefix fxc uses (`ps`, `vs`, …).
    pub fn program_type_name(&self) -> &'static str {
        RDEF_PROGRAM_TYPE.asm(u32::from(self.program_type)).unwrap_or("unknown")
    }
}

/// Reads a name at chunk offset `at`, blaming `field_at` (the record) on failure.
fn name_at(r: &Reader, at: u32, what: &str, field_at: usize) -> Result<String> {
    r.cstr_at(at as usize, what).map_err(|e| {
        let m = format!("{} (record at {field_at:#x})", e.message());
        e.with_message(m)
    })
}

impl Ctx<'_> {
    /// Reads a name at chunk offset `at`, charging the text budget.
    fn name(&mut self, at: u32, what: &str, field_at: usize) -> Result<String> {
        let s = name_at(&self.r, at, what, field_at)?;
        if s.len() > self.text_budget {
            return Err(Error::of(
                ErrorKind::LimitExceeded,
                format!("{what}: names add up to more text than the RDEF chunk can hold"),
                field_at,
            ));
        }
        self.text_budget -= s.len();
        Ok(s)
    }

    fn constant_buffer(&mut self, pos: usize) -> Result<ConstantBuffer> {
        let mut c = self.r;
        c.seek(pos, "RDEF constant buffer record")?;
        let offset = c.offset();
        let name_offset = c.u32("constant buffer name offset")?;
        let name = self.name(name_offset, "constant buffer name", offset)?;
        let count_at = c.offset();
        let variable_count = c.u32("constant buffer variable count")?;
        let variable_offset = c.u32("constant buffer variable offset")?;
        let size = c.u32("constant buffer size")?;
        let flags = c.u32("constant buffer flags")?;
        let kind = c.u32("constant buffer type")?;
        let record = if self.sm5 { 40 } else { 24 };
        count_fits(&self.r, variable_offset, variable_count, record, "variable", count_at)?;
        let mut variables = Vec::with_capacity(variable_count as usize);
        for i in 0..variable_count as usize {
            variables.push(self.variable(variable_offset as usize + i * record)?);
        }
        Ok(ConstantBuffer { offset, name_offset, name, variable_count, variable_offset, size, flags, kind, variables })
    }

    fn variable(&mut self, pos: usize) -> Result<Variable> {
        let mut v = self.r;
        v.seek(pos, "RDEF variable record")?;
        let offset = v.offset();
        let name_offset = v.u32("variable name offset")?;
        let name = self.name(name_offset, "variable name", offset)?;
        let start_offset = v.u32("variable start offset")?;
        let size = v.u32("variable size")?;
        let flags = v.u32("variable flags")?;
        let type_at = v.offset();
        let type_offset = v.u32("variable type offset")?;
        let default_at = v.offset();
        let default_value_offset = v.u32("variable default value offset")?;
        let (texture_start, texture_size, sampler_start, sampler_size) = if self.sm5 {
            (
                Some(v.u32("variable texture start")?),
                Some(v.u32("variable texture size")?),
                Some(v.u32("variable sampler start")?),
                Some(v.u32("variable sampler size")?),
            )
        } else {
            (None, None, None, None)
        };
        let (default_value_at, default_value) = if default_value_offset != 0 {
            let mut d = self.r;
            d.seek(default_value_offset as usize, "variable default value offset").map_err(|e| e.at(default_at))?;
            let at = d.offset();
            if size as usize > self.data_budget {
                return Err(Error::of(ErrorKind::LimitExceeded,
                    format!("default value of variable {name} ({size} bytes): default values add up to more than twice the chunk size"),
                    default_at,
                ));
            }
            self.data_budget -= size as usize;
            let bytes = d.bytes(size as usize, "variable default value").map_err(|e| {
                let m = format!("{} (variable {name})", e.message());
                e.with_message(m).at(at)
            })?;
            (Some(at), Some(bytes.to_vec()))
        } else {
            (None, None)
        };
        let ty = self.ty(type_offset, type_at, 0)?;
        Ok(Variable {
            offset,
            name_offset,
            name,
            start_offset,
            size,
            flags,
            type_offset,
            default_value_offset,
            default_value_at,
            default_value,
            texture_start,
            texture_size,
            sampler_start,
            sampler_size,
            ty,
        })
    }

    fn ty(&mut self, pos: u32, field_at: usize, depth: usize) -> Result<Type> {
        if depth >= MAX_TYPE_DEPTH {
            return Err(Error::of(
                ErrorKind::LimitExceeded,
                format!("type nesting deeper than {MAX_TYPE_DEPTH} levels (cyclic member types?)"),
                field_at,
            ));
        }
        if self.budget == 0 {
            return Err(Error::of(
                ErrorKind::LimitExceeded,
                "too many type records for the size of the RDEF chunk",
                field_at,
            ));
        }
        self.budget -= 1;
        let mut t = self.r;
        t.seek(pos as usize, "type offset").map_err(|e| e.at(field_at))?;
        let offset = t.offset();
        let shares = self.seen_types.index_or_insert(pos);
        let class = t.u16("type class")?;
        let base_type = t.u16("type base type")?;
        let rows = t.u16("type rows")?;
        let columns = t.u16("type columns")?;
        let elements = t.u16("type elements")?;
        let count_at = t.offset();
        let member_count = t.u16("type member count")?;
        let member_offset = t.u32("type member offset")?;
        let (subtype_offset, base_class_offset, interface_count, interface_offset, name_offset, name) = if self.sm5 {
            let sub = t.u32("type sub-type offset")?;
            let base = t.u32("type base class offset")?;
            let ic = t.u32("type interface count")?;
            let io = t.u32("type interface offset")?;
            let name_at_field = t.offset();
            let no = t.u32("type name offset")?;
            let name = if no != 0 { Some(self.name(no, "type name", name_at_field)?) } else { None };
            (Some(sub), Some(base), Some(ic), Some(io), Some(no), name)
        } else {
            (None, None, None, None, None, None)
        };
        // Most types link to nothing: skip the call (decode speed).
        let links = [subtype_offset, base_class_offset, interface_count];
        let (subtype, base_class, interfaces) = if links.iter().all(|l| l.unwrap_or(0) == 0) {
            (None, None, Vec::new())
        } else {
            self.linked_types((subtype_offset, base_class_offset, interface_count, interface_offset), offset, depth)?
        };
        let mut members = Vec::new();
        if member_count > 0 {
            count_fits(&self.r, member_offset, member_count as u32, 12, "member", count_at)?;
            members.reserve(member_count as usize);
            for i in 0..member_count as usize {
                let mut m = self.r;
                m.seek(member_offset as usize + i * 12, "member record")?;
                let moff = m.offset();
                let name_offset = m.u32("member name offset")?;
                let mname = self.name(name_offset, "member name", moff)?;
                let type_at = m.offset();
                let type_offset = m.u32("member type offset")?;
                let start_offset = m.u32("member offset")?;
                let ty = self.ty(type_offset, type_at, depth + 1)?;
                members.push(Member { offset: moff, name_offset, name: mname, type_offset, start_offset, ty });
            }
        }
        Ok(Type {
            offset,
            class,
            base_type,
            rows,
            columns,
            elements,
            member_count,
            member_offset,
            subtype_offset,
            base_class_offset,
            interface_count,
            interface_offset,
            name_offset,
            name,
            members,
            subtype,
            base_class,
            interfaces,
            shares,
        })
    }

    /// SM5 class types: the sub-type, the base class and the interfaces a
    /// type record points at (offset 0 = none), read as types of their own.
    #[allow(clippy::type_complexity)]
    fn linked_types(
        &mut self,
        (sub, base, count, table): (Option<u32>, Option<u32>, Option<u32>, Option<u32>),
        record_at: usize,
        depth: usize,
    ) -> Result<(Option<Box<Type>>, Option<Box<Type>>, Vec<Type>)> {
        let one = |ctx: &mut Self, at: Option<u32>, field: usize| -> Result<Option<Box<Type>>> {
            match at {
                Some(at) if at != 0 => Ok(Some(Box::new(ctx.ty(at, record_at + field, depth + 1)?))),
                _ => Ok(None),
            }
        };
        let subtype = one(self, sub, 16)?;
        let base_class = one(self, base, 20)?;
        let mut interfaces = Vec::new();
        let count = count.unwrap_or(0);
        if count > 0 {
            let table = table.unwrap_or(0);
            count_fits(&self.r, table, count, 4, "interface type offset", record_at + 24)?;
            for i in 0..count as usize {
                let at = self.r.u32_at(table as usize + i * 4, "interface type offset")?;
                interfaces.push(self.ty(at, self.r.base() + table as usize + i * 4, depth + 1)?);
            }
        }
        Ok((subtype, base_class, interfaces))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds an RDEF payload piece by piece, patching offsets as it goes.
    struct B(Vec<u8>);
    impl B {
        fn u32(&mut self, v: u32) -> usize {
            let at = self.0.len();
            self.0.extend_from_slice(&v.to_le_bytes());
            at
        }
        fn u16s(&mut self, v: &[u16]) {
            for x in v {
                self.0.extend_from_slice(&x.to_le_bytes());
            }
        }
        fn set(&mut self, at: usize, v: u32) {
            self.0[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        fn str(&mut self, s: &str) -> u32 {
            let at = self.0.len() as u32;
            self.0.extend_from_slice(s.as_bytes());
            self.0.push(0);
            while !self.0.len().is_multiple_of(4) {
                self.0.push(0xab);
            }
            at
        }
        fn pos(&self) -> u32 {
            self.0.len() as u32
        }
    }

    /// One cbuffer with a float4 and a struct {float a; float b[2];}, one binding.
    fn sample(major: u8, magic: u32) -> Vec<u8> {
        let sm5 = major >= 5;
        let mut b = B(Vec::new());
        b.u32(1);
        let cb_off = b.u32(0);
        b.u32(1);
        let bind_off = b.u32(0);
        b.0.extend_from_slice(&[0, major]);
        b.u16s(&[0xFFFF]);
        b.u32(0x100);
        let creator = b.u32(0);
        if sm5 {
            b.u32(magic);
            for v in [60, 24, if magic == MAGIC_RD11_51 { 40 } else { 32 }, 40, 36, 12, 0] {
                b.u32(v);
            }
        }
        // Binding.
        let p = b.pos();
        b.set(bind_off, p);
        let bname = b.u32(0);
        for v in [0u32, 0, 0, 0, 2, 1, 0] {
            b.u32(v);
        }
        if magic == MAGIC_RD11_51 {
            b.u32(3);
            b.u32(7);
        }
        // Buffer.
        let p = b.pos();
        b.set(cb_off, p);
        let cname = b.u32(0);
        b.u32(2);
        let var_off = b.u32(0);
        b.u32(32);
        b.u32(0);
        b.u32(0);
        // Variables.
        let p = b.pos();
        b.set(var_off, p);
        let mut var_fields = Vec::new();
        for (start, size) in [(0u32, 16u32), (16, 20)] {
            let name = b.u32(0);
            b.u32(start);
            b.u32(size);
            b.u32(2);
            let ty = b.u32(0);
            let def = b.u32(0);
            if sm5 {
                for v in [u32::MAX, 0, u32::MAX, 0] {
                    b.u32(v);
                }
            }
            var_fields.push((name, ty, def));
        }
        // Types.
        let float4 = b.pos();
        b.u16s(&[1, 3, 1, 4, 0, 0]);
        b.u32(0);
        let float4_name = if sm5 {
            for _ in 0..4 {
                b.u32(0);
            }
            Some(b.u32(0))
        } else {
            None
        };
        let float_arr = b.pos();
        b.u16s(&[0, 3, 1, 1, 2, 0]);
        b.u32(0);
        if sm5 {
            for _ in 0..5 {
                b.u32(0);
            }
        }
        let st = b.pos();
        b.u16s(&[5, 0, 1, 5, 0, 2]);
        let st_members = b.u32(0);
        if sm5 {
            for _ in 0..5 {
                b.u32(0);
            }
        }
        let members = b.pos();
        b.set(st_members, members);
        let ma = b.u32(0);
        b.u32(float4);
        b.u32(0);
        let mb = b.u32(0);
        b.u32(float_arr);
        b.u32(16);
        let def = b.pos();
        for i in 0..4u32 {
            b.u32(i);
        }
        // Strings.
        let s = b.str("Creator 1.0");
        b.set(creator, s);
        let s = b.str("tex");
        b.set(bname, s);
        let s = b.str("CB");
        b.set(cname, s);
        let s = b.str("v4");
        b.set(var_fields[0].0, s);
        b.set(var_fields[0].1, float4);
        b.set(var_fields[0].2, def);
        let s = b.str("vs");
        b.set(var_fields[1].0, s);
        b.set(var_fields[1].1, st);
        let s = b.str("a");
        b.set(ma, s);
        let s = b.str("b");
        b.set(mb, s);
        if let Some(at) = float4_name {
            let s = b.str("float4");
            b.set(at, s);
        }
        b.0
    }

    #[test]
    fn parses_sm4_sm5_sm51() {
        for (major, magic) in [(4u8, 0u32), (5, MAGIC_RD11), (5, MAGIC_RD11_51)] {
            let data = sample(major, magic);
            let r = Rdef::parse(&data, 0x100).unwrap();
            assert_eq!(r.creator, "Creator 1.0");
            assert_eq!(r.program_type_name(), "ps");
            assert_eq!(r.compile_flags, 0x100);
            assert_eq!(r.constant_buffers.len(), 1);
            let cb = &r.constant_buffers[0];
            assert_eq!(cb.name, "CB");
            assert_eq!(cb.offset, 0x100 + r.constant_buffer_offset as usize);
            assert_eq!(cb.variables[0].name, "v4");
            assert_eq!(cb.variables[0].default_value.as_deref().unwrap().len(), 16);
            assert_eq!(cb.variables[0].ty.columns, 4);
            let st = &cb.variables[1].ty;
            assert_eq!(st.class, 5);
            assert_eq!(st.members[1].name, "b");
            assert_eq!(st.members[1].start_offset, 16);
            assert_eq!(st.members[1].ty.elements, 2);
            assert_eq!(r.bindings[0].name, "tex");
            assert_eq!(r.bindings[0].bind_point, 2);
            if major >= 5 {
                assert_eq!(cb.variables[0].ty.name.as_deref(), Some("float4"));
                assert_eq!(cb.variables[0].texture_start, Some(u32::MAX));
            } else {
                assert!(r.rd11.is_none());
            }
            assert_eq!(r.is_sm51(), magic == MAGIC_RD11_51);
            if r.is_sm51() {
                assert_eq!((r.bindings[0].space, r.bindings[0].id), (Some(3), Some(7)));
            }
        }
    }

    #[test]
    fn truncations_fail_with_offsets() {
        let data = sample(5, MAGIC_RD11);
        for n in 0..data.len() {
            if let Err(e) = Rdef::parse(&data[..n], 0x40) {
                assert!(e.offset() >= 0x40 && e.offset() <= 0x40 + n, "{e}");
            }
        }
    }

    #[test]
    fn huge_counts_are_rejected_before_allocating() {
        let mut data = sample(4, 0);
        data[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = Rdef::parse(&data, 0).unwrap_err();
        assert_eq!(e.offset(), 0);
        assert!(e.message().contains("do not fit"), "{e}");
        assert_eq!(e.kind(), ErrorKind::OutOfBounds);
    }

    #[test]
    fn cyclic_member_types_terminate() {
        let mut data = sample(4, 0);
        let r = Rdef::parse(&data, 0).unwrap();
        // Point member `a` at the struct type itself.
        let st = &r.constant_buffers[0].variables[1].ty;
        let member_a = st.members[0].offset;
        let st_off = st.offset as u32;
        data[member_a + 4..member_a + 8].copy_from_slice(&st_off.to_le_bytes());
        let e = Rdef::parse(&data, 0).unwrap_err();
        assert!(e.message().contains("nesting"), "{e}");
        assert_eq!(e.kind(), ErrorKind::LimitExceeded);
    }

    #[test]
    fn bad_magic_is_named() {
        let mut data = sample(5, MAGIC_RD11);
        data[0x1c..0x20].copy_from_slice(b"XXXX");
        let e = Rdef::parse(&data, 8).unwrap_err();
        assert_eq!(e.offset(), 8 + 0x1c);
        assert!(e.message().contains("RD11"));
        assert_eq!(e.kind(), ErrorKind::InvalidValue);
    }
}
