//! Constant buffers as WGSL structs with RDEF's member names.
//!
//! A constant buffer is bytes in 16-byte rows; RDEF says which variable
//! starts where, with its class (scalar, vector, matrix), base type and
//! array length. When every variable can sit at its D3D offset under
//! WGSL's uniform layout, the buffer becomes a struct with one member per
//! variable (`cb.g_vLightDir`), and a read of `cb0[5].xy` becomes a read of
//! the members those bytes belong to (`cb.g_vLightDir.xy`).
//!
//! naga's WGSL writer prints members without offsets, so a reader (a
//! browser, naga's own front end) lays them out by WGSL's rules; the IR's
//! offsets must therefore be the ones those rules give. The layout here
//! makes them so: members tile the buffer's bytes with no gap, every one
//! at a multiple of its WGSL alignment, and the bytes no variable covers
//! (D3D's packing holes, the tail of a row) are explicit padding members
//! (`pad_3yzw`) that a read of those bytes names like any other member.
//! Every byte a static read can reach is thus one member's component, and
//! the struct is exactly as long as the declaration (`dcl_constantbuffer
//! cb0[N]`: N rows), so the binding's size does not change.
//!
//! Shapes, chosen so that no member has bytes a read cannot reach (WGSL's
//! `mat4x3` has a hole per column, `array<vec2<f32>, N>` is not allowed in
//! a uniform buffer): a scalar or vector is itself; a float matrix whose
//! registers hold four components is `matCx4<f32>` (one column per D3D
//! register: a row-major HLSL matrix's rows, a column-major one's
//! columns); every other matrix, array or array of matrices is
//! `array<vec4<T>, registers>`. A buffer falls back to the array of rows
//! (`array<vec4<f32>, N>`, each row load named after the variable in it)
//! when a variable cannot be placed so (a vector across WGSL's alignment,
//! a variable packed into an array's or a matrix's last register, a struct
//! or a 64-bit type), and when the program reads it with a dynamic row
//! index or through a register-selected buffer: the bytes such a read
//! reaches are not one member's.

use crate::lower::{malformed, Lanes, Lower, H, K};
use crate::TranslateError;
use dxbc::program::NO_OPERAND;
use dxbc::spec::{OperandType as OT, ShaderVariableClass as VC, ShaderVariableType as VT};
use naga::{ArraySize, Expression as E, GlobalVariable, Handle, Span, StructMember, Type, TypeInner, VectorSize};
use std::collections::{BTreeMap, BTreeSet};

/// A member's WGSL type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// One 32-bit value.
    Scalar,
    /// `vecN` (2 to 4).
    Vector(u32),
    /// `matCx4<f32>`: C (2 to 4) registers of four floats.
    Matrix(u32),
    /// `array<vec4<T>, N>`: N whole registers.
    Rows(u32),
}

impl Shape {
    /// WGSL's size of the shape in a uniform buffer.
    pub(crate) fn size(self) -> u32 {
        match self {
            Shape::Scalar => 4,
            Shape::Vector(n) => 4 * n,
            Shape::Matrix(n) | Shape::Rows(n) => 16 * n,
        }
    }

    /// WGSL's alignment of the shape in a uniform buffer.
    pub(crate) fn align(self) -> u32 {
        match self {
            Shape::Scalar => 4,
            Shape::Vector(2) => 8,
            _ => 16,
        }
    }
}

/// One struct member: a variable or padding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Member {
    pub(crate) name: String,
    /// Byte offset in the buffer.
    pub(crate) offset: u32,
    pub(crate) shape: Shape,
    pub(crate) kind: K,
    /// A lane of a vector WGSL cannot align (`float3` in `.yzw`), held as
    /// scalars `v_x`, `v_y`, `v_z`: the vector's name and width, the index
    /// of its first lane's member, and this member's lane.
    pub(crate) split: Option<Split>,
}

/// See [`Member::split`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    pub(crate) name: String,
    pub(crate) width: u32,
    pub(crate) first: usize,
    pub(crate) lane: u32,
}

/// Where a byte of the buffer is read from: member, register in it (for
/// matrices and arrays) and component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    pub(crate) member: usize,
    pub(crate) register: Option<u32>,
    pub(crate) component: u32,
}

/// A constant buffer's struct: members in offset order, tiling its rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) rows: u32,
    pub(crate) members: Vec<Member>,
}

impl Layout {
    /// The member component holding the word at byte `byte`, None past the end.
    pub(crate) fn place(&self, byte: u32) -> Option<Place> {
        let i = self.members.partition_point(|m| m.offset <= byte).checked_sub(1)?;
        let m = &self.members[i];
        let within = byte - m.offset;
        if within >= m.shape.size() {
            return None;
        }
        Some(match m.shape {
            Shape::Scalar | Shape::Vector(_) => Place { member: i, register: None, component: within / 4 },
            Shape::Matrix(_) | Shape::Rows(_) => {
                Place { member: i, register: Some(within / 16), component: within % 16 / 4 }
            }
        })
    }
}

/// Why a buffer keeps the array of rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fallback {
    /// A struct, object or 64-bit variable.
    Type,
    /// A vector at an offset WGSL's alignment does not allow.
    Misaligned,
    /// A variable packed into the last register of the one before it.
    Packed,
}

/// One RDEF variable as the layout needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Variable {
    pub(crate) name: String,
    pub(crate) offset: u32,
    pub(crate) size: u32,
    pub(crate) class: u16,
    pub(crate) base_type: u16,
    pub(crate) rows: u16,
    pub(crate) columns: u16,
    pub(crate) elements: u16,
}

impl Variable {
    pub(crate) fn of(v: &dxbc::chunks::rdef::Variable) -> Variable {
        Variable {
            name: v.name.clone(),
            offset: v.start_offset,
            size: v.size,
            class: v.ty.class,
            base_type: v.ty.base_type,
            rows: v.ty.rows,
            columns: v.ty.columns,
            elements: v.ty.elements,
        }
    }

    /// The member shape and kind of the variable.
    fn shape(&self) -> Result<(Shape, K), Fallback> {
        let kind = match VT::from_u32(u32::from(self.base_type)) {
            Some(VT::Float) => K::F,
            Some(VT::Int) => K::I,
            Some(VT::Uint | VT::Bool) => K::U,
            _ => return Err(Fallback::Type),
        };
        let elements = u32::from(self.elements);
        let (rows, columns) = (u32::from(self.rows), u32::from(self.columns));
        let shape = match VC::from_u32(u32::from(self.class)) {
            Some(VC::Scalar | VC::Vector) if elements > 0 => Shape::Rows(elements),
            Some(VC::Scalar) => Shape::Scalar,
            Some(VC::Vector) => match columns {
                1 => Shape::Scalar,
                2..=4 => Shape::Vector(columns),
                _ => return Err(Fallback::Type),
            },
            Some(c @ (VC::MatrixRows | VC::MatrixColumns)) => {
                // Registers, and components in each.
                let (registers, width) = if c == VC::MatrixRows { (rows, columns) } else { (columns, rows) };
                if !(1..=4).contains(&registers) || !(1..=4).contains(&width) {
                    return Err(Fallback::Type);
                }
                if kind == K::F && width == 4 && elements == 0 && registers >= 2 {
                    Shape::Matrix(registers)
                } else {
                    Shape::Rows(registers * elements.max(1))
                }
            }
            _ => return Err(Fallback::Type),
        };
        Ok((shape, kind))
    }
}

/// The struct for a buffer of `rows` registers holding `vars`.
pub(crate) fn layout(vars: &[Variable], rows: u32) -> Result<Layout, Fallback> {
    let end = rows.saturating_mul(16);
    let mut sorted: Vec<&Variable> = vars.iter().filter(|v| v.size > 0).collect();
    sorted.sort_by_key(|v| v.offset);
    let mut members = Vec::new();
    let mut cursor = 0;
    for v in sorted {
        if v.offset >= end {
            break;
        }
        if v.offset < cursor {
            return Err(Fallback::Packed);
        }
        // Every member starts on a 32-bit word (a damaged RDEF may say otherwise).
        if !v.offset.is_multiple_of(4) {
            return Err(Fallback::Misaligned);
        }
        let (mut shape, kind) = v.shape()?;
        let name = crate::lower::identifier(&v.name).unwrap_or_else(|| format!("at_{}", lanes_name(v.offset, 4)));
        if let (Shape::Vector(width), true) = (shape, v.offset % shape.align() != 0) {
            // Lanes as scalars (a vector never crosses a register).
            pad(&mut members, cursor, v.offset);
            let first = members.len();
            for lane in 0..width {
                members.push(Member {
                    name: format!("{name}_{}", ['x', 'y', 'z', 'w'][lane as usize]),
                    offset: v.offset + 4 * lane,
                    shape: Shape::Scalar,
                    kind,
                    split: Some(Split { name: name.clone(), width, first, lane }),
                });
            }
            cursor = v.offset + 4 * width;
            continue;
        }
        if v.offset % shape.align() != 0 {
            return Err(Fallback::Misaligned);
        }
        // A declaration shorter than RDEF's buffer ends inside the variable.
        if v.offset + shape.size() > end {
            shape = Shape::Rows((end - v.offset) / 16);
        }
        pad(&mut members, cursor, v.offset);
        members.push(Member { name, offset: v.offset, shape, kind, split: None });
        cursor = v.offset + shape.size();
    }
    pad(&mut members, cursor, end);
    Ok(Layout { rows, members })
}

/// Explicit padding members over bytes `from..to` (multiples of four),
/// each at its WGSL alignment.
fn pad(members: &mut Vec<Member>, mut from: u32, to: u32) {
    while from < to {
        let left = to - from;
        let shape = if from.is_multiple_of(16) && left >= 16 {
            Shape::Rows(left / 16)
        } else if from.is_multiple_of(16) && left == 12 {
            Shape::Vector(3)
        } else if from.is_multiple_of(8) && left >= 8 {
            Shape::Vector(2)
        } else {
            Shape::Scalar
        };
        let name = match shape {
            Shape::Rows(n) if n > 1 => format!("pad_{}_to_{}", from / 16, (from / 16 + n - 1)),
            other => format!("pad_{}", lanes_name(from, other.size() / 4)),
        };
        members.push(Member { name, offset: from, shape, kind: K::U, split: None });
        from += shape.size();
    }
}

/// `5yzw`: the register of byte `offset` and `n` lanes from its component.
fn lanes_name(offset: u32, n: u32) -> String {
    let first = offset % 16 / 4;
    let lanes: String = (first..(first + n).min(4)).map(|c| ['x', 'y', 'z', 'w'][c as usize]).collect();
    format!("{}{lanes}", offset / 16)
}

/// Per constant buffer id, the RDEF variables of each single buffer the
/// program reads only by static rows (the others, and every buffer of a
/// program that selects buffers by register, keep the array of rows).
pub(crate) fn candidates(shader: &dxbc::Shader) -> BTreeMap<u32, Vec<Variable>> {
    let mut out = BTreeMap::new();
    let (Some(p), Some(rdef)) = (&shader.program, &shader.rdef) else { return out };
    // SM5.1 names a buffer by range id, then register, then row.
    let sm51 = p.version.is_sm51();
    let (dims, row) = if sm51 { (3, 2) } else { (2, 1) };
    let mut dynamic = BTreeSet::new();
    for op in p.operands.iter().filter(|o| o.operand_type() == Some(OT::ConstantBuffer)) {
        if op.index_dim() != dims || op.index[..row].iter().any(|i| i.rel != NO_OPERAND) {
            return BTreeMap::new();
        }
        if op.index[row].rel != NO_OPERAND {
            dynamic.insert(op.index[0].imm);
        }
    }
    for b in rdef.bindings.iter().filter(|b| b.input_type == 0 && b.bind_count <= 1) {
        let id = if sm51 { b.id.unwrap_or(b.bind_point) } else { b.bind_point };
        if dynamic.contains(&u64::from(id)) {
            continue;
        }
        let Some(cb) = rdef.constant_buffers.iter().find(|c| c.name == b.name && c.kind == 0) else { continue };
        out.insert(id, cb.variables.iter().map(Variable::of).collect());
    }
    out
}

/// The WGSL name of a buffer's struct type: its variable's name with a
/// capital (`cbPerFrame` → `CbPerFrame`), `_t` appended when that changes nothing.
fn type_name(var: &str) -> String {
    let mut chars = var.chars();
    let capital: String = chars.next().map(|c| c.to_ascii_uppercase()).into_iter().chain(chars).collect();
    if capital == var {
        format!("{var}_t")
    } else {
        capital
    }
}

impl Lower<'_> {
    /// The struct type of buffer `var_name` laid out as `l`.
    pub(crate) fn cbuffer_struct_type(&mut self, var_name: &str, l: &Layout) -> Handle<Type> {
        let members = l
            .members
            .iter()
            .map(|m| {
                let scalar = m.kind.scalar();
                let inner = match m.shape {
                    Shape::Scalar => TypeInner::Scalar(scalar),
                    Shape::Vector(n) => TypeInner::Vector {
                        size: crate::regs::vector_size(n as usize).unwrap_or(VectorSize::Quad),
                        scalar,
                    },
                    Shape::Matrix(n) => TypeInner::Matrix {
                        columns: crate::regs::vector_size(n as usize).unwrap_or(VectorSize::Quad),
                        rows: VectorSize::Quad,
                        scalar,
                    },
                    Shape::Rows(n) => {
                        let base = self.ty(TypeInner::Vector { size: VectorSize::Quad, scalar });
                        TypeInner::Array {
                            base,
                            size: ArraySize::Constant(
                                std::num::NonZeroU32::new(n).unwrap_or(std::num::NonZeroU32::MIN),
                            ),
                            stride: 16,
                        }
                    }
                };
                StructMember { name: Some(m.name.clone()), ty: self.ty(inner), binding: None, offset: m.offset }
            })
            .collect();
        let inner = TypeInner::Struct { members, span: l.rows.saturating_mul(16) };
        self.module.types.insert(Type { name: Some(type_name(var_name)), inner }, Span::UNDEFINED)
    }

    /// Lanes `sel` (components of row `row`) of struct buffer `g` laid out
    /// as `l`, in kind `want` (None: the first member's kind): each run of
    /// lanes in one member (or one register of it) is a swizzle of that
    /// member's load, and runs over several members are composed.
    pub(crate) fn read_cbuffer_members(
        &mut self,
        (id, g, l): (u32, Handle<GlobalVariable>, &Layout),
        row: u32,
        sel: &[u32],
        want: Option<K>,
        at: usize,
    ) -> Result<(H, K), TranslateError> {
        // Runs of lanes in the same member register: (member, register,
        // components). A read selects four lanes at most.
        let mut runs: Lanes<(usize, Option<u32>, Lanes<u32>)> = Lanes::new();
        for &c in sel.iter().take(4) {
            let Some(place) = l.place(row.saturating_mul(16).saturating_add(c * 4)) else {
                return malformed(format!("cb{id}[{row}] is past the buffer's end"), at);
            };
            // A split vector's lanes are components of the vector.
            let (member, component) = match &l.members[place.member].split {
                Some(s) => (s.first, s.lane),
                None => (place.member, place.component),
            };
            match runs.last_mut() {
                Some((m, r, comps)) if *m == member && *r == place.register => comps.push(component),
                _ => runs.push((member, place.register, [component].into_iter().collect())),
            }
        }
        let k = want.unwrap_or_else(|| runs.first().map_or(K::F, |r| l.members[r.0].kind));
        let mut parts: Lanes<H> = Lanes::new();
        for (member, register, comps) in runs {
            let m = &l.members[member];
            let v = match &m.split {
                Some(s) => self.cbuffer_split_value(id, g, l, s),
                None => self.cbuffer_member_value(id, g, member, m, register),
            };
            let width = match (m.shape, register) {
                _ if m.split.is_some() => m.split.as_ref().map_or(1, |s| s.width),
                (Shape::Scalar, _) => 1,
                (Shape::Vector(n), None) => n,
                _ => 4,
            };
            let lanes = if width == 1 {
                match crate::regs::vector_size(comps.len()) {
                    Some(size) => self.e(E::Splat { size, value: v }),
                    None => v,
                }
            } else if comps.len() == width as usize && comps.iter().enumerate().all(|(i, &c)| c == i as u32) {
                v
            } else {
                self.select_lanes(v, &comps)
            };
            parts.push(self.bitcast(lanes, m.kind, k));
        }
        if parts.len() == 1 {
            return Ok((parts[0], k));
        }
        let size = crate::regs::vector_size(sel.len()).unwrap_or(VectorSize::Quad);
        let ty = self.ty(TypeInner::Vector { size, scalar: k.scalar() });
        Ok((self.e(E::Compose { ty, components: parts.to_vec() }), k))
    }

    /// A split vector: its lanes' members composed, once per block, named
    /// after the variable.
    fn cbuffer_split_value(&mut self, id: u32, g: Handle<GlobalVariable>, l: &Layout, s: &Split) -> H {
        use crate::regs::LoadKey;
        let key = LoadKey::CbSplit(id, s.first as u32);
        if let Some(&h) = self.loads.get(&key) {
            return h;
        }
        let lanes: Vec<H> = (0..s.width as usize)
            .map(|i| {
                let index = s.first + i;
                self.cbuffer_member_value(id, g, index, &l.members[index], None)
            })
            .collect();
        let kind = l.members[s.first].kind;
        let size = crate::regs::vector_size(s.width as usize).unwrap_or(VectorSize::Quad);
        let ty = self.ty(TypeInner::Vector { size, scalar: kind.scalar() });
        let h = self.e(E::Compose { ty, components: lanes });
        self.f.named_expressions.insert(h, s.name.clone());
        self.loads.insert(key, h);
        h
    }

    /// Member `member` of struct buffer `g` (its register `register` for an
    /// array), loaded once per block and named after the member.
    fn cbuffer_member_value(
        &mut self,
        id: u32,
        g: Handle<GlobalVariable>,
        member: usize,
        m: &Member,
        register: Option<u32>,
    ) -> H {
        use crate::regs::LoadKey;
        // A matrix is loaded whole and its columns taken from the value.
        let load_register = if matches!(m.shape, Shape::Rows(_)) { register } else { None };
        let key = LoadKey::CbMember(id, member as u32, load_register.unwrap_or(u32::MAX));
        let value = match self.loads.get(&key) {
            Some(&h) => h,
            None => {
                let base = self.e(E::GlobalVariable(g));
                let mut ptr = self.e(E::AccessIndex { base, index: member as u32 });
                if let Some(r) = load_register {
                    ptr = self.e(E::AccessIndex { base: ptr, index: r });
                }
                let h = self.e(E::Load { pointer: ptr });
                let name = match load_register {
                    Some(r) => format!("{}_{r}", m.name),
                    None => m.name.clone(),
                };
                self.f.named_expressions.insert(h, name);
                self.loads.insert(key, h);
                h
            }
        };
        match (m.shape, register) {
            (Shape::Matrix(_), Some(r)) => self.e(E::AccessIndex { base: value, index: r }),
            _ => value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(name: &str, offset: u32, class: VC, base: VT, rows: u16, columns: u16, elements: u16) -> Variable {
        let words = u32::from(rows.max(1)) * u32::from(columns.max(1));
        Variable {
            name: name.into(),
            offset,
            size: 4 * words,
            class: class as u16,
            base_type: base as u16,
            rows,
            columns,
            elements,
        }
    }

    /// fxc's packing of `float4x4 m; float3 dir; float s; float2 uv; int n;`
    /// in a buffer declared with 7 rows: WGSL's own layout of the members,
    /// padding included, is the D3D one.
    #[test]
    fn packs_like_d3d_with_explicit_padding() {
        let vars = vec![
            var("m", 0, VC::MatrixColumns, VT::Float, 4, 4, 0),
            var("dir", 64, VC::Vector, VT::Float, 1, 3, 0),
            var("s", 76, VC::Scalar, VT::Float, 1, 1, 0),
            var("uv", 80, VC::Vector, VT::Float, 1, 2, 0),
            var("n", 88, VC::Scalar, VT::Int, 1, 1, 0),
        ];
        let l = layout(&vars, 7).unwrap();
        let got: Vec<(&str, u32, Shape)> = l.members.iter().map(|m| (m.name.as_str(), m.offset, m.shape)).collect();
        assert_eq!(
            got,
            vec![
                ("m", 0, Shape::Matrix(4)),
                ("dir", 64, Shape::Vector(3)),
                ("s", 76, Shape::Scalar),
                ("uv", 80, Shape::Vector(2)),
                ("n", 88, Shape::Scalar),
                ("pad_5w", 92, Shape::Scalar),
                ("pad_6xyzw", 96, Shape::Rows(1)),
            ]
        );
        // cb0[5].w is the padding word, cb0[1].z the matrix's register 1.
        assert_eq!(l.place(5 * 16 + 12), Some(Place { member: 5, register: None, component: 0 }));
        assert_eq!(l.place(16 + 8), Some(Place { member: 0, register: Some(1), component: 2 }));
        assert_eq!(l.place(7 * 16), None);
    }

    /// A float3 after a float is packed into `.yzw` by D3D, where WGSL's
    /// vec3 cannot sit: its lanes become scalars of one split vector.
    #[test]
    fn splits_a_misaligned_vector() {
        let vars = vec![var("a", 0, VC::Scalar, VT::Float, 1, 1, 0), var("b", 4, VC::Vector, VT::Float, 1, 3, 0)];
        let l = layout(&vars, 1).unwrap();
        let got: Vec<(&str, u32, Shape)> = l.members.iter().map(|m| (m.name.as_str(), m.offset, m.shape)).collect();
        assert_eq!(
            got,
            vec![
                ("a", 0, Shape::Scalar),
                ("b_x", 4, Shape::Scalar),
                ("b_y", 8, Shape::Scalar),
                ("b_z", 12, Shape::Scalar)
            ]
        );
        let split = |lane| Some(Split { name: "b".into(), width: 3, first: 1, lane });
        assert_eq!(l.members[3].split, split(2));
        assert_eq!(l.members[1].split, split(0));
    }

    /// Found by the translate fuzz target: a damaged RDEF put a float3 at
    /// byte 53; its lanes were split at bytes 53, 57 and 61, which overlap
    /// the word before them, and naga refused the struct. A member off a
    /// 32-bit word keeps the buffer as rows.
    #[test]
    fn refuses_a_variable_off_a_word() {
        let vars = vec![var("a", 48, VC::Scalar, VT::Float, 1, 1, 0), var("b", 53, VC::Vector, VT::Float, 1, 3, 0)];
        assert_eq!(layout(&vars, 4).err(), Some(Fallback::Misaligned));
        let vars = vec![var("c", 6, VC::Scalar, VT::Float, 1, 1, 0)];
        assert_eq!(layout(&vars, 1).err(), Some(Fallback::Misaligned));
    }

    /// `float w[3]; float t;`: D3D puts t in the array's last register.
    #[test]
    fn refuses_a_variable_packed_after_an_array() {
        let mut w = var("w", 0, VC::Scalar, VT::Float, 1, 1, 3);
        w.size = 36;
        let vars = vec![w, var("t", 36, VC::Scalar, VT::Float, 1, 1, 0)];
        assert_eq!(layout(&vars, 3), Err(Fallback::Packed));
    }
}
