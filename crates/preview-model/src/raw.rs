//! Constant buffers of shaders without reflection.
//!
//! Shipped shaders are usually stripped of RDEF, so there are no variable
//! names, types or offsets — but the program still declares every
//! constant buffer it reads (`dcl_constantbuffer cb0[242]`). For each
//! declared register range that RDEF does not describe, this module makes
//! a buffer of raw `float4` editors, one per register.
//!
//! Defaults are read off the program so the first picture is not black:
//!
//! * a register dotted (`dp4`/`dp3`) into the position output is a column
//!   of the default view × projection ([`crate::math`]), chosen by the
//!   destination component — fxc's `mul(v, M)` with a column-major matrix;
//! * a register dotted into anything else is a row of the identity (a
//!   world or normal matrix that leaves the mesh where it is);
//! * a register first added (`add`, or the addend of `mad`, not negated) is `(0, 0, 0, 0)`:
//!   offsets and biases that leave the value where it is (an offset of 1
//!   would move texel loads past the edge);
//! * every other register is `(1, 1, 1, 1)`: colours, intensities and
//!   scales that let the inputs through instead of multiplying them by 0.

use crate::controls::{BufferClass, CameraRole, CbufferModel, Control, ControlKind, Scalar, MAX_CONTROLS_PER_BUFFER};
use crate::math;
use crate::Value;
use dxbc::spec::{Opcode, OperandType};
use std::collections::BTreeMap;

/// Most declared buffers that get raw editors (D3D11 binds 14 per stage); a
/// hostile file declaring more cannot multiply the work or the controls.
pub const MAX_RAW_BUFFERS: usize = 16;

/// A `dcl_constantbuffer` of the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclaredCbuffer {
    /// The program's id for it (`cb3` in SM5.0, `CB3[…]` in SM5.1).
    pub id: u32,
    /// Register it binds to (`b#`; equal to `id` before SM5.1).
    pub register: u32,
    /// Register space (SM5.1; 0 before).
    pub space: u32,
    /// Registers (`float4`s) declared, at most 4096.
    pub registers: u32,
}

/// The constant buffers the program declares, in program order (the first
/// [`MAX_RAW_BUFFERS`] distinct registers).
pub fn declared_cbuffers(shader: &dxbc::Shader) -> Vec<DeclaredCbuffer> {
    let Some(p) = &shader.program else { return Vec::new() };
    let mut out: Vec<DeclaredCbuffer> = Vec::new();
    for ins in p.instructions.iter().filter(|i| i.op() == Some(Opcode::DclConstantBuffer)) {
        if out.len() >= MAX_RAW_BUFFERS {
            break;
        }
        let Some(op) = ins.operand(p, 0) else { continue };
        let payload = ins.payload(p);
        let d = if op.index_dim() == 3 {
            DeclaredCbuffer {
                id: op.index[0].imm as u32,
                register: op.index[1].imm as u32,
                registers: payload.first().map_or(0, |x| x.value),
                space: payload.get(1).map_or(0, |x| x.value),
            }
        } else {
            let id = op.index[0].imm as u32;
            DeclaredCbuffer { id, register: id, space: 0, registers: op.index[1].imm as u32 }
        };
        let d = DeclaredCbuffer { registers: d.registers.clamp(1, 4096), ..d };
        if !out.iter().any(|o| o.register == d.register && o.space == d.space) {
            out.push(d);
        }
    }
    out
}

/// What a register's default is, from how the program reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegisterUse {
    /// Dotted into component `c` of the position output.
    PositionColumn(u8),
    /// Dotted into component `c` of something else.
    IdentityRow(u8),
    /// Added: an `add` operand or the addend of a `mad`.
    Addend,
    /// Anything else.
    Other,
}

/// How the program reads each register of constant buffer `id`, where the
/// index is immediate. The first instruction that names a register decides.
pub fn register_uses(shader: &dxbc::Shader, id: u32) -> BTreeMap<u32, RegisterUse> {
    let mut out = BTreeMap::new();
    let Some(p) = &shader.program else { return out };
    // Outputs declared as SV_Position (system value 1).
    let positions: Vec<u32> = p
        .instructions
        .iter()
        .filter(|i| i.op() == Some(Opcode::DclOutputSiv) && i.payload(p).first().is_some_and(|w| w.value == 1))
        .filter_map(|i| i.operand(p, 0).map(|o| o.index[0].imm as u32))
        .collect();
    let sm51 = p.version.major() == 5 && p.version.minor() == 1;
    for ins in &p.instructions {
        let op = ins.op();
        let dot = matches!(op, Some(Opcode::Dp4 | Opcode::Dp3));
        let Some(dst) = ins.operand(p, 0) else { continue };
        // A dot product writes one component.
        let component = match dst.mask() {
            1 => 0u8,
            2 => 1,
            4 => 2,
            8 => 3,
            _ => 0,
        };
        let to_position =
            dst.operand_type() == Some(OperandType::Output) && positions.contains(&(dst.index[0].imm as u32));
        for (k, src) in ins.operands(p).enumerate().skip(1) {
            if src.operand_type() != Some(OperandType::ConstantBuffer) {
                continue;
            }
            let (idx, reg) = if sm51 { (1, 2) } else { (0, 1) };
            if src.index_dim() <= reg || src.index[idx].rel != dxbc::program::NO_OPERAND {
                continue;
            }
            if src.index[0].imm as u32 != id || src.index[reg].rel != dxbc::program::NO_OPERAND {
                continue;
            }
            let u = match op {
                _ if dot && dst.mask().count_ones() == 1 && to_position => RegisterUse::PositionColumn(component),
                _ if dot && dst.mask().count_ones() == 1 => RegisterUse::IdentityRow(component),
                // A negated term is a direction or a position subtracted, not an offset.
                Some(Opcode::Add) if src.modifier(p) & 1 == 0 => RegisterUse::Addend,
                Some(Opcode::Mad) if k == 3 && src.modifier(p) & 1 == 0 => RegisterUse::Addend,
                _ => RegisterUse::Other,
            };
            out.entry(src.index[reg].imm as u32).or_insert(u);
        }
    }
    out
}

/// The default of a register read as `u`.
pub fn register_default(u: RegisterUse) -> [f32; 4] {
    match u {
        RegisterUse::PositionColumn(c) => {
            // Column c of the row-vector view × projection: clip[c] = v · column c.
            let vp = math::mul(&math::default_view(), &math::default_projection());
            [0, 1, 2, 3].map(|r| vp[r][c as usize])
        }
        RegisterUse::IdentityRow(c) => [0, 1, 2, 3].map(|k| (k == c as usize) as u8 as f32),
        RegisterUse::Addend => [0.0; 4],
        RegisterUse::Other => [1.0; 4],
    }
}

/// Raw `float4` buffers for every declared constant buffer that `described`
/// (the buffers from RDEF) does not bind.
pub fn raw_cbuffers(shader: &dxbc::Shader, described: &[CbufferModel]) -> Vec<CbufferModel> {
    let sm51 = shader.program.as_ref().is_some_and(|p| p.version.major() == 5 && p.version.minor() == 1);
    declared_cbuffers(shader)
        .into_iter()
        .filter(|d| {
            !described
                .iter()
                .any(|c| c.class == BufferClass::Constant && c.register == Some(d.register) && c.space == d.space)
        })
        .map(|d| {
            let uses = register_uses(shader, d.id);
            let name = if sm51 { format!("CB{}", d.id) } else { format!("cb{}", d.id) };
            let shown = (d.registers as usize).min(MAX_CONTROLS_PER_BUFFER);
            let controls = (0..shown as u32)
                .map(|i| {
                    let u = uses.get(&i).copied().unwrap_or(RegisterUse::Other);
                    let path = format!("{name}[{i}]");
                    Control {
                        id: format!("{name}/{path}"),
                        label: path.clone(),
                        path,
                        scalar: Scalar::F32,
                        rows: 1,
                        columns: 4,
                        matrix_order: None,
                        kind: ControlKind::Vector { components: 4, min: -10.0, max: 10.0, step: 0.01 },
                        default: Value::Floats(register_default(u).to_vec()),
                        offset: i * 16,
                        size: 16,
                        component_offsets: (0..4).map(|k| i * 16 + k * 4).collect(),
                        used: true,
                        camera: match u {
                            RegisterUse::PositionColumn(c) => Some(CameraRole::ViewProjectionColumn(c)),
                            _ => None,
                        },
                    }
                })
                .collect();
            CbufferModel {
                id: name.clone(),
                name,
                class: BufferClass::Constant,
                register: Some(d.register),
                space: d.space,
                size: d.registers * 16,
                controls,
                truncated: shown < d.registers as usize,
                raw: true,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_beyond_the_cap_get_no_editors() {
        let mut listing = String::from("ps_5_0\n");
        for r in 0..40 {
            listing.push_str(&format!("dcl_constantbuffer cb{r}[4096], immediateIndexed\n"));
        }
        listing.push_str("dcl_output o0.xyzw\nmov o0.xyzw, cb0[0].xyzw\nret\n");
        let bytes = dxbc::asm::assemble(&listing).unwrap();
        let shader = dxbc::Shader::decode(&bytes).unwrap();
        let raw = raw_cbuffers(&shader, &[]);
        assert_eq!(raw.len(), MAX_RAW_BUFFERS);
        assert!(raw.iter().all(|b| b.controls.len() == MAX_CONTROLS_PER_BUFFER && b.truncated && b.size == 4096 * 16));
        assert_eq!(raw[3].register, Some(3));
    }
}
