//! The format table: one source of truth for the SM4/SM5 token format.
//!
//! Everything the decoder, the printer, the encoder and the explorer need to
//! know about a token lives here as data: opcodes (number, spec name, the
//! mnemonic fxc prints, class, how immediates are typed, what the
//! instruction does), operand types, enumerations (each value with its spec
//! name, fxc's spelling and an explanation), and the bitfields of every kind
//! of token (name, bit range, the enumeration it holds, and what it means).
//! Numbers and bit positions are facts from `D3D12TokenizedProgramFormat.hpp`;
//! the explanations are ours.

/// How an instruction's immediate operands are typed when printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum NumType {
    /// 32-bit float, printed `%f`.
    Float,
    /// Signed integer.
    Int,
    /// Unsigned / bitwise integer.
    Uint,
    /// Untyped copy: each component is guessed (float-looking or integer).
    Untyped,
    /// 64-bit float pairs.
    Double,
    /// No immediates expected.
    None,
}

/// Broad kind of an opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum OpClass {
    /// Arithmetic, logic, conversion.
    Alu,
    /// Control flow and stream/barrier operations.
    Flow,
    /// Texture / buffer access.
    Resource,
    /// Atomic memory operations.
    Atomic,
    /// A declaration.
    Decl,
    /// Hull-shader phase marker.
    Phase,
    /// Custom-data block.
    Custom,
    /// Reserved opcode number.
    Reserved,
}

// The rows of the opcode table and of each enumeration are written once, in
// the macro calls below; each call emits both the table (read by the
// decoder, printer and explorer) and a typed Rust enum whose discriminants
// are the same numbers, so the two cannot drift apart.

/// The first of its arguments (an optional override, then the default).
macro_rules! first {
    ($a:expr $(, $b:expr)?) => {
        $a
    };
}

/// Emits [`Opcode`], [`OPCODES`] and the [`opc`] constants from one list of
/// rows `(Variant, CONST_NAME [= "spec name"], code, "asm", class, imm,
/// operands, "doc")`. The spec name is the constant's name unless given.
macro_rules! opcode_table {
    ($( ($v:ident, $c:ident $(= $spec:literal)?, $code:literal, $asm:literal, $class:ident, $imm:ident,
        $ops:literal, $doc:literal $(,)?) ),* $(,)?) => {
        const OPCODE_ROWS: &[OpcodeInfo] = &[
            $( op($code, first!($($spec,)? stringify!($c)), $asm, OpClass::$class, NumType::$imm, $ops, $doc) ),*
        ];
        // Rows are in opcode order with no gaps, so `OPCODES[code]` is the
        // row of `code` (checked at compile time).
        const _: () = {
            let mut i = 0;
            while i < OPCODE_ROWS.len() {
                assert!(OPCODE_ROWS[i].code as usize == i);
                i += 1;
            }
        };
        /// Every opcode, indexed by number (0..=234).
        pub static OPCODES: &[OpcodeInfo] = OPCODE_ROWS;

        /// An opcode (bits 10:0 of the opcode token), one variant per row of
        /// [`OPCODES`]; the discriminant is the opcode number.
        // Variant docs are the table's explanations, written for the explorer,
        // where brackets such as `cb#[element]` are text, not links.
        #[allow(rustdoc::broken_intra_doc_links)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        #[repr(u16)]
        pub enum Opcode {
            $( #[doc = $doc] $v = $code ),*
        }

        impl Opcode {
            /// The opcode numbered `code`, if the table defines it.
            #[inline]
            pub const fn from_u32(code: u32) -> Option<Opcode> {
                match code {
                    $( $code => Some(Opcode::$v), )*
                    _ => None,
                }
            }
            /// This opcode's row of [`OPCODES`].
            #[inline]
            pub fn info(self) -> &'static OpcodeInfo {
                // In bounds: the compile-time check above.
                &OPCODES[self as usize]
            }
        }

        #[allow(missing_docs)]
        mod opc_generated {
            $( pub const $c: u16 = super::Opcode::$v as u16; )*
        }
    };
}

/// Emits an [`EnumDef`] static and a typed enum of the same values from one
/// list of rows `(Variant, value, "SPEC_NAME", "asm", "doc")`.
macro_rules! spec_enum {
    ($(#[$m:meta])* $table:ident, $ty:ident, $name:literal,
     $( ($v:ident, $val:literal, $spec:literal, $asm:literal, $doc:literal $(,)?) ),* $(,)?) => {
        $(#[$m])*
        pub static $table: EnumDef = EnumDef { name: $name, values: &[ $( ev($val, $spec, $asm, $doc) ),* ] };

        $(#[$m])*
        ///
        /// Generated from the same rows as the table of the same meaning;
        /// the discriminant is the value stored in the token.
        // Variant docs are the table's explanations (brackets are text).
        #[allow(rustdoc::broken_intra_doc_links)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        #[repr(u32)]
        pub enum $ty {
            $( #[doc = $doc] $v = $val ),*
        }

        impl $ty {
            /// The value numbered `v`, if the table defines it.
            #[inline]
            pub const fn from_u32(v: u32) -> Option<$ty> {
                match v {
                    $( $val => Some($ty::$v), )*
                    _ => None,
                }
            }
            /// The table this enum is generated from.
            pub fn table() -> &'static EnumDef {
                &$table
            }
            /// This value's row of the table (spec name, fxc spelling, meaning).
            pub fn row(self) -> &'static EnumValue {
                let v = self as u32;
                // Every variant comes from a row of the same list, so the
                // search always finds it; the fallback only avoids a panic path.
                $table.values.iter().find(|e| e.value == v).unwrap_or(&$table.values[0])
            }
        }
    };
}

/// One opcode of the table.
#[derive(Debug, serde::Serialize)]
pub struct OpcodeInfo {
    /// Opcode number (bits 10:0 of the opcode token).
    pub code: u16,
    /// The header's name without the `D3D1x_SB_OPCODE_` prefix.
    pub spec_name: &'static str,
    /// The mnemonic fxc prints.
    pub asm: &'static str,
    /// Kind of instruction.
    pub class: OpClass,
    /// How immediates of this instruction are typed.
    pub imm: NumType,
    /// Number of operands for ordinary instructions (-1: declarations and
    /// custom data, whose payload is given by [`layout`]).
    pub operands: i8,
    /// What it does, in our words.
    pub doc: &'static str,
}

#[allow(clippy::too_many_arguments)]
const fn op(
    code: u16,
    spec_name: &'static str,
    asm: &'static str,
    class: OpClass,
    imm: NumType,
    operands: i8,
    doc: &'static str,
) -> OpcodeInfo {
    OpcodeInfo { code, spec_name, asm, class, imm, operands, doc }
}

opcode_table! {
    (Add, ADD, 0, "add", Alu, Float, 3, "Component-wise float addition: dst = src0 + src1."),
    (And, AND, 1, "and", Alu, Uint, 3, "Bitwise AND of 32-bit values."),
    (Break, BREAK, 2, "break", Flow, None, 0, "Leaves the innermost loop or switch."),
    (Breakc, BREAKC, 3, "breakc", Flow, Uint, 1, "Leaves the innermost loop or switch when the condition's test (zero / non-zero) holds."),
    (Call, CALL, 4, "call", Flow, None, 1, "Calls the subroutine that starts at a label."),
    (Callc, CALLC, 5, "callc", Flow, Uint, 2, "Calls a subroutine when the condition's test holds."),
    (Case, CASE, 6, "case", Flow, Int, 1, "Starts a case of a switch for one integer value."),
    (Continue, CONTINUE, 7, "continue", Flow, None, 0, "Jumps to the next iteration of the innermost loop."),
    (Continuec, CONTINUEC, 8, "continuec", Flow, Uint, 1, "Jumps to the next loop iteration when the condition's test holds."),
    (Cut, CUT, 9, "cut", Flow, None, 0, "Geometry shader: ends the current primitive strip."),
    (Default, DEFAULT, 10, "default", Flow, None, 0, "Starts the default case of a switch."),
    (DerivRtx, DERIV_RTX, 11, "deriv_rtx", Alu, Float, 2, "Screen-space derivative along x (rate unspecified)."),
    (DerivRty, DERIV_RTY, 12, "deriv_rty", Alu, Float, 2, "Screen-space derivative along y (rate unspecified)."),
    (Discard, DISCARD, 13, "discard", Flow, Uint, 1, "Pixel shader: kills the pixel when the condition's test holds."),
    (Div, DIV, 14, "div", Alu, Float, 3, "Float division."),
    (Dp2, DP2, 15, "dp2", Alu, Float, 3, "Two-component dot product, replicated to the written components."),
    (Dp3, DP3, 16, "dp3", Alu, Float, 3, "Three-component dot product."),
    (Dp4, DP4, 17, "dp4", Alu, Float, 3, "Four-component dot product."),
    (Else, ELSE, 18, "else", Flow, None, 0, "Starts the else branch of an if."),
    (Emit, EMIT, 19, "emit", Flow, None, 0, "Geometry shader: outputs a vertex."),
    (Emitthencut, EMITTHENCUT, 20, "emit_then_cut", Flow, None, 0, "Geometry shader: outputs a vertex, then ends the strip."),
    (Endif, ENDIF, 21, "endif", Flow, None, 0, "Ends an if block."),
    (Endloop, ENDLOOP, 22, "endloop", Flow, None, 0, "Ends a loop block."),
    (Endswitch, ENDSWITCH, 23, "endswitch", Flow, None, 0, "Ends a switch block."),
    (Eq, EQ, 24, "eq", Alu, Float, 3, "Float equality; writes 0xffffffff for true, 0 for false."),
    (Exp, EXP, 25, "exp", Alu, Float, 2, "Base-2 exponential, 2^src."),
    (Frc, FRC, 26, "frc", Alu, Float, 2, "Fractional part, src - floor(src)."),
    (Ftoi, FTOI, 27, "ftoi", Alu, Float, 2, "Float to signed integer, rounding toward zero."),
    (Ftou, FTOU, 28, "ftou", Alu, Float, 2, "Float to unsigned integer, rounding toward zero."),
    (Ge, GE, 29, "ge", Alu, Float, 3, "Float greater-or-equal comparison producing a mask."),
    (Iadd, IADD, 30, "iadd", Alu, Int, 3, "Integer addition (two's complement, wraps)."),
    (If, IF, 31, "if", Flow, Uint, 1, "Starts an if block that runs when the condition's test holds."),
    (Ieq, IEQ, 32, "ieq", Alu, Int, 3, "Integer equality comparison producing a mask."),
    (Ige, IGE, 33, "ige", Alu, Int, 3, "Signed greater-or-equal comparison."),
    (Ilt, ILT, 34, "ilt", Alu, Int, 3, "Signed less-than comparison."),
    (Imad, IMAD, 35, "imad", Alu, Int, 4, "Signed integer multiply-add (low 32 bits)."),
    (Imax, IMAX, 36, "imax", Alu, Int, 3, "Signed integer maximum."),
    (Imin, IMIN, 37, "imin", Alu, Int, 3, "Signed integer minimum."),
    (Imul, IMUL, 38, "imul", Alu, Int, 4, "Signed 32x32 multiply giving high and low 32-bit halves."),
    (Ine, INE, 39, "ine", Alu, Int, 3, "Integer inequality comparison."),
    (Ineg, INEG, 40, "ineg", Alu, Int, 2, "Two's complement negation."),
    (Ishl, ISHL, 41, "ishl", Alu, Int, 3, "Shift left; the shift amount uses its low 5 bits."),
    (Ishr, ISHR, 42, "ishr", Alu, Int, 3, "Arithmetic (sign-filling) shift right."),
    (Itof, ITOF, 43, "itof", Alu, Int, 2, "Signed integer to float."),
    (Label, LABEL, 44, "label", Flow, None, 1, "Marks the start of a subroutine."),
    (Ld, LD, 45, "ld", Resource, Int, 3, "Loads one texel by integer coordinates, no filtering."),
    (LdMs, LD_MS, 46, "ldms", Resource, Int, 4, "Loads one sample of a multisampled texture."),
    (Log, LOG, 47, "log", Alu, Float, 2, "Base-2 logarithm."),
    (Loop, LOOP, 48, "loop", Flow, None, 0, "Starts a loop that runs until a break."),
    (Lt, LT, 49, "lt", Alu, Float, 3, "Float less-than comparison."),
    (Mad, MAD, 50, "mad", Alu, Float, 4, "Float multiply-add: src0 * src1 + src2."),
    (Min, MIN, 51, "min", Alu, Float, 3, "Float minimum."),
    (Max, MAX, 52, "max", Alu, Float, 3, "Float maximum."),
    (Customdata, CUSTOMDATA, 53, "customdata", Custom, None, -1, "A block of data embedded in the program (immediate constants, comments, messages)."),
    (Mov, MOV, 54, "mov", Alu, Untyped, 2, "Copies bits from the source to the destination."),
    (Movc, MOVC, 55, "movc", Alu, Untyped, 4, "Per-component select: src0 != 0 ? src1 : src2."),
    (Mul, MUL, 56, "mul", Alu, Float, 3, "Float multiplication."),
    (Ne, NE, 57, "ne", Alu, Float, 3, "Float inequality comparison."),
    (Nop, NOP, 58, "nop", Flow, None, 0, "Does nothing."),
    (Not, NOT, 59, "not", Alu, Uint, 2, "Bitwise NOT."),
    (Or, OR, 60, "or", Alu, Uint, 3, "Bitwise OR."),
    (Resinfo, RESINFO, 61, "resinfo", Resource, Int, 3, "Queries a texture's dimensions and mip count."),
    (Ret, RET, 62, "ret", Flow, None, 0, "Returns from a subroutine or ends the program."),
    (Retc, RETC, 63, "retc", Flow, Uint, 1, "Returns when the condition's test holds."),
    (RoundNe, ROUND_NE, 64, "round_ne", Alu, Float, 2, "Rounds to the nearest even integer."),
    (RoundNi, ROUND_NI, 65, "round_ni", Alu, Float, 2, "Rounds toward negative infinity (floor)."),
    (RoundPi, ROUND_PI, 66, "round_pi", Alu, Float, 2, "Rounds toward positive infinity (ceil)."),
    (RoundZ, ROUND_Z, 67, "round_z", Alu, Float, 2, "Rounds toward zero (truncate)."),
    (Rsq, RSQ, 68, "rsq", Alu, Float, 2, "Reciprocal square root."),
    (Sample, SAMPLE, 69, "sample", Resource, Float, 4, "Samples a texture with filtering, implicit level of detail."),
    (SampleC, SAMPLE_C, 70, "sample_c", Resource, Float, 5, "Samples and compares against a reference value (shadow maps)."),
    (SampleCLz, SAMPLE_C_LZ, 71, "sample_c_lz", Resource, Float, 5, "Comparison sample at mip level zero."),
    (SampleL, SAMPLE_L, 72, "sample_l", Resource, Float, 5, "Samples at an explicit level of detail."),
    (SampleD, SAMPLE_D, 73, "sample_d", Resource, Float, 6, "Samples with explicit gradients."),
    (SampleB, SAMPLE_B, 74, "sample_b", Resource, Float, 5, "Samples with a level-of-detail bias."),
    (Sqrt, SQRT, 75, "sqrt", Alu, Float, 2, "Square root."),
    (Switch, SWITCH, 76, "switch", Flow, Int, 1, "Starts a switch on an integer value."),
    (Sincos, SINCOS, 77, "sincos", Alu, Float, 3, "Sine and cosine in one instruction (two destinations)."),
    (Udiv, UDIV, 78, "udiv", Alu, Uint, 4, "Unsigned division giving quotient and remainder."),
    (Ult, ULT, 79, "ult", Alu, Uint, 3, "Unsigned less-than comparison."),
    (Uge, UGE, 80, "uge", Alu, Uint, 3, "Unsigned greater-or-equal comparison."),
    (Umul, UMUL, 81, "umul", Alu, Uint, 4, "Unsigned 32x32 multiply giving high and low halves."),
    (Umad, UMAD, 82, "umad", Alu, Uint, 4, "Unsigned multiply-add."),
    (Umax, UMAX, 83, "umax", Alu, Uint, 3, "Unsigned maximum."),
    (Umin, UMIN, 84, "umin", Alu, Uint, 3, "Unsigned minimum."),
    (Ushr, USHR, 85, "ushr", Alu, Uint, 3, "Logical (zero-filling) shift right."),
    (Utof, UTOF, 86, "utof", Alu, Uint, 2, "Unsigned integer to float."),
    (Xor, XOR, 87, "xor", Alu, Uint, 3, "Bitwise exclusive OR."),
    (DclResource, DCL_RESOURCE, 88, "dcl_resource", Decl, None, -1, "Declares a texture or typed buffer t# with its dimension and return types."),
    (DclConstantBuffer, DCL_CONSTANT_BUFFER, 89, "dcl_constantbuffer", Decl, None, -1, "Declares a constant buffer cb# and how many vec4s are accessed."),
    (DclSampler, DCL_SAMPLER, 90, "dcl_sampler", Decl, None, -1, "Declares a sampler s# and its mode."),
    (DclIndexRange, DCL_INDEX_RANGE, 91, "dcl_indexrange", Decl, None, -1, "Declares that a range of input/output registers may be indexed dynamically."),
    (DclGsOutputPrimitiveTopology, DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY, 92, "dcl_outputtopology", Decl, None, -1, "Geometry shader: the primitive topology it emits."),
    (DclGsInputPrimitive, DCL_GS_INPUT_PRIMITIVE, 93, "dcl_inputprimitive", Decl, None, -1, "Geometry shader: the primitive type it receives."),
    (DclMaxOutputVertexCount, DCL_MAX_OUTPUT_VERTEX_COUNT, 94, "dcl_maxout", Decl, None, -1, "Geometry shader: the most vertices one invocation may emit."),
    (DclInput, DCL_INPUT, 95, "dcl_input", Decl, None, -1, "Declares an input register and the components read."),
    (DclInputSgv, DCL_INPUT_SGV, 96, "dcl_input_sgv", Decl, None, -1, "Declares an input filled with a system-generated value (vertex id, instance id ...)."),
    (DclInputSiv, DCL_INPUT_SIV, 97, "dcl_input_siv", Decl, None, -1, "Declares an input carrying a system-interpreted value (position, clip distance ...)."),
    (DclInputPs, DCL_INPUT_PS, 98, "dcl_input_ps", Decl, None, -1, "Pixel shader input with its interpolation mode."),
    (DclInputPsSgv, DCL_INPUT_PS_SGV, 99, "dcl_input_ps_sgv", Decl, None, -1, "Pixel shader input with a system-generated value."),
    (DclInputPsSiv, DCL_INPUT_PS_SIV, 100, "dcl_input_ps_siv", Decl, None, -1, "Pixel shader input with a system-interpreted value and interpolation mode."),
    (DclOutput, DCL_OUTPUT, 101, "dcl_output", Decl, None, -1, "Declares an output register and the components written."),
    (DclOutputSgv, DCL_OUTPUT_SGV, 102, "dcl_output_sgv", Decl, None, -1, "Declares an output with a system-generated value."),
    (DclOutputSiv, DCL_OUTPUT_SIV, 103, "dcl_output_siv", Decl, None, -1, "Declares an output with a system-interpreted value."),
    (DclTemps, DCL_TEMPS, 104, "dcl_temps", Decl, None, -1, "How many r# temporary registers the program uses."),
    (DclIndexableTemp, DCL_INDEXABLE_TEMP, 105, "dcl_indexableTemp", Decl, None, -1, "Declares an x# array of registers that can be indexed at run time."),
    (DclGlobalFlags, DCL_GLOBAL_FLAGS, 106, "dcl_globalFlags", Decl, None, -1, "Program-wide flags (refactoring allowed, doubles, early depth ...)."),
    (Reserved0, RESERVED0 = "RESERVED0", 107, "reserved0", Reserved, None, -1, "Reserved value that ends the D3D10.0 opcodes."),
    (Lod, LOD, 108, "lod", Resource, Float, 4, "Computes the level of detail a sample would use."),
    (Gather4, GATHER4, 109, "gather4", Resource, Float, 4, "Gathers one component of the four texels a bilinear sample would use."),
    (SamplePos, SAMPLE_POS, 110, "samplepos", Resource, Int, 3, "Returns the position of a sample within the pixel."),
    (SampleInfo, SAMPLE_INFO, 111, "sampleinfo", Resource, Int, 2, "Returns the sample count of a resource or the rasterizer."),
    (Reserved1, RESERVED1 = "RESERVED1", 112, "reserved1", Reserved, None, -1, "Reserved value that ends the D3D10.1 opcodes."),
    (HsDecls, HS_DECLS, 113, "hs_decls", Phase, None, 0, "Hull shader: starts the global declarations."),
    (HsControlPointPhase, HS_CONTROL_POINT_PHASE, 114, "hs_control_point_phase", Phase, None, 0, "Hull shader: starts the control-point phase, run once per output control point."),
    (HsForkPhase, HS_FORK_PHASE, 115, "hs_fork_phase", Phase, None, 0, "Hull shader: starts a fork phase computing patch constants in parallel instances."),
    (HsJoinPhase, HS_JOIN_PHASE, 116, "hs_join_phase", Phase, None, 0, "Hull shader: starts a join phase that reads the fork phases' results."),
    (EmitStream, EMIT_STREAM, 117, "emit_stream", Flow, None, 1, "Geometry shader: outputs a vertex to a stream."),
    (CutStream, CUT_STREAM, 118, "cut_stream", Flow, None, 1, "Geometry shader: ends the strip on a stream."),
    (EmitthencutStream, EMITTHENCUT_STREAM, 119, "emit_then_cut_stream", Flow, None, 1, "Emit to a stream, then end its strip."),
    (InterfaceCall, INTERFACE_CALL, 120, "fcall", Flow, None, -1, "Calls a method through an interface (dynamic linkage)."),
    (Bufinfo, BUFINFO, 121, "bufinfo", Resource, Uint, 2, "Returns the element count of a buffer."),
    (DerivRtxCoarse, DERIV_RTX_COARSE, 122, "deriv_rtx_coarse", Alu, Float, 2, "Coarse x derivative (one per 2x2 quad)."),
    (DerivRtxFine, DERIV_RTX_FINE, 123, "deriv_rtx_fine", Alu, Float, 2, "Fine x derivative (per pixel pair)."),
    (DerivRtyCoarse, DERIV_RTY_COARSE, 124, "deriv_rty_coarse", Alu, Float, 2, "Coarse y derivative."),
    (DerivRtyFine, DERIV_RTY_FINE, 125, "deriv_rty_fine", Alu, Float, 2, "Fine y derivative."),
    (Gather4C, GATHER4_C, 126, "gather4_c", Resource, Float, 5, "Gather with comparison against a reference."),
    (Gather4Po, GATHER4_PO, 127, "gather4_po", Resource, Float, 5, "Gather with a programmable (register) texel offset."),
    (Gather4PoC, GATHER4_PO_C, 128, "gather4_po_c", Resource, Float, 6, "Gather with programmable offset and comparison."),
    (Rcp, RCP, 129, "rcp", Alu, Float, 2, "Reciprocal, 1/src."),
    (F32tof16, F32TOF16, 130, "f32tof16", Alu, Float, 2, "Converts a float to half precision, stored in the low 16 bits."),
    (F16tof32, F16TOF32, 131, "f16tof32", Alu, Uint, 2, "Converts the low 16 bits (a half) to float."),
    (Uaddc, UADDC, 132, "uaddc", Alu, Uint, 4, "Unsigned add producing the sum and the carry."),
    (Usubb, USUBB, 133, "usubb", Alu, Uint, 4, "Unsigned subtract producing the difference and the borrow."),
    (Countbits, COUNTBITS, 134, "countbits", Alu, Uint, 2, "Counts the set bits."),
    (FirstbitHi, FIRSTBIT_HI, 135, "firstbit_hi", Alu, Uint, 2, "Index of the highest set bit, counted from the top."),
    (FirstbitLo, FIRSTBIT_LO, 136, "firstbit_lo", Alu, Uint, 2, "Index of the lowest set bit."),
    (FirstbitShi, FIRSTBIT_SHI, 137, "firstbit_shi", Alu, Int, 2, "Index of the highest bit that differs from the sign bit."),
    (Ubfe, UBFE, 138, "ubfe", Alu, Uint, 4, "Extracts an unsigned bit field (width, offset, value)."),
    (Ibfe, IBFE, 139, "ibfe", Alu, Int, 4, "Extracts a sign-extended bit field."),
    (Bfi, BFI, 140, "bfi", Alu, Uint, 5, "Inserts a bit field of one value into another."),
    (Bfrev, BFREV, 141, "bfrev", Alu, Uint, 2, "Reverses the bit order."),
    (Swapc, SWAPC, 142, "swapc", Alu, Untyped, 5, "Conditional swap: writes two destinations from two sources by a condition."),
    (DclStream, DCL_STREAM, 143, "dcl_stream", Decl, None, -1, "Geometry shader: declares the output stream the following declarations apply to."),
    (DclFunctionBody, DCL_FUNCTION_BODY, 144, "dcl_function_body", Decl, None, -1, "Declares a function body for dynamic linkage."),
    (DclFunctionTable, DCL_FUNCTION_TABLE, 145, "dcl_function_table", Decl, None, -1, "Declares a table of function bodies (one class's methods)."),
    (DclInterface, DCL_INTERFACE, 146, "dcl_interface", Decl, None, -1, "Declares an interface slot and the tables that may implement it."),
    (DclInputControlPointCount, DCL_INPUT_CONTROL_POINT_COUNT, 147, "dcl_input_control_point_count", Decl, None, -1, "Hull/domain shader: control points per input patch."),
    (DclOutputControlPointCount, DCL_OUTPUT_CONTROL_POINT_COUNT, 148, "dcl_output_control_point_count", Decl, None, -1, "Hull shader: control points per output patch."),
    (DclTessDomain, DCL_TESS_DOMAIN, 149, "dcl_tessellator_domain", Decl, None, -1, "Tessellation domain: isoline, triangle or quad."),
    (DclTessPartitioning, DCL_TESS_PARTITIONING, 150, "dcl_tessellator_partitioning", Decl, None, -1, "How the tessellator subdivides edges."),
    (DclTessOutputPrimitive, DCL_TESS_OUTPUT_PRIMITIVE, 151, "dcl_tessellator_output_primitive", Decl, None, -1, "What the tessellator emits: points, lines, cw or ccw triangles."),
    (DclHsMaxTessfactor, DCL_HS_MAX_TESSFACTOR, 152, "dcl_hs_max_tessfactor", Decl, None, -1, "Hull shader: largest tessellation factor it will produce."),
    (DclHsForkPhaseInstanceCount, DCL_HS_FORK_PHASE_INSTANCE_COUNT, 153, "dcl_hs_fork_phase_instance_count", Decl, None, -1, "How many instances of the current fork phase run."),
    (DclHsJoinPhaseInstanceCount, DCL_HS_JOIN_PHASE_INSTANCE_COUNT, 154, "dcl_hs_join_phase_instance_count", Decl, None, -1, "How many instances of the current join phase run."),
    (DclThreadGroup, DCL_THREAD_GROUP, 155, "dcl_thread_group", Decl, None, -1, "Compute shader: threads per group in x, y, z."),
    (DclUnorderedAccessViewTyped, DCL_UNORDERED_ACCESS_VIEW_TYPED, 156, "dcl_uav_typed", Decl, None, -1, "Declares a typed read-write resource u#."),
    (DclUnorderedAccessViewRaw, DCL_UNORDERED_ACCESS_VIEW_RAW, 157, "dcl_uav_raw", Decl, None, -1, "Declares a byte-addressed read-write buffer u#."),
    (DclUnorderedAccessViewStructured, DCL_UNORDERED_ACCESS_VIEW_STRUCTURED, 158, "dcl_uav_structured", Decl, None, -1, "Declares a structured read-write buffer u# and its stride."),
    (DclThreadGroupSharedMemoryRaw, DCL_THREAD_GROUP_SHARED_MEMORY_RAW, 159, "dcl_tgsm_raw", Decl, None, -1, "Declares group-shared memory g# as raw bytes."),
    (DclThreadGroupSharedMemoryStructured, DCL_THREAD_GROUP_SHARED_MEMORY_STRUCTURED, 160, "dcl_tgsm_structured", Decl, None, -1, "Declares group-shared memory g# as an array of structures."),
    (DclResourceRaw, DCL_RESOURCE_RAW, 161, "dcl_resource_raw", Decl, None, -1, "Declares a byte-addressed read-only buffer t#."),
    (DclResourceStructured, DCL_RESOURCE_STRUCTURED, 162, "dcl_resource_structured", Decl, None, -1, "Declares a structured read-only buffer t# and its stride."),
    (LdUavTyped, LD_UAV_TYPED, 163, "ld_uav_typed", Resource, Int, 3, "Loads from a typed UAV."),
    (StoreUavTyped, STORE_UAV_TYPED, 164, "store_uav_typed", Resource, Untyped, 3, "Stores to a typed UAV."),
    (LdRaw, LD_RAW, 165, "ld_raw", Resource, Int, 3, "Loads 32-bit values from a byte address."),
    (StoreRaw, STORE_RAW, 166, "store_raw", Resource, Untyped, 3, "Stores 32-bit values at a byte address."),
    (LdStructured, LD_STRUCTURED, 167, "ld_structured", Resource, Int, 4, "Loads from a structure element at a byte offset."),
    (StoreStructured, STORE_STRUCTURED, 168, "store_structured", Resource, Untyped, 4, "Stores into a structure element."),
    (AtomicAnd, ATOMIC_AND, 169, "atomic_and", Atomic, Uint, 3, "Atomic AND in memory."),
    (AtomicOr, ATOMIC_OR, 170, "atomic_or", Atomic, Uint, 3, "Atomic OR in memory."),
    (AtomicXor, ATOMIC_XOR, 171, "atomic_xor", Atomic, Uint, 3, "Atomic XOR in memory."),
    (AtomicCmpStore, ATOMIC_CMP_STORE, 172, "atomic_cmp_store", Atomic, Uint, 4, "Atomic compare-and-store."),
    (AtomicIadd, ATOMIC_IADD, 173, "atomic_iadd", Atomic, Int, 3, "Atomic integer add."),
    (AtomicImax, ATOMIC_IMAX, 174, "atomic_imax", Atomic, Int, 3, "Atomic signed maximum."),
    (AtomicImin, ATOMIC_IMIN, 175, "atomic_imin", Atomic, Int, 3, "Atomic signed minimum."),
    (AtomicUmax, ATOMIC_UMAX, 176, "atomic_umax", Atomic, Uint, 3, "Atomic unsigned maximum."),
    (AtomicUmin, ATOMIC_UMIN, 177, "atomic_umin", Atomic, Uint, 3, "Atomic unsigned minimum."),
    (ImmAtomicAlloc, IMM_ATOMIC_ALLOC, 178, "imm_atomic_alloc", Atomic, Uint, 2, "Increments a UAV's hidden counter, returning the old value."),
    (ImmAtomicConsume, IMM_ATOMIC_CONSUME, 179, "imm_atomic_consume", Atomic, Uint, 2, "Decrements a UAV's hidden counter, returning the new value."),
    (ImmAtomicIadd, IMM_ATOMIC_IADD, 180, "imm_atomic_iadd", Atomic, Int, 4, "Atomic add returning the previous value."),
    (ImmAtomicAnd, IMM_ATOMIC_AND, 181, "imm_atomic_and", Atomic, Uint, 4, "Atomic AND returning the previous value."),
    (ImmAtomicOr, IMM_ATOMIC_OR, 182, "imm_atomic_or", Atomic, Uint, 4, "Atomic OR returning the previous value."),
    (ImmAtomicXor, IMM_ATOMIC_XOR, 183, "imm_atomic_xor", Atomic, Uint, 4, "Atomic XOR returning the previous value."),
    (ImmAtomicExch, IMM_ATOMIC_EXCH, 184, "imm_atomic_exch", Atomic, Uint, 4, "Atomic exchange returning the previous value."),
    (ImmAtomicCmpExch, IMM_ATOMIC_CMP_EXCH, 185, "imm_atomic_cmp_exch", Atomic, Uint, 5, "Atomic compare-exchange returning the previous value."),
    (ImmAtomicImax, IMM_ATOMIC_IMAX, 186, "imm_atomic_imax", Atomic, Int, 4, "Atomic signed maximum returning the previous value."),
    (ImmAtomicImin, IMM_ATOMIC_IMIN, 187, "imm_atomic_imin", Atomic, Int, 4, "Atomic signed minimum returning the previous value."),
    (ImmAtomicUmax, IMM_ATOMIC_UMAX, 188, "imm_atomic_umax", Atomic, Uint, 4, "Atomic unsigned maximum returning the previous value."),
    (ImmAtomicUmin, IMM_ATOMIC_UMIN, 189, "imm_atomic_umin", Atomic, Uint, 4, "Atomic unsigned minimum returning the previous value."),
    (Sync, SYNC, 190, "sync", Flow, None, 0, "Barrier and/or memory fence, as its flags say."),
    (Dadd, DADD, 191, "dadd", Alu, Double, 3, "Double-precision addition."),
    (Dmax, DMAX, 192, "dmax", Alu, Double, 3, "Double-precision maximum."),
    (Dmin, DMIN, 193, "dmin", Alu, Double, 3, "Double-precision minimum."),
    (Dmul, DMUL, 194, "dmul", Alu, Double, 3, "Double-precision multiplication."),
    (Deq, DEQ, 195, "deq", Alu, Double, 3, "Double equality comparison."),
    (Dge, DGE, 196, "dge", Alu, Double, 3, "Double greater-or-equal comparison."),
    (Dlt, DLT, 197, "dlt", Alu, Double, 3, "Double less-than comparison."),
    (Dne, DNE, 198, "dne", Alu, Double, 3, "Double inequality comparison."),
    (Dmov, DMOV, 199, "dmov", Alu, Double, 2, "Copies a double."),
    (Dmovc, DMOVC, 200, "dmovc", Alu, Double, 4, "Per-component select of doubles."),
    (Dtof, DTOF, 201, "dtof", Alu, Double, 2, "Double to float."),
    (Ftod, FTOD, 202, "ftod", Alu, Float, 2, "Float to double."),
    (EvalSnapped, EVAL_SNAPPED, 203, "eval_snapped", Alu, Int, 3, "Evaluates an input attribute at a pixel offset on the 16x16 grid."),
    (EvalSampleIndex, EVAL_SAMPLE_INDEX, 204, "eval_sample_index", Alu, Int, 3, "Evaluates an input attribute at a sample's position."),
    (EvalCentroid, EVAL_CENTROID, 205, "eval_centroid", Alu, Float, 2, "Evaluates an input attribute at the centroid."),
    (DclGsInstanceCount, DCL_GS_INSTANCE_COUNT, 206, "dcl_gsinstances", Decl, None, -1, "Geometry shader: how many instances run per primitive."),
    (Abort, ABORT, 207, "abort", Flow, None, 0, "Stops execution (debug layers)."),
    (DebugBreak, DEBUG_BREAK, 208, "debug_break", Flow, None, 0, "Breaks into a debugger (debug layers)."),
    (Reserved2, RESERVED2 = "RESERVED0", 209, "reserved2", Reserved, None, -1, "Reserved value that ends the D3D11.0 opcodes."),
    (Ddiv, DDIV, 210, "ddiv", Alu, Double, 3, "Double-precision division."),
    (Dfma, DFMA, 211, "dfma", Alu, Double, 4, "Double-precision fused multiply-add."),
    (Drcp, DRCP, 212, "drcp", Alu, Double, 2, "Double-precision reciprocal."),
    (Msad, MSAD, 213, "msad", Alu, Uint, 4, "Masked sum of absolute byte differences."),
    (Dtoi, DTOI, 214, "dtoi", Alu, Double, 2, "Double to signed integer."),
    (Dtou, DTOU, 215, "dtou", Alu, Double, 2, "Double to unsigned integer."),
    (Itod, ITOD, 216, "itod", Alu, Int, 2, "Signed integer to double."),
    (Utod, UTOD, 217, "utod", Alu, Uint, 2, "Unsigned integer to double."),
    (Reserved3, RESERVED3 = "RESERVED0", 218, "reserved3", Reserved, None, -1, "Reserved value that ends the D3D11.1 opcodes."),
    (Gather4Feedback, GATHER4_FEEDBACK, 219, "gather4_s", Resource, Float, 5, "gather4 that also returns tiled-resource residency feedback."),
    (Gather4CFeedback, GATHER4_C_FEEDBACK, 220, "gather4_c_s", Resource, Float, 6, "gather4_c with residency feedback."),
    (Gather4PoFeedback, GATHER4_PO_FEEDBACK, 221, "gather4_po_s", Resource, Float, 6, "gather4_po with residency feedback."),
    (Gather4PoCFeedback, GATHER4_PO_C_FEEDBACK, 222, "gather4_po_c_s", Resource, Float, 7, "gather4_po_c with residency feedback."),
    (LdFeedback, LD_FEEDBACK, 223, "ld_s", Resource, Int, 4, "ld with residency feedback."),
    (LdMsFeedback, LD_MS_FEEDBACK, 224, "ldms_s", Resource, Int, 5, "ldms with residency feedback."),
    (LdUavTypedFeedback, LD_UAV_TYPED_FEEDBACK, 225, "ld_uav_typed_s", Resource, Int, 4, "ld_uav_typed with residency feedback."),
    (LdRawFeedback, LD_RAW_FEEDBACK, 226, "ld_raw_s", Resource, Int, 4, "ld_raw with residency feedback."),
    (LdStructuredFeedback, LD_STRUCTURED_FEEDBACK, 227, "ld_structured_s", Resource, Int, 5, "ld_structured with residency feedback."),
    (SampleLFeedback, SAMPLE_L_FEEDBACK, 228, "sample_l_s", Resource, Float, 6, "sample_l with residency feedback."),
    (SampleCLzFeedback, SAMPLE_C_LZ_FEEDBACK, 229, "sample_c_lz_s", Resource, Float, 6, "sample_c_lz with residency feedback."),
    (SampleClampFeedback, SAMPLE_CLAMP_FEEDBACK, 230, "sample_cl_s", Resource, Float, 6, "sample with a level-of-detail clamp and residency feedback."),
    (SampleBClampFeedback, SAMPLE_B_CLAMP_FEEDBACK, 231, "sample_b_cl_s", Resource, Float, 7, "sample_b with clamp and residency feedback."),
    (SampleDClampFeedback, SAMPLE_D_CLAMP_FEEDBACK, 232, "sample_d_cl_s", Resource, Float, 8, "sample_d with clamp and residency feedback."),
    (SampleCClampFeedback, SAMPLE_C_CLAMP_FEEDBACK, 233, "sample_c_cl_s", Resource, Float, 7, "sample_c with clamp and residency feedback."),
    (CheckAccessFullyMapped, CHECK_ACCESS_FULLY_MAPPED, 234, "check_access_fully_mapped", Alu, Uint, 2, "Tells from a feedback value whether all texels touched were resident."),
}

/// Opcode numbers as `u16` constants named after the spec (for callers that
/// match raw numbers; new code should prefer [`Opcode`]).
pub mod opc {
    pub use super::opc_generated::*;
    use super::Opcode;
    /// Short names used before the constants followed the spec's names.
    pub const DCL_UAV_TYPED: u16 = Opcode::DclUnorderedAccessViewTyped as u16;
    /// See [`DCL_UAV_TYPED`].
    pub const DCL_UAV_RAW: u16 = Opcode::DclUnorderedAccessViewRaw as u16;
    /// See [`DCL_UAV_TYPED`].
    pub const DCL_UAV_STRUCTURED: u16 = Opcode::DclUnorderedAccessViewStructured as u16;
    /// See [`DCL_UAV_TYPED`].
    pub const DCL_TGSM_RAW: u16 = Opcode::DclThreadGroupSharedMemoryRaw as u16;
    /// See [`DCL_UAV_TYPED`].
    pub const DCL_TGSM_STRUCTURED: u16 = Opcode::DclThreadGroupSharedMemoryStructured as u16;
}

/// Looks up an opcode number.
pub fn opcode(code: u32) -> Option<&'static OpcodeInfo> {
    OPCODES.get(code as usize)
}

/// One value of an enumeration.
#[derive(Debug, serde::Serialize)]
pub struct EnumValue {
    /// Numeric value.
    pub value: u32,
    /// The header's name (without prefix).
    pub spec_name: &'static str,
    /// How fxc spells it in listings (empty when it never prints it).
    pub asm: &'static str,
    /// What it means.
    pub doc: &'static str,
}

/// An enumeration: a named set of values a bitfield can hold.
#[derive(Debug, serde::Serialize)]
pub struct EnumDef {
    /// Name of the enumeration.
    pub name: &'static str,
    /// Its values.
    pub values: &'static [EnumValue],
}

impl EnumDef {
    /// The entry for `v`, if the value is defined.
    pub fn get(&self, v: u32) -> Option<&'static EnumValue> {
        self.values.iter().find(|e| e.value == v)
    }
    /// fxc's spelling of `v`, or `None` when undefined.
    pub fn asm(&self, v: u32) -> Option<&'static str> {
        self.get(v).map(|e| e.asm)
    }
    /// The value fxc spells `s` (the inverse of [`EnumDef::asm`]).
    pub fn from_asm(&self, s: &str) -> Option<u32> {
        self.values.iter().find(|e| !e.asm.is_empty() && e.asm == s).map(|e| e.value)
    }
    /// The value the header names `name` (without prefix).
    pub fn from_spec_name(&self, name: &str) -> Option<u32> {
        self.values.iter().find(|e| e.spec_name == name).map(|e| e.value)
    }
}

const fn ev(value: u32, spec_name: &'static str, asm: &'static str, doc: &'static str) -> EnumValue {
    EnumValue { value, spec_name, asm, doc }
}

/// A bitfield of a token.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct FieldDef {
    /// Short name.
    pub name: &'static str,
    /// Lowest bit.
    pub lo: u8,
    /// Highest bit (inclusive).
    pub hi: u8,
    /// The enumeration the field holds, if any.
    pub values: Option<&'static EnumDef>,
    /// What the field means.
    pub doc: &'static str,
}

impl FieldDef {
    /// Mask of the field within the token.
    pub const fn mask(&self) -> u32 {
        let width = (self.hi - self.lo + 1) as u32;
        (if width >= 32 { u32::MAX } else { (1u32 << width) - 1 }) << self.lo
    }
    /// The field's value in `token`.
    pub const fn get(&self, token: u32) -> u32 {
        (token & self.mask()) >> self.lo
    }
    /// `token` with the field replaced by `v` (excess bits dropped).
    pub const fn put(&self, token: u32, v: u32) -> u32 {
        (token & !self.mask()) | ((v << self.lo) & self.mask())
    }
}

const fn f(name: &'static str, hi: u8, lo: u8, values: Option<&'static EnumDef>, doc: &'static str) -> FieldDef {
    FieldDef { name, lo, hi, values, doc }
}

// ---------------------------------------------------------------- enums

spec_enum! {
    /// Program type in the version token.
    PROGRAM_TYPE, ProgramType, "program type",
    (PixelShader, 0, "PIXEL_SHADER", "ps", "Pixel shader: runs once per covered pixel or sample."),
    (VertexShader, 1, "VERTEX_SHADER", "vs", "Vertex shader: runs once per vertex."),
    (GeometryShader, 2, "GEOMETRY_SHADER", "gs", "Geometry shader: runs once per primitive and may emit new ones."),
    (HullShader, 3, "HULL_SHADER", "hs", "Hull shader: computes tessellation factors and control points per patch."),
    (DomainShader, 4, "DOMAIN_SHADER", "ds", "Domain shader: positions each point the tessellator generates."),
    (ComputeShader, 5, "COMPUTE_SHADER", "cs", "Compute shader: runs in thread groups outside the graphics pipeline."),
    (MeshShader, 13, "MESH_SHADER", "ms", "Mesh shader (D3D12, never in DXBC)."),
    (AmplificationShader, 14, "AMPLIFICATION_SHADER", "as", "Amplification shader (D3D12, never in DXBC)."),
}

spec_enum! {
    /// Operand types (register files).
    OPERAND_TYPE, OperandType, "operand type",
    (Temp, 0, "TEMP", "r", "Temporary register r#: 4 x 32-bit scratch values."),
    (Input, 1, "INPUT", "v", "Input register v#: values the stage receives."),
    (Output, 2, "OUTPUT", "o", "Output register o#: values the stage passes on."),
    (IndexableTemp, 3, "INDEXABLE_TEMP", "x", "Indexable temporary array x#[n]."),
    (Immediate32, 4, "IMMEDIATE32", "l", "A 32-bit literal stored in the instruction (1 or 4 components)."),
    (Immediate64, 5, "IMMEDIATE64", "d", "A 64-bit literal (double) stored in the instruction."),
    (Sampler, 6, "SAMPLER", "s", "Sampler s#."),
    (Resource, 7, "RESOURCE", "t", "Shader resource view t# (texture or buffer)."),
    (ConstantBuffer, 8, "CONSTANT_BUFFER", "cb", "Constant buffer cb#[element]."),
    (ImmediateConstantBuffer, 9, "IMMEDIATE_CONSTANT_BUFFER", "icb", "The immediate constant buffer embedded in the program."),
    (Label, 10, "LABEL", "l", "A subroutine label."),
    (InputPrimitiveid, 11, "INPUT_PRIMITIVEID", "vPrim", "The primitive ID input."),
    (OutputDepth, 12, "OUTPUT_DEPTH", "oDepth", "Pixel depth output."),
    (Null, 13, "NULL", "null", "Discards a result (or an unused operand)."),
    (Rasterizer, 14, "RASTERIZER", "rasterizer", "The rasterizer (for sampleinfo / samplepos)."),
    (OutputCoverageMask, 15, "OUTPUT_COVERAGE_MASK", "oMask", "Pixel coverage mask output."),
    (Stream, 16, "STREAM", "m", "Geometry shader output stream m#."),
    (FunctionBody, 17, "FUNCTION_BODY", "fb", "Function body fb# (dynamic linkage)."),
    (FunctionTable, 18, "FUNCTION_TABLE", "ft", "Function table ft# (dynamic linkage)."),
    (Interface, 19, "INTERFACE", "fp", "Interface pointer fp# (dynamic linkage)."),
    (FunctionInput, 20, "FUNCTION_INPUT", "fi", "Function input (dynamic linkage)."),
    (FunctionOutput, 21, "FUNCTION_OUTPUT", "fo", "Function output (dynamic linkage)."),
    (OutputControlPointId, 22, "OUTPUT_CONTROL_POINT_ID", "vOutputControlPointID", "Hull shader: which output control point this invocation computes."),
    (InputForkInstanceId, 23, "INPUT_FORK_INSTANCE_ID", "vForkInstanceID", "Hull shader: instance number of the fork phase."),
    (InputJoinInstanceId, 24, "INPUT_JOIN_INSTANCE_ID", "vJoinInstanceID", "Hull shader: instance number of the join phase."),
    (InputControlPoint, 25, "INPUT_CONTROL_POINT", "vicp", "Input control points [point][register]."),
    (OutputControlPoint, 26, "OUTPUT_CONTROL_POINT", "vocp", "Output control points [point][register] (fork/join phases)."),
    (InputPatchConstant, 27, "INPUT_PATCH_CONSTANT", "vpc", "Patch constants (domain shader, join phase)."),
    (InputDomainPoint, 28, "INPUT_DOMAIN_POINT", "vDomain", "Domain shader: the tessellated point's coordinates."),
    (ThisPointer, 29, "THIS_POINTER", "this", "Class instance data for an interface call."),
    (UnorderedAccessView, 30, "UNORDERED_ACCESS_VIEW", "u", "Unordered access view u# (read-write resource)."),
    (ThreadGroupSharedMemory, 31, "THREAD_GROUP_SHARED_MEMORY", "g", "Group-shared memory g#."),
    (InputThreadId, 32, "INPUT_THREAD_ID", "vThreadID", "Compute: global thread ID (SV_DispatchThreadID)."),
    (InputThreadGroupId, 33, "INPUT_THREAD_GROUP_ID", "vThreadGroupID", "Compute: group ID (SV_GroupID)."),
    (InputThreadIdInGroup, 34, "INPUT_THREAD_ID_IN_GROUP", "vThreadIDInGroup", "Compute: thread ID within the group (SV_GroupThreadID)."),
    (InputCoverageMask, 35, "INPUT_COVERAGE_MASK", "vCoverage", "Pixel shader: input coverage mask."),
    (InputThreadIdInGroupFlattened, 36, "INPUT_THREAD_ID_IN_GROUP_FLATTENED", "vThreadIDInGroupFlattened", "Compute: flattened thread index in the group (SV_GroupIndex)."),
    (InputGsInstanceId, 37, "INPUT_GS_INSTANCE_ID", "vGSInstanceID", "Geometry shader instance ID."),
    (OutputDepthGreaterEqual, 38, "OUTPUT_DEPTH_GREATER_EQUAL", "oDepthGE", "Depth output that may only grow (conservative depth)."),
    (OutputDepthLessEqual, 39, "OUTPUT_DEPTH_LESS_EQUAL", "oDepthLE", "Depth output that may only shrink (conservative depth)."),
    (CycleCounter, 40, "CYCLE_COUNTER", "vCycleCounter", "A cycle counter (debug)."),
    (OutputStencilRef, 41, "OUTPUT_STENCIL_REF", "oStencilRef", "Pixel stencil reference output."),
    (InnerCoverage, 42, "INNER_COVERAGE", "vInnerCoverage", "Pixel shader: whether the pixel is fully covered (conservative rasterization)."),
}

spec_enum! {
    /// Number of components of an operand.
    NUM_COMPONENTS, NumComponents, "component count",
    (Component0, 0, "0_COMPONENT", "", "No components (samplers, labels, null)."),
    (Component1, 1, "1_COMPONENT", "", "A scalar."),
    (Component4, 2, "4_COMPONENT", "", "A 4-vector, with a mask, swizzle or single-component select."),
    (NComponent, 3, "N_COMPONENT", "", "N components (reserved, unused)."),
}

spec_enum! {
    /// How a 4-component operand picks its components.
    SELECTION_MODE, SelectionMode, "selection mode",
    (MaskMode, 0, "MASK_MODE", "", "A write mask: bits 4..7 say which of x, y, z, w are used."),
    (SwizzleMode, 1, "SWIZZLE_MODE", "", "A swizzle: four 2-bit selectors in bits 4..11 pick the source of each component."),
    (Select1Mode, 2, "SELECT_1_MODE", "", "A single component, chosen by bits 4..5."),
}

spec_enum! {
    /// Index dimension of an operand.
    INDEX_DIMENSION, IndexDimension, "index dimension",
    (Index0d, 0, "INDEX_0D", "", "No index (e.g. oDepth, vPrim)."),
    (Index1d, 1, "INDEX_1D", "", "One index, the register number (r3, v1)."),
    (Index2d, 2, "INDEX_2D", "", "Two indices (cb0[5], v[vertex][register])."),
    (Index3d, 3, "INDEX_3D", "", "Three indices (SM5.1 ranges: CB0[lo:hi][n])."),
}

spec_enum! {
    /// How one index of an operand is stored.
    INDEX_REPRESENTATION, IndexRepresentation, "index representation",
    (Immediate32, 0, "IMMEDIATE32", "", "A 32-bit number follows."),
    (Immediate64, 1, "IMMEDIATE64", "", "A 64-bit number follows (high dword first)."),
    (Relative, 2, "RELATIVE", "", "A whole operand follows whose value is the index (e.g. [r0.x])."),
    (Immediate32PlusRelative, 3, "IMMEDIATE32_PLUS_RELATIVE", "", "A 32-bit number then an operand; the index is their sum ([r0.x + 4])."),
    (Immediate64PlusRelative, 4, "IMMEDIATE64_PLUS_RELATIVE", "", "A 64-bit number then an operand, summed."),
}

impl IndexRepresentation {
    /// Dwords of immediate stored for the index (0, 1 or 2).
    pub const fn immediate_dwords(self) -> usize {
        match self {
            IndexRepresentation::Immediate32 | IndexRepresentation::Immediate32PlusRelative => 1,
            IndexRepresentation::Immediate64 | IndexRepresentation::Immediate64PlusRelative => 2,
            IndexRepresentation::Relative => 0,
        }
    }
    /// Whether an operand (the relative part) follows the immediate.
    pub const fn is_relative(self) -> bool {
        matches!(
            self,
            IndexRepresentation::Relative
                | IndexRepresentation::Immediate32PlusRelative
                | IndexRepresentation::Immediate64PlusRelative
        )
    }
}

spec_enum! {
    /// Kind of extended operand token.
    EXTENDED_OPERAND_TYPE, ExtendedOperandType, "extended operand type",
    (Empty, 0, "EMPTY", "", "Carries nothing."),
    (Modifier, 1, "MODIFIER", "", "Carries a source modifier, minimum precision and the non-uniform flag."),
}

spec_enum! {
    /// Source operand modifier.
    OPERAND_MODIFIER, OperandModifier, "operand modifier",
    (None, 0, "NONE", "", "Value used as is."),
    (Neg, 1, "NEG", "-", "Negated: -x."),
    (Abs, 2, "ABS", "|", "Absolute value: |x|."),
    (Absneg, 3, "ABSNEG", "-|", "Negated absolute value: -|x|."),
}

spec_enum! {
    /// Minimum precision of an operand.
    MIN_PRECISION, MinPrecision, "minimum precision",
    (Default, 0, "DEFAULT", "", "Full 32-bit precision."),
    (Float16, 1, "FLOAT_16", "min16f", "At least 16-bit float."),
    (Float28, 2, "FLOAT_2_8", "min2_8f", "At least 10-bit (2.8 fixed point) float."),
    (Sint16, 4, "SINT_16", "min16i", "At least 16-bit signed integer."),
    (Uint16, 5, "UINT_16", "min16u", "At least 16-bit unsigned integer."),
}

spec_enum! {
    /// Kind of extended opcode token.
    EXTENDED_OPCODE_TYPE, ExtendedOpcodeType, "extended opcode type",
    (Empty, 0, "EMPTY", "", "Carries nothing."),
    (SampleControls, 1, "SAMPLE_CONTROLS", "aoffimmi", "Immediate texel offsets (u, v, w) for sample/ld/gather."),
    (ResourceDim, 2, "RESOURCE_DIM", "", "The resource's dimension (and structure stride), printed as (texture2d) etc."),
    (ResourceReturnType, 3, "RESOURCE_RETURN_TYPE", "", "The resource's per-component return types, printed as (float,float,float,float)."),
}

spec_enum! {
    /// Resource dimension.
    RESOURCE_DIMENSION, ResourceDimension, "resource dimension",
    (Unknown, 0, "UNKNOWN", "unknown", "Not specified."),
    (Buffer, 1, "BUFFER", "buffer", "Typed buffer."),
    (Texture1d, 2, "TEXTURE1D", "texture1d", "1D texture."),
    (Texture2d, 3, "TEXTURE2D", "texture2d", "2D texture."),
    (Texture2dms, 4, "TEXTURE2DMS", "texture2dms", "Multisampled 2D texture."),
    (Texture3d, 5, "TEXTURE3D", "texture3d", "Volume texture."),
    (Texturecube, 6, "TEXTURECUBE", "texturecube", "Cube map."),
    (Texture1darray, 7, "TEXTURE1DARRAY", "texture1darray", "Array of 1D textures."),
    (Texture2darray, 8, "TEXTURE2DARRAY", "texture2darray", "Array of 2D textures."),
    (Texture2dmsarray, 9, "TEXTURE2DMSARRAY", "texture2dmsarray", "Array of multisampled 2D textures."),
    (Texturecubearray, 10, "TEXTURECUBEARRAY", "texturecubearray", "Array of cube maps."),
    (RawBuffer, 11, "RAW_BUFFER", "raw_buffer", "Byte-address buffer."),
    (StructuredBuffer, 12, "STRUCTURED_BUFFER", "structured_buffer", "Buffer of structures."),
}

spec_enum! {
    /// Per-component return type of a resource.
    RETURN_TYPE, ReturnType, "return type",
    (Undefined, 0, "UNDEFINED", "", "Not set."),
    (Unorm, 1, "UNORM", "unorm", "Unsigned normalized: stored integers map to 0..1."),
    (Snorm, 2, "SNORM", "snorm", "Signed normalized: stored integers map to -1..1."),
    (Sint, 3, "SINT", "sint", "Signed integer."),
    (Uint, 4, "UINT", "uint", "Unsigned integer."),
    (Float, 5, "FLOAT", "float", "Float."),
    (Mixed, 6, "MIXED", "mixed", "Mixed / untyped (structured and raw data)."),
    (Double, 7, "DOUBLE", "double", "Double (two components per value)."),
    (Continued, 8, "CONTINUED", "continued", "Second half of a double."),
    (Unused, 9, "UNUSED", "unused", "Component not used."),
}

spec_enum! {
    /// Sampler mode.
    SAMPLER_MODE, SamplerMode, "sampler mode",
    (Default, 0, "DEFAULT", "mode_default", "Ordinary filtering sampler."),
    (Comparison, 1, "COMPARISON", "mode_comparison", "Comparison sampler (sample_c, gather4_c)."),
    (Mono, 2, "MONO", "mode_mono", "Monochrome 1-bit sampler (reserved)."),
}

spec_enum! {
    /// Constant buffer access pattern.
    CB_ACCESS_PATTERN, CbAccessPattern, "constant buffer access",
    (ImmediateIndexed, 0, "IMMEDIATE_INDEXED", "immediateIndexed", "Only read at indices known at compile time."),
    (DynamicIndexed, 1, "DYNAMIC_INDEXED", "dynamicIndexed", "Read at indices computed at run time."),
}

spec_enum! {
    /// Interpolation mode of a pixel shader input.
    INTERPOLATION_MODE, InterpolationMode, "interpolation mode",
    (Undefined, 0, "UNDEFINED", "", "Not interpolated / not specified."),
    (Constant, 1, "CONSTANT", "constant", "Taken from the provoking vertex, not interpolated."),
    (Linear, 2, "LINEAR", "linear", "Perspective-correct interpolation at the pixel centre."),
    (LinearCentroid, 3, "LINEAR_CENTROID", "linear centroid", "Perspective-correct, evaluated inside the covered area."),
    (LinearNoperspective, 4, "LINEAR_NOPERSPECTIVE", "linear noperspective", "Screen-space linear interpolation."),
    (LinearNoperspectiveCentroid, 5, "LINEAR_NOPERSPECTIVE_CENTROID", "linear noperspective centroid", "Screen-space linear, at the centroid."),
    (LinearSample, 6, "LINEAR_SAMPLE", "linear sample", "Perspective-correct, per sample."),
    (LinearNoperspectiveSample, 7, "LINEAR_NOPERSPECTIVE_SAMPLE", "linear noperspective sample", "Screen-space linear, per sample."),
}

spec_enum! {
    /// System value names used by dcl_*_siv / dcl_*_sgv.
    SYSTEM_NAME, SystemName, "system value",
    (Undefined, 0, "UNDEFINED", "undefined", "No system meaning."),
    (Position, 1, "POSITION", "position", "Clip-space (or screen) position."),
    (ClipDistance, 2, "CLIP_DISTANCE", "clip_distance", "Distance to a user clip plane."),
    (CullDistance, 3, "CULL_DISTANCE", "cull_distance", "Distance to a user cull plane."),
    (RenderTargetArrayIndex, 4, "RENDER_TARGET_ARRAY_INDEX", "rendertarget_array_index", "Which render-target array slice to draw to."),
    (ViewportArrayIndex, 5, "VIEWPORT_ARRAY_INDEX", "viewport_array_index", "Which viewport to use."),
    (VertexId, 6, "VERTEX_ID", "vertex_id", "Index of the vertex."),
    (PrimitiveId, 7, "PRIMITIVE_ID", "primitive_id", "Index of the primitive."),
    (InstanceId, 8, "INSTANCE_ID", "instance_id", "Index of the instance."),
    (IsFrontFace, 9, "IS_FRONT_FACE", "is_front_face", "Whether the primitive faces the viewer."),
    (SampleIndex, 10, "SAMPLE_INDEX", "sampleIndex", "Which MSAA sample is being shaded."),
    (FinalQuadUEq0EdgeTessfactor, 11, "FINAL_QUAD_U_EQ_0_EDGE_TESSFACTOR", "finalQuadUeq0EdgeTessFactor", "Quad patch: tessellation factor of the u=0 edge."),
    (FinalQuadVEq0EdgeTessfactor, 12, "FINAL_QUAD_V_EQ_0_EDGE_TESSFACTOR", "finalQuadVeq0EdgeTessFactor", "Quad patch: factor of the v=0 edge."),
    (FinalQuadUEq1EdgeTessfactor, 13, "FINAL_QUAD_U_EQ_1_EDGE_TESSFACTOR", "finalQuadUeq1EdgeTessFactor", "Quad patch: factor of the u=1 edge."),
    (FinalQuadVEq1EdgeTessfactor, 14, "FINAL_QUAD_V_EQ_1_EDGE_TESSFACTOR", "finalQuadVeq1EdgeTessFactor", "Quad patch: factor of the v=1 edge."),
    (FinalQuadUInsideTessfactor, 15, "FINAL_QUAD_U_INSIDE_TESSFACTOR", "finalQuadUInsideTessFactor", "Quad patch: inside factor along u."),
    (FinalQuadVInsideTessfactor, 16, "FINAL_QUAD_V_INSIDE_TESSFACTOR", "finalQuadVInsideTessFactor", "Quad patch: inside factor along v."),
    (FinalTriUEq0EdgeTessfactor, 17, "FINAL_TRI_U_EQ_0_EDGE_TESSFACTOR", "finalTriUeq0EdgeTessFactor", "Triangle patch: factor of the u=0 edge."),
    (FinalTriVEq0EdgeTessfactor, 18, "FINAL_TRI_V_EQ_0_EDGE_TESSFACTOR", "finalTriVeq0EdgeTessFactor", "Triangle patch: factor of the v=0 edge."),
    (FinalTriWEq0EdgeTessfactor, 19, "FINAL_TRI_W_EQ_0_EDGE_TESSFACTOR", "finalTriWeq0EdgeTessFactor", "Triangle patch: factor of the w=0 edge."),
    (FinalTriInsideTessfactor, 20, "FINAL_TRI_INSIDE_TESSFACTOR", "finalTriInsideTessFactor", "Triangle patch: inside factor."),
    (FinalLineDetailTessfactor, 21, "FINAL_LINE_DETAIL_TESSFACTOR", "finalLineDetailTessFactor", "Isoline: detail factor."),
    (FinalLineDensityTessfactor, 22, "FINAL_LINE_DENSITY_TESSFACTOR", "finalLineDensityTessFactor", "Isoline: density factor."),
    (Barycentrics, 23, "BARYCENTRICS", "barycentrics", "Barycentric coordinates (D3D12)."),
    (Shadingrate, 24, "SHADINGRATE", "shadingrate", "Variable shading rate (D3D12)."),
    (Cullprimitive, 25, "CULLPRIMITIVE", "cullprimitive", "Primitive culling output (D3D12)."),
}

spec_enum! {
    /// Geometry shader input primitive.
    PRIMITIVE, Primitive, "input primitive",
    (Undefined, 0, "UNDEFINED", "undefined", "Not set."),
    (Point, 1, "POINT", "point", "Points."),
    (Line, 2, "LINE", "line", "Lines."),
    (Triangle, 3, "TRIANGLE", "triangle", "Triangles."),
    (LineAdj, 6, "LINE_ADJ", "lineadj", "Lines with adjacency."),
    (TriangleAdj, 7, "TRIANGLE_ADJ", "triangleadj", "Triangles with adjacency."),
    (ControlPointPatch1, 8, "1_CONTROL_POINT_PATCH", "patch1", "Patch of 1 control point."),
    (ControlPointPatch2, 9, "2_CONTROL_POINT_PATCH", "patch2", "Patch of 2 control points."),
    (ControlPointPatch3, 10, "3_CONTROL_POINT_PATCH", "patch3", "Patch of 3 control points."),
    (ControlPointPatch4, 11, "4_CONTROL_POINT_PATCH", "patch4", "Patch of 4 control points."),
    (ControlPointPatch5, 12, "5_CONTROL_POINT_PATCH", "patch5", "Patch of 5 control points."),
    (ControlPointPatch6, 13, "6_CONTROL_POINT_PATCH", "patch6", "Patch of 6 control points."),
    (ControlPointPatch7, 14, "7_CONTROL_POINT_PATCH", "patch7", "Patch of 7 control points."),
    (ControlPointPatch8, 15, "8_CONTROL_POINT_PATCH", "patch8", "Patch of 8 control points."),
    (ControlPointPatch9, 16, "9_CONTROL_POINT_PATCH", "patch9", "Patch of 9 control points."),
    (ControlPointPatch10, 17, "10_CONTROL_POINT_PATCH", "patch10", "Patch of 10 control points."),
    (ControlPointPatch11, 18, "11_CONTROL_POINT_PATCH", "patch11", "Patch of 11 control points."),
    (ControlPointPatch12, 19, "12_CONTROL_POINT_PATCH", "patch12", "Patch of 12 control points."),
    (ControlPointPatch13, 20, "13_CONTROL_POINT_PATCH", "patch13", "Patch of 13 control points."),
    (ControlPointPatch14, 21, "14_CONTROL_POINT_PATCH", "patch14", "Patch of 14 control points."),
    (ControlPointPatch15, 22, "15_CONTROL_POINT_PATCH", "patch15", "Patch of 15 control points."),
    (ControlPointPatch16, 23, "16_CONTROL_POINT_PATCH", "patch16", "Patch of 16 control points."),
    (ControlPointPatch17, 24, "17_CONTROL_POINT_PATCH", "patch17", "Patch of 17 control points."),
    (ControlPointPatch18, 25, "18_CONTROL_POINT_PATCH", "patch18", "Patch of 18 control points."),
    (ControlPointPatch19, 26, "19_CONTROL_POINT_PATCH", "patch19", "Patch of 19 control points."),
    (ControlPointPatch20, 27, "20_CONTROL_POINT_PATCH", "patch20", "Patch of 20 control points."),
    (ControlPointPatch21, 28, "21_CONTROL_POINT_PATCH", "patch21", "Patch of 21 control points."),
    (ControlPointPatch22, 29, "22_CONTROL_POINT_PATCH", "patch22", "Patch of 22 control points."),
    (ControlPointPatch23, 30, "23_CONTROL_POINT_PATCH", "patch23", "Patch of 23 control points."),
    (ControlPointPatch24, 31, "24_CONTROL_POINT_PATCH", "patch24", "Patch of 24 control points."),
    (ControlPointPatch25, 32, "25_CONTROL_POINT_PATCH", "patch25", "Patch of 25 control points."),
    (ControlPointPatch26, 33, "26_CONTROL_POINT_PATCH", "patch26", "Patch of 26 control points."),
    (ControlPointPatch27, 34, "27_CONTROL_POINT_PATCH", "patch27", "Patch of 27 control points."),
    (ControlPointPatch28, 35, "28_CONTROL_POINT_PATCH", "patch28", "Patch of 28 control points."),
    (ControlPointPatch29, 36, "29_CONTROL_POINT_PATCH", "patch29", "Patch of 29 control points."),
    (ControlPointPatch30, 37, "30_CONTROL_POINT_PATCH", "patch30", "Patch of 30 control points."),
    (ControlPointPatch31, 38, "31_CONTROL_POINT_PATCH", "patch31", "Patch of 31 control points."),
    (ControlPointPatch32, 39, "32_CONTROL_POINT_PATCH", "patch32", "Patch of 32 control points."),
}

spec_enum! {
    /// Geometry shader output topology.
    PRIMITIVE_TOPOLOGY, PrimitiveTopology, "output topology",
    (Undefined, 0, "UNDEFINED", "undefined", "Not set."),
    (Pointlist, 1, "POINTLIST", "pointlist", "Points."),
    (Linelist, 2, "LINELIST", "linelist", "Separate lines."),
    (Linestrip, 3, "LINESTRIP", "linestrip", "Line strips."),
    (Trianglelist, 4, "TRIANGLELIST", "trianglelist", "Separate triangles."),
    (Trianglestrip, 5, "TRIANGLESTRIP", "trianglestrip", "Triangle strips."),
    (LinelistAdj, 10, "LINELIST_ADJ", "linelistadj", "Lines with adjacency."),
    (LinestripAdj, 11, "LINESTRIP_ADJ", "linestripadj", "Line strips with adjacency."),
    (TrianglelistAdj, 12, "TRIANGLELIST_ADJ", "trianglelistadj", "Triangles with adjacency."),
    (TrianglestripAdj, 13, "TRIANGLESTRIP_ADJ", "trianglestripadj", "Triangle strips with adjacency."),
}

spec_enum! {
    /// Tessellator domain.
    TESS_DOMAIN, TessDomain, "tessellator domain",
    (Undefined, 0, "UNDEFINED", "domain_undefined", "Not set."),
    (Isoline, 1, "ISOLINE", "domain_isoline", "Isolines."),
    (Tri, 2, "TRI", "domain_tri", "Triangles."),
    (Quad, 3, "QUAD", "domain_quad", "Quads."),
}

spec_enum! {
    /// Tessellator partitioning.
    TESS_PARTITIONING, TessPartitioning, "tessellator partitioning",
    (Undefined, 0, "UNDEFINED", "partitioning_undefined", "Not set."),
    (Integer, 1, "INTEGER", "partitioning_integer", "Factors rounded up to integers."),
    (Pow2, 2, "POW2", "partitioning_pow2", "Factors rounded up to powers of two."),
    (FractionalOdd, 3, "FRACTIONAL_ODD", "partitioning_fractional_odd", "Smooth fractional factors, odd segment counts."),
    (FractionalEven, 4, "FRACTIONAL_EVEN", "partitioning_fractional_even", "Smooth fractional factors, even segment counts."),
}

spec_enum! {
    /// Tessellator output primitive.
    TESS_OUTPUT_PRIMITIVE, TessOutputPrimitive, "tessellator output primitive",
    (Undefined, 0, "UNDEFINED", "output_undefined", "Not set."),
    (Point, 1, "POINT", "output_point", "Points."),
    (Line, 2, "LINE", "output_line", "Lines."),
    (TriangleCw, 3, "TRIANGLE_CW", "output_triangle_cw", "Clockwise triangles."),
    (TriangleCcw, 4, "TRIANGLE_CCW", "output_triangle_ccw", "Counter-clockwise triangles."),
}

spec_enum! {
    /// resinfo's return type.
    RESINFO_RETURN_TYPE, ResinfoReturnType, "resinfo return type",
    (Float, 0, "FLOAT", "", "Dimensions as floats."),
    (Rcpfloat, 1, "RCPFLOAT", "_rcpfloat", "Reciprocals of the dimensions as floats."),
    (Uint, 2, "UINT", "_uint", "Dimensions as unsigned integers."),
}

spec_enum! {
    /// sampleinfo / samplepos return type.
    INSTRUCTION_RETURN_TYPE, InstructionReturnType, "instruction return type",
    (Float, 0, "FLOAT", "", "Result as float."),
    (Uint, 1, "UINT", "_uint", "Result as unsigned integer."),
}

spec_enum! {
    /// Zero / non-zero test of conditional instructions.
    TEST_BOOLEAN, TestBoolean, "test",
    (Zero, 0, "ZERO", "_z", "The condition holds when the value is zero."),
    (Nonzero, 1, "NONZERO", "_nz", "The condition holds when the value is not zero."),
}

spec_enum! {
    /// Custom-data block classes.
    CUSTOMDATA_CLASS, CustomdataClass, "custom-data class",
    (Comment, 0, "COMMENT", "", "A comment."),
    (Debuginfo, 1, "DEBUGINFO", "", "Debug information."),
    (Opaque, 2, "OPAQUE", "", "Opaque data."),
    (DclImmediateConstantBuffer, 3, "DCL_IMMEDIATE_CONSTANT_BUFFER", "dcl_immediateConstantBuffer", "The immediate constant buffer: vec4 constants indexed as icb[n]."),
    (ShaderMessage, 4, "SHADER_MESSAGE", "", "A message the shader prints (debug layers)."),
    (ShaderClipPlaneConstantMappingsForDx9, 5, "SHADER_CLIP_PLANE_CONSTANT_MAPPINGS_FOR_DX9", "", "Where DX9-level hardware finds clip planes in constant buffers."),
}

spec_enum! {
    /// Yes / no.
    FLAG, Flag, "flag",
    (No, 0, "no", "", "Off."),
    (Yes, 1, "yes", "", "On."),
}

spec_enum! {
    /// Component names of a 4-component select.
    COMPONENT, Component, "component",
    (X, 0, "X", "x", "x (red)"),
    (Y, 1, "Y", "y", "y (green)"),
    (Z, 2, "Z", "z", "z (blue)"),
    (W, 3, "W", "w", "w (alpha)"),
}

// ------------------------------------------- container enumerations
//
// Values stored in the container's other chunks (signatures, RDEF) rather
// than in program tokens. The numbers are those of `d3dcommon.h` and of the
// register component type in `D3D12TokenizedProgramFormat.hpp`; fxc's
// spellings are those its listing header prints; the explanations are ours.

spec_enum! {
    /// Component type of a signature element (`D3D_REGISTER_COMPONENT_TYPE`).
    REGISTER_COMPONENT_TYPE, RegisterComponentType, "register component type",
    (Unknown, 0, "UNKNOWN", "unknown", "Not specified."),
    (Uint32, 1, "UINT32", "uint", "32-bit unsigned integer."),
    (Sint32, 2, "SINT32", "int", "32-bit signed integer."),
    (Float32, 3, "FLOAT32", "float", "32-bit float."),
    (Uint16, 4, "UINT16", "", "16-bit unsigned integer (DXIL signatures only)."),
    (Sint16, 5, "SINT16", "", "16-bit signed integer (DXIL signatures only)."),
    (Float16, 6, "FLOAT16", "", "16-bit float (DXIL signatures only)."),
    (Uint64, 7, "UINT64", "", "64-bit unsigned integer (DXIL signatures only)."),
    (Sint64, 8, "SINT64", "", "64-bit signed integer (DXIL signatures only)."),
    (Float64, 9, "FLOAT64", "", "64-bit float (DXIL signatures only)."),
}

spec_enum! {
    /// System value of a signature element (`D3D_NAME`). Below 11 the values
    /// equal the program's [`SystemName`]; the tessellation factors are
    /// grouped differently, and pixel outputs start at 64.
    SIGNATURE_NAME, SignatureName, "signature system value",
    (Undefined, 0, "UNDEFINED", "NONE", "An ordinary (user) value."),
    (Position, 1, "POSITION", "POS", "Clip-space (or screen) position."),
    (ClipDistance, 2, "CLIP_DISTANCE", "CLIPDST", "Distance to a user clip plane."),
    (CullDistance, 3, "CULL_DISTANCE", "CULLDST", "Distance to a user cull plane."),
    (RenderTargetArrayIndex, 4, "RENDER_TARGET_ARRAY_INDEX", "RTINDEX", "Which render-target array slice to draw to."),
    (ViewportArrayIndex, 5, "VIEWPORT_ARRAY_INDEX", "VPINDEX", "Which viewport to use."),
    (VertexId, 6, "VERTEX_ID", "VERTID", "Index of the vertex."),
    (PrimitiveId, 7, "PRIMITIVE_ID", "PRIMID", "Index of the primitive."),
    (InstanceId, 8, "INSTANCE_ID", "INSTID", "Index of the instance."),
    (IsFrontFace, 9, "IS_FRONT_FACE", "FFACE", "Whether the primitive faces the viewer."),
    (SampleIndex, 10, "SAMPLE_INDEX", "SAMPLE", "Which MSAA sample is being shaded."),
    (FinalQuadEdgeTessfactor, 11, "FINAL_QUAD_EDGE_TESSFACTOR", "QUADEDGE", "Quad patch: an edge tessellation factor."),
    (FinalQuadInsideTessfactor, 12, "FINAL_QUAD_INSIDE_TESSFACTOR", "QUADINT", "Quad patch: an inside tessellation factor."),
    (FinalTriEdgeTessfactor, 13, "FINAL_TRI_EDGE_TESSFACTOR", "TRIEDGE", "Triangle patch: an edge tessellation factor."),
    (FinalTriInsideTessfactor, 14, "FINAL_TRI_INSIDE_TESSFACTOR", "TRIINT", "Triangle patch: the inside tessellation factor."),
    (FinalLineDetailTessfactor, 15, "FINAL_LINE_DETAIL_TESSFACTOR", "LINEDET", "Isoline: detail factor."),
    (FinalLineDensityTessfactor, 16, "FINAL_LINE_DENSITY_TESSFACTOR", "LINEDEN", "Isoline: density factor."),
    (Barycentrics, 23, "BARYCENTRICS", "", "Barycentric coordinates (D3D12)."),
    (Shadingrate, 24, "SHADINGRATE", "", "Variable shading rate (D3D12)."),
    (Cullprimitive, 25, "CULLPRIMITIVE", "", "Primitive culling output (D3D12)."),
    (Target, 64, "TARGET", "TARGET", "Pixel shader colour output to the render target of the semantic index."),
    (Depth, 65, "DEPTH", "DEPTH", "Pixel shader depth output."),
    (Coverage, 66, "COVERAGE", "COVERAGE", "Pixel shader coverage mask (input or output)."),
    (DepthGreaterEqual, 67, "DEPTH_GREATER_EQUAL", "DEPTHGE", "Depth output that may only grow (conservative depth)."),
    (DepthLessEqual, 68, "DEPTH_LESS_EQUAL", "DEPTHLE", "Depth output that may only shrink (conservative depth)."),
    (StencilRef, 69, "STENCIL_REF", "STENCILREF", "Pixel stencil reference output."),
    (InnerCoverage, 70, "INNER_COVERAGE", "INNERCOV", "Whether the pixel is fully covered (conservative rasterization)."),
}

spec_enum! {
    /// Kind of an RDEF constant buffer (`D3D_CBUFFER_TYPE`).
    CBUFFER_TYPE, CbufferType, "constant buffer type",
    (Cbuffer, 0, "CBUFFER", "cbuffer", "An ordinary constant buffer."),
    (Tbuffer, 1, "TBUFFER", "tbuffer", "A texture buffer (constants read through the texture path)."),
    (InterfacePointers, 2, "INTERFACE_POINTERS", "interfaces", "The interface pointers of dynamic linkage."),
    (ResourceBindInfo, 3, "RESOURCE_BIND_INFO", "resource bind info", "A structured buffer's element type."),
}

spec_enum! {
    /// Class of an RDEF variable type (`D3D_SHADER_VARIABLE_CLASS`).
    SHADER_VARIABLE_CLASS, ShaderVariableClass, "variable class",
    (Scalar, 0, "SCALAR", "scalar", "One value."),
    (Vector, 1, "VECTOR", "vector", "A vector of 1 to 4 values."),
    (MatrixRows, 2, "MATRIX_ROWS", "matrix_rows", "A row-major matrix (each row one register)."),
    (MatrixColumns, 3, "MATRIX_COLUMNS", "matrix_columns", "A column-major matrix (each column one register)."),
    (Object, 4, "OBJECT", "object", "A texture, sampler, buffer or shader object."),
    (Struct, 5, "STRUCT", "struct", "A structure with members."),
    (InterfaceClass, 6, "INTERFACE_CLASS", "interface_class", "A class implementing an interface."),
    (InterfacePointer, 7, "INTERFACE_POINTER", "interface_pointer", "A pointer to an interface."),
}

spec_enum! {
    /// Base type of an RDEF variable type (`D3D_SHADER_VARIABLE_TYPE`).
    SHADER_VARIABLE_TYPE, ShaderVariableType, "variable type",
    (Void, 0, "VOID", "void", "No type."),
    (Bool, 1, "BOOL", "bool", "Boolean (32 bits per value in a constant buffer)."),
    (Int, 2, "INT", "int", "32-bit signed integer."),
    (Float, 3, "FLOAT", "float", "32-bit float."),
    (String, 4, "STRING", "string", "String (effects only)."),
    (Texture, 5, "TEXTURE", "texture", "Texture of unspecified shape."),
    (Texture1d, 6, "TEXTURE1D", "Texture1D", "1D texture."),
    (Texture2d, 7, "TEXTURE2D", "Texture2D", "2D texture."),
    (Texture3d, 8, "TEXTURE3D", "Texture3D", "Volume texture."),
    (Texturecube, 9, "TEXTURECUBE", "TextureCube", "Cube map."),
    (Sampler, 10, "SAMPLER", "SamplerState", "Sampler state."),
    (Sampler1d, 11, "SAMPLER1D", "sampler1D", "Legacy 1D sampler."),
    (Sampler2d, 12, "SAMPLER2D", "sampler2D", "Legacy 2D sampler."),
    (Sampler3d, 13, "SAMPLER3D", "sampler3D", "Legacy 3D sampler."),
    (Samplercube, 14, "SAMPLERCUBE", "samplerCUBE", "Legacy cube sampler."),
    (Pixelshader, 15, "PIXELSHADER", "PixelShader", "Pixel shader object (effects)."),
    (Vertexshader, 16, "VERTEXSHADER", "VertexShader", "Vertex shader object (effects)."),
    (Pixelfragment, 17, "PIXELFRAGMENT", "pixelfragment", "Pixel fragment (legacy effects)."),
    (Vertexfragment, 18, "VERTEXFRAGMENT", "vertexfragment", "Vertex fragment (legacy effects)."),
    (Uint, 19, "UINT", "uint", "32-bit unsigned integer."),
    (Uint8, 20, "UINT8", "uint8", "8-bit unsigned integer."),
    (Geometryshader, 21, "GEOMETRYSHADER", "GeometryShader", "Geometry shader object (effects)."),
    (Rasterizer, 22, "RASTERIZER", "RasterizerState", "Rasterizer state (effects)."),
    (Depthstencil, 23, "DEPTHSTENCIL", "DepthStencilState", "Depth-stencil state (effects)."),
    (Blend, 24, "BLEND", "BlendState", "Blend state (effects)."),
    (Buffer, 25, "BUFFER", "Buffer", "Typed buffer."),
    (Cbuffer, 26, "CBUFFER", "cbuffer", "Constant buffer."),
    (Tbuffer, 27, "TBUFFER", "tbuffer", "Texture buffer."),
    (Texture1darray, 28, "TEXTURE1DARRAY", "Texture1DArray", "Array of 1D textures."),
    (Texture2darray, 29, "TEXTURE2DARRAY", "Texture2DArray", "Array of 2D textures."),
    (Rendertargetview, 30, "RENDERTARGETVIEW", "RenderTargetView", "Render-target view (effects)."),
    (Depthstencilview, 31, "DEPTHSTENCILVIEW", "DepthStencilView", "Depth-stencil view (effects)."),
    (Texture2dms, 32, "TEXTURE2DMS", "Texture2DMS", "Multisampled 2D texture."),
    (Texture2dmsarray, 33, "TEXTURE2DMSARRAY", "Texture2DMSArray", "Array of multisampled 2D textures."),
    (Texturecubearray, 34, "TEXTURECUBEARRAY", "TextureCubeArray", "Array of cube maps."),
    (Hullshader, 35, "HULLSHADER", "HullShader", "Hull shader object (effects)."),
    (Domainshader, 36, "DOMAINSHADER", "DomainShader", "Domain shader object (effects)."),
    (InterfacePointer, 37, "INTERFACE_POINTER", "interface", "Interface pointer (dynamic linkage)."),
    (Computeshader, 38, "COMPUTESHADER", "ComputeShader", "Compute shader object (effects)."),
    (Double, 39, "DOUBLE", "double", "64-bit float."),
    (Rwtexture1d, 40, "RWTEXTURE1D", "RWTexture1D", "Writable 1D texture."),
    (Rwtexture1darray, 41, "RWTEXTURE1DARRAY", "RWTexture1DArray", "Writable array of 1D textures."),
    (Rwtexture2d, 42, "RWTEXTURE2D", "RWTexture2D", "Writable 2D texture."),
    (Rwtexture2darray, 43, "RWTEXTURE2DARRAY", "RWTexture2DArray", "Writable array of 2D textures."),
    (Rwtexture3d, 44, "RWTEXTURE3D", "RWTexture3D", "Writable volume texture."),
    (Rwbuffer, 45, "RWBUFFER", "RWBuffer", "Writable typed buffer."),
    (ByteaddressBuffer, 46, "BYTEADDRESS_BUFFER", "ByteAddressBuffer", "Raw buffer addressed in bytes."),
    (RwbyteaddressBuffer, 47, "RWBYTEADDRESS_BUFFER", "RWByteAddressBuffer", "Writable raw buffer."),
    (StructuredBuffer, 48, "STRUCTURED_BUFFER", "StructuredBuffer", "Buffer of structures."),
    (RwstructuredBuffer, 49, "RWSTRUCTURED_BUFFER", "RWStructuredBuffer", "Writable buffer of structures."),
    (AppendStructuredBuffer, 50, "APPEND_STRUCTURED_BUFFER", "AppendStructuredBuffer", "Structured buffer written by appending."),
    (ConsumeStructuredBuffer, 51, "CONSUME_STRUCTURED_BUFFER", "ConsumeStructuredBuffer", "Structured buffer read by consuming."),
    (Min8float, 52, "MIN8FLOAT", "min8float", "Float of at least 8 bits (stored as 32)."),
    (Min10float, 53, "MIN10FLOAT", "min10float", "Float of at least 10 bits (stored as 32)."),
    (Min16float, 54, "MIN16FLOAT", "min16float", "Float of at least 16 bits (stored as 32)."),
    (Min12int, 55, "MIN12INT", "min12int", "Signed integer of at least 12 bits (stored as 32)."),
    (Min16int, 56, "MIN16INT", "min16int", "Signed integer of at least 16 bits (stored as 32)."),
    (Min16uint, 57, "MIN16UINT", "min16uint", "Unsigned integer of at least 16 bits (stored as 32)."),
    (Int16, 58, "INT16", "int16_t", "16-bit signed integer."),
    (Uint16, 59, "UINT16", "uint16_t", "16-bit unsigned integer."),
    (Float16, 60, "FLOAT16", "float16_t", "16-bit float."),
    (Int64, 61, "INT64", "int64_t", "64-bit signed integer."),
    (Uint64, 62, "UINT64", "uint64_t", "64-bit unsigned integer."),
}

spec_enum! {
    /// Kind of an RDEF resource binding (`D3D_SHADER_INPUT_TYPE`).
    SHADER_INPUT_TYPE, ShaderInputType, "shader input type",
    (Cbuffer, 0, "CBUFFER", "cbuffer", "A constant buffer (b#)."),
    (Tbuffer, 1, "TBUFFER", "tbuffer", "A texture buffer (t#)."),
    (Texture, 2, "TEXTURE", "texture", "A texture or typed buffer (t#)."),
    (Sampler, 3, "SAMPLER", "sampler", "A sampler (s#)."),
    (UavRwtyped, 4, "UAV_RWTYPED", "UAV", "A typed read-write texture or buffer (u#)."),
    (Structured, 5, "STRUCTURED", "texture", "A structured buffer (t#)."),
    (UavRwstructured, 6, "UAV_RWSTRUCTURED", "UAV", "A read-write structured buffer (u#)."),
    (Byteaddress, 7, "BYTEADDRESS", "texture", "A raw buffer (t#)."),
    (UavRwbyteaddress, 8, "UAV_RWBYTEADDRESS", "UAV", "A read-write raw buffer (u#)."),
    (UavAppendStructured, 9, "UAV_APPEND_STRUCTURED", "UAV", "An append structured buffer (u#)."),
    (UavConsumeStructured, 10, "UAV_CONSUME_STRUCTURED", "UAV", "A consume structured buffer (u#)."),
    (UavRwstructuredWithCounter, 11, "UAV_RWSTRUCTURED_WITH_COUNTER", "UAV", "A read-write structured buffer with a hidden counter (u#)."),
    (Rtaccelerationstructure, 12, "RTACCELERATIONSTRUCTURE", "", "A ray-tracing acceleration structure (D3D12)."),
    (UavFeedbacktexture, 13, "UAV_FEEDBACKTEXTURE", "", "A sampler-feedback texture (D3D12)."),
}

spec_enum! {
    /// Dimension of an RDEF resource binding (`D3D_SRV_DIMENSION`). Not the
    /// program's [`ResourceDimension`]: the order differs (arrays follow
    /// their element shape).
    SRV_DIMENSION, SrvDimension, "view dimension",
    (Unknown, 0, "UNKNOWN", "NA", "Not a texture or buffer view."),
    (Buffer, 1, "BUFFER", "buf", "Typed buffer."),
    (Texture1d, 2, "TEXTURE1D", "1d", "1D texture."),
    (Texture1darray, 3, "TEXTURE1DARRAY", "1darray", "Array of 1D textures."),
    (Texture2d, 4, "TEXTURE2D", "2d", "2D texture."),
    (Texture2darray, 5, "TEXTURE2DARRAY", "2darray", "Array of 2D textures."),
    (Texture2dms, 6, "TEXTURE2DMS", "2dMS", "Multisampled 2D texture."),
    (Texture2dmsarray, 7, "TEXTURE2DMSARRAY", "2darrayMS", "Array of multisampled 2D textures."),
    (Texture3d, 8, "TEXTURE3D", "3d", "Volume texture."),
    (Texturecube, 9, "TEXTURECUBE", "cube", "Cube map."),
    (Texturecubearray, 10, "TEXTURECUBEARRAY", "cubearray", "Array of cube maps."),
    (Bufferex, 11, "BUFFEREX", "buf", "Raw or structured buffer view."),
}

spec_enum! {
    /// Program kind in the high half of RDEF's target version dword. Pixel
    /// and vertex use the Direct3D 9 version-token prefixes (`D3DPS_VERSION`,
    /// `D3DVS_VERSION` of `d3d9types.h`); the later stages use two ASCII
    /// letters (`'GS'` is 0x4753). The names are ours: no header names them.
    RDEF_PROGRAM_TYPE, RdefProgramType, "RDEF program type",
    (GeometryShader, 0x4753, "GEOMETRY_SHADER", "gs", "Geometry shader."),
    (DomainShader, 0x4453, "DOMAIN_SHADER", "ds", "Domain shader."),
    (ComputeShader, 0x4353, "COMPUTE_SHADER", "cs", "Compute shader."),
    (HullShader, 0x4853, "HULL_SHADER", "hs", "Hull shader."),
    (VertexShader, 0xFFFE, "VERTEX_SHADER", "vs", "Vertex shader."),
    (PixelShader, 0xFFFF, "PIXEL_SHADER", "ps", "Pixel shader."),
}

impl RdefProgramType {
    /// The same stage as the program's version token numbers it.
    pub const fn program_type(self) -> ProgramType {
        match self {
            RdefProgramType::PixelShader => ProgramType::PixelShader,
            RdefProgramType::VertexShader => ProgramType::VertexShader,
            RdefProgramType::GeometryShader => ProgramType::GeometryShader,
            RdefProgramType::HullShader => ProgramType::HullShader,
            RdefProgramType::DomainShader => ProgramType::DomainShader,
            RdefProgramType::ComputeShader => ProgramType::ComputeShader,
        }
    }
}

spec_enum! {
    /// Minimum precision of a signature element (`D3D_MIN_PRECISION`): the
    /// program's [`MinPrecision`] values plus two of the signature's own.
    /// The spelling is the format column of fxc's signature listing.
    SIGNATURE_MIN_PRECISION, SignatureMinPrecision, "signature minimum precision",
    (Default, 0, "DEFAULT", "", "Full 32-bit precision (the listing shows the component type)."),
    (Float16, 1, "FLOAT_16", "min16f", "At least 16-bit float."),
    (Float28, 2, "FLOAT_2_8", "min2_8f", "At least 10-bit (2.8 fixed point) float."),
    (Reserved, 3, "RESERVED", "", "Unused value."),
    (Sint16, 4, "SINT_16", "min16i", "At least 16-bit signed integer."),
    (Uint16, 5, "UINT_16", "min16u", "At least 16-bit unsigned integer."),
    (Any16, 0xf0, "ANY_16", "min16", "Any type of at least 16 bits."),
    (Any10, 0xf1, "ANY_10", "min10", "Any type of at least 10 bits."),
}

// ------------------------------------------------------------- bitfields

/// Flags of an RDEF resource binding (`D3D_SHADER_INPUT_FLAGS`).
pub static SHADER_INPUT_FLAGS_FIELDS: &[FieldDef] = &[
    f("user packed", 0, 0, Some(&FLAG), "The register was assigned in the source (register(...))."),
    f("comparison sampler", 1, 1, Some(&FLAG), "A sampler declared SamplerComparisonState."),
    f("texture components", 3, 2, None, "Components the texture returns, minus one (with the return type)."),
    f("unused", 4, 4, Some(&FLAG), "Declared but never read."),
];

/// Version token.
pub static VERSION_FIELDS: &[FieldDef] = &[
    f("minor version", 3, 0, None, "Minor shader model number (the 0 of 5.0)."),
    f("major version", 7, 4, None, "Major shader model number (the 5 of 5.0)."),
    f("reserved", 15, 8, None, "Unused, zero."),
    f("program type", 31, 16, Some(&PROGRAM_TYPE), "Which pipeline stage the program is for."),
];

/// Length token.
pub static LENGTH_FIELDS: &[FieldDef] = &[f(
    "program length",
    31,
    0,
    None,
    "Length of the whole program in dwords, counting the version and length tokens.",
)];

/// The explicit length dword of a long declaration or custom-data block.
pub static INSTRUCTION_LENGTH_FIELDS: &[FieldDef] = &[f(
    "block length",
    31,
    0,
    None,
    "Length of this declaration or custom-data block in dwords, counting its opcode token and this dword.",
)];

/// The fields of an opcode token shared by every opcode, by name.
pub mod opcode_token {
    use super::*;
    /// Bits 10:0.
    pub const OPCODE: FieldDef = f("opcode", 10, 0, None, "Which instruction or declaration this is.");
    /// Bits 30:24.
    pub const LENGTH: FieldDef = f(
        "instruction length",
        30,
        24,
        None,
        "Length of the instruction in dwords including this token (0 only in custom-data blocks and long declarations).",
    );
    /// Bit 31.
    pub const EXTENDED: FieldDef = f("extended", 31, 31, Some(&FLAG), "Set when an extended opcode token follows.");
    /// Bits 23:11, whose meaning depends on the opcode ([`opcode_controls`]).
    pub const CONTROLS: FieldDef = f("controls", 23, 11, None, "Opcode-specific controls.");
    /// Bits 31:11 of a custom-data block's first token.
    pub const CUSTOMDATA_CLASS: FieldDef =
        f("class", 31, 11, Some(&super::CUSTOMDATA_CLASS), "What the block contains.");
}

/// Fields common to every opcode token (bits 23:11 depend on the opcode).
pub static OPCODE_COMMON_FIELDS: &[FieldDef] = &[opcode_token::OPCODE, opcode_token::LENGTH, opcode_token::EXTENDED];

/// Controls of ordinary instructions.
pub static ALU_CONTROLS: &[FieldDef] = &[alu_control::SATURATE, alu_control::PRECISE_MASK];

/// The fields of [`ALU_CONTROLS`] and [`TEST_CONTROLS`] by name, for code
/// that reads them on every instruction (the printer) without a lookup.
pub mod alu_control {
    use super::*;
    /// Bit 13.
    pub const SATURATE: FieldDef = f("saturate", 13, 13, Some(&FLAG), "Clamp results to [0, 1] (printed as _sat).");
    /// Bits 22:19.
    pub const PRECISE_MASK: FieldDef = f(
        "precise mask",
        22,
        19,
        None,
        "Components whose result must not be reassociated or fused (printed [precise(...)]).",
    );
    /// Bit 18 of conditional instructions.
    pub const TEST: FieldDef =
        f("test", 18, 18, Some(&TEST_BOOLEAN), "Whether the condition holds on zero (_z) or non-zero (_nz).");
}

/// Controls of conditional instructions.
pub static TEST_CONTROLS: &[FieldDef] = &[alu_control::TEST];

/// Controls of resinfo.
pub static RESINFO_CONTROLS: &[FieldDef] = &[
    f("return type", 12, 11, Some(&RESINFO_RETURN_TYPE), "How the dimensions are returned."),
    f("saturate", 13, 13, Some(&FLAG), "Clamp results to [0, 1]."),
    f("precise mask", 22, 19, None, "Components that must be computed precisely."),
];

/// Controls of sampleinfo / samplepos.
pub static SAMPLEINFO_CONTROLS: &[FieldDef] = &[
    f("return type", 12, 11, Some(&INSTRUCTION_RETURN_TYPE), "Float or unsigned integer result."),
    f("saturate", 13, 13, Some(&FLAG), "Clamp results to [0, 1]."),
    f("precise mask", 22, 19, None, "Components that must be computed precisely."),
];

/// Controls of sync.
pub static SYNC_CONTROLS: &[FieldDef] = &[
    f("threads in group", 11, 11, Some(&FLAG), "Wait until every thread of the group reaches this point (_t)."),
    f("group shared memory", 12, 12, Some(&FLAG), "Make group-shared memory writes visible to the group (_g)."),
    f("uav memory group", 13, 13, Some(&FLAG), "Make UAV writes visible to the group (_ugroup)."),
    f("uav memory global", 14, 14, Some(&FLAG), "Make UAV writes visible to the whole device (_uglobal)."),
];

/// dcl_resource controls.
pub static DCL_RESOURCE_CONTROLS: &[FieldDef] = &[
    f("resource dimension", 15, 11, Some(&RESOURCE_DIMENSION), "The texture or buffer shape."),
    f("sample count", 22, 16, None, "Samples per pixel for multisampled textures (0 otherwise)."),
];
/// dcl_constantbuffer controls.
pub static DCL_CB_CONTROLS: &[FieldDef] =
    &[f("access pattern", 11, 11, Some(&CB_ACCESS_PATTERN), "Whether the buffer is indexed with run-time values.")];
/// dcl_sampler controls.
pub static DCL_SAMPLER_CONTROLS: &[FieldDef] =
    &[f("sampler mode", 14, 11, Some(&SAMPLER_MODE), "Filtering or comparison sampler.")];
/// dcl_input_ps* controls.
pub static DCL_INPUT_PS_CONTROLS: &[FieldDef] = &[f(
    "interpolation",
    14,
    11,
    Some(&INTERPOLATION_MODE),
    "How the rasterizer interpolates this input across the primitive.",
)];
/// dcl_inputprimitive controls.
pub static DCL_GS_INPUT_CONTROLS: &[FieldDef] =
    &[f("primitive", 16, 11, Some(&PRIMITIVE), "The primitive each invocation receives.")];
/// dcl_outputtopology controls.
pub static DCL_GS_OUTPUT_CONTROLS: &[FieldDef] =
    &[f("topology", 17, 11, Some(&PRIMITIVE_TOPOLOGY), "The topology the geometry shader emits.")];
/// Control point count declarations.
pub static DCL_CONTROL_POINT_CONTROLS: &[FieldDef] =
    &[f("control points", 16, 11, None, "Number of control points per patch.")];
/// dcl_tessellator_domain controls.
pub static DCL_TESS_DOMAIN_CONTROLS: &[FieldDef] = &[f("domain", 12, 11, Some(&TESS_DOMAIN), "The patch domain.")];
/// dcl_tessellator_partitioning controls.
pub static DCL_TESS_PARTITIONING_CONTROLS: &[FieldDef] =
    &[f("partitioning", 13, 11, Some(&TESS_PARTITIONING), "How tessellation factors are rounded.")];
/// dcl_tessellator_output_primitive controls.
pub static DCL_TESS_OUTPUT_CONTROLS: &[FieldDef] =
    &[f("output primitive", 13, 11, Some(&TESS_OUTPUT_PRIMITIVE), "What the tessellator emits.")];
/// dcl_globalFlags controls.
pub static GLOBAL_FLAGS_CONTROLS: &[FieldDef] = &[
    f("refactoringAllowed", 11, 11, Some(&FLAG), "The driver may reorder floating-point math."),
    f("enableDoublePrecisionFloatOps", 12, 12, Some(&FLAG), "The program uses double-precision instructions."),
    f("forceEarlyDepthStencil", 13, 13, Some(&FLAG), "Run depth/stencil tests before the pixel shader."),
    f("enableRawAndStructuredBuffers", 14, 14, Some(&FLAG), "SM4.x: the program uses raw/structured buffers."),
    f("skipOptimization", 15, 15, Some(&FLAG), "The driver should not optimize."),
    f("enableMinimumPrecision", 16, 16, Some(&FLAG), "The program uses minimum-precision types."),
    f("enable11_1DoubleExtensions", 17, 17, Some(&FLAG), "The program uses the D3D11.1 double instructions."),
    f("enable11_1ShaderExtensions", 18, 18, Some(&FLAG), "The program uses the D3D11.1 non-double extensions."),
    f("allResourcesBound", 19, 19, Some(&FLAG), "D3D12: every declared resource is bound."),
    f("reserved", 23, 20, None, "Unused."),
];
/// UAV declaration controls.
pub static DCL_UAV_CONTROLS: &[FieldDef] = &[
    f("resource dimension", 15, 11, Some(&RESOURCE_DIMENSION), "The UAV's shape (typed UAVs only)."),
    f("globally coherent", 16, 16, Some(&FLAG), "Writes are visible across thread groups (_glc)."),
    f("rasterizer ordered", 17, 17, Some(&FLAG), "Accesses are ordered like the rasterizer's (ROV, _rov)."),
    f("has counter", 23, 23, Some(&FLAG), "The structured UAV has a hidden append/consume counter (_opc)."),
];
/// dcl_interface controls.
pub static DCL_INTERFACE_CONTROLS: &[FieldDef] =
    &[f("dynamically indexed", 11, 11, Some(&FLAG), "The interface array is indexed with run-time values.")];
/// Custom-data descriptor token.
pub static CUSTOMDATA_FIELDS: &[FieldDef] = &[opcode_token::OPCODE, opcode_token::CUSTOMDATA_CLASS];

/// The value of the field called `name` in `token`, read through the first
/// definition of that name in `fields` (0 when there is none).
pub fn field_value(fields: &[FieldDef], name: &str, token: u32) -> u32 {
    fields.iter().find(|f| f.name == name).map_or(0, |f| f.get(token))
}

/// The value of the opcode-specific control `name` of opcode `code` in its
/// opcode token (0 when the opcode has no such control).
pub fn control(code: u16, name: &str, token: u32) -> u32 {
    field_value(opcode_controls(code), name, token)
}

/// The opcode-specific control fields (bits 23:11) for `code`.
pub fn opcode_controls(code: u16) -> &'static [FieldDef] {
    use opc::*;
    match code {
        IF | BREAKC | CONTINUEC | RETC | DISCARD | CALLC => TEST_CONTROLS,
        RESINFO => RESINFO_CONTROLS,
        SAMPLE_INFO | SAMPLE_POS => SAMPLEINFO_CONTROLS,
        SYNC => SYNC_CONTROLS,
        DCL_RESOURCE => DCL_RESOURCE_CONTROLS,
        DCL_CONSTANT_BUFFER => DCL_CB_CONTROLS,
        DCL_SAMPLER => DCL_SAMPLER_CONTROLS,
        DCL_INPUT_PS | DCL_INPUT_PS_SIV | DCL_INPUT_PS_SGV => DCL_INPUT_PS_CONTROLS,
        DCL_GS_INPUT_PRIMITIVE => DCL_GS_INPUT_CONTROLS,
        DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY => DCL_GS_OUTPUT_CONTROLS,
        DCL_INPUT_CONTROL_POINT_COUNT | DCL_OUTPUT_CONTROL_POINT_COUNT => DCL_CONTROL_POINT_CONTROLS,
        DCL_TESS_DOMAIN => DCL_TESS_DOMAIN_CONTROLS,
        DCL_TESS_PARTITIONING => DCL_TESS_PARTITIONING_CONTROLS,
        DCL_TESS_OUTPUT_PRIMITIVE => DCL_TESS_OUTPUT_CONTROLS,
        DCL_GLOBAL_FLAGS => GLOBAL_FLAGS_CONTROLS,
        DCL_UAV_TYPED | DCL_UAV_RAW | DCL_UAV_STRUCTURED => DCL_UAV_CONTROLS,
        DCL_INTERFACE => DCL_INTERFACE_CONTROLS,
        _ => match opcode(code as u32).map(|o| o.class) {
            Some(OpClass::Alu | OpClass::Resource | OpClass::Atomic) => ALU_CONTROLS,
            _ => &[],
        },
    }
}

/// The fields of operand token 0, by name.
pub mod operand_token {
    use super::*;
    /// Bits 1:0.
    pub const COMPONENTS: FieldDef =
        f("component count", 1, 0, Some(&NUM_COMPONENTS), "How many components the operand has.");
    /// Bits 3:2.
    pub const SELECTION_MODE: FieldDef = f(
        "selection mode",
        3,
        2,
        Some(&super::SELECTION_MODE),
        "For 4-component operands: mask, swizzle or single-component select.",
    );
    /// Bits 11:4.
    pub const SELECTION: FieldDef = f(
        "component selection",
        11,
        4,
        None,
        "The mask (bits 4..7), swizzle (bits 4..11) or selected component (bits 4..5), as the mode says.",
    );
    /// Bits 19:12.
    pub const TYPE: FieldDef =
        f("operand type", 19, 12, Some(&OPERAND_TYPE), "Which register file (or literal) the operand names.");
    /// Bits 21:20.
    pub const INDEX_DIMENSION: FieldDef = f(
        "index dimension",
        21,
        20,
        Some(&super::INDEX_DIMENSION),
        "How many indices follow (register number, array element ...).",
    );
    /// Bits 24:22, 27:25 and 30:28: how each index is stored.
    pub const INDEX_REPRESENTATION: [FieldDef; 3] = [
        f("index 0 representation", 24, 22, Some(&super::INDEX_REPRESENTATION), "How the first index is stored."),
        f("index 1 representation", 27, 25, Some(&super::INDEX_REPRESENTATION), "How the second index is stored."),
        f("index 2 representation", 30, 28, Some(&super::INDEX_REPRESENTATION), "How the third index is stored."),
    ];
    /// Bit 31.
    pub const EXTENDED: FieldDef =
        f("extended", 31, 31, Some(&FLAG), "Set when an extended operand token (modifiers) follows.");
}

/// Operand token 0.
pub static OPERAND_FIELDS: &[FieldDef] = &[
    operand_token::COMPONENTS,
    operand_token::SELECTION_MODE,
    operand_token::SELECTION,
    operand_token::TYPE,
    operand_token::INDEX_DIMENSION,
    operand_token::INDEX_REPRESENTATION[0],
    operand_token::INDEX_REPRESENTATION[1],
    operand_token::INDEX_REPRESENTATION[2],
    operand_token::EXTENDED,
];

/// The fields of an extended operand token, by name.
pub mod ext_operand_token {
    use super::*;
    /// Bits 5:0.
    pub const TYPE: FieldDef =
        f("extended operand type", 5, 0, Some(&EXTENDED_OPERAND_TYPE), "What this extension carries.");
    /// Bits 13:6.
    pub const MODIFIER: FieldDef =
        f("modifier", 13, 6, Some(&OPERAND_MODIFIER), "Source modifier: negate, absolute value, or both.");
    /// Bits 16:14.
    pub const MIN_PRECISION: FieldDef = f(
        "minimum precision",
        16,
        14,
        Some(&super::MIN_PRECISION),
        "Lowest precision the hardware may use for this operand.",
    );
    /// Bit 17.
    pub const NON_UNIFORM: FieldDef = f(
        "non-uniform",
        17,
        17,
        Some(&FLAG),
        "SM5.1: the resource index differs across threads (NonUniformResourceIndex).",
    );
    /// Bits 30:18.
    pub const RESERVED: FieldDef = f("reserved", 30, 18, None, "Unused.");
    /// Bit 31.
    pub const EXTENDED: FieldDef = f("extended", 31, 31, Some(&FLAG), "Another extended operand token follows.");
}

/// Extended operand token.
pub static EXTENDED_OPERAND_FIELDS: &[FieldDef] = &[
    ext_operand_token::TYPE,
    ext_operand_token::MODIFIER,
    ext_operand_token::MIN_PRECISION,
    ext_operand_token::NON_UNIFORM,
    ext_operand_token::RESERVED,
    ext_operand_token::EXTENDED,
];

/// Extended opcode token, sample-controls kind.
pub static EXT_SAMPLE_CONTROLS_FIELDS: &[FieldDef] = &[
    f("extended opcode type", 5, 0, Some(&EXTENDED_OPCODE_TYPE), "What this extension carries."),
    f("reserved", 8, 6, None, "Unused."),
    f("u offset", 12, 9, None, "Texel offset along u, 4-bit two's complement (-8..7)."),
    f("v offset", 16, 13, None, "Texel offset along v."),
    f("w offset", 20, 17, None, "Texel offset along w."),
    f("reserved", 30, 21, None, "Unused."),
    f("extended", 31, 31, Some(&FLAG), "Another extended opcode token follows."),
];
/// Extended opcode token, resource-dimension kind.
pub static EXT_RESOURCE_DIM_FIELDS: &[FieldDef] = &[
    f("extended opcode type", 5, 0, Some(&EXTENDED_OPCODE_TYPE), "What this extension carries."),
    f("resource dimension", 10, 6, Some(&RESOURCE_DIMENSION), "Shape of the resource the instruction reads."),
    f("structure stride", 22, 11, None, "For structured buffers: bytes per element."),
    f("reserved", 30, 23, None, "Unused."),
    f("extended", 31, 31, Some(&FLAG), "Another extended opcode token follows."),
];
/// Extended opcode token, return-type kind.
pub static EXT_RETURN_TYPE_FIELDS: &[FieldDef] = &[
    f("extended opcode type", 5, 0, Some(&EXTENDED_OPCODE_TYPE), "What this extension carries."),
    f("return type x", 9, 6, Some(&RETURN_TYPE), "Type of the x component returned."),
    f("return type y", 13, 10, Some(&RETURN_TYPE), "Type of the y component."),
    f("return type z", 17, 14, Some(&RETURN_TYPE), "Type of the z component."),
    f("return type w", 21, 18, Some(&RETURN_TYPE), "Type of the w component."),
    f("reserved", 30, 22, None, "Unused."),
    f("extended", 31, 31, Some(&FLAG), "Another extended opcode token follows."),
];
/// Extended opcode token of an unknown kind.
pub static EXT_OTHER_FIELDS: &[FieldDef] = &[
    f("extended opcode type", 5, 0, Some(&EXTENDED_OPCODE_TYPE), "What this extension carries."),
    f("payload", 30, 6, None, "Contents of an extension kind the format does not define."),
    f("extended", 31, 31, Some(&FLAG), "Another extended opcode token follows."),
];

/// The fields of an extended opcode token, by its kind.
pub fn extended_opcode_fields(token: u32) -> &'static [FieldDef] {
    match ExtendedOpcodeType::from_u32(EXT_OTHER_FIELDS[0].get(token)) {
        Some(ExtendedOpcodeType::SampleControls) => EXT_SAMPLE_CONTROLS_FIELDS,
        Some(ExtendedOpcodeType::ResourceDim) => EXT_RESOURCE_DIM_FIELDS,
        Some(ExtendedOpcodeType::ResourceReturnType) => EXT_RETURN_TYPE_FIELDS,
        _ => EXT_OTHER_FIELDS,
    }
}

/// Resource return type token of dcl_resource / dcl_uav_typed.
pub static RETURN_TYPE_TOKEN_FIELDS: &[FieldDef] = &[
    f("return type x", 3, 0, Some(&RETURN_TYPE), "Type of the x component."),
    f("return type y", 7, 4, Some(&RETURN_TYPE), "Type of the y component."),
    f("return type z", 11, 8, Some(&RETURN_TYPE), "Type of the z component."),
    f("return type w", 15, 12, Some(&RETURN_TYPE), "Type of the w component."),
    f("reserved", 31, 16, None, "Unused."),
];

/// Name token of dcl_*_siv / dcl_*_sgv.
pub static NAME_TOKEN_FIELDS: &[FieldDef] = &[
    f("system value", 15, 0, Some(&SYSTEM_NAME), "Which system value the register carries."),
    f("reserved", 31, 16, None, "Unused."),
];

/// The interface declaration's packed lengths dword.
pub static INTERFACE_LENGTHS_FIELDS: &[FieldDef] = &[
    f("table length", 15, 0, None, "Number of function tables (types) that implement the interface."),
    f("array length", 31, 16, None, "Number of interface slots in this array."),
];

/// What a payload dword of a declaration holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Word {
    /// A plain unsigned count or number.
    Count(&'static str),
    /// A float.
    Float(&'static str),
    /// A resource return type token.
    ReturnType,
    /// A system value name token.
    Name,
    /// A register space (SM5.1).
    Space,
    /// The packed table/array lengths of dcl_interface.
    InterfaceLengths,
}

impl Word {
    /// Human name of the dword.
    pub fn name(&self) -> &'static str {
        match self {
            Word::Count(n) | Word::Float(n) => n,
            Word::ReturnType => "resource return type",
            Word::Name => "system value name",
            Word::Space => "register space",
            Word::InterfaceLengths => "table and array lengths",
        }
    }
    /// Bitfields of the dword.
    pub fn fields(&self) -> &'static [FieldDef] {
        match self {
            Word::ReturnType => RETURN_TYPE_TOKEN_FIELDS,
            Word::Name => NAME_TOKEN_FIELDS,
            Word::InterfaceLengths => INTERFACE_LENGTHS_FIELDS,
            _ => &[],
        }
    }
}

/// One element of a declaration's layout after the opcode token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// An operand (token, extensions, indices).
    Operand,
    /// A payload dword.
    Word(Word),
    /// Any number of payload dwords of one meaning, up to the end.
    Rest(Word),
}

/// What follows the opcode token of `code`, in order. Ordinary instructions
/// are all operands (`None`); declarations list their payload. Trailing
/// dwords beyond the layout (e.g. SM5.1 spaces) are read as `Space` where
/// the layout ends in an optional space.
pub const fn layout(code: u16) -> Option<&'static [Item]> {
    use opc::*;
    use Item::{Operand, Rest};
    const SPACE: Item = Rest(self::Word::Space);
    Some(match code {
        DCL_RESOURCE => &[Operand, Item::Word(self::Word::ReturnType), SPACE],
        DCL_CONSTANT_BUFFER => &[Operand, Rest(self::Word::Count("size in vec4s, then register space"))],
        DCL_SAMPLER => &[Operand, SPACE],
        DCL_INDEX_RANGE => &[Operand, Item::Word(self::Word::Count("register count"))],
        DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY
        | DCL_GS_INPUT_PRIMITIVE
        | DCL_GLOBAL_FLAGS
        | HS_DECLS
        | HS_CONTROL_POINT_PHASE
        | HS_FORK_PHASE
        | HS_JOIN_PHASE
        | DCL_INPUT_CONTROL_POINT_COUNT
        | DCL_OUTPUT_CONTROL_POINT_COUNT
        | DCL_TESS_DOMAIN
        | DCL_TESS_PARTITIONING
        | DCL_TESS_OUTPUT_PRIMITIVE => &[],
        DCL_MAX_OUTPUT_VERTEX_COUNT => &[Item::Word(self::Word::Count("maximum vertex count"))],
        DCL_INPUT | DCL_INPUT_PS | DCL_OUTPUT | DCL_STREAM => &[Operand],
        DCL_INPUT_SGV | DCL_INPUT_SIV | DCL_INPUT_PS_SGV | DCL_INPUT_PS_SIV | DCL_OUTPUT_SGV | DCL_OUTPUT_SIV => {
            &[Operand, Item::Word(self::Word::Name)]
        }
        DCL_TEMPS => &[Item::Word(self::Word::Count("temp register count"))],
        DCL_INDEXABLE_TEMP => &[
            Item::Word(self::Word::Count("register index")),
            Item::Word(self::Word::Count("array length")),
            Item::Word(self::Word::Count("component count")),
        ],
        INTERFACE_CALL => &[Item::Word(self::Word::Count("function index")), Operand],
        DCL_FUNCTION_BODY => &[Item::Word(self::Word::Count("function body id"))],
        DCL_FUNCTION_TABLE => &[
            Item::Word(self::Word::Count("function table id")),
            Item::Word(self::Word::Count("body count")),
            Rest(self::Word::Count("function body id")),
        ],
        DCL_INTERFACE => &[
            Item::Word(self::Word::Count("interface id")),
            Item::Word(self::Word::Count("expected function table length")),
            Item::Word(self::Word::InterfaceLengths),
            Rest(self::Word::Count("function table id")),
        ],
        DCL_HS_MAX_TESSFACTOR => &[Item::Word(self::Word::Float("maximum tessellation factor"))],
        DCL_HS_FORK_PHASE_INSTANCE_COUNT | DCL_HS_JOIN_PHASE_INSTANCE_COUNT | DCL_GS_INSTANCE_COUNT => {
            &[Item::Word(self::Word::Count("instance count"))]
        }
        DCL_THREAD_GROUP => &[
            Item::Word(self::Word::Count("threads in x")),
            Item::Word(self::Word::Count("threads in y")),
            Item::Word(self::Word::Count("threads in z")),
        ],
        DCL_UAV_TYPED => &[Operand, Item::Word(self::Word::ReturnType), SPACE],
        DCL_UAV_RAW | DCL_RESOURCE_RAW => &[Operand, SPACE],
        DCL_UAV_STRUCTURED | DCL_RESOURCE_STRUCTURED => {
            &[Operand, Item::Word(self::Word::Count("structure stride in bytes")), SPACE]
        }
        DCL_TGSM_RAW => &[Operand, Item::Word(self::Word::Count("size in bytes"))],
        DCL_TGSM_STRUCTURED => &[
            Operand,
            Item::Word(self::Word::Count("structure stride in bytes")),
            Item::Word(self::Word::Count("structure count")),
        ],
        _ => return None,
    })
}

/// Whether declarations of `code` keep their real length in a dword after
/// the opcode token when the extended bit is set (their payload can exceed
/// the 7-bit length field).
pub const fn has_long_length(code: u16) -> bool {
    use opc::*;
    matches!(code, DCL_FUNCTION_BODY | DCL_FUNCTION_TABLE | DCL_INTERFACE | INTERFACE_CALL)
}

/// The field called `name` in a token's field list.
pub fn field<'t>(fields: &'t [FieldDef], name: &str) -> Option<&'t FieldDef> {
    fields.iter().find(|f| f.name == name)
}

/// How many leading operands of an ordinary instruction are destinations
/// (written through a mask): two for the instructions with a second result
/// (high/low halves, quotient/remainder, carry, sin/cos, swap, the old value
/// of an immediate atomic, the residency feedback of the `_s` loads and
/// samples), none for control flow, one otherwise.
pub fn destination_count(info: &OpcodeInfo) -> usize {
    match info.class {
        OpClass::Alu => match info.asm {
            "imul" | "umul" | "udiv" | "uaddc" | "usubb" | "swapc" | "sincos" => 2,
            _ => 1,
        },
        OpClass::Resource if info.asm.ends_with("_s") => 2,
        OpClass::Resource => 1,
        OpClass::Atomic if info.asm.starts_with("imm_") => 2,
        OpClass::Atomic => 1,
        _ => 0,
    }
}

/// The Direct3D 9 (SM2.x) format of the `Aon9` chunk's embedded program.
pub mod sm2;

#[cfg(test)]
mod generated_enum_tests {
    use super::*;

    /// The variant name a spec name gives: CamelCase of its words, a
    /// leading number moved to the end (`1_CONTROL_POINT_PATCH` →
    /// `ControlPointPatch1`).
    fn camel(spec: &str) -> String {
        let mut words: Vec<&str> = spec.split('_').filter(|w| !w.is_empty()).collect();
        if words.first().is_some_and(|w| w.chars().all(|c| c.is_ascii_digit())) {
            let n = words.remove(0);
            words.push(n);
        }
        words
            .iter()
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map_or(String::new(), |f| f.to_ascii_uppercase().to_string() + &c.as_str().to_ascii_lowercase())
            })
            .collect()
    }

    #[test]
    fn opcode_variants_follow_the_table() {
        for (i, row) in OPCODES.iter().enumerate() {
            let op = Opcode::from_u32(i as u32).expect("every row has a variant");
            assert_eq!(op as u16, row.code);
            assert!(std::ptr::eq(op.info(), row));
            // Reserved rows share the header's name RESERVED0; they are told
            // apart by the mnemonic.
            let name = if row.class == OpClass::Reserved { camel(row.asm) } else { camel(row.spec_name) };
            assert_eq!(format!("{op:?}"), name, "opcode {i}");
        }
        assert_eq!(Opcode::from_u32(OPCODES.len() as u32), None);
        assert_eq!(Opcode::DclGlobalFlags as u32, 106);
        assert_eq!(opc::DCL_GLOBAL_FLAGS, 106);
    }

    #[test]
    fn container_enums_hold_the_header_numbers() {
        // The chunk decoders print these tables' spellings (checked against
        // fxc's listings by the corpus tests); here the numbers are checked
        // against d3dcommon.h, spot by spot.
        assert_eq!(SignatureName::Target as u32, 64);
        assert_eq!(SignatureName::InnerCoverage as u32, 70);
        assert_eq!(SignatureName::FinalLineDensityTessfactor as u32, 16);
        assert_eq!(ShaderVariableType::Uint64 as u32, 62);
        assert_eq!(ShaderVariableType::RwstructuredBuffer as u32, 49);
        assert_eq!(ShaderInputType::UavRwstructuredWithCounter as u32, 11);
        assert_eq!(SrvDimension::Bufferex as u32, 11);
        assert_eq!(SignatureMinPrecision::Any10 as u32, 0xf1);
        assert_eq!(
            RdefProgramType::from_u32(0x4353).map(RdefProgramType::program_type),
            Some(ProgramType::ComputeShader)
        );
    }

    #[test]
    fn enum_variants_follow_their_tables() {
        fn check<T: std::fmt::Debug + Copy>(from: fn(u32) -> Option<T>, row: fn(T) -> &'static EnumValue, t: &EnumDef) {
            for v in t.values {
                let e = from(v.value).unwrap_or_else(|| panic!("{} {}", t.name, v.value));
                assert!(std::ptr::eq(row(e), v));
                assert_eq!(format!("{e:?}"), camel(v.spec_name), "{}", t.name);
            }
            let max = t.values.iter().map(|v| v.value).max().unwrap_or(0);
            for n in 0..=max + 1 {
                assert_eq!(from(n).is_some(), t.get(n).is_some(), "{} {n}", t.name);
            }
        }
        check(OperandType::from_u32, OperandType::row, &OPERAND_TYPE);
        check(ResourceDimension::from_u32, ResourceDimension::row, &RESOURCE_DIMENSION);
        check(ReturnType::from_u32, ReturnType::row, &RETURN_TYPE);
        check(InterpolationMode::from_u32, InterpolationMode::row, &INTERPOLATION_MODE);
        check(SystemName::from_u32, SystemName::row, &SYSTEM_NAME);
        check(MinPrecision::from_u32, MinPrecision::row, &MIN_PRECISION);
        check(Primitive::from_u32, Primitive::row, &PRIMITIVE);
        check(NumComponents::from_u32, NumComponents::row, &NUM_COMPONENTS);
        check(IndexRepresentation::from_u32, IndexRepresentation::row, &INDEX_REPRESENTATION);
        check(CustomdataClass::from_u32, CustomdataClass::row, &CUSTOMDATA_CLASS);
        check(ProgramType::from_u32, ProgramType::row, &PROGRAM_TYPE);
        check(RegisterComponentType::from_u32, RegisterComponentType::row, &REGISTER_COMPONENT_TYPE);
        check(SignatureName::from_u32, SignatureName::row, &SIGNATURE_NAME);
        check(CbufferType::from_u32, CbufferType::row, &CBUFFER_TYPE);
        check(ShaderVariableClass::from_u32, ShaderVariableClass::row, &SHADER_VARIABLE_CLASS);
        check(ShaderVariableType::from_u32, ShaderVariableType::row, &SHADER_VARIABLE_TYPE);
        check(ShaderInputType::from_u32, ShaderInputType::row, &SHADER_INPUT_TYPE);
        check(SrvDimension::from_u32, SrvDimension::row, &SRV_DIMENSION);
        check(RdefProgramType::from_u32, RdefProgramType::row, &RDEF_PROGRAM_TYPE);
        check(SignatureMinPrecision::from_u32, SignatureMinPrecision::row, &SIGNATURE_MIN_PRECISION);
        // The signature's enumeration extends the program's, value for value.
        for v in MIN_PRECISION.values {
            let s = SIGNATURE_MIN_PRECISION.get(v.value).expect("every program precision");
            assert_eq!((s.spec_name, s.asm), (v.spec_name, v.asm));
        }
        assert!(std::ptr::eq(OperandType::table(), &OPERAND_TYPE));
    }
}
