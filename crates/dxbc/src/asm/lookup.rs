//! Lookups the assembler makes on every line, derived once from the format
//! table ([`crate::spec`]) on first use: mnemonic → opcode, register name →
//! operand type, and the operand-token fields and values the encoder packs.
//! They hold nothing the table does not; they only save scanning it by name.

use crate::spec::{self, EnumDef, FieldDef, OpClass, OpcodeInfo, OPERAND_FIELDS, OPERAND_TYPE};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The derived lookups.
pub(crate) struct Lookup {
    opcodes: HashMap<&'static str, &'static OpcodeInfo>,
    registers: HashMap<String, u32>,
    pub imm32: u32,
    pub imm64: u32,
    pub f: OperandFields,
    pub v: OperandValues,
}

/// Fields of operand token 0 and of the extended operand token.
pub(crate) struct OperandFields {
    pub count: &'static FieldDef,
    pub mode: &'static FieldDef,
    pub select: &'static FieldDef,
    pub ty: &'static FieldDef,
    pub dim: &'static FieldDef,
    pub rep: [&'static FieldDef; 3],
    pub extended: &'static FieldDef,
    pub ext_type: &'static FieldDef,
    pub modifier: &'static FieldDef,
    pub precision: &'static FieldDef,
    pub nonuniform: &'static FieldDef,
}

/// Values those fields take.
pub(crate) struct OperandValues {
    /// 0, 1 and 4 components.
    pub count: [u32; 3],
    /// Mask, swizzle, select-1.
    pub mode: [u32; 3],
    /// 0-D to 3-D.
    pub dim: [u32; 4],
    /// Immediate, relative, immediate plus relative.
    pub rep: [u32; 3],
    pub ext_modifier: u32,
}

/// The lookups, built on first use.
pub(crate) fn get() -> &'static Lookup {
    static L: OnceLock<Lookup> = OnceLock::new();
    L.get_or_init(build)
}

impl Lookup {
    /// The instruction or declaration fxc spells `mnemonic`.
    pub fn opcode(&self, mnemonic: &str) -> Option<&'static OpcodeInfo> {
        self.opcodes.get(mnemonic).copied()
    }

    /// The register file named `name` (SM5.1 capitals accepted); `l` is a
    /// label (immediates are told apart by their parenthesis).
    pub fn register(&self, name: &str) -> Option<u32> {
        self.registers.get(name).or_else(|| self.registers.get(&name.to_ascii_lowercase())).copied()
    }
}

fn field(fields: &'static [FieldDef], name: &str) -> &'static FieldDef {
    // The names are the table's own; a missing one is a bug the unit tests catch.
    spec::field(fields, name).unwrap_or(&fields[0])
}

fn val(e: &EnumDef, name: &str) -> u32 {
    e.from_spec_name(name).unwrap_or(0)
}

fn build() -> Lookup {
    let opcodes = spec::OPCODES
        .iter()
        .filter(|o| o.class != OpClass::Reserved && !o.asm.is_empty())
        .map(|o| (o.asm, o))
        .collect::<HashMap<_, _>>();
    let imm32 = val(&OPERAND_TYPE, "IMMEDIATE32");
    let mut registers = HashMap::new();
    for e in OPERAND_TYPE.values.iter().filter(|e| !e.asm.is_empty() && e.value != imm32) {
        registers.insert(e.asm.to_string(), e.value);
        registers.entry(e.asm.to_ascii_lowercase()).or_insert(e.value);
    }
    let o = OPERAND_FIELDS;
    let x = spec::EXTENDED_OPERAND_FIELDS;
    let f = OperandFields {
        count: field(o, "component count"),
        mode: field(o, "selection mode"),
        select: field(o, "component selection"),
        ty: field(o, "operand type"),
        dim: field(o, "index dimension"),
        rep: [
            field(o, "index 0 representation"),
            field(o, "index 1 representation"),
            field(o, "index 2 representation"),
        ],
        extended: field(o, "extended"),
        ext_type: field(x, "extended operand type"),
        modifier: field(x, "modifier"),
        precision: field(x, "minimum precision"),
        nonuniform: field(x, "non-uniform"),
    };
    let nc = &spec::NUM_COMPONENTS;
    let sm = &spec::SELECTION_MODE;
    let id = &spec::INDEX_DIMENSION;
    let ir = &spec::INDEX_REPRESENTATION;
    let v = OperandValues {
        count: [val(nc, "0_COMPONENT"), val(nc, "1_COMPONENT"), val(nc, "4_COMPONENT")],
        mode: [val(sm, "MASK_MODE"), val(sm, "SWIZZLE_MODE"), val(sm, "SELECT_1_MODE")],
        dim: [val(id, "INDEX_0D"), val(id, "INDEX_1D"), val(id, "INDEX_2D"), val(id, "INDEX_3D")],
        rep: [val(ir, "IMMEDIATE32"), val(ir, "RELATIVE"), val(ir, "IMMEDIATE32_PLUS_RELATIVE")],
        ext_modifier: val(&spec::EXTENDED_OPERAND_TYPE, "MODIFIER"),
    };
    Lookup { opcodes, registers, imm32, imm64: val(&OPERAND_TYPE, "IMMEDIATE64"), f, v }
}
