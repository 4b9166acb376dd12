//! # SPIR-V post-pass: what SPIR-V has and naga 30's IR cannot say
//!
//! naga writes the SPIR-V; this pass edits the word stream it wrote, for a
//! short, closed list of constructs, each found by an unambiguous mark:
//!
//! 1. **SampleMask is an array.** naga declares the `SampleMask` built-in
//!    (SV_Coverage, vCoverage) as a scalar `u32` variable; Vulkan requires
//!    an array of `u32` (gfx-rs/wgpu#7311). Mark: `OpDecorate %v BuiltIn
//!    SampleMask`. Edit: the variable's pointee becomes `OpTypeArray %u32 1`
//!    and every `OpLoad`/`OpStore` of it goes through an `OpAccessChain` to
//!    element 0.
//! 2. **Layer and ViewportIndex.** naga has no such built-ins, so the
//!    lowering carries SV_RenderTargetArrayIndex / SV_ViewportArrayIndex as a
//!    flat `u32` user varying at a reserved location ([`LAYER_LOCATION`],
//!    [`VIEWPORT_INDEX_LOCATION`]; user varyings use the register number,
//!    below 32, so these cannot collide). Mark: `OpDecorate %v Location
//!    1024|1025`. Edit: the decoration becomes `BuiltIn Layer` /
//!    `BuiltIn ViewportIndex` (its `Flat` stays: Vulkan requires it on an
//!    integer fragment input, built-in or not, VUID-StandaloneSpirv-Flat-04744),
//!    and the capability the stage needs is declared:
//!    a vertex output needs `ShaderViewportIndexLayerEXT` with the extension
//!    `SPV_EXT_shader_viewport_index_layer` (naga writes SPIR-V 1.0, where
//!    `ShaderLayer`/`ShaderViewportIndex` do not exist yet); a fragment input
//!    needs `Geometry` (Layer) or `MultiViewport` (ViewportIndex). A VS and
//!    a PS translated apart therefore still meet at the same built-in.
//!    A pixel shader's oStencilRef is likewise a `u32` output at
//!    [`STENCIL_REF_LOCATION`] (1026, no interpolation): it becomes `BuiltIn
//!    FragStencilRefEXT` (`StencilExportEXT`, `SPV_EXT_shader_stencil_export`).
//! 3. **Size queries of multisampled and storage images.** For the layer
//!    count of an arrayed MS or storage image naga writes
//!    `OpImageQuerySizeLod`, which Vulkan allows only on sampled,
//!    single-sample images. Mark: that opcode with an image operand whose
//!    type is `OpTypeImage` with `MS = 1` or `Sampled = 2`. Edit: it becomes
//!    `OpImageQuerySize` without the level operand (such images have one
//!    level, so the answer is the same).
//!
//! 4. **Minimum-LOD sampling** (`sample*_cl_s` with a clamp), and a depth
//!    texture sampled without comparison with a bias or a fractional level.
//!    Mark: a call of a [`crate::spirv_marks`] function tagged `MIN_LOD`,
//!    `BIAS` or `LOD` on a sample's result. Edit: the `OpImageSample*` gets
//!    the `MinLod` (capability `MinLod`) or `Bias` image operand, or its
//!    `Lod` operand becomes the level; the call becomes `OpCopyObject` of
//!    the sample. Likewise an image atomic whose old value is read, that
//!    exchanges, or whose min or max compares with the other signedness
//!    than the image's type (`IMAGE_ATOMIC`): the call becomes a copy of
//!    the result of the `OpAtomic*` before it, which becomes
//!    `OpAtomicExchange`, `OpAtomicCompareExchange` or the other-signed
//!    min or max if the mark says so. A `MEMORY_BARRIER`
//!    mark (a UAV fence outside compute) becomes `OpMemoryBarrier`.
//! 5. **Pull-model interpolation** (`eval_centroid`, `eval_sample_index`,
//!    `eval_snapped`). Mark: a call tagged `EVAL_*` with the input
//!    register. Edit: the call becomes `OpExtInst GLSL.std.450
//!    InterpolateAtCentroid|Sample|Offset` of the `Input` variable at that
//!    register's location (capability `InterpolationFunction`); of a flat
//!    or integer input, or of a register with no input variable (a
//!    built-in constant over the primitive; the lowering refuses the
//!    interpolated ones), it becomes a copy of the value read (D3D
//!    evaluates a constant-interpolated input to its constant).
//!
//! Everything else passes through word for word. The pass decodes the
//! instruction stream, so a malformed stream (which naga never writes) is
//! an error, not a panic. The tests check the result with `spirv-val
//! --target-env vulkan1.1`, the environment the corpus test uses.

/// The location the lowering gives SV_RenderTargetArrayIndex (SPIR-V:
/// `BuiltIn Layer`).
pub const LAYER_LOCATION: u32 = 1024;
/// The location the lowering gives SV_ViewportArrayIndex (SPIR-V:
/// `BuiltIn ViewportIndex`).
pub const VIEWPORT_INDEX_LOCATION: u32 = 1025;
/// The location the lowering gives a pixel shader's oStencilRef (SPIR-V:
/// `BuiltIn FragStencilRefEXT`).
pub const STENCIL_REF_LOCATION: u32 = 1026;
/// The location the lowering gives a pixel shader's vInnerCoverage, a flat
/// `u32` input (SPIR-V: the bool `BuiltIn FullyCoveredEXT`).
pub const INNER_COVERAGE_LOCATION: u32 = 1027;
/// The location the lowering gives a pixel shader's SV_ClipDistance input,
/// an `f32` or `vecN<f32>` of its components (SPIR-V: the `float[N]`
/// `BuiltIn ClipDistance`).
pub const CLIP_DISTANCE_LOCATION: u32 = 1028;

/// SPIR-V numbers used here (from the SPIR-V 1.6 specification, §3).
pub mod op {
    pub const EXTENSION: u16 = 10;
    pub const EXT_INST_IMPORT: u16 = 11;
    pub const EXT_INST: u16 = 12;
    pub const TYPE_FLOAT: u16 = 22;
    pub const TYPE_VECTOR: u16 = 23;
    pub const FUNCTION_CALL: u16 = 57;
    pub const COMPOSITE_EXTRACT: u16 = 81;
    pub const COPY_OBJECT: u16 = 83;
    pub const MEMORY_BARRIER: u16 = 225;
    pub const IMAGE_TEXEL_POINTER: u16 = 60;
    pub const ATOMIC_EXCHANGE: u16 = 229;
    pub const ATOMIC_COMPARE_EXCHANGE: u16 = 230;
    pub const ATOMIC_S_MIN: u16 = 236;
    pub const ATOMIC_U_MIN: u16 = 237;
    pub const ATOMIC_S_MAX: u16 = 238;
    pub const ATOMIC_U_MAX: u16 = 239;
    /// `OpAtomicIAdd` … `OpAtomicXor`: the read-modify-write atomics.
    pub const ATOMIC_RMW: std::ops::RangeInclusive<u16> = 234..=242;
    pub const LABEL: u16 = 248;
    pub const IMAGE_SAMPLE_IMPLICIT_LOD: u16 = 87;
    pub const IMAGE_SAMPLE_EXPLICIT_LOD: u16 = 88;
    pub const IMAGE_SAMPLE_DREF_IMPLICIT_LOD: u16 = 89;
    pub const IMAGE_SAMPLE_DREF_EXPLICIT_LOD: u16 = 90;
    pub const ENTRY_POINT: u16 = 15;
    pub const CAPABILITY: u16 = 17;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_IMAGE: u16 = 25;
    pub const TYPE_ARRAY: u16 = 28;
    pub const TYPE_POINTER: u16 = 32;
    pub const CONSTANT: u16 = 43;
    pub const FUNCTION: u16 = 54;
    pub const VARIABLE: u16 = 59;
    pub const LOAD: u16 = 61;
    pub const TYPE_BOOL: u16 = 20;
    pub const COMPOSITE_CONSTRUCT: u16 = 80;
    pub const BUILTIN_CLIP_DISTANCE: u32 = 3;
    pub const CAPABILITY_CLIP_DISTANCE: u32 = 32;
    /// NoPerspective, Flat, Centroid, Sample.
    pub const INTERPOLATION_DECORATIONS: [u32; 4] = [13, 14, 16, 17];
    pub const SELECT: u16 = 169;
    pub const BUILTIN_FULLY_COVERED_EXT: u32 = 5264;
    pub const CAPABILITY_FRAGMENT_FULLY_COVERED_EXT: u32 = 5265;
    pub const STORE: u16 = 62;
    pub const ACCESS_CHAIN: u16 = 65;
    pub const DECORATE: u16 = 71;
    pub const IMAGE: u16 = 100;
    pub const IMAGE_QUERY_SIZE_LOD: u16 = 103;
    pub const IMAGE_QUERY_SIZE: u16 = 104;

    /// Decorations.
    pub const DECORATION_BUILTIN: u32 = 11;
    pub const DECORATION_FLAT: u32 = 14;
    pub const DECORATION_LOCATION: u32 = 30;
    /// Built-ins.
    pub const BUILTIN_LAYER: u32 = 9;
    pub const BUILTIN_VIEWPORT_INDEX: u32 = 10;
    pub const BUILTIN_FRAG_STENCIL_REF_EXT: u32 = 5014;
    pub const BUILTIN_SAMPLE_MASK: u32 = 20;
    /// Capabilities.
    pub const CAPABILITY_GEOMETRY: u32 = 2;
    pub const CAPABILITY_MULTI_VIEWPORT: u32 = 57;
    pub const CAPABILITY_STENCIL_EXPORT_EXT: u32 = 5013;
    pub const CAPABILITY_VIEWPORT_INDEX_LAYER_EXT: u32 = 5254;
    /// Execution models.
    pub const MODEL_VERTEX: u32 = 0;
    pub const MODEL_FRAGMENT: u32 = 4;
    /// Storage classes.
    pub const STORAGE_INPUT: u32 = 1;
    /// Image operands (bits of the mask).
    pub const IMAGE_OPERAND_GRAD: u32 = 0x4;
    pub const IMAGE_OPERAND_BIAS: u32 = 0x1;
    pub const IMAGE_OPERAND_LOD: u32 = 0x2;
    pub const IMAGE_OPERAND_MIN_LOD: u32 = 0x80;
    pub const CAPABILITY_MIN_LOD: u32 = 42;
    pub const CAPABILITY_INTERPOLATION_FUNCTION: u32 = 52;
    /// GLSL.std.450 instructions.
    pub const GLSL_INTERPOLATE_AT_CENTROID: u32 = 76;
    pub const GLSL_INTERPOLATE_AT_SAMPLE: u32 = 77;
    pub const GLSL_INTERPOLATE_AT_OFFSET: u32 = 78;
}

/// Why the post-pass could not edit a stream (naga never writes one of
/// these: a translator bug if seen).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PostError {
    /// Fewer than the five header words, or a wrong magic number.
    BadHeader,
    /// An instruction's word count is 0 or runs past the end.
    BadInstruction { at: usize },
    /// A marked construct is not shaped as naga writes it.
    Unexpected(&'static str),
}

impl std::fmt::Display for PostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PostError::BadHeader => write!(f, "SPIR-V post-pass: bad header"),
            PostError::BadInstruction { at } => write!(f, "SPIR-V post-pass: bad instruction at word {at}"),
            PostError::Unexpected(what) => write!(f, "SPIR-V post-pass: {what}"),
        }
    }
}

/// An edit the pass made (one per kind, in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Edit {
    /// The SampleMask built-in became `u32[1]`.
    SampleMaskArray,
    /// A reserved location became `BuiltIn Layer`.
    Layer,
    /// A reserved location became `BuiltIn ViewportIndex`.
    ViewportIndex,
    /// A reserved location became `BuiltIn FragStencilRefEXT`.
    StencilRef,
    /// A reserved location became the bool `BuiltIn FullyCoveredEXT`.
    InnerCoverage,
    /// A reserved location became a pixel shader's `BuiltIn ClipDistance`.
    ClipDistanceInput,
    /// `OpImageQuerySizeLod` of an MS or storage image became `OpImageQuerySize`.
    SizeQueryWithoutLevel,
    /// A depth image's non-comparison sample got the `Bias` operand, or
    /// its `Lod` operand became a float level.
    DepthLevel,
    /// A sample got the `MinLod` operand.
    MinLod,
    /// An image atomic's result is read, or it became an exchange.
    ImageAtomicResult,
    /// A memory barrier outside a compute shader.
    MemoryBarrier,
    /// An input is read through `InterpolateAt*`.
    InterpolateAt,
}

/// A decoded module: the header and the instructions, each a whole
/// instruction (first word included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    header: [u32; 5],
    ins: Vec<Vec<u32>>,
}

fn inst(opcode: u16, operands: &[u32]) -> Vec<u32> {
    let mut v = Vec::with_capacity(operands.len() + 1);
    v.push(((operands.len() as u32 + 1) << 16) | opcode as u32);
    v.extend_from_slice(operands);
    v
}

/// A literal string as SPIR-V words (nul-terminated, zero-padded).
fn string_words(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

impl Words {
    /// Decodes a word stream into instructions.
    pub fn decode(words: &[u32]) -> Result<Words, PostError> {
        if words.len() < 5 || words[0] != 0x0723_0203 {
            return Err(PostError::BadHeader);
        }
        let mut header = [0; 5];
        header.copy_from_slice(&words[..5]);
        let mut ins = Vec::new();
        let mut at = 5;
        while at < words.len() {
            let n = (words[at] >> 16) as usize;
            if n == 0 || at + n > words.len() {
                return Err(PostError::BadInstruction { at });
            }
            ins.push(words[at..at + n].to_vec());
            at += n;
        }
        Ok(Words { header, ins })
    }

    /// The words again.
    pub fn encode(&self) -> Vec<u32> {
        let mut out = self.header.to_vec();
        for i in &self.ins {
            out.extend_from_slice(i);
        }
        out
    }

    /// The instructions, as (opcode, operands).
    pub fn instructions(&self) -> impl Iterator<Item = (u16, &[u32])> {
        self.ins.iter().map(|i| ((i[0] & 0xffff) as u16, &i[1..]))
    }

    fn opcode(i: &[u32]) -> u16 {
        (i[0] & 0xffff) as u16
    }

    fn fresh_id(&mut self) -> u32 {
        let id = self.header[3];
        self.header[3] += 1;
        id
    }

    /// The instruction defining `id` among those with (type, result) first.
    fn def_typed(&self, id: u32) -> Option<&[u32]> {
        self.ins
            .iter()
            .find(|i| {
                matches!(Self::opcode(i), op::LOAD | op::IMAGE | op::VARIABLE | op::CONSTANT) && i.get(2) == Some(&id)
            })
            .map(|i| &i[..])
    }

    /// The instruction defining type `id` (result first).
    fn def_type(&self, id: u32) -> Option<&[u32]> {
        self.ins
            .iter()
            .find(|i| (op::TYPE_INT..=op::TYPE_POINTER).contains(&Self::opcode(i)) && i.get(1) == Some(&id))
            .map(|i| &i[..])
    }

    fn has_capability(&self, cap: u32) -> bool {
        self.ins.iter().any(|i| Self::opcode(i) == op::CAPABILITY && i.get(1) == Some(&cap))
    }

    fn add_capability(&mut self, cap: u32) {
        if self.has_capability(cap) {
            return;
        }
        let at = self.ins.iter().rposition(|i| Self::opcode(i) == op::CAPABILITY).map_or(0, |p| p + 1);
        self.ins.insert(at, inst(op::CAPABILITY, &[cap]));
    }

    fn add_extension(&mut self, name: &str) {
        let words = string_words(name);
        if self.ins.iter().any(|i| Self::opcode(i) == op::EXTENSION && i[1..] == words[..]) {
            return;
        }
        // Extensions follow the capabilities.
        let at = self
            .ins
            .iter()
            .rposition(|i| matches!(Self::opcode(i), op::CAPABILITY | op::EXTENSION))
            .map_or(0, |p| p + 1);
        self.ins.insert(at, inst(op::EXTENSION, &words));
    }

    /// Variables decorated with `decoration` and first literal `value`.
    fn decorated(&self, decoration: u32, value: u32) -> Vec<u32> {
        self.ins
            .iter()
            .filter(|i| Self::opcode(i) == op::DECORATE && i.len() >= 4 && i[2] == decoration && i[3] == value)
            .map(|i| i[1])
            .collect()
    }

    fn execution_model(&self) -> Option<u32> {
        self.ins.iter().find(|i| Self::opcode(i) == op::ENTRY_POINT).and_then(|i| i.get(1).copied())
    }

    /// Edit 1: the SampleMask variables become `u32[1]`.
    fn sample_mask_arrays(&mut self, edits: &mut Vec<Edit>) -> Result<(), PostError> {
        for var in self.decorated(op::DECORATION_BUILTIN, op::BUILTIN_SAMPLE_MASK) {
            let Some(vi) = self.ins.iter().position(|i| Self::opcode(i) == op::VARIABLE && i.len() == 4 && i[2] == var)
            else {
                return Err(PostError::Unexpected("SampleMask is not a variable without initialiser"));
            };
            let ptr_ty = self.ins[vi][1];
            let storage = self.ins[vi][3];
            let elem = match self.def_type(ptr_ty) {
                Some(p) if Self::opcode(p) == op::TYPE_POINTER && p.len() == 4 => p[3],
                _ => return Err(PostError::Unexpected("SampleMask variable's type is not a pointer")),
            };
            match self.def_type(elem) {
                Some(t) if Self::opcode(t) == op::TYPE_INT && t.len() == 4 && t[2] == 32 => {}
                // Already an array (a naga that fixed it): leave it.
                Some(t) if Self::opcode(t) == op::TYPE_ARRAY => continue,
                _ => return Err(PostError::Unexpected("SampleMask is not a 32-bit integer")),
            }
            let (one, zero, arr, arr_ptr) = (self.fresh_id(), self.fresh_id(), self.fresh_id(), self.fresh_id());
            let decls = [
                inst(op::CONSTANT, &[elem, one, 1]),
                inst(op::CONSTANT, &[elem, zero, 0]),
                inst(op::TYPE_ARRAY, &[arr, elem, one]),
                inst(op::TYPE_POINTER, &[arr_ptr, storage, arr]),
            ];
            self.ins[vi][1] = arr_ptr;
            self.ins.splice(vi..vi, decls);
            // Every load and store goes through element 0.
            let mut out = Vec::with_capacity(self.ins.len() + 8);
            for i in std::mem::take(&mut self.ins) {
                let pointer_at = match Self::opcode(&i) {
                    op::LOAD if i.len() >= 4 && i[3] == var => Some(3),
                    op::STORE if i.len() >= 3 && i[1] == var => Some(1),
                    _ => None,
                };
                match pointer_at {
                    Some(at) => {
                        let elem_ptr = self.fresh_id();
                        out.push(inst(op::ACCESS_CHAIN, &[ptr_ty, elem_ptr, var, zero]));
                        let mut i = i;
                        i[at] = elem_ptr;
                        out.push(i);
                    }
                    None => out.push(i),
                }
            }
            self.ins = out;
            if !edits.contains(&Edit::SampleMaskArray) {
                edits.push(Edit::SampleMaskArray);
            }
        }
        Ok(())
    }

    /// Edit 2: the reserved locations become the Layer / ViewportIndex
    /// built-ins.
    fn layer_and_viewport(&mut self, edits: &mut Vec<Edit>) -> Result<(), PostError> {
        for (location, builtin) in [
            (LAYER_LOCATION, op::BUILTIN_LAYER),
            (VIEWPORT_INDEX_LOCATION, op::BUILTIN_VIEWPORT_INDEX),
            (STENCIL_REF_LOCATION, op::BUILTIN_FRAG_STENCIL_REF_EXT),
        ] {
            let vars = self.decorated(op::DECORATION_LOCATION, location);
            if vars.is_empty() {
                continue;
            }
            let capability = match (self.execution_model(), builtin) {
                (Some(op::MODEL_FRAGMENT), op::BUILTIN_FRAG_STENCIL_REF_EXT) => op::CAPABILITY_STENCIL_EXPORT_EXT,
                (_, op::BUILTIN_FRAG_STENCIL_REF_EXT) => {
                    return Err(PostError::Unexpected("a stencil reference outside a pixel shader"))
                }
                (Some(op::MODEL_VERTEX), _) => op::CAPABILITY_VIEWPORT_INDEX_LAYER_EXT,
                (Some(op::MODEL_FRAGMENT), op::BUILTIN_LAYER) => op::CAPABILITY_GEOMETRY,
                (Some(op::MODEL_FRAGMENT), _) => op::CAPABILITY_MULTI_VIEWPORT,
                _ => return Err(PostError::Unexpected("layer or viewport index outside a vertex or pixel shader")),
            };
            for i in &mut self.ins {
                if Self::opcode(i) == op::DECORATE
                    && i.len() == 4
                    && vars.contains(&i[1])
                    && i[2] == op::DECORATION_LOCATION
                {
                    i[2] = op::DECORATION_BUILTIN;
                    i[3] = builtin;
                }
            }
            self.add_capability(capability);
            edits.push(match builtin {
                op::BUILTIN_LAYER => Edit::Layer,
                op::BUILTIN_VIEWPORT_INDEX => Edit::ViewportIndex,
                _ => Edit::StencilRef,
            });
            match capability {
                op::CAPABILITY_VIEWPORT_INDEX_LAYER_EXT => self.add_extension("SPV_EXT_shader_viewport_index_layer"),
                op::CAPABILITY_STENCIL_EXPORT_EXT => self.add_extension("SPV_EXT_shader_stencil_export"),
                _ => {}
            }
        }
        Ok(())
    }

    /// The result id of the instruction `opcode operands` (the operand at
    /// `result` aside, which is its id) among the instructions before `*at`,
    /// inserted there with a fresh id if there is none; `*at` then moves
    /// past it.
    fn find_or_insert(&mut self, at: &mut usize, opcode: u16, operands: &[u32], result: usize) -> u32 {
        let want = inst(opcode, operands);
        let same = |i: &Vec<u32>| {
            i.len() == want.len() && i.iter().zip(&want).enumerate().all(|(k, (a, b))| k == result + 1 || a == b)
        };
        if let Some(i) = self.ins[..*at].iter().find(|i| same(i)) {
            return i[result + 1];
        }
        let id = self.fresh_id();
        let mut made = want;
        made[result + 1] = id;
        self.ins.insert(*at, made);
        *at += 1;
        id
    }

    /// Takes the global variable at instruction `at` out of the stream and
    /// returns it with the index of the end of the global section (the
    /// first function), where it goes back once the types it is given are
    /// declared: there every type and constant is already declared before.
    fn lift_global(&mut self, at: usize) -> (Vec<u32>, usize) {
        let var = self.ins.remove(at);
        let end = self.ins.iter().position(|i| Self::opcode(i) == op::FUNCTION).unwrap_or(self.ins.len());
        (var, end)
    }

    /// The one Input variable at reserved `location`, if any: its id, its
    /// instruction's index and its pointee type (`unexpected` if there are
    /// several, or it is not an Input variable).
    fn reserved_input(&self, location: u32, unexpected: PostError) -> Result<Option<(u32, usize, u32)>, PostError> {
        let vars = self.decorated(op::DECORATION_LOCATION, location);
        let [var] = vars[..] else {
            return if vars.is_empty() { Ok(None) } else { Err(unexpected) };
        };
        let at = self
            .ins
            .iter()
            .position(|i| Self::opcode(i) == op::VARIABLE && i.len() == 4 && i[2] == var && i[3] == op::STORAGE_INPUT)
            .ok_or(unexpected.clone())?;
        let pointee = self.def_type(self.ins[at][1]).filter(|p| p.len() == 4).ok_or(unexpected)?[3];
        Ok(Some((var, at, pointee)))
    }

    /// `var`'s Location decoration becomes `BuiltIn built_in`, and its
    /// decorations of the kinds in `dropped` (without operands) go.
    fn make_built_in(&mut self, var: u32, built_in: u32, dropped: &[u32]) {
        self.ins
            .retain(|i| !(Self::opcode(i) == op::DECORATE && i.len() == 3 && i[1] == var && dropped.contains(&i[2])));
        for i in &mut self.ins {
            if Self::opcode(i) == op::DECORATE && i.len() == 4 && i[1] == var && i[2] == op::DECORATION_LOCATION {
                i[2] = op::DECORATION_BUILTIN;
                i[3] = built_in;
            }
        }
    }

    /// The indices of the loads of `var`, first to last (edit them last
    /// first, so that inserting after one keeps the indices before it).
    fn loads_of(&self, var: u32) -> Vec<usize> {
        (0..self.ins.len())
            .filter(|&n| Self::opcode(&self.ins[n]) == op::LOAD && self.ins[n].len() >= 4 && self.ins[n][3] == var)
            .collect()
    }

    /// Edit 2b: the reserved inner-coverage location becomes the bool
    /// `BuiltIn FullyCoveredEXT`; each load of it becomes the bool's load
    /// and a select of 1 or 0, the `u32` the shader reads.
    fn inner_coverage(&mut self, edits: &mut Vec<Edit>) -> Result<(), PostError> {
        let unexpected = PostError::Unexpected("inner coverage is not one u32 input");
        let Some((var, at_var, pointee)) = self.reserved_input(INNER_COVERAGE_LOCATION, unexpected.clone())? else {
            return Ok(());
        };
        if self.execution_model() != Some(op::MODEL_FRAGMENT) {
            return Err(PostError::Unexpected("inner coverage outside a pixel shader"));
        }
        let uint = self.def_type(pointee).filter(|t| t.len() == 4 && t[0] == ((4 << 16) | op::TYPE_INT as u32));
        if uint.is_none_or(|t| t[2] != 32 || t[3] != 0) {
            return Err(unexpected);
        }
        // The bool type, its Input pointer and the constants 1 and 0, made
        // where missing, then the variable.
        let (mut var_ins, mut at) = self.lift_global(at_var);
        let bool_ty = self.find_or_insert(&mut at, op::TYPE_BOOL, &[0], 0);
        let ptr = self.find_or_insert(&mut at, op::TYPE_POINTER, &[0, op::STORAGE_INPUT, bool_ty], 0);
        let one = self.find_or_insert(&mut at, op::CONSTANT, &[pointee, 0, 1], 1);
        let zero = self.find_or_insert(&mut at, op::CONSTANT, &[pointee, 0, 0], 1);
        var_ins[1] = ptr;
        self.ins.insert(at, var_ins);
        // Flat goes: Vulkan asks it of integer and float inputs, not of a bool.
        self.make_built_in(var, op::BUILTIN_FULLY_COVERED_EXT, &[op::DECORATION_FLAT]);
        for n in self.loads_of(var).into_iter().rev() {
            let (ty, result) = (self.ins[n][1], self.ins[n][2]);
            let b = self.fresh_id();
            self.ins[n][1] = bool_ty;
            self.ins[n][2] = b;
            self.ins.insert(n + 1, inst(op::SELECT, &[ty, result, b, one, zero]));
        }
        self.add_capability(op::CAPABILITY_FRAGMENT_FULLY_COVERED_EXT);
        self.add_extension("SPV_EXT_fragment_fully_covered");
        edits.push(Edit::InnerCoverage);
        Ok(())
    }

    /// Edit 2c: the reserved clip-distance location of a pixel shader's
    /// input becomes the `float[N]` `BuiltIn ClipDistance` (interpolated as
    /// the built-in is, so its interpolation decorations go); each load of
    /// it becomes the array's load and the `f32` or `vecN<f32>` of its
    /// elements that the shader reads.
    fn clip_distance_input(&mut self, edits: &mut Vec<Edit>) -> Result<(), PostError> {
        let unexpected = PostError::Unexpected("the clip-distance input is not one f32 or vector of f32");
        let Some((var, at_var, pointee)) = self.reserved_input(CLIP_DISTANCE_LOCATION, unexpected.clone())? else {
            return Ok(());
        };
        let pointee_def = self.def_type(pointee).ok_or(unexpected.clone())?.to_vec();
        let (float, n) = match Self::opcode(&pointee_def) {
            op::TYPE_FLOAT => (pointee, 1),
            op::TYPE_VECTOR if pointee_def.len() == 4 => (pointee_def[2], pointee_def[3]),
            _ => return Err(unexpected),
        };
        let uint = self
            .ins
            .iter()
            .find(|i| i.len() == 4 && i[0] == ((4 << 16) | op::TYPE_INT as u32) && i[2] == 32 && i[3] == 0)
            .map(|i| i[1]);
        let (mut var_ins, mut at) = self.lift_global(at_var);
        let uint = match uint {
            Some(u) => u,
            None => self.find_or_insert(&mut at, op::TYPE_INT, &[0, 32, 0], 0),
        };
        let len = self.find_or_insert(&mut at, op::CONSTANT, &[uint, 0, n], 1);
        let array = self.find_or_insert(&mut at, op::TYPE_ARRAY, &[0, float, len], 0);
        let ptr = self.find_or_insert(&mut at, op::TYPE_POINTER, &[0, op::STORAGE_INPUT, array], 0);
        var_ins[1] = ptr;
        self.ins.insert(at, var_ins);
        self.make_built_in(var, op::BUILTIN_CLIP_DISTANCE, &op::INTERPOLATION_DECORATIONS);
        for at in self.loads_of(var).into_iter().rev() {
            let (ty, result) = (self.ins[at][1], self.ins[at][2]);
            let whole = self.fresh_id();
            self.ins[at][1] = array;
            self.ins[at][2] = whole;
            let mut after = Vec::new();
            if n == 1 {
                after.push(inst(op::COMPOSITE_EXTRACT, &[ty, result, whole, 0]));
            } else {
                let mut parts = vec![ty, result];
                for k in 0..n {
                    let e = self.fresh_id();
                    after.push(inst(op::COMPOSITE_EXTRACT, &[float, e, whole, k]));
                    parts.push(e);
                }
                after.push(inst(op::COMPOSITE_CONSTRUCT, &parts));
            }
            self.ins.splice(at + 1..at + 1, after);
        }
        self.add_capability(op::CAPABILITY_CLIP_DISTANCE);
        edits.push(Edit::ClipDistanceInput);
        Ok(())
    }

    /// Edit 3: size queries of MS and storage images lose the level.
    fn size_queries_without_level(&mut self, edits: &mut Vec<Edit>) {
        let mut queries = Vec::new();
        for (n, i) in self.ins.iter().enumerate() {
            if Self::opcode(i) != op::IMAGE_QUERY_SIZE_LOD || i.len() != 5 {
                continue;
            }
            let image_ty = self.def_typed(i[3]).map(|d| d[1]);
            let ms_or_storage = image_ty
                .and_then(|t| self.def_type(t))
                .is_some_and(|t| Self::opcode(t) == op::TYPE_IMAGE && t.len() >= 9 && (t[6] == 1 || t[7] == 2));
            if ms_or_storage {
                queries.push(n);
            }
        }
        for &n in &queries {
            let i = &self.ins[n];
            self.ins[n] = inst(op::IMAGE_QUERY_SIZE, &[i[1], i[2], i[3]]);
        }
        if !queries.is_empty() {
            edits.push(Edit::SizeQueryWithoutLevel);
        }
    }
}

impl Words {
    /// The `GLSL.std.450` import, added when naga wrote none.
    fn glsl_import(&mut self) -> u32 {
        let name = string_words("GLSL.std.450");
        if let Some(i) = self.ins.iter().find(|i| Self::opcode(i) == op::EXT_INST_IMPORT && i[2..] == name[..]) {
            return i[1];
        }
        let id = self.fresh_id();
        let at = self
            .ins
            .iter()
            .rposition(|i| matches!(Self::opcode(i), op::CAPABILITY | op::EXTENSION | op::EXT_INST_IMPORT))
            .map_or(0, |p| p + 1);
        let mut operands = vec![id];
        operands.extend(name);
        self.ins.insert(at, inst(op::EXT_INST_IMPORT, &operands));
        id
    }

    /// The position of the sample (or the extraction from one) defining `id`.
    fn sample_def(&self, id: u32) -> Option<usize> {
        self.ins.iter().position(|i| {
            matches!(
                Self::opcode(i),
                op::IMAGE_SAMPLE_IMPLICIT_LOD
                    | op::IMAGE_SAMPLE_EXPLICIT_LOD
                    | op::IMAGE_SAMPLE_DREF_IMPLICIT_LOD
                    | op::IMAGE_SAMPLE_DREF_EXPLICIT_LOD
                    | op::COMPOSITE_EXTRACT
                    | op::COPY_OBJECT
            ) && i.len() >= 4
                && i[2] == id
        })
    }

    /// The `OpImageSample*` that produced `value`, through the component
    /// extract of a depth sample and the copies that earlier marks on the
    /// same sample became: its index, where its image-operand mask is, and
    /// whether its level is explicit.
    fn sample_of(&self, value: u32) -> Result<(usize, usize, bool), PostError> {
        const NOT_A_SAMPLE: PostError = PostError::Unexpected("sample mark not on a sample");
        let mut s = self.sample_def(value).ok_or(NOT_A_SAMPLE)?;
        while matches!(Self::opcode(&self.ins[s]), op::COMPOSITE_EXTRACT | op::COPY_OBJECT) {
            let of = self.ins[s][3];
            s = self.sample_def(of).ok_or(NOT_A_SAMPLE)?;
        }
        let (mask_at, explicit) = match Self::opcode(&self.ins[s]) {
            op::IMAGE_SAMPLE_IMPLICIT_LOD => (5, false),
            op::IMAGE_SAMPLE_EXPLICIT_LOD => (5, true),
            op::IMAGE_SAMPLE_DREF_IMPLICIT_LOD => (6, false),
            op::IMAGE_SAMPLE_DREF_EXPLICIT_LOD => (6, true),
            _ => return Err(NOT_A_SAMPLE),
        };
        Ok((s, mask_at, explicit))
    }

    /// Makes `level` the `Lod` operand of the explicit-level sample that
    /// produced `value` (naga writes a depth image's level as an integer
    /// converted, or as the constant zero the lowering asked for).
    fn set_lod_operand(&mut self, value: u32, level: u32) -> Result<(), PostError> {
        let (s, mask_at, explicit) = self.sample_of(value)?;
        let sample = &mut self.ins[s];
        // Bias and Grad exclude Lod, so its operand is the first.
        if !explicit
            || sample.get(mask_at).is_none_or(|m| m & op::IMAGE_OPERAND_LOD == 0)
            || sample.len() <= mask_at + 1
        {
            return Err(PostError::Unexpected("a level mark on a sample without a Lod operand"));
        }
        sample[mask_at + 1] = level;
        Ok(())
    }

    /// The result id of the image atomic on `value` that the mark call at
    /// instruction `call` follows in its block (an `OpAtomic*` through an
    /// `OpImageTexelPointer`), made an exchange or, with `comparator`, a
    /// compare-exchange when `how` asks (naga writes it as an add), or its
    /// min or max of the other signedness.
    fn image_atomic_result(
        &mut self,
        call: usize,
        value: u32,
        how: u32,
        comparator: Option<u32>,
    ) -> Result<u32, PostError> {
        use crate::spirv_marks as m;
        let texel_pointer = |ins: &[Vec<u32>], id: u32| {
            ins.iter().any(|i| Self::opcode(i) == op::IMAGE_TEXEL_POINTER && i.get(2) == Some(&id))
        };
        let at = (0..call)
            .rev()
            .take_while(|&i| Self::opcode(&self.ins[i]) != op::LABEL)
            .find(|&i| {
                let a = &self.ins[i];
                op::ATOMIC_RMW.contains(&Self::opcode(a))
                    && a.len() == 7
                    && a[6] == value
                    && texel_pointer(&self.ins, a[3])
            })
            .ok_or(PostError::Unexpected("image atomic mark after no image atomic of its value"))?;
        let atomic = &mut self.ins[at];
        // [opcode, type, result, pointer, scope, semantics, value]
        let (ty, result, pointer, scope, semantics) = (atomic[1], atomic[2], atomic[3], atomic[4], atomic[5]);
        match (how, comparator) {
            (0, _) => {}
            (m::ATOMIC_EXCHANGE, _) => {
                *atomic = inst(op::ATOMIC_EXCHANGE, &[ty, result, pointer, scope, semantics, value])
            }
            // naga's semantics are relaxed (0), which both outcomes may take.
            (m::ATOMIC_COMPARE_EXCHANGE, Some(c)) => {
                *atomic =
                    inst(op::ATOMIC_COMPARE_EXCHANGE, &[ty, result, pointer, scope, semantics, semantics, value, c])
            }
            (m::ATOMIC_OTHER_SIGNEDNESS, _) => {
                let other = match Self::opcode(atomic) {
                    op::ATOMIC_S_MIN => op::ATOMIC_U_MIN,
                    op::ATOMIC_U_MIN => op::ATOMIC_S_MIN,
                    op::ATOMIC_S_MAX => op::ATOMIC_U_MAX,
                    op::ATOMIC_U_MAX => op::ATOMIC_S_MAX,
                    _ => return Err(PostError::Unexpected("a signedness mark after an atomic that is no min or max")),
                };
                *atomic = inst(other, &[ty, result, pointer, scope, semantics, value]);
            }
            _ => return Err(PostError::Unexpected("image atomic mark of an unknown form")),
        }
        Ok(result)
    }

    /// Gives the `OpImageSample*` that produced `value` ([`Self::sample_of`])
    /// the image operand `bit` with `operand`, in the place SPIR-V orders
    /// it: by bit, lowest first.
    fn add_image_operand(&mut self, value: u32, bit: u32, operand: u32) -> Result<(), PostError> {
        let (s, mask_at, explicit) = self.sample_of(value)?;
        let sample = &mut self.ins[s];
        let code = Self::opcode(sample);
        let mask = sample.get(mask_at).copied().unwrap_or(0);
        // Bias and MinLod go with an implicit LOD (MinLod also with Grad),
        // and each at most once.
        let fits = mask & bit == 0
            && match bit {
                op::IMAGE_OPERAND_BIAS => !explicit,
                _ => !explicit || mask & op::IMAGE_OPERAND_GRAD != 0,
            };
        if !fits {
            return Err(PostError::Unexpected("an image operand on a sample that cannot take it"));
        }
        if sample.len() <= mask_at {
            sample.push(0);
        }
        // The operands of the lower bits come first: one id each, Grad two;
        // naga sets no bit above MinLod.
        let below = mask & (bit - 1);
        if mask > 0xff {
            return Err(PostError::Unexpected("an image operand naga does not write"));
        }
        let words_below: u32 = (0..7)
            .filter(|b| below & (1 << b) != 0)
            .map(|b| if 1 << b == op::IMAGE_OPERAND_GRAD { 2 } else { 1 })
            .sum();
        sample[mask_at] = mask | bit;
        sample.insert(mask_at + 1 + words_below as usize, operand);
        sample[0] = ((sample.len() as u32) << 16) | code as u32;
        Ok(())
    }

    /// The `Input` variable at `location`, its pointee type, and whether it
    /// is interpolated (a float vector without `Flat`).
    fn input_at(&self, location: u32) -> Option<(u32, u32, bool)> {
        let vars = self.decorated(op::DECORATION_LOCATION, location);
        let (var, ptr_ty) = self.ins.iter().find_map(|i| {
            (Self::opcode(i) == op::VARIABLE && i.len() >= 4 && i[3] == op::STORAGE_INPUT && vars.contains(&i[2]))
                .then(|| (i[2], i[1]))
        })?;
        let pointee = self.def_type(ptr_ty).filter(|p| Self::opcode(p) == op::TYPE_POINTER && p.len() == 4)?[3];
        let float = self.def_type(pointee).is_some_and(|t| {
            Self::opcode(t) == op::TYPE_VECTOR
                && t.len() == 4
                && self.def_type(t[2]).is_some_and(|c| Self::opcode(c) == op::TYPE_FLOAT)
        });
        let flat = self
            .ins
            .iter()
            .any(|i| Self::opcode(i) == op::DECORATE && i.len() == 3 && i[1] == var && i[2] == op::DECORATION_FLAT);
        Some((var, pointee, float && !flat))
    }

    /// Edits 4 and 5: the calls of `spirv_marks` functions become the
    /// instructions they stand for.
    fn marks(&mut self, edits: &mut Vec<Edit>) -> Result<(), PostError> {
        use crate::spirv_marks as m;
        let tags: std::collections::BTreeMap<u32, u32> = self
            .ins
            .iter()
            .filter(|i| Self::opcode(i) == op::CONSTANT && i.len() == 4 && i[3] & 0xFFFF_0000 == m::TAG_BASE)
            .map(|i| (i[2], i[3]))
            .collect();
        if tags.is_empty() {
            return Ok(());
        }
        // Imported first (for the eval marks): the import shifts the
        // instructions after it.
        let glsl = tags
            .values()
            .any(|t| matches!(t & m::KIND_MASK, m::EVAL_CENTROID | m::EVAL_SAMPLE | m::EVAL_SNAPPED))
            .then(|| self.glsl_import());
        let calls: Vec<usize> = (0..self.ins.len())
            .filter(|&n| {
                let i = &self.ins[n];
                Self::opcode(i) == op::FUNCTION_CALL && i.len() >= 6 && tags.contains_key(&i[4])
            })
            .collect();
        let (mut min_lod, mut depth_level, mut image_atomic, mut memory_barrier, mut interpolate) =
            (false, false, false, false, false);
        for n in calls {
            let call = self.ins[n].clone();
            let (result_ty, result, value) = (call[1], call[2], call[5]);
            let tag = tags[&call[4]];
            let kind = tag & m::KIND_MASK;
            if kind == m::MEMORY_BARRIER {
                // mark(tag, 0, scope, semantics): the call's result is read by nothing.
                let (Some(&scope), Some(&semantics)) = (call.get(6), call.get(7)) else {
                    return Err(PostError::Unexpected("memory barrier mark without its scope and semantics"));
                };
                self.ins[n] = inst(op::MEMORY_BARRIER, &[scope, semantics]);
                memory_barrier = true;
                continue;
            }
            if kind == m::IMAGE_ATOMIC {
                let comparator = call.get(6).copied();
                let old = self.image_atomic_result(n, value, tag & m::REGISTER_MASK, comparator)?;
                self.ins[n] = inst(op::COPY_OBJECT, &[result_ty, result, old]);
                image_atomic = true;
                continue;
            }
            if matches!(kind, m::MIN_LOD | m::BIAS | m::LOD) {
                let &operand = call.get(6).ok_or(PostError::Unexpected("sample mark without its operand"))?;
                match kind {
                    m::BIAS => {
                        self.add_image_operand(value, op::IMAGE_OPERAND_BIAS, operand)?;
                        depth_level = true;
                    }
                    m::LOD => {
                        self.set_lod_operand(value, operand)?;
                        depth_level = true;
                    }
                    _ => {
                        self.add_image_operand(value, op::IMAGE_OPERAND_MIN_LOD, operand)?;
                        min_lod = true;
                    }
                }
                self.ins[n] = inst(op::COPY_OBJECT, &[result_ty, result, value]);
                continue;
            }
            let instruction = match kind {
                m::EVAL_CENTROID => op::GLSL_INTERPOLATE_AT_CENTROID,
                m::EVAL_SAMPLE => op::GLSL_INTERPOLATE_AT_SAMPLE,
                m::EVAL_SNAPPED => op::GLSL_INTERPOLATE_AT_OFFSET,
                _ => return Err(PostError::Unexpected("unknown mark")),
            };
            let extra = match instruction {
                op::GLSL_INTERPOLATE_AT_CENTROID => None,
                _ => Some(*call.get(6).ok_or(PostError::Unexpected("eval mark without its operand"))?),
            };
            // A register with no input variable is a built-in the lowering
            // let through: one constant over the primitive (SV_PrimitiveID,
            // SV_IsFrontFace …; the interpolated ones are refused), so it
            // evaluates to what it reads, as a flat input does.
            let Some((var, pointee, interpolated)) = self.input_at(tag & m::REGISTER_MASK) else {
                self.ins[n] = inst(op::COPY_OBJECT, &[result_ty, result, value]);
                continue;
            };
            if !interpolated {
                self.ins[n] = inst(op::COPY_OBJECT, &[result_ty, result, value]);
                continue;
            }
            if pointee != result_ty {
                return Err(PostError::Unexpected("eval mark's type differs from its input's"));
            }
            let glsl = glsl.ok_or(PostError::Unexpected("eval mark without an import"))?;
            let mut operands = vec![result_ty, result, glsl, instruction, var];
            operands.extend(extra);
            self.ins[n] = inst(op::EXT_INST, &operands);
            interpolate = true;
        }
        if depth_level {
            edits.push(Edit::DepthLevel);
        }
        if min_lod {
            self.add_capability(op::CAPABILITY_MIN_LOD);
            edits.push(Edit::MinLod);
        }
        if image_atomic {
            edits.push(Edit::ImageAtomicResult);
        }
        if memory_barrier {
            edits.push(Edit::MemoryBarrier);
        }
        if interpolate {
            self.add_capability(op::CAPABILITY_INTERPOLATION_FUNCTION);
            edits.push(Edit::InterpolateAt);
        }
        Ok(())
    }
}

/// Whether the stream holds anything an edit looks for: one pass over the
/// words, checking their framing as [`Words::decode`] does, without
/// allocating. Most modules hold none and pass through as they are, so the
/// decode into owned instructions is paid only where an edit may apply.
fn has_marks(words: &[u32]) -> Result<bool, PostError> {
    if words.len() < 5 || words[0] != 0x0723_0203 {
        return Err(PostError::BadHeader);
    }
    let mut found = false;
    let mut at = 5;
    while at < words.len() {
        let n = (words[at] >> 16) as usize;
        if n == 0 || at + n > words.len() {
            return Err(PostError::BadInstruction { at });
        }
        let i = &words[at..at + n];
        found |= match (i[0] & 0xffff) as u16 {
            op::DECORATE => {
                n >= 4
                    && ((i[2] == op::DECORATION_BUILTIN && i[3] == op::BUILTIN_SAMPLE_MASK)
                        || (i[2] == op::DECORATION_LOCATION
                            && matches!(
                                i[3],
                                LAYER_LOCATION
                                    | VIEWPORT_INDEX_LOCATION
                                    | STENCIL_REF_LOCATION
                                    | INNER_COVERAGE_LOCATION
                                    | CLIP_DISTANCE_LOCATION
                            )))
            }
            op::IMAGE_QUERY_SIZE_LOD => true,
            op::CONSTANT => n == 4 && i[3] & 0xFFFF_0000 == crate::spirv_marks::TAG_BASE,
            _ => false,
        };
        at += n;
    }
    Ok(found)
}

/// Applies every edit to naga's SPIR-V words: the new words and the
/// edits made.
pub fn apply(words: Vec<u32>) -> Result<(Vec<u32>, Vec<Edit>), PostError> {
    if !has_marks(&words)? {
        return Ok((words, Vec::new()));
    }
    let mut m = Words::decode(&words)?;
    let mut edits = Vec::new();
    m.sample_mask_arrays(&mut edits)?;
    m.layer_and_viewport(&mut edits)?;
    m.inner_coverage(&mut edits)?;
    m.clip_distance_input(&mut edits)?;
    m.size_queries_without_level(&mut edits);
    m.marks(&mut edits)?;
    Ok((m.encode(), edits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(body: &[Vec<u32>], bound: u32) -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, bound, 0];
        for i in body {
            w.extend_from_slice(i);
        }
        w
    }

    #[test]
    fn decode_rejects_truncated_and_zero_length_instructions() {
        assert_eq!(Words::decode(&[1, 2, 3]), Err(PostError::BadHeader));
        let mut w = module(&[], 1);
        w.push(3 << 16 | 17); // claims three words, has one
        assert_eq!(Words::decode(&w), Err(PostError::BadInstruction { at: 5 }));
        // The pass-through path checks the framing too.
        assert_eq!(apply(w), Err(PostError::BadInstruction { at: 5 }));
        let mut w = module(&[], 1);
        w.push(0);
        assert_eq!(Words::decode(&w), Err(PostError::BadInstruction { at: 5 }));
        assert_eq!(apply(w), Err(PostError::BadInstruction { at: 5 }));
        assert_eq!(apply(vec![1, 2, 3]), Err(PostError::BadHeader));
    }

    #[test]
    fn untouched_stream_round_trips() {
        let w = module(&[inst(op::CAPABILITY, &[1]), inst(op::TYPE_INT, &[1, 32, 0])], 2);
        assert_eq!(apply(w.clone()).unwrap().0, w);
    }

    #[test]
    fn sample_mask_becomes_an_array_accessed_at_element_0() {
        // %1 = u32, %2 = ptr Output u32, %3 = var, a store of %4 and a load.
        let output = 3;
        let w = module(
            &[
                inst(op::CAPABILITY, &[1]),
                inst(op::DECORATE, &[3, op::DECORATION_BUILTIN, op::BUILTIN_SAMPLE_MASK]),
                inst(op::TYPE_INT, &[1, 32, 0]),
                inst(op::TYPE_POINTER, &[2, output, 1]),
                inst(op::VARIABLE, &[2, 3, output]),
                inst(op::CONSTANT, &[1, 4, 7]),
                inst(op::STORE, &[3, 4]),
                inst(op::LOAD, &[1, 5, 3]),
            ],
            6,
        );
        let got = Words::decode(&apply(w.clone()).unwrap().0).unwrap();
        let ins: Vec<(u16, Vec<u32>)> = got.instructions().map(|(o, a)| (o, a.to_vec())).collect();
        // New ids 6 (one), 7 (zero), 8 (array), 9 (pointer), 10 and 11 (chains).
        assert_eq!(got.header[3], 12);
        assert_eq!(
            ins[3..],
            [
                (op::TYPE_POINTER, vec![2, output, 1]),
                (op::CONSTANT, vec![1, 6, 1]),
                (op::CONSTANT, vec![1, 7, 0]),
                (op::TYPE_ARRAY, vec![8, 1, 6]),
                (op::TYPE_POINTER, vec![9, output, 8]),
                (op::VARIABLE, vec![9, 3, output]),
                (op::CONSTANT, vec![1, 4, 7]),
                (op::ACCESS_CHAIN, vec![2, 10, 3, 7]),
                (op::STORE, vec![10, 4]),
                (op::ACCESS_CHAIN, vec![2, 11, 3, 7]),
                (op::LOAD, vec![1, 5, 11]),
            ]
        );
    }

    #[test]
    fn reserved_location_becomes_layer_with_the_vertex_capability() {
        let w = module(
            &[
                inst(op::CAPABILITY, &[1]),
                inst(op::ENTRY_POINT, &[op::MODEL_VERTEX, 9, 0x6e69_616d, 0, 3]),
                inst(op::DECORATE, &[3, op::DECORATION_LOCATION, LAYER_LOCATION]),
                inst(op::DECORATE, &[3, op::DECORATION_FLAT]),
                inst(op::DECORATE, &[4, op::DECORATION_LOCATION, 0]),
            ],
            10,
        );
        let got = Words::decode(&apply(w.clone()).unwrap().0).unwrap();
        let ins: Vec<(u16, Vec<u32>)> = got.instructions().map(|(o, a)| (o, a.to_vec())).collect();
        assert_eq!(
            ins,
            [
                (op::CAPABILITY, vec![1]),
                (op::CAPABILITY, vec![op::CAPABILITY_VIEWPORT_INDEX_LAYER_EXT]),
                (op::EXTENSION, string_words("SPV_EXT_shader_viewport_index_layer")),
                (op::ENTRY_POINT, vec![op::MODEL_VERTEX, 9, 0x6e69_616d, 0, 3]),
                (op::DECORATE, vec![3, op::DECORATION_BUILTIN, op::BUILTIN_LAYER]),
                (op::DECORATE, vec![3, op::DECORATION_FLAT]),
                (op::DECORATE, vec![4, op::DECORATION_LOCATION, 0]),
            ]
        );
    }

    #[test]
    fn fragment_viewport_index_needs_multi_viewport() {
        let w = module(
            &[
                inst(op::CAPABILITY, &[1]),
                inst(op::ENTRY_POINT, &[op::MODEL_FRAGMENT, 9, 0x6e69_616d, 0, 3]),
                inst(op::DECORATE, &[3, op::DECORATION_LOCATION, VIEWPORT_INDEX_LOCATION]),
            ],
            10,
        );
        let got = Words::decode(&apply(w.clone()).unwrap().0).unwrap();
        let caps: Vec<u32> = got.instructions().filter(|(o, _)| *o == op::CAPABILITY).map(|(_, a)| a[0]).collect();
        assert_eq!(caps, [1, op::CAPABILITY_MULTI_VIEWPORT]);
        assert!(got.instructions().all(|(o, _)| o != op::EXTENSION));
    }

    #[test]
    fn size_lod_query_of_multisampled_or_storage_image_drops_the_level() {
        let image = |id, ms, sampled| inst(op::TYPE_IMAGE, &[id, 1, 1, 0, 1, ms, sampled, 0]);
        let w = module(
            &[
                image(2, 1, 1), // multisampled array
                image(3, 0, 2), // storage array
                image(4, 0, 1), // sampled: keeps its level
                inst(op::LOAD, &[2, 10, 20]),
                inst(op::LOAD, &[3, 11, 21]),
                inst(op::LOAD, &[4, 12, 22]),
                inst(op::IMAGE_QUERY_SIZE_LOD, &[5, 13, 10, 30]),
                inst(op::IMAGE_QUERY_SIZE_LOD, &[5, 14, 11, 30]),
                inst(op::IMAGE_QUERY_SIZE_LOD, &[5, 15, 12, 30]),
            ],
            40,
        );
        let got = Words::decode(&apply(w.clone()).unwrap().0).unwrap();
        let q: Vec<(u16, Vec<u32>)> = got.instructions().skip(6).map(|(o, a)| (o, a.to_vec())).collect();
        assert_eq!(
            q,
            [
                (op::IMAGE_QUERY_SIZE, vec![5, 13, 10]),
                (op::IMAGE_QUERY_SIZE, vec![5, 14, 11]),
                (op::IMAGE_QUERY_SIZE_LOD, vec![5, 15, 12, 30]),
            ]
        );
    }

    // Marks (spirv_marks): %1 u32, %3 f32, %4 vec4<f32>, %5 *Input vec4.
    fn mark_types(tag: u32) -> Vec<Vec<u32>> {
        vec![
            inst(op::TYPE_INT, &[1, 32, 0]),
            inst(op::CONSTANT, &[1, 2, crate::spirv_marks::TAG_BASE | tag]),
            inst(op::TYPE_FLOAT, &[3, 32]),
            inst(op::TYPE_VECTOR, &[4, 3, 4]),
            inst(op::TYPE_POINTER, &[5, op::STORAGE_INPUT, 4]),
        ]
    }

    #[test]
    fn min_lod_mark_adds_the_operand_after_the_others_and_becomes_a_copy() {
        use crate::spirv_marks::MIN_LOD;
        // No operands yet; then a ConstOffset (0x8) before it.
        for (operands, want) in [(vec![], vec![0x80, 13]), (vec![0x8, 30], vec![0x88, 30, 13])] {
            let mut body = mark_types(MIN_LOD);
            let mut sample = vec![4, 10, 11, 12];
            sample.extend(&operands);
            body.push(inst(op::IMAGE_SAMPLE_IMPLICIT_LOD, &sample));
            body.push(inst(op::FUNCTION_CALL, &[4, 14, 20, 2, 10, 13]));
            let (words, edits) = apply(module(&body, 40)).unwrap();
            let m = Words::decode(&words).unwrap();
            let ins: Vec<(u16, Vec<u32>)> = m.instructions().map(|(o, a)| (o, a.to_vec())).collect();
            let mut clamped = vec![4, 10, 11, 12];
            clamped.extend(&want);
            assert!(ins.contains(&(op::IMAGE_SAMPLE_IMPLICIT_LOD, clamped)));
            assert!(ins.contains(&(op::COPY_OBJECT, vec![4, 14, 10])));
            assert!(!ins.iter().any(|(o, _)| *o == op::FUNCTION_CALL));
            assert!(ins.contains(&(op::CAPABILITY, vec![op::CAPABILITY_MIN_LOD])));
            assert_eq!(edits, vec![Edit::MinLod]);
        }
        // An explicit LOD without gradients cannot take MinLod.
        let mut body = mark_types(MIN_LOD);
        body.push(inst(op::IMAGE_SAMPLE_EXPLICIT_LOD, &[4, 10, 11, 12, 0x2, 31]));
        body.push(inst(op::FUNCTION_CALL, &[4, 14, 20, 2, 10, 13]));
        assert!(matches!(apply(module(&body, 40)), Err(PostError::Unexpected(_))));
    }

    #[test]
    fn eval_marks_become_interpolate_at_of_the_input_variable() {
        use crate::spirv_marks::{EVAL_CENTROID, EVAL_SAMPLE};
        for (kind, extra, glsl_op) in [
            (EVAL_CENTROID, vec![], op::GLSL_INTERPOLATE_AT_CENTROID),
            (EVAL_SAMPLE, vec![17], op::GLSL_INTERPOLATE_AT_SAMPLE),
        ] {
            let mut body = mark_types(kind | 3);
            body.push(inst(op::VARIABLE, &[5, 6, op::STORAGE_INPUT]));
            body.insert(0, inst(op::DECORATE, &[6, op::DECORATION_LOCATION, 3]));
            let mut call = vec![4, 15, 21, 2, 16];
            call.extend(&extra);
            body.push(inst(op::FUNCTION_CALL, &call));
            let (words, edits) = apply(module(&body, 40)).unwrap();
            let m = Words::decode(&words).unwrap();
            let ins: Vec<(u16, Vec<u32>)> = m.instructions().map(|(o, a)| (o, a.to_vec())).collect();
            let glsl = ins.iter().find(|(o, _)| *o == op::EXT_INST_IMPORT).expect("GLSL.std.450 imported").1[0];
            let mut want = vec![4, 15, glsl, glsl_op, 6];
            want.extend(&extra);
            assert!(ins.contains(&(op::EXT_INST, want)), "{ins:?}");
            assert!(ins.contains(&(op::CAPABILITY, vec![op::CAPABILITY_INTERPOLATION_FUNCTION])));
            assert_eq!(edits, vec![Edit::InterpolateAt]);
        }
        // A flat input is its value: the call becomes a copy.
        let mut body = mark_types(EVAL_CENTROID | 3);
        body.push(inst(op::VARIABLE, &[5, 6, op::STORAGE_INPUT]));
        body.insert(0, inst(op::DECORATE, &[6, op::DECORATION_LOCATION, 3]));
        body.insert(0, inst(op::DECORATE, &[6, op::DECORATION_FLAT]));
        body.push(inst(op::FUNCTION_CALL, &[4, 15, 21, 2, 16]));
        let (words, edits) = apply(module(&body, 40)).unwrap();
        let m = Words::decode(&words).unwrap();
        assert!(m.instructions().any(|(o, a)| o == op::COPY_OBJECT && a == [4, 15, 16]));
        assert!(edits.is_empty());
    }
}
