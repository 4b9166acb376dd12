//! Controls from reflection: one editable control per leaf of every
//! constant-buffer variable, placed at the exact bytes it occupies.
//!
//! RDEF gives each variable a byte offset and a type tree (class, base type,
//! rows, columns, array elements, struct members with their own offsets);
//! it does not say how a matrix's components or an array's elements are
//! spread over the buffer — those follow HLSL's constant-buffer packing:
//!
//! * the buffer is made of 16-byte registers; a vector never straddles one;
//! * a `column_major` matrix (class 3, HLSL's default) stores each *column*
//!   in its own register, `rows` components in it; a `row_major` matrix
//!   (class 2) stores each *row*, `columns` components;
//! * every array element starts a new register, so the element stride is
//!   the element's size rounded up to 16 bytes and only the last element
//!   is unpadded;
//! * struct members carry their offsets relative to the struct.
//!
//! So each control records, besides its offset and size, the byte offset
//! of every component it writes ([`Control::component_offsets`]); packing
//! is then a plain scatter and cannot disagree with the layout.
//!
//! Controls are guessed from types and names: a `float3 DiffuseColor`
//! becomes a colour picker, a `float Alpha` a 0..1 slider, a
//! `float4x4 WorldViewProj` a matrix editor defaulting to a camera. The
//! guesses only choose the widget, range and default; the bytes written
//! depend on the type alone.

use crate::math;
use dxbc::chunks::rdef::{ConstantBuffer, Rdef, Type};
use dxbc::spec::{CbufferType, ShaderInputType, ShaderVariableClass as C, ShaderVariableType};
use serde::Serialize;
use std::collections::BTreeMap;

/// Most elements of one array that get controls; later elements keep zeros
/// (or the RDEF default) and the buffer is marked [`CbufferModel::truncated`].
pub const MAX_ARRAY_CONTROLS: usize = 64;
/// Most controls one constant buffer gets (nested arrays of structs could
/// otherwise multiply into millions).
pub const MAX_CONTROLS_PER_BUFFER: usize = 1024;
/// Largest constant buffer D3D allows (4096 registers); larger sizes read
/// from a hostile file are clamped.
pub const MAX_CBUFFER_BYTES: u32 = 65536;

/// Component type of a control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Scalar {
    /// 32-bit float (also `min16float` and friends, stored as 32 bits).
    F32,
    /// 32-bit signed integer.
    I32,
    /// 32-bit unsigned integer.
    U32,
    /// HLSL `bool`: 32 bits, written as 0 or 1.
    Bool,
}

impl Scalar {
    /// The RDEF base type as a control scalar; `None` for types with no
    /// 32-bit control (double, objects, strings …).
    pub fn from_base_type(base: u16) -> Option<Scalar> {
        use ShaderVariableType as T;
        match T::from_u32(base as u32)? {
            T::Bool => Some(Scalar::Bool),
            T::Int | T::Min12int | T::Min16int | T::Int16 => Some(Scalar::I32),
            T::Float | T::Min8float | T::Min10float | T::Min16float | T::Float16 => Some(Scalar::F32),
            T::Uint | T::Min16uint | T::Uint16 => Some(Scalar::U32),
            _ => None,
        }
    }
}

/// The value of one control: its components in logical order (for a
/// matrix, row by row: `m[r][c]` at `r * columns + c`, whatever the packing).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Value {
    /// Float components.
    Floats(Vec<f32>),
    /// Signed integer components.
    Ints(Vec<i32>),
    /// Unsigned integer components.
    Uints(Vec<u32>),
    /// Boolean components.
    Bools(Vec<bool>),
}

impl Value {
    /// Number of components.
    pub fn len(&self) -> usize {
        match self {
            Value::Floats(v) => v.len(),
            Value::Ints(v) => v.len(),
            Value::Uints(v) => v.len(),
            Value::Bools(v) => v.len(),
        }
    }

    /// True when there are no components.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Component type.
    pub fn scalar(&self) -> Scalar {
        match self {
            Value::Floats(_) => Scalar::F32,
            Value::Ints(_) => Scalar::I32,
            Value::Uints(_) => Scalar::U32,
            Value::Bools(_) => Scalar::Bool,
        }
    }

    /// The 32 bits component `i` is stored as in a constant buffer.
    pub fn bits(&self, i: usize) -> u32 {
        match self {
            Value::Floats(v) => v[i].to_bits(),
            Value::Ints(v) => v[i] as u32,
            Value::Uints(v) => v[i],
            Value::Bools(v) => v[i] as u32,
        }
    }

    /// A value of `scalar` type read back from stored words (any non-zero
    /// word is a true bool, as HLSL tests it).
    pub fn from_bits(scalar: Scalar, words: &[u32]) -> Value {
        match scalar {
            Scalar::F32 => Value::Floats(words.iter().map(|w| f32::from_bits(*w)).collect()),
            Scalar::I32 => Value::Ints(words.iter().map(|w| *w as i32).collect()),
            Scalar::U32 => Value::Uints(words.to_vec()),
            Scalar::Bool => Value::Bools(words.iter().map(|w| *w != 0).collect()),
        }
    }

    fn zero(scalar: Scalar, n: usize) -> Value {
        Value::from_bits(scalar, &vec![0; n])
    }
}

/// Control values by [`Control::id`]. Missing entries mean "the default".
pub type Values = BTreeMap<String, Value>;

/// Which logical matrix a matrix preset produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MatrixPreset {
    /// The identity (for non-square matrices: ones on the diagonal).
    Identity,
    /// [`math::default_view`]: looking at the origin from [`math::DEFAULT_EYE`].
    LookAt,
    /// [`math::default_projection`]: 60° vertical field of view, square, near 0.1, far 100.
    Perspective,
    /// View × projection (world = identity): the right default for `WorldViewProj`.
    ViewProjection,
}

/// Which multiplication order a shader uses; the presets are built for
/// [`MatrixConvention::RowVector`] and transposed for the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MatrixConvention {
    /// `mul(v, M)`: D3DX / DirectXMath style, translation in row 3.
    RowVector,
    /// `mul(M, v)`: OpenGL style, translation in column 3.
    ColumnVector,
}

/// The components (logical, row by row) of `preset` for a `rows × columns`
/// matrix: the 4×4 preset cut to size.
pub fn matrix_preset(preset: MatrixPreset, convention: MatrixConvention, rows: u8, columns: u8) -> Vec<f32> {
    let m = match preset {
        MatrixPreset::Identity => math::identity(),
        MatrixPreset::LookAt => math::default_view(),
        MatrixPreset::Perspective => math::default_projection(),
        MatrixPreset::ViewProjection => math::mul(&math::default_view(), &math::default_projection()),
    };
    let m = match convention {
        MatrixConvention::RowVector => m,
        MatrixConvention::ColumnVector => math::transpose(&m),
    };
    let mut out = Vec::with_capacity(rows as usize * columns as usize);
    for r in 0..rows as usize {
        for c in 0..columns as usize {
            let x = m.get(r).and_then(|row| row.get(c)).copied();
            out.push(x.unwrap_or((r == c) as u8 as f32));
        }
    }
    out
}

/// Which widget edits a control.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ControlKind {
    /// A float scalar.
    Slider {
        /// Lower end of the range.
        min: f32,
        /// Upper end of the range.
        max: f32,
        /// Step.
        step: f32,
    },
    /// A `float3` (no alpha) or `float4` (alpha) named like a colour; components 0..1.
    Color {
        /// True for four components.
        alpha: bool,
    },
    /// A `float2`..`float4`: one number field per component.
    Vector {
        /// Component count.
        components: u8,
        /// Suggested lower bound.
        min: f32,
        /// Suggested upper bound.
        max: f32,
        /// Step.
        step: f32,
    },
    /// Integer fields (signed or unsigned per [`Control::scalar`]).
    Integer {
        /// Component count.
        components: u8,
        /// Suggested lower bound.
        min: i64,
        /// Suggested upper bound.
        max: i64,
    },
    /// Check boxes, one per component.
    Checkbox {
        /// Component count.
        components: u8,
    },
    /// A matrix editor with presets.
    Matrix {
        /// Rows.
        rows: u8,
        /// Columns.
        columns: u8,
        /// Presets the editor offers (all for 4×4, identity otherwise).
        presets: Vec<MatrixPreset>,
    },
}

/// How a matrix is laid out in the buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MatrixOrder {
    /// `row_major` (class 2): one register per row.
    RowMajor,
    /// `column_major` (class 3, HLSL's default): one register per column.
    ColumnMajor,
}

/// One editable leaf of a constant buffer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Control {
    /// Stable id: `<buffer id>/<path>`, e.g. `Parameters/LightDirection[1]`.
    pub id: String,
    /// Variable path inside the buffer, e.g. `Lights[2].Color`.
    pub path: String,
    /// Label shown next to the widget (the path).
    pub label: String,
    /// Component type.
    pub scalar: Scalar,
    /// Rows (1 for scalars and vectors).
    pub rows: u8,
    /// Columns (component count of a scalar or vector).
    pub columns: u8,
    /// Packing of a matrix; `None` for scalars and vectors.
    pub matrix_order: Option<MatrixOrder>,
    /// Widget and its range.
    pub kind: ControlKind,
    /// Default value: the RDEF default when the file has one, else a guess.
    pub default: Value,
    /// First byte written, from the start of the buffer.
    pub offset: u32,
    /// Bytes from `offset` to the end of the last component (matrix padding included).
    pub size: u32,
    /// Byte offset (from the start of the buffer) of each component, in logical order.
    pub component_offsets: Vec<u32>,
    /// True when the shader reads the variable (RDEF's "used" flag).
    pub used: bool,
    /// How the value follows the orbit camera ([`crate::camera`]), when it does.
    pub camera: Option<CameraRole>,
}

/// What a control holds of the camera, so orbiting can rewrite it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum CameraRole {
    /// A 4×4 view matrix (look-at).
    View,
    /// A 4×4 view × projection matrix.
    ViewProjection,
    /// The eye position (`float3`, or `float4` with w = 1).
    Eye,
    /// A raw register holding column `c` of the row-vector view × projection.
    ViewProjectionColumn(u8),
}

impl Control {
    /// Number of components.
    pub fn components(&self) -> usize {
        self.component_offsets.len()
    }

    /// True when `v` has this control's type and component count.
    pub fn accepts(&self, v: &Value) -> bool {
        v.scalar() == self.scalar && v.len() == self.components()
    }
}

/// Which register class a buffer of controls is bound through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BufferClass {
    /// `cbuffer`: a `b#` constant buffer.
    Constant,
    /// `tbuffer`: a `t#` shader resource with the same packing.
    Texture,
}

/// A constant buffer (or tbuffer) with its controls.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CbufferModel {
    /// Unique id (the RDEF name, suffixed `#n` when a file repeats a name).
    pub id: String,
    /// Name as in RDEF (`$Globals` for loose uniforms).
    pub name: String,
    /// `cbuffer` or `tbuffer`.
    pub class: BufferClass,
    /// `cb#` (or `t#` for a tbuffer) register from the matching RDEF binding (None when unbound).
    pub register: Option<u32>,
    /// Register space (SM5.1; 0 before).
    pub space: u32,
    /// Bytes to upload: the RDEF size rounded up to 16, at most [`MAX_CBUFFER_BYTES`].
    pub size: u32,
    /// The controls, in variable order.
    pub controls: Vec<Control>,
    /// True when some leaves got no control (array or buffer caps, doubles,
    /// objects, or ranges outside the buffer).
    pub truncated: bool,
    /// True for a buffer known only from the program's declaration (no
    /// reflection): its controls are raw `float4` registers ([`crate::raw`]).
    pub raw: bool,
}

impl CbufferModel {
    /// The control with `id`.
    pub fn control(&self, id: &str) -> Option<&Control> {
        self.controls.iter().find(|c| c.id == id)
    }

    /// Every control's default.
    pub fn defaults(&self) -> Values {
        self.controls.iter().map(|c| (c.id.clone(), c.default.clone())).collect()
    }
}

/// Builds the controls of every cbuffer and tbuffer (both use the
/// constant-buffer packing; interface blocks and structured-buffer layouts
/// are not edited here), in RDEF order.
pub fn cbuffers(rdef: &Rdef) -> Vec<CbufferModel> {
    let mut out: Vec<CbufferModel> = Vec::new();
    for cb in rdef.constant_buffers.iter() {
        let (class, input_type) = match CbufferType::from_u32(cb.kind) {
            Some(CbufferType::Cbuffer) => (BufferClass::Constant, ShaderInputType::Cbuffer),
            Some(CbufferType::Tbuffer) => (BufferClass::Texture, ShaderInputType::Tbuffer),
            _ => continue,
        };
        let binding = rdef.bindings.iter().find(|b| b.input_type == input_type as u32 && b.name == cb.name);
        let mut id = cb.name.clone();
        let mut n = 1;
        while out.iter().any(|m| m.id == id) {
            n += 1;
            id = format!("{}#{n}", cb.name);
        }
        out.push(cbuffer(cb, id, class, binding.map(|b| b.bind_point), binding.and_then(|b| b.space).unwrap_or(0)));
    }
    out
}

fn cbuffer(cb: &ConstantBuffer, id: String, class: BufferClass, register: Option<u32>, space: u32) -> CbufferModel {
    let size = round16(cb.size.min(MAX_CBUFFER_BYTES));
    let mut w = Walker { buffer_id: &id, size, controls: Vec::new(), truncated: false };
    for v in &cb.variables {
        // The packing rules must reproduce the size fxc recorded; where they
        // do not (class instances with dynamic linkage, whose member offsets
        // are not buffer offsets) the variable gets no controls rather than
        // misplaced ones.
        if total_size(&v.ty) != v.size as u64 {
            w.truncated = true;
            continue;
        }
        let default = v.default_value.as_deref().map(|d| (v.start_offset, d));
        w.walk(&v.ty, v.start_offset as u64, &v.name, v.used(), default, 0);
    }
    let Walker { controls, truncated, .. } = w;
    CbufferModel { name: cb.name.clone(), id, class, register, space, size, controls, truncated, raw: false }
}

fn round16(n: u32) -> u32 {
    n.div_ceil(16).saturating_mul(16).min(MAX_CBUFFER_BYTES)
}

/// The RDEF class of a variable type (`None` for a value the format does
/// not define).
pub fn class_of(ty: &Type) -> Option<C> {
    C::from_u32(ty.class as u32)
}

/// Bytes one element of `ty` (ignoring its array count) spans in a
/// constant buffer, up to the end of its last component.
pub fn element_size(ty: &Type) -> u64 {
    element_size_at(ty, 0)
}

fn element_size_at(ty: &Type, depth: usize) -> u64 {
    let rows = ty.rows.max(1) as u64;
    let cols = ty.columns.max(1) as u64;
    match class_of(ty) {
        Some(C::Scalar | C::Vector) => 4 * cols,
        Some(C::MatrixRows) => 16 * (rows - 1) + 4 * cols,
        Some(C::MatrixColumns) => 16 * (cols - 1) + 4 * rows,
        Some(C::Struct) if depth < dxbc::chunks::rdef::MAX_TYPE_DEPTH => {
            ty.members.iter().map(|m| m.start_offset as u64 + total_size_at(&m.ty, depth + 1)).max().unwrap_or(0)
        }
        _ => 0,
    }
}

/// Bytes `ty` spans including all its array elements.
pub fn total_size(ty: &Type) -> u64 {
    total_size_at(ty, 0)
}

fn total_size_at(ty: &Type, depth: usize) -> u64 {
    let e = element_size_at(ty, depth);
    match ty.elements {
        0 | 1 => e,
        n => array_stride(e) * (n as u64 - 1) + e,
    }
}

/// Distance between array elements of size `element`: whole registers.
pub fn array_stride(element: u64) -> u64 {
    element.div_ceil(16).max(1) * 16
}

struct Walker<'a> {
    buffer_id: &'a str,
    size: u32,
    controls: Vec<Control>,
    truncated: bool,
}

impl Walker<'_> {
    /// Adds controls for `ty` at absolute `offset`; `default` is the
    /// variable's RDEF default bytes with the variable's start offset.
    fn walk(&mut self, ty: &Type, offset: u64, path: &str, used: bool, default: Option<(u32, &[u8])>, depth: usize) {
        if depth >= dxbc::chunks::rdef::MAX_TYPE_DEPTH {
            self.truncated = true;
            return;
        }
        if ty.elements > 0 {
            let stride = array_stride(element_size_at(ty, depth));
            let n = ty.elements as usize;
            if n > MAX_ARRAY_CONTROLS {
                self.truncated = true;
            }
            for i in 0..n.min(MAX_ARRAY_CONTROLS) {
                self.element(ty, offset + stride * i as u64, &format!("{path}[{i}]"), used, default, depth);
            }
        } else {
            self.element(ty, offset, path, used, default, depth);
        }
    }

    fn element(&mut self, ty: &Type, offset: u64, path: &str, used: bool, default: Option<(u32, &[u8])>, depth: usize) {
        if class_of(ty) == Some(C::Struct) {
            for m in &ty.members {
                let p = format!("{path}.{}", m.name);
                self.walk(&m.ty, offset + m.start_offset as u64, &p, used, default, depth + 1);
            }
            return;
        }
        if self.controls.len() >= MAX_CONTROLS_PER_BUFFER {
            self.truncated = true;
            return;
        }
        match self.leaf(ty, offset, path, used, default) {
            Some(c) => self.controls.push(c),
            None => self.truncated = true,
        }
    }

    fn leaf(&self, ty: &Type, offset: u64, path: &str, used: bool, default: Option<(u32, &[u8])>) -> Option<Control> {
        let scalar = Scalar::from_base_type(ty.base_type)?;
        let class = class_of(ty)?;
        let (rows, columns) = match class {
            C::Scalar => (1u8, 1u8),
            C::Vector => (1, ty.columns.clamp(1, 4) as u8),
            C::MatrixRows | C::MatrixColumns => (ty.rows.clamp(1, 4) as u8, ty.columns.clamp(1, 4) as u8),
            _ => return None,
        };
        let matrix_order = match class {
            C::MatrixRows => Some(MatrixOrder::RowMajor),
            C::MatrixColumns => Some(MatrixOrder::ColumnMajor),
            _ => None,
        };
        let mut component_offsets = Vec::with_capacity(rows as usize * columns as usize);
        for r in 0..rows as u64 {
            for c in 0..columns as u64 {
                let rel = match matrix_order {
                    Some(MatrixOrder::ColumnMajor) => c * 16 + r * 4,
                    Some(MatrixOrder::RowMajor) => r * 16 + c * 4,
                    None => c * 4,
                };
                component_offsets.push(u32::try_from(offset + rel).ok()?);
            }
        }
        let end = component_offsets.iter().max()? + 4;
        if end > self.size {
            return None;
        }
        let start = *component_offsets.iter().min()?;
        let name = leaf_name(path);
        let guess = guess(&name, &path.to_ascii_lowercase(), scalar, rows, columns, matrix_order.is_some());
        let rdef_default = default.and_then(|(var_start, bytes)| {
            let words: Option<Vec<u32>> = component_offsets
                .iter()
                .map(|&o| {
                    let at = o.checked_sub(var_start)? as usize;
                    let b = bytes.get(at..at + 4)?;
                    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                })
                .collect();
            words.map(|w| Value::from_bits(scalar, &w))
        });
        Some(Control {
            id: format!("{}/{path}", self.buffer_id),
            path: path.to_string(),
            label: path.to_string(),
            scalar,
            rows,
            columns,
            matrix_order,
            kind: guess.kind,
            default: rdef_default.unwrap_or(guess.default),
            offset: start,
            size: end - start,
            component_offsets,
            used,
            camera: guess.camera,
        })
    }
}

/// The last path segment without array indices, lower-cased: the name the
/// guesses look at (`Lights[2].DiffuseColor` → `diffusecolor`).
fn leaf_name(path: &str) -> String {
    let last = path.rsplit('.').next().unwrap_or(path);
    last.split('[').next().unwrap_or(last).to_ascii_lowercase()
}

const COLOR_WORDS: &[&str] =
    &["color", "colour", "tint", "albedo", "diffuse", "emissive", "emission", "ambient", "rgb", "specular"];
const UNIT_WORDS: &[&str] = &[
    "alpha",
    "opacity",
    "intensity",
    "strength",
    "amount",
    "factor",
    "blend",
    "rough",
    "metal",
    "occlusion",
    "saturation",
    "mix",
    "weight",
    "threshold",
    "percent",
    "progress",
    "fade",
    "lerp",
    "transparen",
    "smooth",
    "gloss",
    "reflect",
    "fresnel",
    "coverage",
];
const FULL_UNIT_DEFAULT: &[&str] = &["alpha", "opacity", "intensity", "strength", "amount", "weight"];
const POWER_WORDS: &[&str] = &["power", "shininess", "exponent", "hardness"];
const ANGLE_WORDS: &[&str] = &["angle", "rotation", "yaw", "pitch", "roll", "theta", "phi"];
const SCALE_WORDS: &[&str] = &["scale", "size", "radius", "width", "height", "distance", "range", "zoom", "length"];
/// Names of the camera's position.
const EYE_WORDS: &[&str] = &["eye", "camera", "campos", "viewpos", "viewerpos", "viewposition"];
/// Default point light: above, in front and to the left of the origin,
/// on the side the default camera sees.
pub const DEFAULT_LIGHT_POSITION: [f32; 3] = [2.0, 4.0, 3.0];
const COUNT_WORDS: &[&str] = &["count", "num", "iteration", "steps", "samples", "levels", "octaves"];

fn has(name: &str, words: &[&str]) -> bool {
    words.iter().any(|w| name.contains(w))
}

struct Guess {
    kind: ControlKind,
    default: Value,
    camera: Option<CameraRole>,
}

impl Guess {
    fn new(kind: ControlKind, default: Value) -> Guess {
        Guess { kind, default, camera: None }
    }
}

/// Widget, range and default for a leaf named `name` (lower case) at `path`.
fn guess(name: &str, path: &str, scalar: Scalar, rows: u8, columns: u8, matrix: bool) -> Guess {
    let n = rows as usize * columns as usize;
    match scalar {
        Scalar::Bool => Guess::new(ControlKind::Checkbox { components: columns }, Value::zero(scalar, n)),
        Scalar::I32 | Scalar::U32 => {
            let (min, max) = if has(name, COUNT_WORDS) {
                (0, 64)
            } else if scalar == Scalar::I32 {
                (i32::MIN as i64, i32::MAX as i64)
            } else {
                (0, u32::MAX as i64)
            };
            let d = if has(name, COUNT_WORDS) { 1 } else { 0 };
            let default = if scalar == Scalar::I32 { Value::Ints(vec![d; n]) } else { Value::Uints(vec![d as u32; n]) };
            Guess::new(ControlKind::Integer { components: columns, min, max }, default)
        }
        Scalar::F32 if matrix => {
            let presets = if rows == 4 && columns == 4 {
                vec![
                    MatrixPreset::Identity,
                    MatrixPreset::LookAt,
                    MatrixPreset::Perspective,
                    MatrixPreset::ViewProjection,
                ]
            } else {
                vec![MatrixPreset::Identity]
            };
            let preset = if rows != 4 || columns != 4 {
                MatrixPreset::Identity
            } else if has(name, &["viewproj", "wvp", "mvp", "modelviewproj", "worldviewproj"]) {
                MatrixPreset::ViewProjection
            } else if name.contains("proj") {
                MatrixPreset::Perspective
            } else if name.contains("view") && !name.contains("viewport") && !name.contains("inv") {
                MatrixPreset::LookAt
            } else {
                MatrixPreset::Identity
            };
            Guess {
                kind: ControlKind::Matrix { rows, columns, presets },
                default: Value::Floats(matrix_preset(preset, MatrixConvention::RowVector, rows, columns)),
                camera: match preset {
                    MatrixPreset::LookAt => Some(CameraRole::View),
                    MatrixPreset::ViewProjection => Some(CameraRole::ViewProjection),
                    _ => None,
                },
            }
        }
        Scalar::F32 => {
            let colourish = has(name, COLOR_WORDS) && !has(name, POWER_WORDS) || has(path, &["color", "colour"]);
            if colourish && columns >= 3 {
                let dark = has(name, &["emissive", "emission", "ambient", "fog"]);
                let v = if dark { 0.0 } else { 1.0 };
                let mut d = vec![v; columns as usize];
                if columns == 4 {
                    d[3] = 1.0;
                }
                return Guess::new(ControlKind::Color { alpha: columns == 4 }, Value::Floats(d));
            }
            let (min, max, step, d) = if colourish || has(name, UNIT_WORDS) {
                (0.0, 1.0, 0.01, if has(name, FULL_UNIT_DEFAULT) || colourish { 1.0 } else { 0.5 })
            } else if has(name, POWER_WORDS) {
                (1.0, 256.0, 1.0, 16.0)
            } else if name.contains("time") {
                (0.0, 60.0, 0.01, 0.0)
            } else if has(name, ANGLE_WORDS) {
                (-std::f32::consts::PI, std::f32::consts::PI, 0.01, 0.0)
            } else if has(name, SCALE_WORDS) {
                (0.0, 10.0, 0.01, 1.0)
            } else if name.contains("dir") {
                (-1.0, 1.0, 0.01, 0.0)
            } else {
                (-10.0, 10.0, 0.01, 0.0)
            };
            if columns == 1 {
                return Guess::new(ControlKind::Slider { min, max, step }, Value::Floats(vec![d]));
            }
            let mut dv = vec![d; columns as usize];
            let mut camera = None;
            let eye = has(name, EYE_WORDS);
            let light_at = name.contains("light") && name.contains("pos") && !eye;
            if name.contains("dir") && columns >= 3 {
                // A light coming from above, in front and to the left.
                let l = math::normalize([-0.5, -1.0, -0.5]);
                dv[..3].copy_from_slice(&l);
            } else if eye && columns >= 3 {
                dv[..3].copy_from_slice(&math::DEFAULT_EYE);
                camera = Some(CameraRole::Eye);
            } else if light_at && columns >= 3 {
                // A point light where the default directional light comes from.
                dv[..3].copy_from_slice(&DEFAULT_LIGHT_POSITION);
            }
            if columns == 4 && (name.contains("dir") || eye || light_at || name.contains("pos")) {
                dv[3] = if name.contains("dir") { 0.0 } else { 1.0 };
            }
            Guess {
                kind: ControlKind::Vector { components: columns, min, max, step },
                default: Value::Floats(dv),
                camera,
            }
        }
    }
}
