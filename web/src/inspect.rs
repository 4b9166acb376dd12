//! What the inspector shows for a span: a title, the raw value, each
//! bitfield with its bits, value, meaning and our explanation, and the
//! instruction the token belongs to with its operands nested under it.

use crate::model::{role_name, Model, SpanKind};
use dxbc::program::TokenRole;
use dxbc::spec::EnumDef;

/// One bitfield row.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldRow {
    /// Field name.
    pub name: &'static str,
    /// Lowest bit.
    pub lo: u8,
    /// Highest bit.
    pub hi: u8,
    /// Raw value.
    pub value: u32,
    /// The value's name (spec name and, where fxc prints it, its spelling).
    pub meaning: String,
    /// What this value means.
    pub value_doc: &'static str,
    /// What the field does.
    pub doc: &'static str,
    /// The values it can name, for a picker (None: a plain number).
    pub choices: Option<Choices>,
}

/// The named values of a field, for the inspector's `<select>`.
#[derive(Clone, Copy, Debug)]
pub enum Choices {
    /// A field of the format table's enumerations.
    Enum(&'static EnumDef),
    /// The opcode field: every instruction the format defines.
    Opcodes,
}

impl PartialEq for Choices {
    fn eq(&self, other: &Choices) -> bool {
        match (self, other) {
            (Choices::Enum(a), Choices::Enum(b)) => std::ptr::eq(*a, *b),
            (Choices::Opcodes, Choices::Opcodes) => true,
            _ => false,
        }
    }
}

impl Choices {
    /// The picker's options, `(value, label)`, in value order; `current`
    /// is among them even when the format does not name it.
    pub fn options(self, current: u32) -> Vec<(u32, String)> {
        let mut out: Vec<(u32, String)> = match self {
            Choices::Enum(e) => e
                .values
                .iter()
                .map(|v| {
                    let label = if v.asm.is_empty() || v.asm == v.spec_name {
                        v.spec_name.to_string()
                    } else if same_words(v.asm, v.spec_name) {
                        // DCL_IMMEDIATE_CONSTANT_BUFFER is dcl_immediateConstantBuffer:
                        // one spelling is enough, and fxc's is the one the listing shows.
                        v.asm.to_string()
                    } else {
                        format!("{} ({})", v.spec_name, v.asm)
                    };
                    (v.value, label)
                })
                .collect(),
            Choices::Opcodes => dxbc::spec::OPCODES
                .iter()
                .filter(|o| o.class != dxbc::spec::OpClass::Reserved)
                .map(|o| (o.code as u32, format!("{} ({})", o.asm, o.code)))
                .collect(),
        };
        if !out.iter().any(|o| o.0 == current) {
            out.push((current, format!("{current} (not defined)")));
        }
        out.sort_by_key(|o| o.0);
        out
    }
}

/// Whether two spellings are the same words, ignoring case and underscores.
fn same_words(a: &str, b: &str) -> bool {
    let letters = |s: &str| s.chars().filter(|&c| c != '_').map(|c| c.to_ascii_lowercase()).collect::<String>();
    letters(a) == letters(b)
}

/// A picker's option: its value and label.
pub type PickerOption = (u32, String);

/// Pickers with more values than this show only the current one in the
/// frame that shows the token ([`options_now_and_later`]).
pub const EAGER_OPTIONS: usize = 16;

/// A picker's options (as [`Choices::options`] gives them) split into those
/// drawn with the token and those added once that frame has painted: all
/// of a short menu now; of a long one (the opcode's two hundred values),
/// only the current value now, the others, in value order, later.
/// Building them all was most of a selection's script and style work.
pub fn options_now_and_later(all: Vec<PickerOption>, current: u32) -> (Vec<PickerOption>, Vec<PickerOption>) {
    if all.len() > EAGER_OPTIONS {
        all.into_iter().partition(|o| o.0 == current)
    } else {
        (all, Vec::new())
    }
}

/// The test id of a field's editor: `field-` and the name as `dxbc dump`
/// prints it, lower case, spaces as dashes (`field-component-selection`).
pub fn field_testid(name: &str) -> String {
    let mut id = String::from("field-");
    id.extend(name.chars().map(|c| if c == ' ' { '-' } else { c.to_ascii_lowercase() }));
    id
}

/// How the inspector words a refused edit: the engine's message, which
/// names the field (and the decoder's offset when the edit would break the
/// file), as one sentence.
pub fn refusal(e: &dxbc::edit::EditError) -> String {
    let m = e.message.trim_end_matches('.');
    match m.strip_prefix("refused: ") {
        Some(rest) => format!("Refused: {rest}."),
        None => format!("Not edited: {m}."),
    }
}

/// One token of the instruction tree.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeRow {
    /// Nesting depth (0: the instruction's own tokens, 1: operands, 2: their parts).
    pub depth: u8,
    /// Span index (for selecting).
    pub span: usize,
    /// Byte offset.
    pub offset: u32,
    /// Role, e.g. "operand token".
    pub role: String,
    /// What it says, e.g. the operand as printed.
    pub text: String,
}

/// Everything the inspector shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspection {
    /// e.g. "operand token" or "SHEX chunk header".
    pub title: String,
    /// Byte offset.
    pub offset: u32,
    /// Length in bytes.
    pub len: u32,
    /// The dword value, for 4-byte spans.
    pub value: Option<u32>,
    /// A sentence about the span as a whole.
    pub about: String,
    /// Bitfields (program tokens).
    pub fields: Vec<FieldRow>,
    /// The instruction: its listing text and explanation.
    pub instruction: Option<(String, String)>,
    /// Its tokens, operands nested.
    pub tree: Vec<TreeRow>,
    /// The leaf field (spans outside the program's tokens).
    pub leaf: Option<LeafRow>,
    /// The token is a number as a whole (an immediate, an index, a
    /// payload dword without fields): its editor sets the whole dword.
    pub whole_value: bool,
}

/// A leaf field of `dxbc::spans`, as the inspector shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct LeafRow {
    /// Where it sits, e.g. `RDEF/constant_buffers[0]/name`.
    pub path: String,
    /// The raw value as text.
    pub value: String,
    /// Its decoded meaning, or empty.
    pub meaning: String,
    /// What this kind of field is.
    pub explanation: &'static str,
    /// The editor's text (a number as `0x…`, a string as it is), or None
    /// for raw bytes, which are not a field to edit.
    pub editor: Option<String>,
}

const LEVEL9_DOC: &str = "A token of the level-9 (shader model 2) program that the Aon9 chunk carries for feature level 9 hardware; the line is in the level-9 part of the listing.";

fn leaf_kind_about(k: dxbc::spans::Kind) -> &'static str {
    match k {
        dxbc::spans::Kind::Field => "A field of the container.",
        dxbc::spans::Kind::Padding => "Padding up to a dword boundary.",
        dxbc::spans::Kind::Unreferenced => "Bytes no structure points at.",
        dxbc::spans::Kind::Undecoded => "Bytes of a chunk whose decoding failed.",
    }
}

fn dword_at(m: &Model, o: u32) -> Option<u32> {
    let o = o as usize;
    m.bytes.get(o..o + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Describes span `i`.
pub fn inspect(m: &Model, i: usize) -> Option<Inspection> {
    let s = *m.spans.get(i)?;
    let value = if s.len == 4 { dword_at(m, s.start) } else { None };
    let mut r = Inspection {
        title: String::new(),
        offset: s.start,
        len: s.len,
        value,
        about: String::new(),
        fields: Vec::new(),
        instruction: None,
        tree: Vec::new(),
        leaf: None,
        whole_value: false,
    };
    match s.kind {
        SpanKind::Leaf(l) => {
            let l = m.leaves.get(l as usize)?;
            r.value = None;
            r.title = l.path.clone();
            r.about =
                if l.explanation.is_empty() { leaf_kind_about(l.kind).to_string() } else { l.explanation.to_string() };
            r.leaf = Some(LeafRow {
                path: l.path.clone(),
                value: l.value_text(&m.bytes),
                meaning: l.meaning.to_string(),
                explanation: l.explanation,
                editor: match &l.value {
                    dxbc::spans::Value::Number(_) => Some(l.value_text(&m.bytes)),
                    dxbc::spans::Value::Text(t) => Some(t.clone()),
                    dxbc::spans::Value::Bytes => None,
                },
            });
            if let Some(line) = m.line_of_span(i) {
                r.instruction = Some((m.lines[line].trim().to_string(), LEVEL9_DOC.to_string()));
            }
        }
        SpanKind::Undecoded => {
            r.title = "undecoded bytes".into();
            r.about =
                match m.faults.iter().find(|f| (s.start..s.end()).contains(&(f.offset as u32))).or(m.faults.first()) {
                    Some(f) => format!("Decoding stopped at {:#x}: {}.", f.offset, f.message),
                    None => "Bytes the decoder could not read.".into(),
                };
        }
        SpanKind::Gap => {
            r.title = "unclaimed bytes".into();
            r.about = "No structure of the container points at these bytes (padding or trailing data).".into();
        }
        SpanKind::Token(t) => {
            let tok = &m.tokens[t as usize];
            let p = m.program()?;
            r.title = role_name(&tok.role);
            r.about = role_about(&tok.role);
            r.fields = m
                .fields(i)
                .into_iter()
                .map(|f| {
                    let ev = f.def.values.and_then(|e| e.get(f.value));
                    FieldRow {
                        name: f.name,
                        lo: f.lo,
                        hi: f.hi,
                        value: f.value,
                        meaning: match ev {
                            Some(e) if !e.asm.is_empty() && e.asm != e.spec_name => {
                                format!("{} ({})", e.spec_name, e.asm)
                            }
                            Some(e) => e.spec_name.to_string(),
                            None => String::new(),
                        },
                        value_doc: ev.map_or("", |e| e.doc),
                        doc: f.def.doc,
                        choices: match f.def.values {
                            Some(e) => Some(Choices::Enum(e)),
                            None if f.def.name == "opcode" => Some(Choices::Opcodes),
                            None => None,
                        },
                    }
                })
                .collect();
            r.whole_value = r.fields.is_empty()
                && matches!(tok.role, TokenRole::Immediate { .. } | TokenRole::Index { .. } | TokenRole::Payload(_));
            if let TokenRole::Immediate { .. } | TokenRole::Index { .. } = tok.role {
                r.about.push_str(&format!(
                    " As a float: {}; as a signed integer: {}.",
                    dxbc::value::float_text(tok.value),
                    tok.value as i32
                ));
            }
            if let Some(k) = tok.instruction {
                let ins = &p.instructions[k];
                let line = m.ins_line.get(k).map(|&l| m.lines[l as usize].trim().to_string());
                let doc = ins.info().map_or("Unknown opcode.", |o| o.doc);
                r.instruction = Some((line.unwrap_or_default(), doc.to_string()));
                r.tree = tree(m, k);
            } else {
                r.instruction = Some((
                    p.version.profile(),
                    "The program's first two dwords: which stage and shader model, and how long the program is.".into(),
                ));
            }
        }
    }
    Some(r)
}

fn role_about(r: &TokenRole) -> String {
    match r {
        TokenRole::Version => "Opens the program: shader model and stage.",
        TokenRole::Length => "The whole program's length in dwords.",
        TokenRole::Opcode => "Starts an instruction: which one, its length in dwords, and its controls.",
        TokenRole::InstructionLength => "The real length of a long declaration or custom-data block, in dwords.",
        TokenRole::ExtendedOpcode => {
            "Extra controls of the instruction: texel offsets, resource dimension or return types."
        }
        TokenRole::Operand { .. } => {
            "Describes one operand: register file, components, swizzle or mask, and how its indices are stored."
        }
        TokenRole::ExtendedOperand { .. } => {
            "Modifies the operand: negate/abs, minimum precision, non-uniform indexing."
        }
        TokenRole::Immediate { .. } => "A literal value stored in the instruction stream.",
        TokenRole::Index { .. } => "A register index stored as an immediate.",
        TokenRole::Payload(_) => "A declaration's or custom-data block's payload dword.",
    }
    .to_string()
}

/// The tokens of instruction `k`, operands nested under it.
pub fn tree(m: &Model, k: usize) -> Vec<TreeRow> {
    let Some(p) = m.program() else {
        return Vec::new();
    };
    let ins = &p.instructions[k];
    let ty = ins.info().map_or(dxbc::spec::NumType::Untyped, |o| o.imm);
    let cx = dxbc::listing::program::Ctx::modern(p);
    let top = ins.ops.as_slice();
    let mut out = Vec::new();
    // Tokens are contiguous from the instruction's offset.
    let Some(first) = m.span_starting(ins.offset) else {
        return out;
    };
    let mut depth_of_operand: Vec<(u32, u8)> = Vec::new();
    for si in first..m.spans.len() {
        let Some(t) = m.token(si) else { break };
        if t.instruction != Some(k) {
            break;
        }
        let (depth, text) = match t.role {
            TokenRole::Operand { operand } => {
                let parent_depth = depth_of_operand.last().map_or(0, |d| d.1);
                let d = if top.contains(&operand) { 1 } else { parent_depth + 2 };
                depth_of_operand.push((operand, d));
                let mut s = String::new();
                dxbc::listing::program::write_operand(p, &p.operands[operand as usize], ty, cx, &mut s);
                (d, s)
            }
            TokenRole::ExtendedOperand { operand }
            | TokenRole::Immediate { operand, .. }
            | TokenRole::Index { operand, .. } => {
                let d = depth_of_operand.iter().rev().find(|x| x.0 == operand).map_or(1, |x| x.1);
                (d + 1, format!("{:#010x}", t.value))
            }
            TokenRole::Payload(w) => (1, payload_text(p, t, w)),
            _ => (0, format!("{:#010x}", t.value)),
        };
        out.push(TreeRow { depth, span: si, offset: t.offset as u32, role: role_name(&t.role), text });
    }
    out
}

/// A payload dword as the tree shows it: floats (declared floats and the
/// words of an immediate constant buffer, which fxc's listing also prints
/// as floats) in shortest form with the raw word beside them.
fn payload_text(p: &dxbc::program::Program, t: &dxbc::program::Located, w: dxbc::spec::Word) -> String {
    use dxbc::spec::{CustomdataClass, Word};
    let icb = t.instruction.and_then(|k| p.instructions.get(k)).is_some_and(|ins| {
        ins.is_customdata()
            && CustomdataClass::from_u32(ins.customdata_class()) == Some(CustomdataClass::DclImmediateConstantBuffer)
    });
    if icb || matches!(w, Word::Float(_)) {
        format!("{} = {}", w.name(), dxbc::value::float_with_word(t.value))
    } else {
        format!("{} = {}", w.name(), t.value)
    }
}

/// The 32 cells of the bit ribbon, bit 31 first: for each, the index of
/// the field that owns it (into `fields`) or `None`.
pub fn ribbon(fields: &[FieldRow]) -> Vec<Option<usize>> {
    (0..32u8).rev().map(|b| fields.iter().position(|f| f.lo <= b && b <= f.hi)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operand_token_fields_and_tree() {
        let m = Model::new(dxbc::examples::tint_pixel_shader());
        let p = m.program().unwrap();
        let op = p.instructions[4].offset;
        let i = m.span_starting(op + 4 * 5).unwrap(); // cb0[0] operand token
        let r = inspect(&m, i).unwrap();
        assert_eq!(r.title, "operand token");
        let ty = r.fields.iter().find(|f| f.name == "operand type").unwrap();
        assert_eq!((ty.lo, ty.hi, ty.value), (12, 19, 8));
        assert!(ty.meaning.contains("CONSTANT_BUFFER"), "{}", ty.meaning);
        assert!(!ty.doc.is_empty());
        let (line, doc) = r.instruction.clone().unwrap();
        assert_eq!(line, "mul o0.xyzw, v0.xyzw, cb0[0].xyzw");
        assert!(!doc.is_empty());
        let texts: Vec<(u8, &str)> = r.tree.iter().map(|t| (t.depth, t.text.as_str())).collect();
        assert_eq!(texts[0].0, 0);
        assert_eq!(texts[1], (1, "o0.xyzw"));
        assert_eq!(texts[2].0, 2);
        assert_eq!(texts[5], (1, "cb0[0].xyzw"));
        assert_eq!(r.tree.len(), 8);
        let rb = ribbon(&r.fields);
        assert_eq!(rb.len(), 32);
        assert_eq!(rb[31], Some(0)); // bit 0: component count
        assert_eq!(rb[0], r.fields.iter().position(|f| f.name == "extended"));
        assert_eq!(ty.choices, Some(Choices::Enum(&dxbc::spec::OPERAND_TYPE)));
        let cs = r.fields.iter().find(|f| f.name == "component selection").unwrap();
        assert_eq!(cs.choices, None);
    }

    #[test]
    fn opcode_and_enum_pickers_offer_every_value() {
        let m = Model::new(dxbc::examples::tint_pixel_shader());
        let p = m.program().unwrap();
        let mul = m.span_starting(p.instructions[4].offset).unwrap();
        let r = inspect(&m, mul).unwrap();
        let op = r.fields.iter().find(|f| f.name == "opcode").unwrap();
        let opts = op.choices.unwrap().options(op.value);
        assert!(opts.iter().any(|(v, l)| *v == op.value && l == "mul (56)"), "{opts:?}");
        assert!(opts.windows(2).all(|w| w[0].0 < w[1].0));
        let sat = r.fields.iter().find(|f| f.name == "saturate").unwrap();
        let opts = sat.choices.unwrap().options(sat.value);
        assert_eq!(opts.iter().map(|o| o.0).collect::<Vec<_>>(), [0, 1]);
        // A name fxc spells differently is shown with its spelling, once
        // where the two are the same words.
        let sampler_mode = Choices::Enum(&dxbc::spec::SAMPLER_MODE).options(0);
        assert_eq!(sampler_mode[0], (0, "DEFAULT (mode_default)".to_string()));
        let class = Choices::Enum(&dxbc::spec::CUSTOMDATA_CLASS).options(3);
        assert!(class.contains(&(3, "dcl_immediateConstantBuffer".to_string())), "{class:?}");
        // A value the format does not name is still offered.
        let odd = sat.choices.unwrap().options(7);
        assert_eq!(odd.last().unwrap(), &(7, "7 (not defined)".to_string()));
    }

    #[test]
    fn immediates_are_edited_whole_and_leaves_by_their_value() {
        let m = Model::new(dxbc::examples::tint_pixel_shader());
        let mut whole = 0;
        for i in 0..m.spans.len() {
            let r = inspect(&m, i).unwrap();
            if let Some(t) = m.token(i) {
                let imm = matches!(t.role, TokenRole::Immediate { .. } | TokenRole::Index { .. });
                assert!(!imm || r.whole_value, "span {i}");
                whole += r.whole_value as usize;
                assert!(!r.whole_value || r.fields.is_empty());
            }
            if let Some(l) = &r.leaf {
                let leaf = &m.leaves[match m.spans[i].kind {
                    SpanKind::Leaf(k) => k as usize,
                    _ => unreachable!(),
                }];
                match &leaf.value {
                    dxbc::spans::Value::Number(_) => assert!(l.editor.as_deref().unwrap().starts_with("0x")),
                    dxbc::spans::Value::Text(t) => assert_eq!(l.editor.as_deref(), Some(t.as_str())),
                    dxbc::spans::Value::Bytes => assert_eq!(l.editor, None),
                }
            }
        }
        assert!(whole > 0);
    }

    #[test]
    fn refusals_read_as_one_sentence() {
        let m = Model::new(dxbc::examples::tint_pixel_shader());
        let at = m.program().unwrap().instructions[4].offset as usize;
        let e = dxbc::edit::set_field(&m.bytes, at, "saturate", "7").unwrap_err();
        assert!(refusal(&e).starts_with("Not edited: 7 does not fit in field `saturate`"), "{}", refusal(&e));
        let e = dxbc::edit::set_field(&m.bytes, at, "instruction length", "3").unwrap_err();
        assert!(refusal(&e).starts_with("Refused: with this value of instruction length"), "{}", refusal(&e));
        assert!(refusal(&e).ends_with('.') && !refusal(&e).ends_with(".."));
    }

    #[test]
    fn field_test_ids_follow_the_dump_names() {
        assert_eq!(field_testid("saturate"), "field-saturate");
        assert_eq!(field_testid("component selection"), "field-component-selection");
        assert_eq!(field_testid("index 0 representation"), "field-index-0-representation");
    }

    #[test]
    fn every_span_of_every_example_inspects() {
        for ex in crate::gallery::EXAMPLES {
            let m = Model::new((ex.build)());
            for i in 0..m.spans.len() {
                let r = inspect(&m, i).unwrap();
                assert!(!r.title.is_empty() && !r.about.is_empty(), "{} span {i}", ex.name);
            }
        }
    }
}

#[cfg(test)]
mod picker_tests {
    use super::*;

    /// The opcode menu of `mul` draws one option now, the others follow in
    /// value order; a yes/no field's menu is drawn whole.
    #[test]
    fn long_menus_draw_the_current_value_first() {
        let m = Model::new(dxbc::examples::tint_pixel_shader());
        let op = m.program().unwrap().instructions[4].offset;
        let r = inspect(&m, m.span_starting(op).unwrap()).unwrap();
        let opcode = r.fields.iter().find(|f| f.name == "opcode").unwrap();
        let all = opcode.choices.unwrap().options(opcode.value);
        let (now, later) = options_now_and_later(all.clone(), opcode.value);
        assert_eq!(now, vec![(dxbc::spec::opc::MUL as u32, "mul (56)".to_string())]);
        assert_eq!(later.len(), all.len() - 1);
        assert!(later.windows(2).all(|w| w[0].0 < w[1].0));
        let mut merged = [now, later].concat();
        merged.sort();
        assert_eq!(merged, all);
        let sat = r.fields.iter().find(|f| f.name == "saturate").unwrap();
        let all = sat.choices.unwrap().options(sat.value);
        assert_eq!(options_now_and_later(all.clone(), sat.value), (all, Vec::new()));
    }
}

#[cfg(test)]
mod icb_tests {
    use super::*;

    /// An immediate constant buffer's words read as the floats the listing
    /// spells, with the raw word beside them (not 1065353216).
    #[test]
    fn icb_words_show_as_floats() {
        let text = "ps_4_0\ndcl_immediateConstantBuffer { { 1.000000, 0.500000, -2.000000, 0 } }\nret\n";
        let bytes = dxbc::asm::assemble(text).expect("assembles");
        let m = Model::new(bytes);
        let p = m.program().unwrap();
        let rows = tree(&m, 0);
        let words: Vec<&str> = rows.iter().filter(|r| r.role.contains("payload")).map(|r| r.text.as_str()).collect();
        assert_eq!(words.len(), 4, "{rows:?}");
        assert!(words[0].ends_with("= 1.0 (0x3f800000)"), "{words:?}");
        assert!(words[1].ends_with("= 0.5 (0x3f000000)"), "{words:?}");
        assert!(words[2].ends_with("= -2.0 (0xc0000000)"), "{words:?}");
        assert!(words[3].ends_with("= 0.0 (0x00000000)"), "{words:?}");
        assert!(p.instructions[0].is_customdata());
    }
}
