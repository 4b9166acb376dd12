//! The program as fields: an editable model with no stored token words.
//!
//! [`super::Program`] is the decoder's view: flat vectors of the tokens as
//! stored, with offsets, built for speed. This module is the editor's view:
//! every bitfield of every token is a named, typed field (the enums
//! generated from [`crate::spec`]), bits the format leaves unused are kept in
//! explicit `reserved` fields, and nothing stores a raw token. [`encode`]
//! packs each token through the table's bitfield definitions and computes
//! every length (instruction, custom data, program), so the bytes follow
//! from the fields alone; a program lifted from a decoded one
//! ([`Program::from_decoded`]) encodes to the original bytes.
//!
//! Layout of a declaration's payload (which dwords come before or after its
//! operand) comes from [`crate::spec::layout`], so the model holds only the
//! operands and the payload words in order.

mod encode;
mod lift;
#[cfg(test)]
mod tests;

pub use encode::encode;

use crate::spec::{
    CbAccessPattern, CustomdataClass, ExtendedOperandType, InstructionReturnType, InterpolationMode, MinPrecision,
    Opcode, OperandModifier, OperandType, Primitive, PrimitiveTopology, ProgramType, ResinfoReturnType,
    ResourceDimension, ReturnType, SamplerMode, SystemName, TessDomain, TessOutputPrimitive, TessPartitioning,
    TestBoolean,
};

/// A whole program chunk.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The version token.
    pub version: Version,
    /// Instructions, declarations and custom-data blocks in order.
    pub instructions: Vec<Instruction>,
    /// Bytes after the first decoding fault, written back as they were
    /// (counted in the program length).
    pub undecoded: Vec<u8>,
    /// Bytes of the chunk after the program's length (not counted).
    pub trailing: Vec<u8>,
}

/// The version token's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    /// Pipeline stage.
    pub program_type: ProgramType,
    /// Major shader model (4 bits).
    pub major: u8,
    /// Minor shader model (4 bits).
    pub minor: u8,
    /// Bits 15:8, unused.
    pub reserved: u8,
}

/// One instruction, declaration or custom-data block.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// What it is.
    pub opcode: Opcode,
    /// The opcode-specific controls (bits 23:11), by name.
    pub controls: Controls,
    /// Bits 23:11 that no control field of this opcode covers, in place.
    pub reserved: u32,
    /// How the length is stored.
    pub length_form: LengthForm,
    /// Extended opcode tokens in order.
    pub extended: Vec<ExtendedOpcode>,
    /// Operands in order (for declarations, those [`crate::spec::layout`] names).
    pub operands: Vec<Operand>,
    /// Payload dwords in order: a declaration's payload, an instruction's
    /// padding after its operands, or a custom-data block's contents.
    pub payload: Vec<Payload>,
}

/// Where an instruction's length is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LengthForm {
    /// In bits 30:24 of the opcode token (at most 127 dwords).
    #[default]
    Short,
    /// In a dword after the opcode token (declarations whose payload can be
    /// long, marked by the extended bit). `token_length` is what bits 30:24
    /// of the opcode token hold then (normally 0).
    Long {
        /// Bits 30:24 of the opcode token.
        token_length: u8,
    },
    /// A custom-data block: class in bits 31:11 and the length in the next dword.
    CustomData,
}

/// The opcode-specific controls, one variant per kind of control set in the
/// format table ([`crate::spec::opcode_controls`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Controls {
    /// The opcode has no controls.
    None,
    /// Ordinary instructions.
    Alu { saturate: bool, precise_mask: u8 },
    /// Conditional instructions.
    Test { test: TestBoolean },
    /// resinfo.
    Resinfo { return_type: ResinfoReturnType, saturate: bool, precise_mask: u8 },
    /// sampleinfo / samplepos.
    SampleInfo { return_type: InstructionReturnType, saturate: bool, precise_mask: u8 },
    /// sync.
    Sync { threads_in_group: bool, group_shared_memory: bool, uav_memory_group: bool, uav_memory_global: bool },
    /// dcl_resource.
    Resource { dimension: ResourceDimension, sample_count: u8 },
    /// dcl_constantbuffer.
    ConstantBuffer { access: CbAccessPattern },
    /// dcl_sampler.
    Sampler { mode: SamplerMode },
    /// dcl_input_ps*.
    InputPs { interpolation: InterpolationMode },
    /// dcl_inputprimitive.
    GsInput { primitive: Primitive },
    /// dcl_outputtopology.
    GsOutput { topology: PrimitiveTopology },
    /// Control point counts.
    ControlPoints { count: u8 },
    /// dcl_tessellator_domain.
    TessDomain { domain: TessDomain },
    /// dcl_tessellator_partitioning.
    TessPartitioning { partitioning: TessPartitioning },
    /// dcl_tessellator_output_primitive.
    TessOutput { primitive: TessOutputPrimitive },
    /// dcl_globalFlags.
    GlobalFlags(GlobalFlags),
    /// UAV declarations.
    Uav { dimension: ResourceDimension, globally_coherent: bool, rasterizer_ordered: bool, has_counter: bool },
    /// dcl_interface.
    Interface { dynamically_indexed: bool },
    /// A custom-data block's class (bits 31:11).
    CustomData { class: CustomdataClass },
}

/// dcl_globalFlags, one field per flag of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub struct GlobalFlags {
    pub refactoring_allowed: bool,
    pub enable_double_precision_float_ops: bool,
    pub force_early_depth_stencil: bool,
    pub enable_raw_and_structured_buffers: bool,
    pub skip_optimization: bool,
    pub enable_minimum_precision: bool,
    pub enable_11_1_double_extensions: bool,
    pub enable_11_1_shader_extensions: bool,
    pub all_resources_bound: bool,
    /// Bits 23:20.
    pub reserved: u8,
}

/// An extended opcode token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtendedOpcode {
    /// Immediate texel offsets (`_aoffimmi(u,v,w)`), each -8..=7.
    SampleControls {
        /// u, v, w offsets.
        offsets: [i8; 3],
        /// Bits 8:6.
        reserved_low: u8,
        /// Bits 30:21.
        reserved_high: u16,
    },
    /// The resource's dimension and structure stride.
    ResourceDim {
        /// Dimension.
        dimension: ResourceDimension,
        /// Bytes per structure (12 bits).
        stride: u16,
        /// Bits 30:23.
        reserved: u8,
    },
    /// Per-component return types.
    ResourceReturnType {
        /// x, y, z, w.
        types: [ReturnType; 4],
        /// Bits 30:22.
        reserved: u16,
    },
    /// The empty kind (0) or one the format does not define.
    Other {
        /// Bits 5:0.
        kind: u8,
        /// Bits 30:6.
        payload: u32,
    },
}

/// One operand.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    /// Register file or literal.
    pub ty: OperandType,
    /// Component count and selection.
    pub components: Components,
    /// Bits 11:2 that the component form does not use, in place (normally 0).
    pub reserved: u32,
    /// Extended operand tokens (modifier, precision, non-uniform).
    pub extended: Vec<ExtendedOperand>,
    /// Literal dwords of IMMEDIATE32 / IMMEDIATE64 operands.
    pub immediates: Vec<u32>,
    /// Indices (0 to 3).
    pub indices: Vec<Index>,
}

/// How many components an operand has and which it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Components {
    /// None (samplers, labels, null).
    Zero,
    /// A scalar.
    One,
    /// A write mask (bit 0 = x).
    Mask(u8),
    /// A swizzle: the source component of x, y, z, w.
    Swizzle([u8; 4]),
    /// One component.
    Select1(u8),
}

/// An extended operand token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtendedOperand {
    /// Its kind.
    pub kind: ExtendedOperandType,
    /// Source modifier.
    pub modifier: OperandModifier,
    /// Minimum precision.
    pub min_precision: MinPrecision,
    /// SM5.1 NonUniformResourceIndex.
    pub non_uniform: bool,
    /// Bits 30:18.
    pub reserved: u16,
}

/// One index of an operand: an immediate, a relative operand, or both (summed).
#[derive(Clone, Debug, PartialEq)]
pub struct Index {
    /// The immediate part and its width.
    pub imm: Option<Imm>,
    /// The relative part.
    pub rel: Option<Box<Operand>>,
}

/// An index immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Imm {
    /// One dword.
    U32(u32),
    /// Two dwords, high first.
    U64(u64),
}

/// One payload dword, by what it means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Payload {
    /// A count or number (also custom-data contents and padding).
    Count(u32),
    /// A float.
    Float(f32),
    /// A resource return-type token.
    ReturnType {
        /// x, y, z, w.
        types: [ReturnType; 4],
        /// Bits 31:16.
        reserved: u16,
    },
    /// A system-value name token.
    Name {
        /// The system value.
        name: SystemName,
        /// Bits 31:16.
        reserved: u16,
    },
    /// An SM5.1 register space.
    Space(u32),
    /// dcl_interface's table and array lengths.
    InterfaceLengths {
        /// Number of function tables.
        table: u16,
        /// Number of interface slots.
        array: u16,
    },
}

impl Controls {
    /// The controls an opcode has, all zero / off / first value.
    pub fn default_for(op: Opcode) -> Controls {
        lift::controls_from_bits(op, 0).unwrap_or(Controls::None)
    }
}

impl Instruction {
    /// An instruction with the opcode's default controls, the short length
    /// form, no extended tokens and no payload:
    /// `Instruction::new(Opcode::Mul, [dst, src0, src1])`.
    pub fn new(opcode: Opcode, operands: impl IntoIterator<Item = Operand>) -> Instruction {
        Instruction {
            opcode,
            controls: Controls::default_for(opcode),
            reserved: 0,
            length_form: if opcode == Opcode::Customdata { LengthForm::CustomData } else { LengthForm::Short },
            extended: Vec::new(),
            operands: operands.into_iter().collect(),
            payload: Vec::new(),
        }
    }
    /// A declaration with operands and payload words.
    pub fn declaration(
        opcode: Opcode,
        operands: impl IntoIterator<Item = Operand>,
        payload: impl IntoIterator<Item = Payload>,
    ) -> Instruction {
        Instruction { payload: payload.into_iter().collect(), ..Instruction::new(opcode, operands) }
    }
    /// A custom-data block of class `class` holding `words`.
    pub fn custom_data(class: CustomdataClass, words: impl IntoIterator<Item = u32>) -> Instruction {
        Instruction {
            controls: Controls::CustomData { class },
            payload: words.into_iter().map(Payload::Count).collect(),
            ..Instruction::new(Opcode::Customdata, [])
        }
    }
    /// The immediate constant buffer (`icb[n]`), one vec4 per row.
    pub fn immediate_constant_buffer(rows: &[[u32; 4]]) -> Instruction {
        Instruction::custom_data(CustomdataClass::DclImmediateConstantBuffer, rows.iter().flatten().copied())
    }
    /// The same instruction with `controls`.
    pub fn with_controls(mut self, controls: Controls) -> Instruction {
        self.controls = controls;
        self
    }
    /// Turns saturation on or off; false when the opcode has no such control.
    pub fn set_saturate(&mut self, on: bool) -> bool {
        match &mut self.controls {
            Controls::Alu { saturate, .. }
            | Controls::Resinfo { saturate, .. }
            | Controls::SampleInfo { saturate, .. } => {
                *saturate = on;
                true
            }
            _ => false,
        }
    }
}

impl Operand {
    /// An operand of type `ty` with register index `indices` (plain 32-bit
    /// immediates) and components `components`.
    pub fn new(ty: OperandType, components: Components, indices: &[u32]) -> Operand {
        Operand {
            ty,
            components,
            reserved: 0,
            extended: Vec::new(),
            immediates: Vec::new(),
            indices: indices.iter().map(|&i| Index { imm: Some(Imm::U32(i)), rel: None }).collect(),
        }
    }
    /// Temporary register `r{n}`, all four components written or read in order.
    pub fn temp(n: u32) -> Operand {
        Operand::new(OperandType::Temp, Components::Mask(0xf), &[n])
    }
    /// Input register `v{n}`.
    pub fn input(n: u32) -> Operand {
        Operand::new(OperandType::Input, Components::Swizzle([0, 1, 2, 3]), &[n])
    }
    /// Output register `o{n}`.
    pub fn output(n: u32) -> Operand {
        Operand::new(OperandType::Output, Components::Mask(0xf), &[n])
    }
    /// A four-component 32-bit literal `l(a, b, c, d)`.
    pub fn literal(values: [u32; 4]) -> Operand {
        Operand {
            immediates: values.to_vec(),
            ..Operand::new(OperandType::Immediate32, Components::Swizzle([0, 1, 2, 3]), &[])
        }
    }
    /// A four-component float literal.
    pub fn literal_f32(values: [f32; 4]) -> Operand {
        Operand::literal(values.map(f32::to_bits))
    }
    /// The same operand with a write mask (bit 0 = x).
    pub fn mask(mut self, mask: u8) -> Operand {
        self.components = Components::Mask(mask);
        self
    }
    /// The same operand with a swizzle (0 = x … 3 = w).
    pub fn swizzle(mut self, s: [u8; 4]) -> Operand {
        self.components = Components::Swizzle(s);
        self
    }
    /// The same operand reading one component.
    pub fn select(mut self, c: u8) -> Operand {
        self.components = Components::Select1(c);
        self
    }
    /// The same operand with a source modifier (in a modifier extended token).
    pub fn modifier(mut self, m: OperandModifier) -> Operand {
        match self.extended.iter_mut().find(|e| e.kind == ExtendedOperandType::Modifier) {
            Some(e) => e.modifier = m,
            None => self.extended.push(ExtendedOperand {
                kind: ExtendedOperandType::Modifier,
                modifier: m,
                min_precision: MinPrecision::Default,
                non_uniform: false,
                reserved: 0,
            }),
        }
        self
    }
}

impl Program {
    /// Lifts a decoded program into fields. Fails (naming the offset) on a
    /// value the format table does not define, such as an unknown opcode.
    pub fn from_decoded(p: &super::Program) -> crate::Result<Program> {
        lift::program(p)
    }
    /// Encodes to program chunk bytes.
    pub fn encode(&self) -> crate::Result<Vec<u8>> {
        encode(self)
    }
}
