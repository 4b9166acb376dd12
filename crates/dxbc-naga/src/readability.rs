//! How readable a translation is, counted (issue 14's measure).
//!
//! Per shader: its DXBC instructions (every instruction of the program that
//! is not a declaration or custom data: ALU, resource, control flow and
//! `ret` alike), and in the WGSL the `bitcast<` calls, the code lines
//! (non-blank, not `//` comments), the floats written as raw integer
//! literals (u32/i32 literals under a bitcast to f32, counted in the naga
//! module: one per literal expression, so `vec4<u32>(a, a, a, a)` counts 4
//! and a splat of one literal counts 1), and the RDEF constant-buffer
//! members the program reads against those of them the WGSL names.
//!
//! The WGSL counted is every module that holds the shader's own code
//! ([`code_forms`]): for a hull shader both its control-point and its
//! patch-constant pass (the fork and join phases live only in the second),
//! for every other stage the form it is shown in on its own.
//!
//! A member is named when an identifier is its name, or its name followed
//! by what the writers add ([`names_member`]): naga's namer puts `_` after
//! a name ending in a digit and `_1`, `_2` on a repeated one; the lowering
//! names a row load of a buffer kept as rows `NAME_29_` and a vector
//! WGSL cannot align as lanes `NAME_x`.

use dxbc::program::{Operand, Program, NO_OPERAND};
use dxbc::spec::{NumComponents, OpClass, OperandType as OT, SelectionMode};
use naga::{Expression as E, ScalarKind};
use std::collections::BTreeSet;

/// One shader's counts (they add up over a corpus).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// Shaders counted.
    pub shaders: u64,
    /// DXBC instructions (see the module notes for which).
    pub instructions: u64,
    /// `bitcast<` occurrences in the WGSL.
    pub bitcasts: u64,
    /// Non-blank, non-comment WGSL lines.
    pub lines: u64,
    /// Integer literals reinterpreted as floats.
    pub raw_floats: u64,
    /// Distinct RDEF constant-buffer members the program reads.
    pub members_read: u64,
    /// Of those, the ones whose name appears in the WGSL as an identifier.
    pub members_named: u64,
}

impl std::ops::AddAssign for Figures {
    fn add_assign(&mut self, o: Figures) {
        self.shaders += o.shaders;
        self.instructions += o.instructions;
        self.bitcasts += o.bitcasts;
        self.lines += o.lines;
        self.raw_floats += o.raw_floats;
        self.members_read += o.members_read;
        self.members_named += o.members_named;
    }
}

impl Figures {
    /// Counts one translated shader: its modules in every one of its
    /// [`code_forms`], each with its WGSL.
    pub fn of(shader: &dxbc::Shader, forms: &[(&naga::Module, &str)]) -> Figures {
        let members = members_read(shader);
        let idents: BTreeSet<&str> = forms.iter().flat_map(|(_, wgsl)| identifiers(wgsl)).collect();
        Figures {
            shaders: 1,
            instructions: shader.program.as_ref().map_or(0, instruction_count),
            bitcasts: forms.iter().map(|(_, wgsl)| bitcasts(wgsl)).sum(),
            lines: forms.iter().map(|(_, wgsl)| code_lines(wgsl)).sum(),
            raw_floats: forms.iter().map(|(module, _)| raw_float_literals(module)).sum(),
            members_read: members.len() as u64,
            members_named: members.iter().filter(|m| idents.iter().any(|i| names_member(i, m))).count() as u64,
        }
    }

    /// `x` per DXBC instruction.
    pub fn per_instruction(&self, x: u64) -> f64 {
        x as f64 / self.instructions.max(1) as f64
    }
}

/// The forms whose modules together hold every instruction of `shader`:
/// a hull shader's control-point and patch-constant passes, otherwise the
/// form it is shown in on its own.
pub fn code_forms(shader: &dxbc::Shader) -> Vec<crate::StageForm> {
    use dxbc::spec::ProgramType as P;
    match shader.program.as_ref().and_then(|p| P::from_u32(p.version.program_type())) {
        Some(P::HullShader) => vec![crate::StageForm::Compute, crate::StageForm::PatchConstant],
        _ => vec![crate::StageForm::standalone(shader)],
    }
}

/// Whether the WGSL identifier `ident` names the member `name`: it is the
/// name, or the name, `_` and a suffix of digits, `_` and lane letters
/// (`v1_`, `v_1`, `v_29_`, `v_x`; see the module notes).
pub fn names_member(ident: &str, name: &str) -> bool {
    match ident.strip_prefix(name) {
        Some("") => true,
        Some(rest) => {
            rest.strip_prefix('_').is_some_and(|s| s.chars().all(|c| c.is_ascii_digit() || "_xyzw".contains(c)))
        }
        None => false,
    }
}

/// The program's instructions that are not declarations or custom data.
pub fn instruction_count(p: &Program) -> u64 {
    p.instructions
        .iter()
        .filter(|i| !i.is_customdata() && i.info().is_some_and(|info| info.class != OpClass::Decl))
        .count() as u64
}

/// `bitcast<` occurrences.
pub fn bitcasts(wgsl: &str) -> u64 {
    wgsl.matches("bitcast<").count() as u64
}

/// Lines that are neither blank nor `//` comments.
pub fn code_lines(wgsl: &str) -> u64 {
    wgsl.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")).count() as u64
}

/// u32/i32 literal expressions that a bitcast to float reinterprets,
/// directly or through splats and composes, in every function.
pub fn raw_float_literals(module: &naga::Module) -> u64 {
    let functions = module.functions.iter().map(|(_, f)| f).chain(module.entry_points.iter().map(|e| &e.function));
    let mut n = 0;
    for f in functions {
        let mut seen = BTreeSet::new();
        for (_, e) in f.expressions.iter() {
            if let E::As { expr, kind: ScalarKind::Float, convert: None } = *e {
                n += int_literals_under(f, expr, &mut seen);
            }
        }
    }
    n
}

fn int_literals_under(f: &naga::Function, h: naga::Handle<E>, seen: &mut BTreeSet<naga::Handle<E>>) -> u64 {
    if !seen.insert(h) {
        return 0;
    }
    match &f.expressions[h] {
        E::Literal(naga::Literal::U32(_) | naga::Literal::I32(_)) => 1,
        E::Splat { value, .. } => int_literals_under(f, *value, seen),
        E::Compose { components, .. } => components.iter().map(|&c| int_literals_under(f, c, seen)).sum(),
        _ => 0,
    }
}

/// Identifiers (runs of `[A-Za-z0-9_]` starting with no digit) in `text`.
pub fn identifiers(text: &str) -> BTreeSet<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.chars().next().is_some_and(|c| !c.is_ascii_digit()))
        .collect()
}

/// Names of the RDEF constant-buffer variables whose bytes a non-declaration
/// instruction reads (by the row and the swizzled components of each
/// `cb#[row]` source; a dynamically indexed row counts at its base; a read
/// through a register-selected buffer is not counted).
pub fn members_read(shader: &dxbc::Shader) -> BTreeSet<String> {
    let (Some(p), Some(rdef)) = (&shader.program, &shader.rdef) else {
        return BTreeSet::new();
    };
    let mut out = BTreeSet::new();
    let mut visit = |op: &Operand| {
        if op.operand_type() != Some(OT::ConstantBuffer) {
            return;
        }
        let sm51 = op.index_dim() == 3;
        // A register-selected buffer (a class instance's `cb[r3.w + 0][…]`,
        // an SM5.1 range's `CB0[r0.x][…]`): which buffer, and so which
        // member, it reads is decided at run time.
        if op.index.first().is_some_and(|i| i.rel != NO_OPERAND) || (sm51 && op.index[1].rel != NO_OPERAND) {
            return;
        }
        let (id, row) = if sm51 { (op.index[0].imm, op.index[2].imm) } else { (op.index[0].imm, op.index[1].imm) };
        // The cbuffer binding this register (SM5.0) or range id (SM5.1) names.
        let Some(binding) = rdef.bindings.iter().find(|b| {
            b.input_type == 0 && if sm51 { b.id.map(u64::from) == Some(id) } else { u64::from(b.bind_point) == id }
        }) else {
            return;
        };
        let Some(cb) = rdef.constant_buffers.iter().find(|c| c.name == binding.name) else {
            return;
        };
        for c in components(op) {
            let byte = row.saturating_mul(16).saturating_add(u64::from(c) * 4);
            if let Some(v) = cb.variables.iter().find(|v| {
                let start = u64::from(v.start_offset);
                start <= byte && byte < start + u64::from(v.size)
            }) {
                out.insert(v.name.clone());
            }
        }
    };
    for ins in &p.instructions {
        if ins.is_customdata() || ins.info().is_none_or(|i| i.class == OpClass::Decl) {
            continue;
        }
        for op in ins.operands(p) {
            visit(op);
            for idx in &op.index {
                if idx.rel != NO_OPERAND {
                    if let Some(rel) = p.operands.get(idx.rel as usize) {
                        visit(rel);
                    }
                }
            }
        }
    }
    out
}

/// The components a source operand selects.
fn components(op: &Operand) -> Vec<u32> {
    match (NumComponents::from_u32(op.num_components()), op.selection()) {
        (Some(NumComponents::Component4), Some(SelectionMode::SwizzleMode)) => op.swizzle().to_vec(),
        (Some(NumComponents::Component4), Some(SelectionMode::Select1Mode)) => vec![op.select1()],
        (Some(NumComponents::Component4), Some(SelectionMode::MaskMode)) => {
            (0..4).filter(|c| op.mask() & (1 << c) != 0).collect()
        }
        _ => vec![0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_bitcasts_and_code_lines() {
        let wgsl = "// a comment\n\nfn f() {\n    let a = bitcast<f32>(1u);\n    // inner\n    let b = bitcast<vec4<u32>>(vec4(a));\n}\n";
        assert_eq!(bitcasts(wgsl), 2);
        assert_eq!(code_lines(wgsl), 4);
    }

    #[test]
    fn identifiers_are_whole_words() {
        let ids = identifiers("x = cb0.g_mWorld[2]; let y2 = 3u + g_mWorldView;");
        assert!(ids.contains("g_mWorld"));
        assert!(ids.contains("g_mWorldView"));
        assert!(ids.contains("cb0"));
        assert!(!ids.contains("3u"));
        assert!(!ids.contains("g_m"));
    }

    #[test]
    fn members_are_named_with_the_writers_suffixes() {
        assert!(names_member("g_fAlpha", "g_fAlpha"));
        assert!(names_member("g_fAlpha_1", "g_fAlpha"));
        assert!(names_member("vHighlight1_", "vHighlight1"));
        assert!(names_member("xe_range_x", "xe_range"));
        assert!(names_member("g_cbShadowsData_29_", "g_cbShadowsData"));
        assert!(!names_member("g_fAlphaRef", "g_fAlpha"));
        assert!(!names_member("g_fAlpha_ref", "g_fAlpha"));
        assert!(!names_member("g_f", "g_fAlpha"));
    }

    /// fxc's own listing says which constant buffer members a shader uses;
    /// the reads found here must name exactly those in a file that declares
    /// unused members too.
    #[test]
    fn members_read_match_fxc_used_flags() {
        let (mut checked, mut exact) = (0u32, 0u32);
        for (path, bytes) in crate::test_corpus::fxc_files() {
            let Ok(shader) = dxbc::Shader::parse(&bytes) else { continue };
            let Some(rdef) = &shader.rdef else { continue };
            // Only shaders whose every variable read is dynamic-index free
            // and that mark use (the flag is what fxc computes).
            let p = shader.program.as_ref().expect("program");
            let dynamic = p
                .operands
                .iter()
                .any(|o| o.operand_type() == Some(OT::ConstantBuffer) && o.index.iter().any(|i| i.rel != NO_OPERAND));
            if dynamic {
                continue;
            }
            let used: BTreeSet<String> = rdef
                .constant_buffers
                .iter()
                .filter(|c| c.kind == 0)
                .flat_map(|c| c.variables.iter().filter(|v| v.used()).map(|v| v.name.clone()))
                .collect();
            let read = members_read(&shader);
            // Every member read is one fxc marks used; fxc also marks
            // members whose reads it folded away, so the converse is counted.
            assert!(read.is_subset(&used), "{}: read {read:?}, used {used:?}", path.display());
            checked += 1;
            exact += u32::from(read == used);
        }
        assert!(checked > 50, "only {checked} fxc shaders checked");
        assert!(exact * 100 >= checked * 95, "{exact} of {checked} shaders read exactly the members fxc marks used");
    }

    #[test]
    fn raw_float_literals_counts_bitcast_integers() {
        let mut m = naga::Module::default();
        let mut f = naga::Function::default();
        let sp = naga::Span::UNDEFINED;
        let a = f.expressions.append(E::Literal(naga::Literal::U32(0x3f80_0000)), sp);
        let s = f.expressions.append(E::Splat { size: naga::VectorSize::Quad, value: a }, sp);
        f.expressions.append(E::As { expr: s, kind: ScalarKind::Float, convert: None }, sp);
        // A conversion (not a bitcast) of an integer literal is no raw float.
        let b = f.expressions.append(E::Literal(naga::Literal::I32(3)), sp);
        f.expressions.append(E::As { expr: b, kind: ScalarKind::Float, convert: Some(4) }, sp);
        m.functions.append(f, sp);
        assert_eq!(raw_float_literals(&m), 1);
    }
}
