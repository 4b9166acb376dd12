//! Effects files (`fx_4_0`, `fx_4_1`, `fx_5_0`; the `.fxo` that fxc writes
//! for `/T fx_5_0`): enough of their structure to name every embedded shader
//! by technique group, technique, pass and stage, or by shader variable.
//!
//! ## Where the layout comes from
//! The facts below were read from the public Direct3D 11 Effects runtime
//! (Microsoft's open-source "Effects 11", its `EffectBinaryFormat.h`,
//! `EffectStates11.h` and loader), used as a reference for facts only;
//! nothing here is taken from it. In our words:
//!
//! * **Header.** One dword tag, then counts, all little-endian. The tag names
//!   the version: `0xFEFF1001` `fx_4_0`, `0xFEFF1011` `fx_4_1`, `0xFEFF2001`
//!   `fx_5_0`. Then: for the effect and for the pool (an `fx_4` child effect's
//!   shared variables) the number of constant buffers, numeric variables and
//!   object variables; the technique count; the size of the unstructured
//!   block; the string, shader-resource, depth-stencil, blend, rasterizer,
//!   sampler, render-target-view and depth-stencil-view counts; the shader
//!   count and how many of those are inline in passes. `fx_5_0` adds the
//!   group, UAV, interface-variable, interface-element and class-instance
//!   counts. The header is 76 bytes (`fx_4_x`) or 96 (`fx_5_0`).
//! * **Unstructured block** (`unstructured_size` bytes right after the
//!   header): everything the records point at. Every `o…` field below is an
//!   offset into this block (0 means "none"): NUL-terminated names,
//!   semantics and stream-out declarations, type records, default values,
//!   assignment initialisers, and shader blocks. A shader block is a dword
//!   byte count followed by that many bytes: a whole DXBC container (count 0
//!   is a null shader).
//! * **Structured block** (from the end of the unstructured block to the end
//!   of the effect), read in order:
//!   1. constant buffers: `{name, size, flags, variable_count, bind_point}`,
//!      annotations, then per variable `{name, type, semantic, offset,
//!      default_value, flags}` and its annotations;
//!   2. object variables: `{name, type, semantic, bind_point}`, then per
//!      element (at least one) data chosen by the object type: a state block
//!      (assignment count and 16-byte assignments), a shader (`fx_4` shaders
//!      and strings: one offset; geometry shader with stream out: shader and
//!      declaration offsets; `fx_5_0` shaders: 36 bytes, shader offset, four
//!      stream-out declarations, their count, the rasterised stream and the
//!      interface bindings), nothing for resources; then annotations;
//!   3. `fx_5_0` only: interface variables `{name, type, default_value,
//!      flags}` and annotations;
//!   4. `fx_5_0`: groups `{name, technique_count}` (an unnamed group holds
//!      techniques declared outside any `fxgroup`) with annotations, each
//!      holding its techniques; `fx_4_x`: the techniques directly. A
//!      technique is `{name, pass_count}` and annotations, a pass `{name,
//!      assignment_count}`, annotations and its assignments.
//! * **Annotations**: a count, then per annotation `{name, type}` followed by
//!   one offset per string element (string annotations) or one default-value
//!   offset (numeric ones).
//! * **Type records**: `{name, var_type, elements, total_size, stride,
//!   packed_size}` then, by var type, the numeric layout dword, the object
//!   type dword, or for structures a member count and 16-byte members
//!   `{name, semantic, offset, type}` (`fx_5_0` adds the base class and the
//!   interfaces a class implements).
//! * **Assignments** `{state, index, kind, initializer}`: `state` indexes
//!   the runtime's state table, where 6, 7, 8 set the vertex, pixel and
//!   geometry shader and 56, 57, 58 the hull, domain and compute shader.
//!   `kind` says what the initializer points at: constants (1: a count and
//!   `{type, value}` pairs), a variable name (2), an array element (3: name
//!   and index), a run-time index or expression (4–6: name and code
//!   offsets, not decoded further), an inline shader (7: shader and
//!   stream-out declaration offsets) or an `fx_5_0` inline shader (8: the
//!   36-byte shader data above).
//!
//! `fx_4_x` effects as D3D10 loads them are wrapped in a DXBC container
//! whose one `FX10` chunk holds the layout above; `fx_5_0` files are the
//! bare layout. [`find`] accepts both; offsets in the model are absolute in
//! the input either way.
//!
//! ## Design
//! One reader ([`read`]) walks the structured block in order with a cursor
//! and dereferences offsets into the unstructured block, every count and
//! offset checked against the bytes before use; names are capped at
//! [`MAX_NAME`] bytes and type records are read once per offset, so the work
//! is linear in the effect's size. Decoding stops at the first fault, keeps
//! what it read and records the error with its offset. The same walk can
//! record every field it reads ([`Part`]), which is what `spans` shows; the
//! naming path ([`decode`]) does not record.

mod builder;
mod read;

pub use builder::{Builder, BuiltShader, ShaderSource};
pub use read::{decode, layout, Part, PartKind};

use crate::Error;
use serde::Serialize;
use std::ops::Range;

/// Longest name, semantic or stream-out declaration read (bytes); longer
/// text is a fault, which keeps the reading work linear.
pub const MAX_NAME: usize = 4096;

/// The version an effect's header tag names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Version {
    /// `fx_4_0` (tag `0xFEFF1001`).
    Fx4_0,
    /// `fx_4_1` (tag `0xFEFF1011`).
    Fx4_1,
    /// `fx_5_0` (tag `0xFEFF2001`).
    Fx5_0,
}

impl Version {
    /// The version for a header tag.
    pub fn from_tag(tag: u32) -> Option<Version> {
        match tag {
            0xFEFF_1001 => Some(Version::Fx4_0),
            0xFEFF_1011 => Some(Version::Fx4_1),
            0xFEFF_2001 => Some(Version::Fx5_0),
            _ => None,
        }
    }

    /// The header tag.
    pub fn tag(self) -> u32 {
        match self {
            Version::Fx4_0 => 0xFEFF_1001,
            Version::Fx4_1 => 0xFEFF_1011,
            Version::Fx5_0 => 0xFEFF_2001,
        }
    }

    /// The profile name (`fx_5_0`).
    pub fn name(self) -> &'static str {
        match self {
            Version::Fx4_0 => "fx_4_0",
            Version::Fx4_1 => "fx_4_1",
            Version::Fx5_0 => "fx_5_0",
        }
    }

    /// The header's size in bytes.
    pub fn header_size(self) -> usize {
        4 * self.header_fields().len()
    }

    /// The header's dwords by name, in file order.
    pub fn header_fields(self) -> &'static [&'static str] {
        match self {
            Version::Fx5_0 => HEADER_FIELDS,
            _ => &HEADER_FIELDS[..19],
        }
    }
}

/// Names of the header dwords (the first 19 are `fx_4_x`'s whole header).
pub const HEADER_FIELDS: &[&str] = &[
    "tag",
    "constant_buffer_count",
    "numeric_variable_count",
    "object_variable_count",
    "pool_constant_buffer_count",
    "pool_numeric_variable_count",
    "pool_object_variable_count",
    "technique_count",
    "unstructured_size",
    "string_count",
    "shader_resource_count",
    "depth_stencil_block_count",
    "blend_block_count",
    "rasterizer_block_count",
    "sampler_count",
    "render_target_view_count",
    "depth_stencil_view_count",
    "shader_count",
    "inline_shader_count",
    "group_count",
    "unordered_access_view_count",
    "interface_variable_count",
    "interface_element_count",
    "class_instance_element_count",
];

/// The pipeline stage of an embedded shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Vertex shader.
    Vertex,
    /// Pixel shader.
    Pixel,
    /// Geometry shader.
    Geometry,
    /// Geometry shader with stream-out declarations.
    GeometryStreamOut,
    /// Hull shader.
    Hull,
    /// Domain shader.
    Domain,
    /// Compute shader.
    Compute,
}

impl Stage {
    /// Short name: `vs`, `ps`, `gs`, `gs_so`, `hs`, `ds`, `cs`.
    pub fn short(self) -> &'static str {
        match self {
            Stage::Vertex => "vs",
            Stage::Pixel => "ps",
            Stage::Geometry => "gs",
            Stage::GeometryStreamOut => "gs_so",
            Stage::Hull => "hs",
            Stage::Domain => "ds",
            Stage::Compute => "cs",
        }
    }

    /// The stage a pass assignment's state index sets (the runtime's state
    /// table: 6, 7, 8, 56, 57, 58), if it sets a shader.
    pub fn of_state(state: u32) -> Option<Stage> {
        match state {
            6 => Some(Stage::Vertex),
            7 => Some(Stage::Pixel),
            8 => Some(Stage::Geometry),
            56 => Some(Stage::Hull),
            57 => Some(Stage::Domain),
            58 => Some(Stage::Compute),
            _ => None,
        }
    }

    /// The state index that sets this stage in a pass (inverse of [`Stage::of_state`]).
    pub fn state(self) -> u32 {
        match self {
            Stage::Vertex => 6,
            Stage::Pixel => 7,
            Stage::Geometry | Stage::GeometryStreamOut => 8,
            Stage::Hull => 56,
            Stage::Domain => 57,
            Stage::Compute => 58,
        }
    }

    /// The stage of a shader object type (the runtime's object-type
    /// numbering), if it is a shader type.
    pub fn of_object_type(t: u32) -> Option<Stage> {
        match t {
            5 | 25 => Some(Stage::Pixel),
            6 | 26 => Some(Stage::Vertex),
            7 | 27 => Some(Stage::Geometry),
            8 => Some(Stage::GeometryStreamOut),
            28 => Some(Stage::Compute),
            29 => Some(Stage::Hull),
            30 => Some(Stage::Domain),
            _ => None,
        }
    }

    /// The `fx_5_0` object type of a shader variable of this stage.
    pub fn object_type5(self) -> u32 {
        match self {
            Stage::Pixel => 25,
            Stage::Vertex => 26,
            Stage::Geometry | Stage::GeometryStreamOut => 27,
            Stage::Compute => 28,
            Stage::Hull => 29,
            Stage::Domain => 30,
        }
    }
}

/// Where a shader is used: a pass of a technique (in a group for `fx_5_0`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PassRef {
    /// The technique group's name (`fx_5_0` `fxgroup`; `None` when unnamed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The technique's name.
    pub technique: String,
    /// The pass's name.
    pub pass: String,
}

/// What an effect says about one embedded shader: the name a scan shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShaderName {
    /// Technique group, when the first pass using it is in a named group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The first technique using it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub technique: Option<String>,
    /// The pass of that technique.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass: Option<String>,
    /// The stage (`vs`, `ps`, …, `gs_so` for a geometry shader with stream out).
    pub stage: &'static str,
    /// The shader variable holding it (`g_VS`, `g_Shaders[2]`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variable: Option<String>,
}

impl ShaderName {
    /// `Group/Technique/Pass/vs`, `Technique/Pass/vs`, or the variable name.
    pub fn label(&self) -> String {
        match (&self.technique, &self.pass, &self.variable) {
            (Some(t), Some(p), _) => match &self.group {
                Some(g) => format!("{g}/{t}/{p}/{}", self.stage),
                None => format!("{t}/{p}/{}", self.stage),
            },
            (_, _, Some(v)) => v.clone(),
            _ => self.stage.to_string(),
        }
    }
}

/// One shader block of the unstructured data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EmbeddedShader {
    /// Absolute offset of the shader's bytes (a DXBC container), after its size dword.
    pub offset: usize,
    /// Its byte count.
    pub size: usize,
    /// Its stage.
    pub stage: Stage,
    /// The variable holding it, for a shader variable (with `[i]` for an array element).
    pub variable: Option<String>,
    /// The passes that set it, in file order.
    pub passes: Vec<PassRef>,
}

impl EmbeddedShader {
    /// The container's bytes within the input.
    pub fn range(&self) -> Range<usize> {
        self.offset..self.offset + self.size
    }

    /// Its name: the first pass that sets it, and its variable.
    pub fn name(&self) -> ShaderName {
        let first = self.passes.first();
        ShaderName {
            group: first.and_then(|p| p.group.clone()),
            technique: first.map(|p| p.technique.clone()),
            pass: first.map(|p| p.pass.clone()),
            stage: self.stage.short(),
            variable: self.variable.clone(),
        }
    }
}

/// A technique and its passes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Technique {
    /// Its group's name (`fx_5_0`, named groups only).
    pub group: Option<String>,
    /// Its name.
    pub name: String,
    /// Its passes: name and the shaders each sets (stage, index in [`Effect::shaders`]).
    pub passes: Vec<(String, Vec<(Stage, usize)>)>,
}

/// A decoded effect: what names its shaders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Effect {
    /// Absolute offset of the effect header.
    pub offset: usize,
    /// The version its tag names.
    pub version: Version,
    /// The header dwords, in [`Version::header_fields`] order.
    pub header: Vec<u32>,
    /// Absolute range of the unstructured block.
    pub unstructured: Range<usize>,
    /// Absolute range of the structured block (to the end of the effect).
    pub structured: Range<usize>,
    /// Every non-null shader block, in the order the records reach them.
    pub shaders: Vec<EmbeddedShader>,
    /// Techniques in file order.
    pub techniques: Vec<Technique>,
    /// Faults; decoding stops at the first.
    pub errors: Vec<Error>,
}

/// Where an effect's layout lies in `data`: a bare effect at byte 0, or the
/// `FX10` chunk of a DXBC container at byte 0. Returns the absolute range.
pub fn find(data: &[u8]) -> Option<Range<usize>> {
    let dword = |at: usize| data.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    if dword(0).and_then(Version::from_tag).is_some() {
        return Some(0..data.len());
    }
    if data.get(..4) != Some(b"DXBC") {
        return None;
    }
    let count = dword(28)? as usize;
    (0..count.min(crate::carve::MAX_CHUNKS)).find_map(|slot| {
        let at = dword(32 + 4 * slot)? as usize;
        let len = dword(at.checked_add(4)?)? as usize;
        let start = at + 8;
        let end = start.checked_add(len)?.min(data.len());
        (data.get(at..at + 4) == Some(b"FX10") && dword(start).and_then(Version::from_tag).is_some())
            .then_some(start..end)
    })
}

/// Names of the shaders of an effect at the start of `data` (bare or in a
/// DXBC container), by absolute offset of each shader's container; empty
/// when `data` is no effect.
pub fn shader_names(data: &[u8]) -> Vec<(usize, ShaderName)> {
    find(data).map_or_else(Vec::new, |r| decode(data, r).shaders.iter().map(|s| (s.offset, s.name())).collect())
}
