//! Decoded program → fields. Every token is split by the format table's
//! bitfields; a value the table does not define is an error at its offset
//! (the typed model has no place for it).

use super::*;
use crate::error::Error;
use crate::program::{self as decoded, NO_OPERAND};
use crate::spec::{self, ext_operand_token, opcode_token, operand_token, FieldDef, NumComponents, SelectionMode, Word};

/// A field whose value its enumeration does not define.
pub(super) struct Undefined {
    pub field: &'static str,
    pub value: u32,
}

impl Undefined {
    fn at(self, offset: usize) -> Error {
        Error::new(format!("{} {} is not defined by the format", self.field, self.value), offset)
    }
}

/// The value of the field called `name` in `fields` (0 when absent).
pub(super) fn get(fields: &[FieldDef], name: &str, token: u32) -> u32 {
    fields.iter().find(|f| f.name == name).map_or(0, |f| f.get(token))
}

/// `from(value)`, or the field's name and value when undefined.
fn typed<T>(from: fn(u32) -> Option<T>, field: &'static str, value: u32) -> Result<T, Undefined> {
    from(value).ok_or(Undefined { field, value })
}

pub(super) fn program(p: &decoded::Program) -> crate::Result<Program> {
    let v = p.version.0;
    let f = spec::VERSION_FIELDS;
    let version = Version {
        program_type: typed(ProgramType::from_u32, "program type", get(f, "program type", v))
            .map_err(|u| u.at(p.offset))?,
        major: get(f, "major version", v) as u8,
        minor: get(f, "minor version", v) as u8,
        reserved: get(f, "reserved", v) as u8,
    };
    let instructions = p.instructions.iter().map(|ins| instruction(p, ins)).collect::<crate::Result<_>>()?;
    Ok(Program { version, instructions, undecoded: p.undecoded.clone(), trailing: p.trailing.clone() })
}

fn instruction(p: &decoded::Program, ins: &decoded::Instruction) -> crate::Result<Instruction> {
    let at = ins.offset as usize;
    let code = ins.opcode();
    let opcode =
        Opcode::from_u32(code as u32).ok_or_else(|| Error::new(format!("opcode {code} is not defined"), at))?;
    let t = ins.token;
    let payload = ins.payload(p).iter().map(payload_word).collect::<crate::Result<_>>()?;
    if ins.is_customdata() {
        let class = typed(CustomdataClass::from_u32, "custom-data class", opcode_token::CUSTOMDATA_CLASS.get(t))
            .map_err(|u| u.at(at))?;
        return Ok(Instruction {
            opcode,
            controls: Controls::CustomData { class },
            reserved: 0,
            length_form: LengthForm::CustomData,
            extended: Vec::new(),
            operands: Vec::new(),
            payload,
        });
    }
    let controls = controls_from_bits(opcode, t).map_err(|u| u.at(at))?;
    let reserved = t & opcode_token::CONTROLS.mask() & !covered(spec::opcode_controls(code));
    let length_form = match ins.long_length {
        Some(_) => LengthForm::Long { token_length: opcode_token::LENGTH.get(t) as u8 },
        None => LengthForm::Short,
    };
    let mut extended = Vec::with_capacity(ins.n_ext as usize);
    for (i, &e) in ins.ext(p).iter().enumerate() {
        extended.push(extended_opcode(e).map_err(|u| u.at(at + 4 * (1 + i)))?);
    }
    let operands = ins.operands(p).map(|op| operand(p, op, 0)).collect::<crate::Result<_>>()?;
    Ok(Instruction { opcode, controls, reserved, length_form, extended, operands, payload })
}

/// Bits covered by `fields`.
pub(super) fn covered(fields: &[FieldDef]) -> u32 {
    fields.iter().fold(0, |m, f| m | f.mask())
}

/// The controls of `op` read from opcode token `t`.
pub(super) fn controls_from_bits(op: Opcode, t: u32) -> Result<Controls, Undefined> {
    use spec::*;
    let fields = opcode_controls(op as u16);
    let is = |table: &[FieldDef]| std::ptr::eq(fields, table);
    let g = |name: &str| get(fields, name, t);
    let flag = |name: &str| g(name) != 0;
    Ok(if is(ALU_CONTROLS) {
        Controls::Alu { saturate: flag("saturate"), precise_mask: g("precise mask") as u8 }
    } else if is(TEST_CONTROLS) {
        Controls::Test { test: typed(TestBoolean::from_u32, "test", g("test"))? }
    } else if is(RESINFO_CONTROLS) {
        Controls::Resinfo {
            return_type: typed(ResinfoReturnType::from_u32, "resinfo return type", g("return type"))?,
            saturate: flag("saturate"),
            precise_mask: g("precise mask") as u8,
        }
    } else if is(SAMPLEINFO_CONTROLS) {
        Controls::SampleInfo {
            return_type: typed(InstructionReturnType::from_u32, "return type", g("return type"))?,
            saturate: flag("saturate"),
            precise_mask: g("precise mask") as u8,
        }
    } else if is(SYNC_CONTROLS) {
        Controls::Sync {
            threads_in_group: flag("threads in group"),
            group_shared_memory: flag("group shared memory"),
            uav_memory_group: flag("uav memory group"),
            uav_memory_global: flag("uav memory global"),
        }
    } else if is(DCL_RESOURCE_CONTROLS) {
        Controls::Resource {
            dimension: typed(ResourceDimension::from_u32, "resource dimension", g("resource dimension"))?,
            sample_count: g("sample count") as u8,
        }
    } else if is(DCL_CB_CONTROLS) {
        Controls::ConstantBuffer { access: typed(CbAccessPattern::from_u32, "access pattern", g("access pattern"))? }
    } else if is(DCL_SAMPLER_CONTROLS) {
        Controls::Sampler { mode: typed(SamplerMode::from_u32, "sampler mode", g("sampler mode"))? }
    } else if is(DCL_INPUT_PS_CONTROLS) {
        Controls::InputPs { interpolation: typed(InterpolationMode::from_u32, "interpolation", g("interpolation"))? }
    } else if is(DCL_GS_INPUT_CONTROLS) {
        Controls::GsInput { primitive: typed(Primitive::from_u32, "primitive", g("primitive"))? }
    } else if is(DCL_GS_OUTPUT_CONTROLS) {
        Controls::GsOutput { topology: typed(PrimitiveTopology::from_u32, "topology", g("topology"))? }
    } else if is(DCL_CONTROL_POINT_CONTROLS) {
        Controls::ControlPoints { count: g("control points") as u8 }
    } else if is(DCL_TESS_DOMAIN_CONTROLS) {
        Controls::TessDomain { domain: typed(TessDomain::from_u32, "domain", g("domain"))? }
    } else if is(DCL_TESS_PARTITIONING_CONTROLS) {
        Controls::TessPartitioning {
            partitioning: typed(TessPartitioning::from_u32, "partitioning", g("partitioning"))?,
        }
    } else if is(DCL_TESS_OUTPUT_CONTROLS) {
        Controls::TessOutput {
            primitive: typed(TessOutputPrimitive::from_u32, "output primitive", g("output primitive"))?,
        }
    } else if is(GLOBAL_FLAGS_CONTROLS) {
        Controls::GlobalFlags(GlobalFlags {
            refactoring_allowed: flag("refactoringAllowed"),
            enable_double_precision_float_ops: flag("enableDoublePrecisionFloatOps"),
            force_early_depth_stencil: flag("forceEarlyDepthStencil"),
            enable_raw_and_structured_buffers: flag("enableRawAndStructuredBuffers"),
            skip_optimization: flag("skipOptimization"),
            enable_minimum_precision: flag("enableMinimumPrecision"),
            enable_11_1_double_extensions: flag("enable11_1DoubleExtensions"),
            enable_11_1_shader_extensions: flag("enable11_1ShaderExtensions"),
            all_resources_bound: flag("allResourcesBound"),
            reserved: g("reserved") as u8,
        })
    } else if is(DCL_UAV_CONTROLS) {
        Controls::Uav {
            dimension: typed(ResourceDimension::from_u32, "resource dimension", g("resource dimension"))?,
            globally_coherent: flag("globally coherent"),
            rasterizer_ordered: flag("rasterizer ordered"),
            has_counter: flag("has counter"),
        }
    } else if is(DCL_INTERFACE_CONTROLS) {
        Controls::Interface { dynamically_indexed: flag("dynamically indexed") }
    } else if op == Opcode::Customdata {
        Controls::CustomData {
            class: typed(CustomdataClass::from_u32, "custom-data class", opcode_token::CUSTOMDATA_CLASS.get(t))?,
        }
    } else {
        Controls::None
    })
}

fn extended_opcode(e: u32) -> Result<ExtendedOpcode, Undefined> {
    use spec::ExtendedOpcodeType as K;
    let fields = spec::extended_opcode_fields(e);
    let g = |name: &str| get(fields, name, e);
    let kind = g("extended opcode type");
    // Two fields share the name "reserved" here, so they are read by position.
    let nth = |i: usize| fields.get(i).map_or(0, |f| f.get(e));
    let rt = |c: &str| typed(ReturnType::from_u32, "return type", g(&format!("return type {c}")));
    Ok(match K::from_u32(kind) {
        Some(K::SampleControls) => {
            // 4-bit two's complement offsets.
            let sx = |v: u32| ((v << 28) as i32 >> 28) as i8;
            ExtendedOpcode::SampleControls {
                offsets: [sx(g("u offset")), sx(g("v offset")), sx(g("w offset"))],
                reserved_low: nth(1) as u8,
                reserved_high: nth(5) as u16,
            }
        }
        Some(K::ResourceDim) => ExtendedOpcode::ResourceDim {
            dimension: typed(ResourceDimension::from_u32, "resource dimension", g("resource dimension"))?,
            stride: g("structure stride") as u16,
            reserved: g("reserved") as u8,
        },
        Some(K::ResourceReturnType) => ExtendedOpcode::ResourceReturnType {
            types: [rt("x")?, rt("y")?, rt("z")?, rt("w")?],
            reserved: g("reserved") as u16,
        },
        _ => ExtendedOpcode::Other { kind: kind as u8, payload: g("payload") },
    })
}

fn operand(p: &decoded::Program, op: &decoded::Operand, depth: u32) -> crate::Result<Operand> {
    let at = op.offset as usize;
    let t = op.token;
    let ty = typed(OperandType::from_u32, "operand type", op.ty()).map_err(|u| u.at(at))?;
    let sel = operand_token::SELECTION.get(t);
    let components = match NumComponents::from_u32(op.num_components()) {
        Some(NumComponents::Component0) => Components::Zero,
        Some(NumComponents::Component1) => Components::One,
        Some(NumComponents::Component4) => match op.selection() {
            Some(SelectionMode::MaskMode) => Components::Mask((sel & 0xf) as u8),
            Some(SelectionMode::SwizzleMode) => Components::Swizzle(op.swizzle().map(|c| c as u8)),
            Some(SelectionMode::Select1Mode) => Components::Select1((sel & 3) as u8),
            None => return Err(Error::new(format!("selection mode {} is not defined", op.selection_mode()), at)),
        },
        _ => return Err(Error::new("operand uses the N-component form", at)),
    };
    let reserved = t & unused_selection_bits(components);
    let mut extended = Vec::new();
    for (i, &e) in op.ext(p).iter().enumerate() {
        extended.push(extended_operand(e).map_err(|u| u.at(at + 4 * (1 + i)))?);
    }
    let mut indices = Vec::with_capacity(op.index_dim());
    for d in 0..op.index_dim() {
        let idx = op.index[d];
        let rep = typed(spec::IndexRepresentation::from_u32, "index representation", op.index_rep(d))
            .map_err(|u| u.at(at))?;
        use spec::IndexRepresentation as R;
        let imm = match rep {
            R::Relative => None,
            R::Immediate32 | R::Immediate32PlusRelative => Some(Imm::U32(idx.imm as u32)),
            R::Immediate64 | R::Immediate64PlusRelative => Some(Imm::U64(idx.imm)),
        };
        let rel = if rep.is_relative() {
            if idx.rel == NO_OPERAND || depth > 4 {
                return Err(Error::new("relative index without its operand", idx.offset as usize));
            }
            Some(Box::new(operand(p, &p.operands[idx.rel as usize], depth + 1)?))
        } else {
            None
        };
        indices.push(Index { imm, rel });
    }
    Ok(Operand { ty, components, reserved, extended, immediates: op.imm(p).to_vec(), indices })
}

/// Bits of operand token 0 (selection mode and selection) that `c` does not use.
pub(super) fn unused_selection_bits(c: Components) -> u32 {
    let all = operand_token::SELECTION_MODE.mask() | operand_token::SELECTION.mask();
    let used_selection = match c {
        Components::Zero | Components::One => return all,
        Components::Mask(_) => 0xf,
        Components::Swizzle(_) => 0xff,
        Components::Select1(_) => 0x3,
    };
    all & !operand_token::SELECTION_MODE.mask() & !operand_token::SELECTION.put(0, used_selection)
}

fn extended_operand(e: u32) -> Result<ExtendedOperand, Undefined> {
    let f = spec::EXTENDED_OPERAND_FIELDS;
    let kind = ext_operand_token::TYPE.get(e);
    Ok(ExtendedOperand {
        kind: typed(ExtendedOperandType::from_u32, "extended operand type", kind)?,
        modifier: typed(OperandModifier::from_u32, "modifier", ext_operand_token::MODIFIER.get(e))?,
        min_precision: typed(MinPrecision::from_u32, "minimum precision", ext_operand_token::MIN_PRECISION.get(e))?,
        non_uniform: ext_operand_token::NON_UNIFORM.get(e) != 0,
        reserved: get(f, "reserved", e) as u16,
    })
}

fn payload_word(x: &decoded::Payload) -> crate::Result<Payload> {
    let v = x.value;
    let f = x.word.fields();
    let undefined = |u: Undefined| u.at(x.offset as usize);
    Ok(match x.word {
        Word::Count(_) => Payload::Count(v),
        Word::Float(_) => Payload::Float(f32::from_bits(v)),
        Word::Space => Payload::Space(v),
        Word::ReturnType => {
            let rt = |c: &str| {
                typed(ReturnType::from_u32, "return type", get(f, &format!("return type {c}"), v)).map_err(undefined)
            };
            Payload::ReturnType {
                types: [rt("x")?, rt("y")?, rt("z")?, rt("w")?],
                reserved: get(f, "reserved", v) as u16,
            }
        }
        Word::Name => Payload::Name {
            name: typed(SystemName::from_u32, "system value", get(f, "system value", v)).map_err(undefined)?,
            reserved: get(f, "reserved", v) as u16,
        },
        Word::InterfaceLengths => Payload::InterfaceLengths {
            table: get(f, "table length", v) as u16,
            array: get(f, "array length", v) as u16,
        },
    })
}
