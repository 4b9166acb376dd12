//! Fields → tokens. Each token starts at zero and every field is put into
//! it through its [`FieldDef`] in the format table (looked up by name), so
//! no bit position is restated here; a value too wide for its field is an
//! error, never silently cut. Lengths are counted from what is written.
//!
//! Error offsets are byte offsets into the encoded program chunk.

use super::lift::{covered, unused_selection_bits};
use super::*;
use crate::error::Error;
use crate::spec::{
    self, ext_operand_token, has_long_length, layout, opcode_token, operand_token, ExtendedOpcodeType, FieldDef,
    IndexRepresentation, Item, NumComponents, SelectionMode, Word,
};

/// Deepest nesting of relative indices written (the decoder's limit).
const MAX_REL_DEPTH: u32 = 4;

/// Encodes `p` to program chunk bytes.
pub fn encode(p: &Program) -> crate::Result<Vec<u8>> {
    let mut w = Enc { words: Vec::new() };
    let v = &p.version;
    let f = spec::VERSION_FIELDS;
    let mut version = 0;
    version = put(f, "minor version", version, v.minor as u32, 0)?;
    version = put(f, "major version", version, v.major as u32, 0)?;
    version = put(f, "reserved", version, v.reserved as u32, 0)?;
    version = put(f, "program type", version, v.program_type as u32, 0)?;
    w.words.push(version);
    w.words.push(0); // the length, once known
    for ins in &p.instructions {
        w.instruction(ins)?;
    }
    if !p.undecoded.len().is_multiple_of(4) {
        return Err(Error::new("undecoded bytes are not whole dwords", w.at()));
    }
    w.words[1] = (w.words.len() + p.undecoded.len() / 4) as u32;
    let mut out = Vec::with_capacity(w.words.len() * 4 + p.undecoded.len() + p.trailing.len());
    for x in &w.words {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out.extend_from_slice(&p.undecoded);
    out.extend_from_slice(&p.trailing);
    Ok(out)
}

/// `token` with the field `name` of `fields` set to `v`.
fn put(fields: &[FieldDef], name: &str, token: u32, v: u32, at: usize) -> crate::Result<u32> {
    let f = fields
        .iter()
        .find(|f| f.name == name)
        .ok_or_else(|| Error::new(format!("the format table has no field {name:?} here"), at))?;
    field(f, token, v, at)
}

/// `token` with field `f` set to `v`, which must fit.
fn field(f: &FieldDef, token: u32, v: u32, at: usize) -> crate::Result<u32> {
    if v > f.mask() >> f.lo {
        return Err(Error::new(format!("{} {v} does not fit in bits {}..={}", f.name, f.lo, f.hi), at));
    }
    Ok(f.put(token, v))
}

struct Enc {
    words: Vec<u32>,
}

impl Enc {
    /// Byte offset of the next dword.
    fn at(&self) -> usize {
        self.words.len() * 4
    }

    fn instruction(&mut self, ins: &Instruction) -> crate::Result<()> {
        let start = self.words.len();
        let at = self.at();
        let code = ins.opcode as u32;
        self.words.push(0);
        let mut token = field(&opcode_token::OPCODE, 0, code, at)?;
        if ins.length_form == LengthForm::CustomData || ins.opcode == Opcode::Customdata {
            let Controls::CustomData { class } = ins.controls else {
                return Err(Error::new("a custom-data block needs custom-data controls", at));
            };
            if ins.opcode != Opcode::Customdata || ins.length_form != LengthForm::CustomData {
                return Err(Error::new("custom-data length form and opcode go together", at));
            }
            if !ins.operands.is_empty() || !ins.extended.is_empty() || ins.reserved != 0 {
                return Err(Error::new("a custom-data block holds only payload words", at));
            }
            self.words[start] = field(&opcode_token::CUSTOMDATA_CLASS, token, class as u32, at)?;
            self.words.push(0);
            for x in &ins.payload {
                let Payload::Count(v) = *x else {
                    return Err(Error::new("custom-data contents are plain dwords", self.at()));
                };
                self.words.push(v);
            }
            self.words[start + 1] = (self.words.len() - start) as u32;
            return Ok(());
        }
        token = self.controls(ins, token, at)?;
        let long = matches!(ins.length_form, LengthForm::Long { .. });
        if long && !has_long_length(ins.opcode as u16) {
            return Err(Error::new("only interface and function declarations store a separate length", at));
        }
        if has_long_length(ins.opcode as u16) && !ins.extended.is_empty() {
            return Err(Error::new("this declaration's extended bit means a length dword, not extended tokens", at));
        }
        if long {
            self.words.push(0);
        }
        for (i, e) in ins.extended.iter().enumerate() {
            let more = i + 1 < ins.extended.len();
            let t = self.extended_opcode(e, more)?;
            self.words.push(t);
        }
        self.body(ins)?;
        let len = (self.words.len() - start) as u32;
        token = field(&opcode_token::EXTENDED, token, (long || !ins.extended.is_empty()) as u32, at)?;
        token = match ins.length_form {
            LengthForm::Long { token_length } => {
                self.words[start + 1] = len;
                field(&opcode_token::LENGTH, token, token_length as u32, at)?
            }
            _ => field(&opcode_token::LENGTH, token, len, at)?,
        };
        self.words[start] = token;
        Ok(())
    }

    /// Packs the controls (and reserved bits) into `token`.
    fn controls(&self, ins: &Instruction, token: u32, at: usize) -> crate::Result<u32> {
        let (table, values) = control_values(&ins.controls);
        let fields = spec::opcode_controls(ins.opcode as u16);
        let same = std::ptr::eq(table, fields) || (table.is_empty() && fields.is_empty());
        if !same {
            return Err(Error::new(format!("these controls do not belong to {:?}", ins.opcode), at));
        }
        let free = opcode_token::CONTROLS.mask() & !covered(fields);
        if ins.reserved & !free != 0 {
            return Err(Error::new("reserved control bits overlap a named field or lie outside bits 23:11", at));
        }
        let mut t = token | ins.reserved;
        for (name, v) in values {
            t = put(fields, name, t, v, at)?;
        }
        Ok(t)
    }

    fn extended_opcode(&self, e: &ExtendedOpcode, more: bool) -> crate::Result<u32> {
        let at = self.at();
        let (kind, values): (u32, Vec<(usize, u32)>) = match *e {
            // Positions in the table's field list: two fields share the name
            // "reserved" in the sample-controls token.
            ExtendedOpcode::SampleControls { offsets, reserved_low, reserved_high } => {
                for o in offsets {
                    if !(-8..=7).contains(&o) {
                        return Err(Error::new(format!("texel offset {o} is outside -8..=7"), at));
                    }
                }
                let four = |o: i8| (o as u32) & 0xf;
                (
                    ExtendedOpcodeType::SampleControls as u32,
                    vec![
                        (1, reserved_low as u32),
                        (2, four(offsets[0])),
                        (3, four(offsets[1])),
                        (4, four(offsets[2])),
                        (5, reserved_high as u32),
                    ],
                )
            }
            ExtendedOpcode::ResourceDim { dimension, stride, reserved } => (
                ExtendedOpcodeType::ResourceDim as u32,
                vec![(1, dimension as u32), (2, stride as u32), (3, reserved as u32)],
            ),
            ExtendedOpcode::ResourceReturnType { types, reserved } => (
                ExtendedOpcodeType::ResourceReturnType as u32,
                vec![
                    (1, types[0] as u32),
                    (2, types[1] as u32),
                    (3, types[2] as u32),
                    (4, types[3] as u32),
                    (5, reserved as u32),
                ],
            ),
            ExtendedOpcode::Other { kind, payload } => (kind as u32, vec![(1, payload)]),
        };
        let fields = spec::extended_opcode_fields(kind);
        let mut t = put(fields, "extended opcode type", 0, kind, at)?;
        if matches!(e, ExtendedOpcode::Other { .. }) != std::ptr::eq(fields, spec::EXT_OTHER_FIELDS) {
            return Err(Error::new(format!("extended opcode kind {kind} has its own fields"), at));
        }
        for (i, v) in values {
            let f = fields.get(i).ok_or_else(|| Error::new("extended opcode field missing from the table", at))?;
            t = field(f, t, v, at)?;
        }
        put(fields, "extended", t, more as u32, at)
    }

    /// Operands and payload in the order the declaration layout gives.
    fn body(&mut self, ins: &Instruction) -> crate::Result<()> {
        let mut ops = ins.operands.iter();
        let mut words = ins.payload.iter();
        match layout(ins.opcode as u16) {
            None => {
                let expected = ins.opcode.info().operands;
                // Unknown counts (-1) take every operand up to the end.
                if expected >= 0 && ins.operands.len() != expected as usize {
                    let n = ins.operands.len();
                    return Err(Error::new(format!("{:?} takes {expected} operands, not {n}", ins.opcode), self.at()));
                }
                for op in ops.by_ref() {
                    self.operand(op, 0)?;
                }
                for x in words.by_ref() {
                    self.payload(x, Word::Count("padding"))?;
                }
            }
            Some(items) => {
                for item in items {
                    match *item {
                        Item::Operand => {
                            let op =
                                ops.next().ok_or_else(|| Error::new("declaration lacks its operand", self.at()))?;
                            self.operand(op, 0)?;
                        }
                        Item::Word(kind) => {
                            let x = words.next().ok_or_else(|| {
                                Error::new(format!("declaration lacks its {}", kind.name()), self.at())
                            })?;
                            self.payload(x, kind)?;
                        }
                        Item::Rest(kind) => {
                            for x in words.by_ref() {
                                self.payload(x, kind)?;
                            }
                        }
                    }
                }
            }
        }
        if ops.next().is_some() || words.next().is_some() {
            return Err(Error::new("more operands or payload than the declaration's layout holds", self.at()));
        }
        Ok(())
    }

    fn payload(&mut self, x: &Payload, kind: Word) -> crate::Result<()> {
        let at = self.at();
        let f = kind.fields();
        let wrong = || Error::new(format!("payload {x:?} where the layout expects a {}", kind.name()), at);
        let v = match (*x, kind) {
            (Payload::Count(v), Word::Count(_)) | (Payload::Space(v), Word::Space) => v,
            // A trailing space may also be read as a count (dcl_constantbuffer).
            (Payload::Space(v), Word::Count(_)) | (Payload::Count(v), Word::Space) => v,
            (Payload::Float(v), Word::Float(_)) => v.to_bits(),
            (Payload::ReturnType { types, reserved }, Word::ReturnType) => {
                let mut t = 0;
                for (c, ty) in ["x", "y", "z", "w"].iter().zip(types) {
                    t = put(f, &format!("return type {c}"), t, ty as u32, at)?;
                }
                put(f, "reserved", t, reserved as u32, at)?
            }
            (Payload::Name { name, reserved }, Word::Name) => {
                let t = put(f, "system value", 0, name as u32, at)?;
                put(f, "reserved", t, reserved as u32, at)?
            }
            (Payload::InterfaceLengths { table, array }, Word::InterfaceLengths) => {
                let t = put(f, "table length", 0, table as u32, at)?;
                put(f, "array length", t, array as u32, at)?
            }
            _ => return Err(wrong()),
        };
        self.words.push(v);
        Ok(())
    }

    fn operand(&mut self, op: &Operand, depth: u32) -> crate::Result<()> {
        let at = self.at();
        if depth > MAX_REL_DEPTH {
            return Err(Error::new("relative indices nested too deeply", at));
        }
        let (count, mode, selection) = match op.components {
            Components::Zero => (NumComponents::Component0, None, 0),
            Components::One => (NumComponents::Component1, None, 0),
            Components::Mask(m) => (NumComponents::Component4, Some(SelectionMode::MaskMode), check(m, 0xf, at)?),
            Components::Swizzle(s) => {
                let mut v = 0;
                for (i, c) in s.iter().enumerate() {
                    v |= check(*c, 3, at)? << (2 * i);
                }
                (NumComponents::Component4, Some(SelectionMode::SwizzleMode), v)
            }
            Components::Select1(c) => (NumComponents::Component4, Some(SelectionMode::Select1Mode), check(c, 3, at)?),
        };
        if op.reserved & !unused_selection_bits(op.components) != 0 {
            return Err(Error::new("reserved operand bits overlap a named field", at));
        }
        if op.indices.len() > operand_token::INDEX_REPRESENTATION.len() {
            return Err(Error::new("an operand has at most 3 indices", at));
        }
        let mut t = op.reserved;
        t = field(&operand_token::COMPONENTS, t, count as u32, at)?;
        if let Some(mode) = mode {
            t = field(&operand_token::SELECTION_MODE, t, mode as u32, at)?;
            t = field(&operand_token::SELECTION, t, selection, at)?;
        }
        t = field(&operand_token::TYPE, t, op.ty as u32, at)?;
        t = field(&operand_token::INDEX_DIMENSION, t, op.indices.len() as u32, at)?;
        for (d, idx) in op.indices.iter().enumerate() {
            let rep = representation(idx).ok_or_else(|| Error::new(format!("index {d} is empty"), at))?;
            t = field(&operand_token::INDEX_REPRESENTATION[d], t, rep as u32, at)?;
        }
        t = field(&operand_token::EXTENDED, t, !op.extended.is_empty() as u32, at)?;
        self.words.push(t);
        for (i, e) in op.extended.iter().enumerate() {
            let more = i + 1 < op.extended.len();
            let at = self.at();
            let mut x = field(&ext_operand_token::TYPE, 0, e.kind as u32, at)?;
            x = field(&ext_operand_token::MODIFIER, x, e.modifier as u32, at)?;
            x = field(&ext_operand_token::MIN_PRECISION, x, e.min_precision as u32, at)?;
            x = field(&ext_operand_token::NON_UNIFORM, x, e.non_uniform as u32, at)?;
            x = field(&ext_operand_token::RESERVED, x, e.reserved as u32, at)?;
            x = field(&ext_operand_token::EXTENDED, x, more as u32, at)?;
            self.words.push(x);
        }
        let n = match count {
            NumComponents::Component4 => 4,
            NumComponents::Component1 => 1,
            _ => 0,
        };
        let want = match op.ty {
            OperandType::Immediate32 => n,
            // A double takes two components (see the decoder).
            OperandType::Immediate64 => n.max(2),
            _ => 0,
        };
        if op.immediates.len() != want {
            let have = op.immediates.len();
            return Err(Error::new(format!("{:?} operand needs {want} immediate dwords, has {have}", op.ty), at));
        }
        self.words.extend_from_slice(&op.immediates);
        for idx in &op.indices {
            match idx.imm {
                Some(Imm::U32(v)) => self.words.push(v),
                // High dword first.
                Some(Imm::U64(v)) => self.words.extend_from_slice(&[(v >> 32) as u32, v as u32]),
                None => {}
            }
            if let Some(rel) = &idx.rel {
                self.operand(rel, depth + 1)?;
            }
        }
        Ok(())
    }
}

/// `v`, checked to be at most `max`.
fn check(v: u8, max: u8, at: usize) -> crate::Result<u32> {
    if v > max {
        return Err(Error::new(format!("component selector {v} is above {max}"), at));
    }
    Ok(v as u32)
}

/// How an index is stored, from which parts it has.
fn representation(idx: &Index) -> Option<IndexRepresentation> {
    use IndexRepresentation as R;
    Some(match (idx.imm, idx.rel.is_some()) {
        (Some(Imm::U32(_)), false) => R::Immediate32,
        (Some(Imm::U64(_)), false) => R::Immediate64,
        (None, true) => R::Relative,
        (Some(Imm::U32(_)), true) => R::Immediate32PlusRelative,
        (Some(Imm::U64(_)), true) => R::Immediate64PlusRelative,
        (None, false) => return None,
    })
}

/// The control table a set of controls belongs to, and its values by field name.
fn control_values(c: &Controls) -> (&'static [FieldDef], Vec<(&'static str, u32)>) {
    use spec::*;
    let b = |x: bool| x as u32;
    match *c {
        Controls::None | Controls::CustomData { .. } => (&[], Vec::new()),
        Controls::Alu { saturate, precise_mask } => {
            (ALU_CONTROLS, vec![("saturate", b(saturate)), ("precise mask", precise_mask as u32)])
        }
        Controls::Test { test } => (TEST_CONTROLS, vec![("test", test as u32)]),
        Controls::Resinfo { return_type, saturate, precise_mask } => (
            RESINFO_CONTROLS,
            vec![("return type", return_type as u32), ("saturate", b(saturate)), ("precise mask", precise_mask as u32)],
        ),
        Controls::SampleInfo { return_type, saturate, precise_mask } => (
            SAMPLEINFO_CONTROLS,
            vec![("return type", return_type as u32), ("saturate", b(saturate)), ("precise mask", precise_mask as u32)],
        ),
        Controls::Sync { threads_in_group, group_shared_memory, uav_memory_group, uav_memory_global } => (
            SYNC_CONTROLS,
            vec![
                ("threads in group", b(threads_in_group)),
                ("group shared memory", b(group_shared_memory)),
                ("uav memory group", b(uav_memory_group)),
                ("uav memory global", b(uav_memory_global)),
            ],
        ),
        Controls::Resource { dimension, sample_count } => (
            DCL_RESOURCE_CONTROLS,
            vec![("resource dimension", dimension as u32), ("sample count", sample_count as u32)],
        ),
        Controls::ConstantBuffer { access } => (DCL_CB_CONTROLS, vec![("access pattern", access as u32)]),
        Controls::Sampler { mode } => (DCL_SAMPLER_CONTROLS, vec![("sampler mode", mode as u32)]),
        Controls::InputPs { interpolation } => (DCL_INPUT_PS_CONTROLS, vec![("interpolation", interpolation as u32)]),
        Controls::GsInput { primitive } => (DCL_GS_INPUT_CONTROLS, vec![("primitive", primitive as u32)]),
        Controls::GsOutput { topology } => (DCL_GS_OUTPUT_CONTROLS, vec![("topology", topology as u32)]),
        Controls::ControlPoints { count } => (DCL_CONTROL_POINT_CONTROLS, vec![("control points", count as u32)]),
        Controls::TessDomain { domain } => (DCL_TESS_DOMAIN_CONTROLS, vec![("domain", domain as u32)]),
        Controls::TessPartitioning { partitioning } => {
            (DCL_TESS_PARTITIONING_CONTROLS, vec![("partitioning", partitioning as u32)])
        }
        Controls::TessOutput { primitive } => (DCL_TESS_OUTPUT_CONTROLS, vec![("output primitive", primitive as u32)]),
        Controls::GlobalFlags(g) => (
            GLOBAL_FLAGS_CONTROLS,
            vec![
                ("refactoringAllowed", b(g.refactoring_allowed)),
                ("enableDoublePrecisionFloatOps", b(g.enable_double_precision_float_ops)),
                ("forceEarlyDepthStencil", b(g.force_early_depth_stencil)),
                ("enableRawAndStructuredBuffers", b(g.enable_raw_and_structured_buffers)),
                ("skipOptimization", b(g.skip_optimization)),
                ("enableMinimumPrecision", b(g.enable_minimum_precision)),
                ("enable11_1DoubleExtensions", b(g.enable_11_1_double_extensions)),
                ("enable11_1ShaderExtensions", b(g.enable_11_1_shader_extensions)),
                ("allResourcesBound", b(g.all_resources_bound)),
                ("reserved", g.reserved as u32),
            ],
        ),
        Controls::Uav { dimension, globally_coherent, rasterizer_ordered, has_counter } => (
            DCL_UAV_CONTROLS,
            vec![
                ("resource dimension", dimension as u32),
                ("globally coherent", b(globally_coherent)),
                ("rasterizer ordered", b(rasterizer_ordered)),
                ("has counter", b(has_counter)),
            ],
        ),
        Controls::Interface { dynamically_indexed } => {
            (DCL_INTERFACE_CONTROLS, vec![("dynamically indexed", b(dynamically_indexed))])
        }
    }
}
