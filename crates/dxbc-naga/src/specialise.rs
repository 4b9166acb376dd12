//! Specialisation a pipeline decides outside one shader's bytecode: the
//! interpolation a vertex shader's outputs must carry, which D3D takes from
//! the pixel shader alone (`dcl_input_ps`), while WebGPU and Vulkan require
//! both stages to declare it.

use dxbc::spec::{
    InterpolationMode, Opcode as O, OperandType as OT, ProgramType, RegisterComponentType, SignatureName as SN,
    DCL_INPUT_PS_CONTROLS,
};
use serde::Serialize;

/// How a pixel shader interpolates one input register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Interpolation {
    /// Not interpolated: the provoking vertex's value (`constant`, and every
    /// integer input).
    Flat,
    /// Perspective-correct at the pixel centre (`linear`, D3D's default).
    Perspective,
    /// Perspective-correct at the centroid.
    PerspectiveCentroid,
    /// Perspective-correct per sample.
    PerspectiveSample,
    /// Screen-space linear at the pixel centre (`linear noperspective`).
    Linear,
    /// Screen-space linear at the centroid.
    LinearCentroid,
    /// Screen-space linear per sample.
    LinearSample,
}

impl Interpolation {
    /// The interpolation of a float input declared with `mode`.
    pub fn of_mode(mode: InterpolationMode) -> Interpolation {
        use InterpolationMode as IM;
        match mode {
            IM::Constant => Interpolation::Flat,
            IM::LinearCentroid => Interpolation::PerspectiveCentroid,
            IM::LinearNoperspective => Interpolation::Linear,
            IM::LinearNoperspectiveCentroid => Interpolation::LinearCentroid,
            IM::LinearSample => Interpolation::PerspectiveSample,
            IM::LinearNoperspectiveSample => Interpolation::LinearSample,
            IM::Linear | IM::Undefined => Interpolation::Perspective,
        }
    }

    /// naga's interpolation and sampling.
    pub fn naga(self) -> (naga::Interpolation, Option<naga::Sampling>) {
        use naga::{Interpolation as I, Sampling as S};
        match self {
            Interpolation::Flat => (I::Flat, None),
            Interpolation::Perspective => (I::Perspective, Some(S::Center)),
            Interpolation::PerspectiveCentroid => (I::Perspective, Some(S::Centroid)),
            Interpolation::PerspectiveSample => (I::Perspective, Some(S::Sample)),
            Interpolation::Linear => (I::Linear, Some(S::Center)),
            Interpolation::LinearCentroid => (I::Linear, Some(S::Centroid)),
            Interpolation::LinearSample => (I::Linear, Some(S::Sample)),
        }
    }
}

/// A pixel shader's interpolation per input register: what a vertex shader
/// linked to it must write (its output of register n feeds location n).
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize)]
pub struct PixelInputs {
    /// (input register, interpolation), in register order.
    pub registers: Vec<(u32, Interpolation)>,
}

/// Why [`PixelInputs::of`] could not read a shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum LinkError {
    /// The shader has no program chunk.
    NoProgram,
    /// The shader is not a pixel shader.
    NotAPixelShader,
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LinkError::NoProgram => "the linked shader has no program chunk",
            LinkError::NotAPixelShader => "the linked shader is not a pixel shader",
        })
    }
}

impl std::error::Error for LinkError {}

impl PixelInputs {
    /// The interpolation of every user input register of pixel shader `ps`
    /// (the rule the translator applies to the pixel shader's own inputs).
    pub fn of(ps: &dxbc::Shader) -> Result<PixelInputs, LinkError> {
        let p = ps.program.as_ref().ok_or(LinkError::NoProgram)?;
        if ProgramType::from_u32(p.version.program_type()) != Some(ProgramType::PixelShader) {
            return Err(LinkError::NotAPixelShader);
        }
        let mut modes = std::collections::BTreeMap::new();
        for ins in &p.instructions {
            if !matches!(ins.op(), Some(O::DclInputPs | O::DclInputPsSiv | O::DclInputPsSgv)) {
                continue;
            }
            let Some(op) = ins.operand(p, 0) else { continue };
            let mode = InterpolationMode::from_u32(DCL_INPUT_PS_CONTROLS[0].get(ins.token));
            if let (Some(OT::Input), 1, Some(mode)) = (op.operand_type(), op.index_dim(), mode) {
                modes.insert(op.index[0].imm as u32, mode);
            }
        }
        let mut registers: Vec<(u32, Interpolation)> = Vec::new();
        let elements = ps.input_signature.as_ref().map(|s| s.elements.as_slice()).unwrap_or_default();
        for e in elements {
            if SN::from_u32(e.system_value) != Some(SN::Undefined) || registers.iter().any(|r| r.0 == e.register) {
                continue;
            }
            let float = !matches!(
                RegisterComponentType::from_u32(e.component_type),
                Some(RegisterComponentType::Uint32 | RegisterComponentType::Sint32)
            );
            let i = if float {
                Interpolation::of_mode(modes.get(&e.register).copied().unwrap_or(InterpolationMode::Linear))
            } else {
                Interpolation::Flat
            };
            registers.push((e.register, i));
        }
        registers.sort_by_key(|r| r.0);
        Ok(PixelInputs { registers })
    }

    /// The interpolation of input register `register`, if the pixel shader has it.
    pub fn get(&self, register: u32) -> Option<Interpolation> {
        self.registers.iter().find(|r| r.0 == register).map(|r| r.1)
    }
}

/// An image variable added for GLSL because its image is sampled through
/// another sampler too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SplitImage {
    /// Name of the image variable it copies.
    pub image: String,
    /// Name of the sampler it is combined with.
    pub sampler: String,
    /// Its binding: the image's group, a binding number no variable uses.
    pub binding: naga::ResourceBinding,
}

/// For GLSL, which combines an image with one sampler: a copy of `module`
/// in which an image sampled through more than one sampler gets one image
/// variable per further sampler (named `{image}_with_{sampler}`, in the
/// image's group at a binding number after every used one: naga's GLSL
/// writer names combined samplers by binding). None when no image needs it,
/// or when one image expression is shared by samples through different
/// samplers (the translator emits one per sample, so that does not happen).
pub(crate) fn split_images_per_sampler(module: &naga::Module) -> Option<(naga::Module, Vec<SplitImage>)> {
    use naga::{Expression as E, Handle};
    type G = Handle<naga::GlobalVariable>;
    let global = |f: &naga::Function, h: Handle<E>| match f.expressions[h] {
        E::GlobalVariable(g) => Some(g),
        _ => None,
    };
    let functions = || module.functions.iter().map(|(_, f)| f).chain(module.entry_points.iter().map(|e| &e.function));
    // Samplers per image, in order of first use; the first keeps the image.
    let mut pairs: Vec<(G, G)> = Vec::new();
    for f in functions() {
        for (_, e) in f.expressions.iter() {
            if let E::ImageSample { image, sampler, .. } = *e {
                if let (Some(i), Some(s)) = (global(f, image), global(f, sampler)) {
                    if !pairs.contains(&(i, s)) {
                        pairs.push((i, s));
                    }
                }
            }
        }
    }
    let first_sampler = |i: G| pairs.iter().find(|p| p.0 == i).map(|p| p.1);
    let extra: Vec<(G, G)> = pairs.iter().copied().filter(|&(i, s)| first_sampler(i) != Some(s)).collect();
    if extra.is_empty() {
        return None;
    }
    let mut out = module.clone();
    let mut copies: Vec<((G, G), G)> = Vec::new();
    let mut splits = Vec::new();
    let name = |g: G| module.global_variables[g].name.clone().unwrap_or_else(|| format!("global{}", g.index()));
    for (i, s) in extra {
        let image = &module.global_variables[i];
        let group = image.binding.as_ref()?.group;
        let used = out.global_variables.iter().filter_map(|(_, v)| v.binding.as_ref());
        let next = used.filter(|b| b.group == group).map(|b| b.binding + 1).max().unwrap_or(0);
        let binding = naga::ResourceBinding { group, binding: next };
        let copy = naga::GlobalVariable {
            name: Some(format!("{}_with_{}", name(i), name(s))),
            space: image.space,
            binding: Some(binding),
            ty: image.ty,
            init: None,
            memory_decorations: image.memory_decorations,
        };
        let span = module.global_variables.get_span(i);
        copies.push(((i, s), out.global_variables.append(copy, span)));
        splits.push(SplitImage { image: name(i), sampler: name(s), binding });
    }
    let functions_mut =
        out.functions.iter_mut().map(|(_, f)| f).chain(out.entry_points.iter_mut().map(|e| &mut e.function));
    for f in functions_mut {
        // image expression → the variable it must name.
        let mut repoint: Vec<(Handle<E>, G)> = Vec::new();
        for (_, e) in f.expressions.iter() {
            let E::ImageSample { image, sampler, .. } = *e else { continue };
            let (Some(i), Some(s)) = (global(f, image), global(f, sampler)) else { continue };
            let target = copies.iter().find(|c| c.0 == (i, s)).map_or(i, |c| c.1);
            match repoint.iter().find(|r| r.0 == image) {
                Some(r) if r.1 != target => return None,
                Some(_) => {}
                None => repoint.push((image, target)),
            }
        }
        for (h, g) in repoint {
            f.expressions[h] = E::GlobalVariable(g);
        }
    }
    Some((out, splits))
}
