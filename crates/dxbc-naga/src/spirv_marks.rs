//! # Marks for the SPIR-V post-pass: features SPIR-V has and naga's IR lacks
//!
//! naga 30's IR has no minimum-LOD sampling operand, no biased or
//! fractional-level sampling of a depth texture, no result or exchange of
//! an image atomic, no memory barrier outside compute shaders and no
//! pull-model interpolation, while SPIR-V has them all (the `MinLod`,
//! `Bias` and `Lod` image operands, `OpAtomic*` results, `OpMemoryBarrier`;
//! `InterpolateAtCentroid/Sample/Offset` of GLSL.std.450). The lowering
//! therefore writes such an instruction as a call of an *identity* function
//! — a mark — whose first argument is a tag constant that names the
//! feature ([`MIN_LOD`], [`EVAL_CENTROID`] + register, …); the other
//! targets, which refuse the feature (a [`crate::TargetRefusal`]), never see
//! it. [`crate::spirv_post`] finds each `OpFunctionCall` whose first
//! argument is a tag and rewrites it into the real instruction:
//!
//! * `mark(MIN_LOD, sample, clamp)`: the `OpImageSample*` that produced
//!   `sample` gets the `MinLod clamp` operand; the call becomes a copy.
//! * `mark(BIAS, sample, bias)`: the same with the `Bias bias` operand,
//!   for a depth texture sampled without comparison (`sample_b` of a
//!   texture that is also compared).
//! * `mark(LOD, sample, level)`: the explicit-level sample's `Lod`
//!   operand becomes `level` (`sample_l` of such a texture).
//! * `mark(IMAGE_ATOMIC | how, value [, comparator])`: the image atomic
//!   just before it, on `value`, gives the call its result, and becomes an
//!   exchange or a compare-exchange (`imm_atomic_*`, `atomic_cmp_store`
//!   on a typed UAV texture).
//! * `mark(MEMORY_BARRIER, 0, scope, semantics)`: `OpMemoryBarrier`
//!   (`sync_uglobal` in a pixel or vertex shader).
//! * `mark(EVAL_* | register, value [, sample | offset])`: the call becomes
//!   `OpExtInst GLSL.std.450 InterpolateAt*` of the input variable at
//!   location `register` (user varyings sit at their register's location).
//!
//! The value passed through is what a target without the feature would
//! read (the unclamped sample, the input as interpolated by its
//! declaration), so the IR stays a valid naga module.

use crate::lower::Lower;
use naga::{Expression as E, Function, FunctionArgument, FunctionResult, Handle, Span, Statement as S, Type};

/// Tags are `TAG_BASE | kind | register`: a value no other call argument
/// of the lowering takes as its first argument.
pub const TAG_BASE: u32 = 0xD3D5_0000;
/// The mask of the kind bits of a tag.
pub const KIND_MASK: u32 = 0xF00;
/// The register bits of an `EVAL_*` tag.
pub const REGISTER_MASK: u32 = 0xFF;
/// `mark(tag, sample, clamp: f32)`: sampling with a minimum LOD.
pub const MIN_LOD: u32 = 0x100;
/// `mark(tag, sample, bias: f32)`: biased sampling of a depth texture
/// (naga's IR allows a bias on float textures only).
pub const BIAS: u32 = 0x500;
/// `mark(tag, sample, level: f32)`: a depth texture sampled without
/// comparison at a level that is not a whole constant (naga's IR takes an
/// integer level for a depth texture); the sample is written at level 0.
pub const LOD: u32 = 0x600;
/// `mark(tag | how, value [, comparator])`, right after an image atomic of
/// `value`: the call is that atomic's result (the value the texel held).
/// With `how` [`ATOMIC_EXCHANGE`] or [`ATOMIC_COMPARE_EXCHANGE`] the atomic,
/// written as an add (naga's IR has no image exchange), exchanges; with
/// [`ATOMIC_OTHER_SIGNEDNESS`] its min or max takes the other signedness.
pub const IMAGE_ATOMIC: u32 = 0x700;
/// The `how` of an [`IMAGE_ATOMIC`] mark: `OpAtomicExchange`.
pub const ATOMIC_EXCHANGE: u32 = 1;
/// The `how` of an [`IMAGE_ATOMIC`] mark: `OpAtomicCompareExchange` with
/// the comparator.
pub const ATOMIC_COMPARE_EXCHANGE: u32 = 2;
/// The `how` of an [`IMAGE_ATOMIC`] mark: the min or max compares with the
/// other signedness than the texture's type (`atomic_imax` on a `uint`
/// texture, `atomic_umin` on a `sint` one), which naga's IR ties to the
/// image's scalar kind: `OpAtomicUMax` becomes `OpAtomicSMax` and so on.
pub const ATOMIC_OTHER_SIGNEDNESS: u32 = 3;
/// `mark(tag, 0u, scope: u32, semantics: u32)`: a memory barrier outside
/// a compute shader (naga's IR has barriers in compute shaders only); the
/// call becomes `OpMemoryBarrier scope semantics`, its result unread.
pub const MEMORY_BARRIER: u32 = 0x800;
/// `mark(tag | register, value: vec4<f32>)`: `eval_centroid`.
pub const EVAL_CENTROID: u32 = 0x200;
/// `mark(tag | register, value, sample: i32)`: `eval_sample_index`.
pub const EVAL_SAMPLE: u32 = 0x300;
/// `mark(tag | register, value, offset: vec2<f32>)` (in pixels):
/// `eval_snapped`.
pub const EVAL_SNAPPED: u32 = 0x400;

impl Lower<'_> {
    /// The mark function for `kind` over values of type `ty` with extra
    /// arguments of types `extra` (made once per module).
    fn mark_function(&mut self, kind: u32, ty: Handle<Type>, extra: &[Handle<Type>]) -> Handle<Function> {
        let name = format!(
            "dxbc_spirv_mark_{kind:x}_{}{}",
            ty.index(),
            extra.iter().map(|t| format!("_{}", t.index())).collect::<String>()
        );
        if let Some((h, _)) = self.module.functions.iter().find(|(_, f)| f.name.as_deref() == Some(&name)) {
            return h;
        }
        let u32_ty = self.t.u32;
        let mut f = Function { name: Some(name), ..Default::default() };
        f.arguments.push(FunctionArgument { name: Some("tag".into()), ty: u32_ty, binding: None });
        f.arguments.push(FunctionArgument { name: Some("value".into()), ty, binding: None });
        for (i, &t) in extra.iter().enumerate() {
            f.arguments.push(FunctionArgument { name: Some(format!("extra{i}")), ty: t, binding: None });
        }
        f.result = Some(FunctionResult { ty, binding: None });
        let value = f.expressions.append(E::FunctionArgument(1), Span::UNDEFINED);
        f.body.push(S::Return { value: Some(value) }, Span::UNDEFINED);
        self.module.functions.append(f, Span::UNDEFINED)
    }

    /// `value` (of type `ty`) passed through the mark `tag` with `extra`
    /// arguments (expression, type): the call's result.
    pub(crate) fn spirv_mark(&mut self, tag: u32, value: H, ty: Handle<Type>, extra: &[(H, Handle<Type>)]) -> H {
        let types: Vec<Handle<Type>> = extra.iter().map(|&(_, t)| t).collect();
        let function = self.mark_function(tag & KIND_MASK, ty, &types);
        let tag = self.lit_u(TAG_BASE | tag);
        let mut arguments = vec![tag, value];
        arguments.extend(extra.iter().map(|&(e, _)| e));
        self.flush();
        let result = self.f.expressions.append(E::CallResult(function), self.span);
        self.stmt(S::Call { function, arguments, result: Some(result) });
        result
    }
}

type H = Handle<naga::Expression>;

impl Lower<'_> {
    /// `eval_centroid`, `eval_sample_index`, `eval_snapped`: the input
    /// register through an `EVAL_*` mark, then the operand's swizzle and
    /// modifiers. SPIR-V only (a [`crate::Limitation::PullModelInterpolation`]
    /// target refusal for the others).
    pub(crate) fn eval(
        &mut self,
        ins: &dxbc::program::Instruction,
        code: dxbc::spec::Opcode,
    ) -> Result<(), crate::TranslateError> {
        use crate::lower::{malformed, saturate, unsupported, K};
        use crate::Limitation as L;
        use dxbc::spec::{Opcode as O, OperandType as OT};
        use naga::{BinaryOperator as B, Literal, ScalarKind, TypeInner, VectorSize};
        let at = ins.offset as usize;
        let name = code.info().asm;
        if self.stage != naga::ShaderStage::Fragment {
            return malformed(format!("{name} outside a pixel shader"), at);
        }
        let src = self.op(ins, 1)?;
        let register = match (src.operand_type(), src.index_dim()) {
            (Some(OT::Input), 1) if src.index[0].rel == dxbc::program::NO_OPERAND && src.index[0].imm < 32 => {
                src.index[0].imm as u32
            }
            _ => {
                return unsupported(
                    L::PullModelInterpolation,
                    format!("{name} of an indexed or non-input register"),
                    at,
                )
            }
        };
        if self.interpolated_built_in_inputs.contains(&register) {
            return unsupported(
                L::PullModelInterpolation,
                format!(
                    "{name} of v{register}, an interpolated system value (SPIR-V's InterpolateAt* takes no built-in)"
                ),
                at,
            );
        }
        let g = self.input(register);
        let ptr = self.e(E::GlobalVariable(g));
        let raw = self.e(E::Load { pointer: ptr });
        let value = self.bitcast(raw, self.global_kind(g), K::F);
        let extra = match code {
            O::EvalCentroid => Vec::new(),
            O::EvalSampleIndex => {
                let o = self.op(ins, 2)?;
                let s = self.read(o, K::I)?;
                let s = self.component(s, 0);
                let i32_ty = self.ty(TypeInner::Scalar(naga::Scalar::I32));
                vec![(s, i32_ty)]
            }
            O::EvalSnapped => {
                // The offset is in 16ths of a pixel, in the low 4 bits of
                // each integer, signed: [-8, 7] (D3D11.3 §7.10.10).
                let o = self.op(ins, 2)?;
                let v = self.read(o, K::I)?;
                let mut xy = Vec::new();
                for c in 0..2 {
                    let x = self.component(v, c);
                    let n28 = self.lit_u(28);
                    let up = self.bin(B::ShiftLeft, x, n28);
                    let n28 = self.lit_u(28);
                    let s = self.bin(B::ShiftRight, up, n28);
                    let f = self.e(E::As { expr: s, kind: ScalarKind::Float, convert: Some(4) });
                    let sixteenth = self.e(E::Literal(Literal::F32(1.0 / 16.0)));
                    xy.push(self.bin(B::Multiply, f, sixteenth));
                }
                let ty = self.ty(TypeInner::Vector { size: VectorSize::Bi, scalar: naga::Scalar::F32 });
                let off = self.e(E::Compose { ty, components: xy });
                vec![(off, ty)]
            }
            _ => return malformed(format!("{name} is not an eval instruction"), at),
        };
        let kind = match code {
            O::EvalCentroid => EVAL_CENTROID,
            O::EvalSampleIndex => EVAL_SAMPLE,
            _ => EVAL_SNAPPED,
        };
        let vec4f = self.t.vec4f;
        let evaluated = self.spirv_mark(kind | register, value, vec4f, &extra);
        let bits = self.bitcast(evaluated, K::F, K::U);
        let selected = self.swizzled(src, bits);
        let v = self.modified(src, selected, K::F);
        self.target_refusal(L::PullModelInterpolation, format!("{name} of v{register}"), at);
        let d = self.op(ins, 0)?;
        self.write(d, v, K::F, saturate(ins))
    }
}
