//! The Direct3D 9 (SM2.x) token format that the `Aon9` chunk embeds for
//! `*_4_0_level_9_x` profiles: its opcodes, register files, modifiers and
//! declaration enums, and the bitfields of its tokens.
//!
//! Same design as the parent table: each enumeration is written once as rows
//! of `spec_enum!`, which emits both the [`EnumDef`] (for viewers) and a typed
//! enum (for code). Opcodes carry extra columns (destination, slot cost,
//! texture load) through `sm2_opcode_table!`, which forwards the shared
//! columns to `spec_enum!` and turns the rest into `const fn` lookups. The
//! numbers and header names are those of `d3d9types.h`; fxc's spellings are
//! those its level-9 listings print; the explanations are ours.

use super::*;

/// Emits `SM2_OPCODE` / [`Sm2Opcode`] from rows
/// `(Variant, code, "SPEC", "asm", has_dst, slots, texture_load, "doc")`.
macro_rules! sm2_opcode_table {
    ($( ($v:ident, $code:literal, $spec:literal, $asm:literal, $dst:literal, $slots:literal, $tex:literal, $doc:literal) ),* $(,)?) => {
        spec_enum! {
            /// SM2 instruction opcode (`D3DSHADER_INSTRUCTION_OPCODE_TYPE`,
            /// bits 15:0 of an instruction token).
            SM2_OPCODE, Sm2Opcode, "SM2 opcode",
            $( ($v, $code, $spec, $asm, $doc) ),*
        }

        impl Sm2Opcode {
            /// Whether the first parameter is a destination.
            pub const fn has_dst(self) -> bool {
                match self { $( Sm2Opcode::$v => $dst ),* }
            }
            /// Instruction slots the listing's count charges for it.
            pub const fn slots(self) -> u32 {
                match self { $( Sm2Opcode::$v => $slots ),* }
            }
            /// Whether it is a texture load (counted apart in pixel shaders).
            pub const fn is_texture_load(self) -> bool {
                match self { $( Sm2Opcode::$v => $tex ),* }
            }
        }
    };
}

// Slot costs: 0 for declarations and labels, 3 for `nrm` and `pow`, 1 for the
// other arithmetic and texture instructions (all verified on the corpus); the
// other macro costs follow the D3D9 documentation.
sm2_opcode_table! {
    (Nop, 0, "NOP", "nop", false, 1, false, "Does nothing."),
    (Mov, 1, "MOV", "mov", true, 1, false, "Copies the source."),
    (Add, 2, "ADD", "add", true, 1, false, "Adds."),
    (Sub, 3, "SUB", "sub", true, 1, false, "Subtracts."),
    (Mad, 4, "MAD", "mad", true, 1, false, "Multiply-add."),
    (Mul, 5, "MUL", "mul", true, 1, false, "Multiplies."),
    (Rcp, 6, "RCP", "rcp", true, 1, false, "Reciprocal."),
    (Rsq, 7, "RSQ", "rsq", true, 1, false, "Reciprocal square root."),
    (Dp3, 8, "DP3", "dp3", true, 1, false, "Three-component dot product."),
    (Dp4, 9, "DP4", "dp4", true, 1, false, "Four-component dot product."),
    (Min, 10, "MIN", "min", true, 1, false, "Minimum."),
    (Max, 11, "MAX", "max", true, 1, false, "Maximum."),
    (Slt, 12, "SLT", "slt", true, 1, false, "1.0 where src0 < src1, else 0.0."),
    (Sge, 13, "SGE", "sge", true, 1, false, "1.0 where src0 >= src1, else 0.0."),
    (Exp, 14, "EXP", "exp", true, 1, false, "Base-2 exponential, full precision."),
    (Log, 15, "LOG", "log", true, 1, false, "Base-2 logarithm, full precision."),
    (Lit, 16, "LIT", "lit", true, 3, false, "Lighting coefficients."),
    (Dst, 17, "DST", "dst", true, 1, false, "Distance vector."),
    (Lrp, 18, "LRP", "lrp", true, 2, false, "Linear interpolation."),
    (Frc, 19, "FRC", "frc", true, 1, false, "Fractional part."),
    (M4x4, 20, "M4x4", "m4x4", true, 4, false, "Vector times 4x4 matrix."),
    (M4x3, 21, "M4x3", "m4x3", true, 3, false, "Vector times 4x3 matrix."),
    (M3x4, 22, "M3x4", "m3x4", true, 4, false, "Vector times 3x4 matrix."),
    (M3x3, 23, "M3x3", "m3x3", true, 3, false, "Vector times 3x3 matrix."),
    (M3x2, 24, "M3x2", "m3x2", true, 2, false, "Vector times 3x2 matrix."),
    (Call, 25, "CALL", "call", false, 1, false, "Calls a subroutine."),
    (Callnz, 26, "CALLNZ", "callnz", false, 1, false, "Calls a subroutine when a boolean is set."),
    (Loop, 27, "LOOP", "loop", false, 1, false, "Starts a loop counted by an integer constant."),
    (Ret, 28, "RET", "ret", false, 1, false, "Returns from a subroutine."),
    (Endloop, 29, "ENDLOOP", "endloop", false, 1, false, "Ends a loop."),
    (Label, 30, "LABEL", "label", false, 0, false, "Marks a subroutine's start."),
    (Dcl, 31, "DCL", "dcl", true, 0, false, "Declares an input, output or sampler."),
    (Pow, 32, "POW", "pow", true, 3, false, "Power."),
    (Crs, 33, "CRS", "crs", true, 2, false, "Cross product."),
    (Sgn, 34, "SGN", "sgn", true, 3, false, "Sign."),
    (Abs, 35, "ABS", "abs", true, 1, false, "Absolute value."),
    (Nrm, 36, "NRM", "nrm", true, 3, false, "Normalizes a 3-component vector."),
    (Sincos, 37, "SINCOS", "sincos", true, 8, false, "Sine and cosine."),
    (Rep, 38, "REP", "rep", false, 1, false, "Starts a repeat block."),
    (Endrep, 39, "ENDREP", "endrep", false, 1, false, "Ends a repeat block."),
    (If, 40, "IF", "if", false, 1, false, "Starts an if on a boolean."),
    (Ifc, 41, "IFC", "if", false, 1, false, "Starts an if on a comparison (the controls)."),
    (Else, 42, "ELSE", "else", false, 1, false, "Starts the else branch."),
    (Endif, 43, "ENDIF", "endif", false, 1, false, "Ends an if."),
    (Break, 44, "BREAK", "break", false, 1, false, "Leaves the loop."),
    (Breakc, 45, "BREAKC", "break", false, 1, false, "Leaves the loop when a comparison holds."),
    (Mova, 46, "MOVA", "mova", true, 1, false, "Moves to the address register (rounding)."),
    (Defb, 47, "DEFB", "defb", true, 0, false, "Defines a boolean constant."),
    (Defi, 48, "DEFI", "defi", true, 0, false, "Defines an integer constant."),
    (Texcoord, 64, "TEXCOORD", "texcoord", true, 1, false, "ps_1_x: texture coordinates as a colour."),
    (Texkill, 65, "TEXKILL", "texkill", true, 1, false, "Kills the pixel where a component is negative."),
    (Tex, 66, "TEX", "texld", true, 1, true, "Samples a texture."),
    (Texbem, 67, "TEXBEM", "texbem", true, 1, false, "ps_1_x: bump environment map."),
    (Texbeml, 68, "TEXBEML", "texbeml", true, 1, false, "ps_1_x: bump environment map with luminance."),
    (Texreg2ar, 69, "TEXREG2AR", "texreg2ar", true, 1, false, "ps_1_x: samples at alpha/red."),
    (Texreg2gb, 70, "TEXREG2GB", "texreg2gb", true, 1, false, "ps_1_x: samples at green/blue."),
    (Texm3x2pad, 71, "TEXM3x2PAD", "texm3x2pad", true, 1, false, "ps_1_x: first row of a 3x2 matrix lookup."),
    (Texm3x2tex, 72, "TEXM3x2TEX", "texm3x2tex", true, 1, false, "ps_1_x: last row of a 3x2 matrix lookup."),
    (Texm3x3pad, 73, "TEXM3x3PAD", "texm3x3pad", true, 1, false, "ps_1_x: a row of a 3x3 matrix lookup."),
    (Texm3x3tex, 74, "TEXM3x3TEX", "texm3x3tex", true, 1, false, "ps_1_x: last row of a 3x3 matrix lookup."),
    (Texm3x3spec, 76, "TEXM3x3SPEC", "texm3x3spec", true, 1, false, "ps_1_x: specular reflection lookup."),
    (Texm3x3vspec, 77, "TEXM3x3VSPEC", "texm3x3vspec", true, 1, false, "ps_1_x: specular lookup, eye vector in w."),
    (Expp, 78, "EXPP", "expp", true, 1, false, "Base-2 exponential, partial precision."),
    (Logp, 79, "LOGP", "logp", true, 1, false, "Base-2 logarithm, partial precision."),
    (Cnd, 80, "CND", "cnd", true, 1, false, "Selects by src0 > 0.5."),
    (Def, 81, "DEF", "def", true, 0, false, "Defines a float constant."),
    (Texreg2rgb, 82, "TEXREG2RGB", "texreg2rgb", true, 1, false, "ps_1_x: samples at red/green/blue."),
    (Texdp3tex, 83, "TEXDP3TEX", "texdp3tex", true, 1, false, "ps_1_x: 1D lookup at a dot product."),
    (Texm3x2depth, 84, "TEXM3x2DEPTH", "texm3x2depth", true, 1, false, "ps_1_x: depth from a 3x2 matrix."),
    (Texdp3, 85, "TEXDP3", "texdp3", true, 1, false, "ps_1_x: dot product with texture coordinates."),
    (Texm3x3, 86, "TEXM3x3", "texm3x3", true, 1, false, "ps_1_x: 3x3 matrix multiply."),
    (Texdepth, 87, "TEXDEPTH", "texdepth", true, 1, false, "ps_1_x: depth from r5."),
    (Cmp, 88, "CMP", "cmp", true, 1, false, "Selects by src0 >= 0."),
    (Bem, 89, "BEM", "bem", true, 1, false, "ps_1_4: bump environment transform."),
    (Dp2add, 90, "DP2ADD", "dp2add", true, 2, false, "Two-component dot product plus a scalar."),
    (Dsx, 91, "DSX", "dsx", true, 1, false, "Derivative along x."),
    (Dsy, 92, "DSY", "dsy", true, 1, false, "Derivative along y."),
    (Texldd, 93, "TEXLDD", "texldd", true, 1, true, "Samples with explicit gradients."),
    (Setp, 94, "SETP", "setp", true, 1, false, "Sets the predicate register by a comparison."),
    (Texldl, 95, "TEXLDL", "texldl", true, 1, true, "Samples at an explicit level of detail."),
    (Breakp, 96, "BREAKP", "break", false, 1, false, "Leaves the loop when the predicate holds."),
}

/// Opcode of a comment block's token (`D3DSIO_COMMENT`); not an instruction.
pub const COMMENT: u16 = 0xFFFE;
/// The token that ends the stream (`D3DSIO_END`, with zero controls).
pub const END_TOKEN: u32 = 0x0000_FFFF;

spec_enum! {
    /// Program kind in the high half of the version token (`D3DVS_VERSION`,
    /// `D3DPS_VERSION`).
    SM2_PROGRAM_TYPE, Sm2ProgramType, "SM2 program type",
    (Vertex, 0xFFFE, "VERTEX", "vs", "Vertex shader."),
    (Pixel, 0xFFFF, "PIXEL", "ps", "Pixel shader."),
}

spec_enum! {
    /// Minor versions with a name of their own; others print as numbers.
    SM2_MINOR_VERSION, Sm2MinorVersion, "SM2 minor version",
    (Extended, 1, "EXTENDED", "x", "The extended profile (ps_2_x, vs_2_x)."),
    (Software, 0xFF, "SOFTWARE", "sw", "The software (reference) profile."),
}

spec_enum! {
    /// Register file of a parameter (`D3DSHADER_PARAM_REGISTER_TYPE`). The
    /// spelling is the register prefix where the number simply follows it.
    SM2_REGISTER_TYPE, Sm2RegisterType, "SM2 register type",
    (Temp, 0, "TEMP", "r", "Temporary register."),
    (Input, 1, "INPUT", "v", "Input (vertex attribute or colour) register."),
    (Const, 2, "CONST", "c", "Float constant c0–c2047."),
    (Addr, 3, "ADDR", "a", "Vertex shader address register; in pixel shaders the texture register t# (D3DSPR_TEXTURE)."),
    (Rastout, 4, "RASTOUT", "oRast", "Rasterizer output (position, fog, point size)."),
    (Attrout, 5, "ATTROUT", "oD", "Vertex colour output."),
    (Output, 6, "OUTPUT", "oT", "Texture coordinate output; any output from vs_3_0 on (o#)."),
    (Constint, 7, "CONSTINT", "i", "Integer constant."),
    (Colorout, 8, "COLOROUT", "oC", "Pixel colour output."),
    (Depthout, 9, "DEPTHOUT", "oDepth", "Pixel depth output."),
    (Sampler, 10, "SAMPLER", "s", "Sampler."),
    (Const2, 11, "CONST2", "c", "Float constant c2048–c4095."),
    (Const3, 12, "CONST3", "c", "Float constant c4096–c6143."),
    (Const4, 13, "CONST4", "c", "Float constant c6144–c8191."),
    (Constbool, 14, "CONSTBOOL", "b", "Boolean constant."),
    (Loop, 15, "LOOP", "aL", "Loop counter."),
    (Tempfloat16, 16, "TEMPFLOAT16", "half", "16-bit float temporary."),
    (Misctype, 17, "MISCTYPE", "misc", "Pixel position or face (vPos, vFace)."),
    (Label, 18, "LABEL", "l", "Subroutine label."),
    (Predicate, 19, "PREDICATE", "p", "Predicate register."),
}

/// Registers per constant file: `CONST2`..`CONST4` continue the numbering.
pub const CONST_FILE_SIZE: u32 = 2048;

spec_enum! {
    /// The registers of the rasterizer output file (`D3DVS_RASTOUT_OFFSETS`).
    SM2_RASTOUT, Sm2Rastout, "SM2 rasterizer output",
    (Position, 0, "POSITION", "oPos", "Clip-space position."),
    (Fog, 1, "FOG", "oFog", "Fog factor."),
    (PointSize, 2, "POINT_SIZE", "oPts", "Point size."),
}

spec_enum! {
    /// The registers of the miscellaneous input file (`D3DVS_MISCTYPE_OFFSETS`).
    SM2_MISCTYPE, Sm2Misctype, "SM2 miscellaneous register",
    (Position, 0, "POSITION", "vPos", "The pixel's screen position."),
    (Face, 1, "FACE", "vFace", "The primitive's facing sign."),
}

spec_enum! {
    /// Source modifier (`D3DSHADER_PARAM_SRCMOD_TYPE`). The spelling is a
    /// template: `#` stands for the register.
    SM2_SOURCE_MODIFIER, Sm2SourceModifier, "SM2 source modifier",
    (NoModifier, 0, "NONE", "#", "No modifier."),
    (Neg, 1, "NEG", "-#", "Negate."),
    (Bias, 2, "BIAS", "#_bias", "Subtract 0.5."),
    (Biasneg, 3, "BIASNEG", "-#_bias", "Subtract 0.5, then negate."),
    (Sign, 4, "SIGN", "#_bx2", "Scale by 2 after subtracting 0.5."),
    (Signneg, 5, "SIGNNEG", "-#_bx2", "As SIGN, then negate."),
    (Comp, 6, "COMP", "1 - #", "One minus the value."),
    (X2, 7, "X2", "#_x2", "Times 2."),
    (X2neg, 8, "X2NEG", "-#_x2", "Times 2, then negate."),
    (Dz, 9, "DZ", "#_dz", "Divide by z (ps_1_4 projection)."),
    (Dw, 10, "DW", "#_dw", "Divide by w (ps_1_4 projection)."),
    (Abs, 11, "ABS", "#_abs", "Absolute value."),
    (Absneg, 12, "ABSNEG", "-#_abs", "Negated absolute value."),
    (Not, 13, "NOT", "!#", "Boolean not (predicate sources)."),
}

spec_enum! {
    /// Result shift of a destination (the 4-bit signed field at bits 27:24):
    /// multiplies or divides the result by a power of two.
    SM2_RESULT_SHIFT, Sm2ResultShift, "SM2 result shift",
    (X2, 1, "X2", "_x2", "Times 2."),
    (X4, 2, "X4", "_x4", "Times 4."),
    (X8, 3, "X8", "_x8", "Times 8."),
    (D8, 13, "D8", "_d8", "Divided by 8 (-3)."),
    (D4, 14, "D4", "_d4", "Divided by 4 (-2)."),
    (D2, 15, "D2", "_d2", "Divided by 2 (-1)."),
}

spec_enum! {
    /// Usage of a declared input or output (`D3DDECLUSAGE`).
    SM2_DECL_USAGE, Sm2DeclUsage, "SM2 declaration usage",
    (Position, 0, "POSITION", "position", "Position."),
    (Blendweight, 1, "BLENDWEIGHT", "blendweight", "Skinning blend weights."),
    (Blendindices, 2, "BLENDINDICES", "blendindices", "Skinning matrix indices."),
    (Normal, 3, "NORMAL", "normal", "Normal."),
    (Psize, 4, "PSIZE", "psize", "Point size."),
    (Texcoord, 5, "TEXCOORD", "texcoord", "Texture coordinates (or any user value)."),
    (Tangent, 6, "TANGENT", "tangent", "Tangent."),
    (Binormal, 7, "BINORMAL", "binormal", "Binormal."),
    (Tessfactor, 8, "TESSFACTOR", "tessfactor", "Tessellation factor."),
    (Positiont, 9, "POSITIONT", "positiont", "Transformed (screen) position."),
    (Color, 10, "COLOR", "color", "Colour."),
    (Fog, 11, "FOG", "fog", "Fog factor."),
    (Depth, 12, "DEPTH", "depth", "Depth."),
    (Sample, 13, "SAMPLE", "sample", "Sampler data."),
}

spec_enum! {
    /// Texture type of a declared sampler (`D3DSAMPLER_TEXTURE_TYPE`, the
    /// field at bits 30:27 of the declaration token).
    SM2_TEXTURE_TYPE, Sm2TextureType, "SM2 texture type",
    (Unknown, 0, "UNKNOWN", "", "Not declared."),
    (Texture1d, 1, "1D", "_1d", "1D texture."),
    (Texture2d, 2, "2D", "_2d", "2D texture."),
    (Cube, 3, "CUBE", "_cube", "Cube map."),
    (Volume, 4, "VOLUME", "_volume", "Volume texture."),
}

spec_enum! {
    /// Comparison of `ifc`, `breakc` and `setp`, in the instruction's controls
    /// (`D3DSHADER_COMPARISON`).
    SM2_COMPARISON, Sm2Comparison, "SM2 comparison",
    (Gt, 1, "GT", "_gt", "Greater than."),
    (Eq, 2, "EQ", "_eq", "Equal."),
    (Ge, 3, "GE", "_ge", "Greater or equal."),
    (Lt, 4, "LT", "_lt", "Less than."),
    (Ne, 5, "NE", "_ne", "Not equal."),
    (Le, 6, "LE", "_le", "Less or equal."),
}

spec_enum! {
    /// Controls of `texld` (`D3DSI_TEXLD_PROJECT`, `D3DSI_TEXLD_BIAS`).
    SM2_TEXLD_CONTROL, Sm2TexldControl, "SM2 texld control",
    (Project, 1, "PROJECT", "p", "Divides the coordinates by w."),
    (Bias, 2, "BIAS", "b", "Adds w to the level of detail."),
}

spec_enum! {
    /// How the `Aon9` chunk converts a constant-buffer component when copying
    /// it to a level-9 constant register. Our names; fxc's spellings.
    AON9_CONVERSION, Aon9Conversion, "Aon9 data conversion",
    (Float, 0, "FLOAT", "FLT", "Copied as a float."),
    (Bool, 1, "BOOL", "BOOL", "Converted from a boolean."),
    (Int, 2, "INT", "INT", "Converted from a signed integer."),
    (Uint, 3, "UINT", "UINT", "Converted from an unsigned integer."),
}

spec_enum! {
    /// Kind of a runtime-generated constant of the `Aon9` chunk. Our names;
    /// fxc's description.
    AON9_RUNTIME_CONSTANT, Aon9RuntimeConstant, "Aon9 runtime constant",
    (VsPositionOffset, 0, "VS_POSITION_OFFSET", "Vertex Shader position offset", "The half-pixel offset the runtime adds to the vertex shader's position."),
}

// ------------------------------------------------------------- bitfields

/// Version token, the first of the stream (`D3DPS_VERSION`, `D3DVS_VERSION`).
pub mod version_token {
    use super::*;
    /// Bits 7:0.
    pub const MINOR: FieldDef = f("minor version", 7, 0, Some(&SM2_MINOR_VERSION), "Minor shader model number.");
    /// Bits 15:8.
    pub const MAJOR: FieldDef = f("major version", 15, 8, None, "Major shader model number.");
    /// Bits 31:16.
    pub const PROGRAM_TYPE: FieldDef =
        f("program type", 31, 16, Some(&SM2_PROGRAM_TYPE), "Vertex (0xFFFE) or pixel (0xFFFF) shader.");
}

/// Instruction token (`D3DSI_*` masks of `d3d9types.h`).
pub mod instruction_token {
    use super::*;
    /// Bits 15:0.
    pub const OPCODE: FieldDef = f("opcode", 15, 0, Some(&SM2_OPCODE), "Which instruction.");
    /// Bits 23:16.
    pub const CONTROLS: FieldDef =
        f("controls", 23, 16, None, "Opcode-specific: comparison of ifc/breakc/setp, texld project/bias.");
    /// Bits 27:24 (SM2 and later).
    pub const LENGTH: FieldDef = f("length", 27, 24, None, "Parameter dwords that follow.");
    /// Bit 28.
    pub const PREDICATED: FieldDef =
        f("predicated", 28, 28, Some(&FLAG), "A predicate source follows the destination.");
    /// Bit 30.
    pub const COISSUE: FieldDef = f("co-issue", 30, 30, Some(&FLAG), "ps_1_x: issued together with the previous.");
}

/// Comment token (opcode [`COMMENT`]).
pub mod comment_token {
    use super::*;
    /// Bits 30:16.
    pub const LENGTH: FieldDef = f("comment length", 30, 16, None, "Dwords of comment data that follow.");
}

/// Parameter tokens (destination, source, relative address).
pub mod param_token {
    use super::*;
    /// Bits 10:0.
    pub const NUMBER: FieldDef = f("register number", 10, 0, None, "Register number within its file.");
    /// Bits 12:11: the high bits of the register type.
    pub const TYPE_HIGH: FieldDef = f("register type 4:3", 12, 11, None, "High bits of the register type.");
    /// Bit 13.
    pub const RELATIVE: FieldDef =
        f("relative", 13, 13, Some(&FLAG), "Indexed by an address register (token follows in vs and ps_3_0).");
    /// Bits 19:16 of a destination.
    pub const WRITE_MASK: FieldDef = f("write mask", 19, 16, None, "Components written (x = bit 0).");
    /// Bits 23:20 of a destination.
    pub const RESULT_MODIFIER: FieldDef =
        f("result modifier", 23, 20, None, "Bit 0 saturate, bit 1 partial precision, bit 2 centroid.");
    /// Bits 27:24 of a destination.
    pub const SHIFT: FieldDef = f("shift", 27, 24, Some(&SM2_RESULT_SHIFT), "Result scale, 4-bit signed.");
    /// Bits 23:16 of a source (and of a relative address token).
    pub const SWIZZLE: FieldDef = f("swizzle", 23, 16, None, "Two bits per component, x in bits 1:0.");
    /// Bits 27:24 of a source.
    pub const SOURCE_MODIFIER: FieldDef =
        f("source modifier", 27, 24, Some(&SM2_SOURCE_MODIFIER), "Negate, bias, scale ...");
    /// Bits 30:28: the low bits of the register type.
    pub const TYPE_LOW: FieldDef = f("register type 2:0", 30, 28, None, "Low bits of the register type.");
    /// Bit 31, always set.
    pub const PARAM: FieldDef = f("parameter", 31, 31, Some(&FLAG), "Set on every parameter token.");
    /// How many register type bits [`TYPE_LOW`] holds.
    const LOW_WIDTH: u32 = (TYPE_LOW.hi - TYPE_LOW.lo + 1) as u32;

    /// The register type (`D3DSHADER_PARAM_REGISTER_TYPE`), split over two fields.
    pub const fn register_type(token: u32) -> u32 {
        TYPE_LOW.get(token) | TYPE_HIGH.get(token) << LOW_WIDTH
    }
    /// `token` with register type `ty` stored in its two fields.
    pub const fn put_register_type(token: u32, ty: u32) -> u32 {
        // `put` drops the bits beyond each field's width.
        TYPE_HIGH.put(TYPE_LOW.put(token, ty), ty >> LOW_WIDTH)
    }
}

/// The usage token of `dcl`.
pub mod decl_token {
    use super::*;
    /// Bits 4:0.
    pub const USAGE: FieldDef = f("usage", 4, 0, Some(&SM2_DECL_USAGE), "What a declared input/output carries.");
    /// Bits 19:16.
    pub const USAGE_INDEX: FieldDef = f("usage index", 19, 16, None, "Which of several of the same usage.");
    /// Bits 30:27.
    pub const TEXTURE_TYPE: FieldDef =
        f("texture type", 30, 27, Some(&SM2_TEXTURE_TYPE), "Shape of a declared sampler's texture.");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<T: Copy + Into<u32>>(from: fn(u32) -> Option<T>, row: fn(T) -> &'static EnumValue, t: &EnumDef) {
        for v in t.values {
            let e = from(v.value).unwrap_or_else(|| panic!("{} {}", t.name, v.value));
            assert_eq!(e.into(), v.value, "{}", t.name);
            assert!(std::ptr::eq(row(e), v));
        }
        let max = t.values.iter().map(|v| v.value).max().unwrap_or(0);
        for n in 0..=max + 1 {
            assert_eq!(from(n).is_some(), t.get(n).is_some(), "{} {n}", t.name);
        }
    }

    macro_rules! into_u32 {
        ($($t:ty),*) => { $( impl From<$t> for u32 { fn from(v: $t) -> u32 { v as u32 } } )* };
    }
    into_u32!(
        Sm2Opcode,
        Sm2ProgramType,
        Sm2MinorVersion,
        Sm2RegisterType,
        Sm2Rastout,
        Sm2Misctype,
        Sm2SourceModifier,
        Sm2ResultShift,
        Sm2DeclUsage,
        Sm2TextureType,
        Sm2Comparison,
        Sm2TexldControl,
        Aon9Conversion,
        Aon9RuntimeConstant
    );

    #[test]
    fn sm2_enums_follow_their_tables() {
        check(Sm2Opcode::from_u32, Sm2Opcode::row, &SM2_OPCODE);
        check(Sm2ProgramType::from_u32, Sm2ProgramType::row, &SM2_PROGRAM_TYPE);
        check(Sm2MinorVersion::from_u32, Sm2MinorVersion::row, &SM2_MINOR_VERSION);
        check(Sm2RegisterType::from_u32, Sm2RegisterType::row, &SM2_REGISTER_TYPE);
        check(Sm2Rastout::from_u32, Sm2Rastout::row, &SM2_RASTOUT);
        check(Sm2Misctype::from_u32, Sm2Misctype::row, &SM2_MISCTYPE);
        check(Sm2SourceModifier::from_u32, Sm2SourceModifier::row, &SM2_SOURCE_MODIFIER);
        check(Sm2ResultShift::from_u32, Sm2ResultShift::row, &SM2_RESULT_SHIFT);
        check(Sm2DeclUsage::from_u32, Sm2DeclUsage::row, &SM2_DECL_USAGE);
        check(Sm2TextureType::from_u32, Sm2TextureType::row, &SM2_TEXTURE_TYPE);
        check(Sm2Comparison::from_u32, Sm2Comparison::row, &SM2_COMPARISON);
        check(Sm2TexldControl::from_u32, Sm2TexldControl::row, &SM2_TEXLD_CONTROL);
        check(Aon9Conversion::from_u32, Aon9Conversion::row, &AON9_CONVERSION);
        check(Aon9RuntimeConstant::from_u32, Aon9RuntimeConstant::row, &AON9_RUNTIME_CONSTANT);
    }

    #[test]
    fn opcode_columns_match_the_d3d9_reference() {
        // Spot checks against d3d9types.h and the D3D9 slot-count tables.
        assert_eq!(Sm2Opcode::Dcl as u32, 31);
        assert_eq!(Sm2Opcode::Texldl as u32, 95);
        assert_eq!(Sm2Opcode::from_u32(75), None, "D3DSIO_RESERVED0");
        assert_eq!(Sm2Opcode::from_u32(u32::from(COMMENT)), None);
        assert_eq!(Sm2Opcode::Sincos.slots(), 8);
        assert_eq!(Sm2Opcode::M4x4.slots(), 4);
        assert!(!Sm2Opcode::Ifc.has_dst() && Sm2Opcode::Setp.has_dst());
        let tex: Vec<_> = SM2_OPCODE
            .values
            .iter()
            .filter(|v| Sm2Opcode::from_u32(v.value).is_some_and(|o| o.is_texture_load()))
            .map(|v| v.spec_name)
            .collect();
        assert_eq!(tex, ["TEX", "TEXLDD", "TEXLDL"]);
    }
}
