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

/// Every opcode, indexed by number (0..=234).
pub static OPCODES: &[OpcodeInfo] = &[
    op(0, "ADD", "add", OpClass::Alu, NumType::Float, 3, "Component-wise float addition: dst = src0 + src1."),
    op(1, "AND", "and", OpClass::Alu, NumType::Uint, 3, "Bitwise AND of 32-bit values."),
    op(2, "BREAK", "break", OpClass::Flow, NumType::None, 0, "Leaves the innermost loop or switch."),
    op(
        3,
        "BREAKC",
        "breakc",
        OpClass::Flow,
        NumType::Uint,
        1,
        "Leaves the innermost loop or switch when the condition's test (zero / non-zero) holds.",
    ),
    op(4, "CALL", "call", OpClass::Flow, NumType::None, 1, "Calls the subroutine that starts at a label."),
    op(5, "CALLC", "callc", OpClass::Flow, NumType::Uint, 2, "Calls a subroutine when the condition's test holds."),
    op(6, "CASE", "case", OpClass::Flow, NumType::Int, 1, "Starts a case of a switch for one integer value."),
    op(
        7,
        "CONTINUE",
        "continue",
        OpClass::Flow,
        NumType::None,
        0,
        "Jumps to the next iteration of the innermost loop.",
    ),
    op(
        8,
        "CONTINUEC",
        "continuec",
        OpClass::Flow,
        NumType::Uint,
        1,
        "Jumps to the next loop iteration when the condition's test holds.",
    ),
    op(9, "CUT", "cut", OpClass::Flow, NumType::None, 0, "Geometry shader: ends the current primitive strip."),
    op(10, "DEFAULT", "default", OpClass::Flow, NumType::None, 0, "Starts the default case of a switch."),
    op(
        11,
        "DERIV_RTX",
        "deriv_rtx",
        OpClass::Alu,
        NumType::Float,
        2,
        "Screen-space derivative along x (rate unspecified).",
    ),
    op(
        12,
        "DERIV_RTY",
        "deriv_rty",
        OpClass::Alu,
        NumType::Float,
        2,
        "Screen-space derivative along y (rate unspecified).",
    ),
    op(
        13,
        "DISCARD",
        "discard",
        OpClass::Flow,
        NumType::Uint,
        1,
        "Pixel shader: kills the pixel when the condition's test holds.",
    ),
    op(14, "DIV", "div", OpClass::Alu, NumType::Float, 3, "Float division."),
    op(
        15,
        "DP2",
        "dp2",
        OpClass::Alu,
        NumType::Float,
        3,
        "Two-component dot product, replicated to the written components.",
    ),
    op(16, "DP3", "dp3", OpClass::Alu, NumType::Float, 3, "Three-component dot product."),
    op(17, "DP4", "dp4", OpClass::Alu, NumType::Float, 3, "Four-component dot product."),
    op(18, "ELSE", "else", OpClass::Flow, NumType::None, 0, "Starts the else branch of an if."),
    op(19, "EMIT", "emit", OpClass::Flow, NumType::None, 0, "Geometry shader: outputs a vertex."),
    op(
        20,
        "EMITTHENCUT",
        "emit_then_cut",
        OpClass::Flow,
        NumType::None,
        0,
        "Geometry shader: outputs a vertex, then ends the strip.",
    ),
    op(21, "ENDIF", "endif", OpClass::Flow, NumType::None, 0, "Ends an if block."),
    op(22, "ENDLOOP", "endloop", OpClass::Flow, NumType::None, 0, "Ends a loop block."),
    op(23, "ENDSWITCH", "endswitch", OpClass::Flow, NumType::None, 0, "Ends a switch block."),
    op(24, "EQ", "eq", OpClass::Alu, NumType::Float, 3, "Float equality; writes 0xffffffff for true, 0 for false."),
    op(25, "EXP", "exp", OpClass::Alu, NumType::Float, 2, "Base-2 exponential, 2^src."),
    op(26, "FRC", "frc", OpClass::Alu, NumType::Float, 2, "Fractional part, src - floor(src)."),
    op(27, "FTOI", "ftoi", OpClass::Alu, NumType::Float, 2, "Float to signed integer, rounding toward zero."),
    op(28, "FTOU", "ftou", OpClass::Alu, NumType::Float, 2, "Float to unsigned integer, rounding toward zero."),
    op(29, "GE", "ge", OpClass::Alu, NumType::Float, 3, "Float greater-or-equal comparison producing a mask."),
    op(30, "IADD", "iadd", OpClass::Alu, NumType::Int, 3, "Integer addition (two's complement, wraps)."),
    op(
        31,
        "IF",
        "if",
        OpClass::Flow,
        NumType::Uint,
        1,
        "Starts an if block that runs when the condition's test holds.",
    ),
    op(32, "IEQ", "ieq", OpClass::Alu, NumType::Int, 3, "Integer equality comparison producing a mask."),
    op(33, "IGE", "ige", OpClass::Alu, NumType::Int, 3, "Signed greater-or-equal comparison."),
    op(34, "ILT", "ilt", OpClass::Alu, NumType::Int, 3, "Signed less-than comparison."),
    op(35, "IMAD", "imad", OpClass::Alu, NumType::Int, 4, "Signed integer multiply-add (low 32 bits)."),
    op(36, "IMAX", "imax", OpClass::Alu, NumType::Int, 3, "Signed integer maximum."),
    op(37, "IMIN", "imin", OpClass::Alu, NumType::Int, 3, "Signed integer minimum."),
    op(38, "IMUL", "imul", OpClass::Alu, NumType::Int, 4, "Signed 32x32 multiply giving high and low 32-bit halves."),
    op(39, "INE", "ine", OpClass::Alu, NumType::Int, 3, "Integer inequality comparison."),
    op(40, "INEG", "ineg", OpClass::Alu, NumType::Int, 2, "Two's complement negation."),
    op(41, "ISHL", "ishl", OpClass::Alu, NumType::Int, 3, "Shift left; the shift amount uses its low 5 bits."),
    op(42, "ISHR", "ishr", OpClass::Alu, NumType::Int, 3, "Arithmetic (sign-filling) shift right."),
    op(43, "ITOF", "itof", OpClass::Alu, NumType::Int, 2, "Signed integer to float."),
    op(44, "LABEL", "label", OpClass::Flow, NumType::None, 1, "Marks the start of a subroutine."),
    op(45, "LD", "ld", OpClass::Resource, NumType::Int, 3, "Loads one texel by integer coordinates, no filtering."),
    op(46, "LD_MS", "ldms", OpClass::Resource, NumType::Int, 4, "Loads one sample of a multisampled texture."),
    op(47, "LOG", "log", OpClass::Alu, NumType::Float, 2, "Base-2 logarithm."),
    op(48, "LOOP", "loop", OpClass::Flow, NumType::None, 0, "Starts a loop that runs until a break."),
    op(49, "LT", "lt", OpClass::Alu, NumType::Float, 3, "Float less-than comparison."),
    op(50, "MAD", "mad", OpClass::Alu, NumType::Float, 4, "Float multiply-add: src0 * src1 + src2."),
    op(51, "MIN", "min", OpClass::Alu, NumType::Float, 3, "Float minimum."),
    op(52, "MAX", "max", OpClass::Alu, NumType::Float, 3, "Float maximum."),
    op(
        53,
        "CUSTOMDATA",
        "customdata",
        OpClass::Custom,
        NumType::None,
        -1,
        "A block of data embedded in the program (immediate constants, comments, messages).",
    ),
    op(54, "MOV", "mov", OpClass::Alu, NumType::Untyped, 2, "Copies bits from the source to the destination."),
    op(55, "MOVC", "movc", OpClass::Alu, NumType::Untyped, 4, "Per-component select: src0 != 0 ? src1 : src2."),
    op(56, "MUL", "mul", OpClass::Alu, NumType::Float, 3, "Float multiplication."),
    op(57, "NE", "ne", OpClass::Alu, NumType::Float, 3, "Float inequality comparison."),
    op(58, "NOP", "nop", OpClass::Flow, NumType::None, 0, "Does nothing."),
    op(59, "NOT", "not", OpClass::Alu, NumType::Uint, 2, "Bitwise NOT."),
    op(60, "OR", "or", OpClass::Alu, NumType::Uint, 3, "Bitwise OR."),
    op(61, "RESINFO", "resinfo", OpClass::Resource, NumType::Int, 3, "Queries a texture's dimensions and mip count."),
    op(62, "RET", "ret", OpClass::Flow, NumType::None, 0, "Returns from a subroutine or ends the program."),
    op(63, "RETC", "retc", OpClass::Flow, NumType::Uint, 1, "Returns when the condition's test holds."),
    op(64, "ROUND_NE", "round_ne", OpClass::Alu, NumType::Float, 2, "Rounds to the nearest even integer."),
    op(65, "ROUND_NI", "round_ni", OpClass::Alu, NumType::Float, 2, "Rounds toward negative infinity (floor)."),
    op(66, "ROUND_PI", "round_pi", OpClass::Alu, NumType::Float, 2, "Rounds toward positive infinity (ceil)."),
    op(67, "ROUND_Z", "round_z", OpClass::Alu, NumType::Float, 2, "Rounds toward zero (truncate)."),
    op(68, "RSQ", "rsq", OpClass::Alu, NumType::Float, 2, "Reciprocal square root."),
    op(
        69,
        "SAMPLE",
        "sample",
        OpClass::Resource,
        NumType::Float,
        4,
        "Samples a texture with filtering, implicit level of detail.",
    ),
    op(
        70,
        "SAMPLE_C",
        "sample_c",
        OpClass::Resource,
        NumType::Float,
        5,
        "Samples and compares against a reference value (shadow maps).",
    ),
    op(71, "SAMPLE_C_LZ", "sample_c_lz", OpClass::Resource, NumType::Float, 5, "Comparison sample at mip level zero."),
    op(72, "SAMPLE_L", "sample_l", OpClass::Resource, NumType::Float, 5, "Samples at an explicit level of detail."),
    op(73, "SAMPLE_D", "sample_d", OpClass::Resource, NumType::Float, 6, "Samples with explicit gradients."),
    op(74, "SAMPLE_B", "sample_b", OpClass::Resource, NumType::Float, 5, "Samples with a level-of-detail bias."),
    op(75, "SQRT", "sqrt", OpClass::Alu, NumType::Float, 2, "Square root."),
    op(76, "SWITCH", "switch", OpClass::Flow, NumType::Int, 1, "Starts a switch on an integer value."),
    op(
        77,
        "SINCOS",
        "sincos",
        OpClass::Alu,
        NumType::Float,
        3,
        "Sine and cosine in one instruction (two destinations).",
    ),
    op(78, "UDIV", "udiv", OpClass::Alu, NumType::Uint, 4, "Unsigned division giving quotient and remainder."),
    op(79, "ULT", "ult", OpClass::Alu, NumType::Uint, 3, "Unsigned less-than comparison."),
    op(80, "UGE", "uge", OpClass::Alu, NumType::Uint, 3, "Unsigned greater-or-equal comparison."),
    op(81, "UMUL", "umul", OpClass::Alu, NumType::Uint, 4, "Unsigned 32x32 multiply giving high and low halves."),
    op(82, "UMAD", "umad", OpClass::Alu, NumType::Uint, 4, "Unsigned multiply-add."),
    op(83, "UMAX", "umax", OpClass::Alu, NumType::Uint, 3, "Unsigned maximum."),
    op(84, "UMIN", "umin", OpClass::Alu, NumType::Uint, 3, "Unsigned minimum."),
    op(85, "USHR", "ushr", OpClass::Alu, NumType::Uint, 3, "Logical (zero-filling) shift right."),
    op(86, "UTOF", "utof", OpClass::Alu, NumType::Uint, 2, "Unsigned integer to float."),
    op(87, "XOR", "xor", OpClass::Alu, NumType::Uint, 3, "Bitwise exclusive OR."),
    op(
        88,
        "DCL_RESOURCE",
        "dcl_resource",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares a texture or typed buffer t# with its dimension and return types.",
    ),
    op(
        89,
        "DCL_CONSTANT_BUFFER",
        "dcl_constantbuffer",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares a constant buffer cb# and how many vec4s are accessed.",
    ),
    op(90, "DCL_SAMPLER", "dcl_sampler", OpClass::Decl, NumType::None, -1, "Declares a sampler s# and its mode."),
    op(
        91,
        "DCL_INDEX_RANGE",
        "dcl_indexrange",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares that a range of input/output registers may be indexed dynamically.",
    ),
    op(
        92,
        "DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY",
        "dcl_outputtopology",
        OpClass::Decl,
        NumType::None,
        -1,
        "Geometry shader: the primitive topology it emits.",
    ),
    op(
        93,
        "DCL_GS_INPUT_PRIMITIVE",
        "dcl_inputprimitive",
        OpClass::Decl,
        NumType::None,
        -1,
        "Geometry shader: the primitive type it receives.",
    ),
    op(
        94,
        "DCL_MAX_OUTPUT_VERTEX_COUNT",
        "dcl_maxout",
        OpClass::Decl,
        NumType::None,
        -1,
        "Geometry shader: the most vertices one invocation may emit.",
    ),
    op(
        95,
        "DCL_INPUT",
        "dcl_input",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares an input register and the components read.",
    ),
    op(
        96,
        "DCL_INPUT_SGV",
        "dcl_input_sgv",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares an input filled with a system-generated value (vertex id, instance id ...).",
    ),
    op(
        97,
        "DCL_INPUT_SIV",
        "dcl_input_siv",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares an input carrying a system-interpreted value (position, clip distance ...).",
    ),
    op(
        98,
        "DCL_INPUT_PS",
        "dcl_input_ps",
        OpClass::Decl,
        NumType::None,
        -1,
        "Pixel shader input with its interpolation mode.",
    ),
    op(
        99,
        "DCL_INPUT_PS_SGV",
        "dcl_input_ps_sgv",
        OpClass::Decl,
        NumType::None,
        -1,
        "Pixel shader input with a system-generated value.",
    ),
    op(
        100,
        "DCL_INPUT_PS_SIV",
        "dcl_input_ps_siv",
        OpClass::Decl,
        NumType::None,
        -1,
        "Pixel shader input with a system-interpreted value and interpolation mode.",
    ),
    op(
        101,
        "DCL_OUTPUT",
        "dcl_output",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares an output register and the components written.",
    ),
    op(
        102,
        "DCL_OUTPUT_SGV",
        "dcl_output_sgv",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares an output with a system-generated value.",
    ),
    op(
        103,
        "DCL_OUTPUT_SIV",
        "dcl_output_siv",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares an output with a system-interpreted value.",
    ),
    op(
        104,
        "DCL_TEMPS",
        "dcl_temps",
        OpClass::Decl,
        NumType::None,
        -1,
        "How many r# temporary registers the program uses.",
    ),
    op(
        105,
        "DCL_INDEXABLE_TEMP",
        "dcl_indexableTemp",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares an x# array of registers that can be indexed at run time.",
    ),
    op(
        106,
        "DCL_GLOBAL_FLAGS",
        "dcl_globalFlags",
        OpClass::Decl,
        NumType::None,
        -1,
        "Program-wide flags (refactoring allowed, doubles, early depth ...).",
    ),
    op(
        107,
        "RESERVED0",
        "reserved0",
        OpClass::Reserved,
        NumType::None,
        -1,
        "Reserved value that ends the D3D10.0 opcodes.",
    ),
    op(108, "LOD", "lod", OpClass::Resource, NumType::Float, 4, "Computes the level of detail a sample would use."),
    op(
        109,
        "GATHER4",
        "gather4",
        OpClass::Resource,
        NumType::Float,
        4,
        "Gathers one component of the four texels a bilinear sample would use.",
    ),
    op(
        110,
        "SAMPLE_POS",
        "samplepos",
        OpClass::Resource,
        NumType::Int,
        3,
        "Returns the position of a sample within the pixel.",
    ),
    op(
        111,
        "SAMPLE_INFO",
        "sampleinfo",
        OpClass::Resource,
        NumType::Int,
        2,
        "Returns the sample count of a resource or the rasterizer.",
    ),
    op(
        112,
        "RESERVED1",
        "reserved1",
        OpClass::Reserved,
        NumType::None,
        -1,
        "Reserved value that ends the D3D10.1 opcodes.",
    ),
    op(113, "HS_DECLS", "hs_decls", OpClass::Phase, NumType::None, 0, "Hull shader: starts the global declarations."),
    op(
        114,
        "HS_CONTROL_POINT_PHASE",
        "hs_control_point_phase",
        OpClass::Phase,
        NumType::None,
        0,
        "Hull shader: starts the control-point phase, run once per output control point.",
    ),
    op(
        115,
        "HS_FORK_PHASE",
        "hs_fork_phase",
        OpClass::Phase,
        NumType::None,
        0,
        "Hull shader: starts a fork phase computing patch constants in parallel instances.",
    ),
    op(
        116,
        "HS_JOIN_PHASE",
        "hs_join_phase",
        OpClass::Phase,
        NumType::None,
        0,
        "Hull shader: starts a join phase that reads the fork phases' results.",
    ),
    op(
        117,
        "EMIT_STREAM",
        "emit_stream",
        OpClass::Flow,
        NumType::None,
        1,
        "Geometry shader: outputs a vertex to a stream.",
    ),
    op(
        118,
        "CUT_STREAM",
        "cut_stream",
        OpClass::Flow,
        NumType::None,
        1,
        "Geometry shader: ends the strip on a stream.",
    ),
    op(
        119,
        "EMITTHENCUT_STREAM",
        "emit_then_cut_stream",
        OpClass::Flow,
        NumType::None,
        1,
        "Emit to a stream, then end its strip.",
    ),
    op(
        120,
        "INTERFACE_CALL",
        "fcall",
        OpClass::Flow,
        NumType::None,
        -1,
        "Calls a method through an interface (dynamic linkage).",
    ),
    op(121, "BUFINFO", "bufinfo", OpClass::Resource, NumType::Uint, 2, "Returns the element count of a buffer."),
    op(
        122,
        "DERIV_RTX_COARSE",
        "deriv_rtx_coarse",
        OpClass::Alu,
        NumType::Float,
        2,
        "Coarse x derivative (one per 2x2 quad).",
    ),
    op(123, "DERIV_RTX_FINE", "deriv_rtx_fine", OpClass::Alu, NumType::Float, 2, "Fine x derivative (per pixel pair)."),
    op(124, "DERIV_RTY_COARSE", "deriv_rty_coarse", OpClass::Alu, NumType::Float, 2, "Coarse y derivative."),
    op(125, "DERIV_RTY_FINE", "deriv_rty_fine", OpClass::Alu, NumType::Float, 2, "Fine y derivative."),
    op(
        126,
        "GATHER4_C",
        "gather4_c",
        OpClass::Resource,
        NumType::Float,
        5,
        "Gather with comparison against a reference.",
    ),
    op(
        127,
        "GATHER4_PO",
        "gather4_po",
        OpClass::Resource,
        NumType::Float,
        5,
        "Gather with a programmable (register) texel offset.",
    ),
    op(
        128,
        "GATHER4_PO_C",
        "gather4_po_c",
        OpClass::Resource,
        NumType::Float,
        6,
        "Gather with programmable offset and comparison.",
    ),
    op(129, "RCP", "rcp", OpClass::Alu, NumType::Float, 2, "Reciprocal, 1/src."),
    op(
        130,
        "F32TOF16",
        "f32tof16",
        OpClass::Alu,
        NumType::Float,
        2,
        "Converts a float to half precision, stored in the low 16 bits.",
    ),
    op(131, "F16TOF32", "f16tof32", OpClass::Alu, NumType::Uint, 2, "Converts the low 16 bits (a half) to float."),
    op(132, "UADDC", "uaddc", OpClass::Alu, NumType::Uint, 4, "Unsigned add producing the sum and the carry."),
    op(
        133,
        "USUBB",
        "usubb",
        OpClass::Alu,
        NumType::Uint,
        4,
        "Unsigned subtract producing the difference and the borrow.",
    ),
    op(134, "COUNTBITS", "countbits", OpClass::Alu, NumType::Uint, 2, "Counts the set bits."),
    op(
        135,
        "FIRSTBIT_HI",
        "firstbit_hi",
        OpClass::Alu,
        NumType::Uint,
        2,
        "Index of the highest set bit, counted from the top.",
    ),
    op(136, "FIRSTBIT_LO", "firstbit_lo", OpClass::Alu, NumType::Uint, 2, "Index of the lowest set bit."),
    op(
        137,
        "FIRSTBIT_SHI",
        "firstbit_shi",
        OpClass::Alu,
        NumType::Int,
        2,
        "Index of the highest bit that differs from the sign bit.",
    ),
    op(138, "UBFE", "ubfe", OpClass::Alu, NumType::Uint, 4, "Extracts an unsigned bit field (width, offset, value)."),
    op(139, "IBFE", "ibfe", OpClass::Alu, NumType::Int, 4, "Extracts a sign-extended bit field."),
    op(140, "BFI", "bfi", OpClass::Alu, NumType::Uint, 5, "Inserts a bit field of one value into another."),
    op(141, "BFREV", "bfrev", OpClass::Alu, NumType::Uint, 2, "Reverses the bit order."),
    op(
        142,
        "SWAPC",
        "swapc",
        OpClass::Alu,
        NumType::Untyped,
        5,
        "Conditional swap: writes two destinations from two sources by a condition.",
    ),
    op(
        143,
        "DCL_STREAM",
        "dcl_stream",
        OpClass::Decl,
        NumType::None,
        -1,
        "Geometry shader: declares the output stream the following declarations apply to.",
    ),
    op(
        144,
        "DCL_FUNCTION_BODY",
        "dcl_function_body",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares a function body for dynamic linkage.",
    ),
    op(
        145,
        "DCL_FUNCTION_TABLE",
        "dcl_function_table",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares a table of function bodies (one class's methods).",
    ),
    op(
        146,
        "DCL_INTERFACE",
        "dcl_interface",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares an interface slot and the tables that may implement it.",
    ),
    op(
        147,
        "DCL_INPUT_CONTROL_POINT_COUNT",
        "dcl_input_control_point_count",
        OpClass::Decl,
        NumType::None,
        -1,
        "Hull/domain shader: control points per input patch.",
    ),
    op(
        148,
        "DCL_OUTPUT_CONTROL_POINT_COUNT",
        "dcl_output_control_point_count",
        OpClass::Decl,
        NumType::None,
        -1,
        "Hull shader: control points per output patch.",
    ),
    op(
        149,
        "DCL_TESS_DOMAIN",
        "dcl_tessellator_domain",
        OpClass::Decl,
        NumType::None,
        -1,
        "Tessellation domain: isoline, triangle or quad.",
    ),
    op(
        150,
        "DCL_TESS_PARTITIONING",
        "dcl_tessellator_partitioning",
        OpClass::Decl,
        NumType::None,
        -1,
        "How the tessellator subdivides edges.",
    ),
    op(
        151,
        "DCL_TESS_OUTPUT_PRIMITIVE",
        "dcl_tessellator_output_primitive",
        OpClass::Decl,
        NumType::None,
        -1,
        "What the tessellator emits: points, lines, cw or ccw triangles.",
    ),
    op(
        152,
        "DCL_HS_MAX_TESSFACTOR",
        "dcl_hs_max_tessfactor",
        OpClass::Decl,
        NumType::None,
        -1,
        "Hull shader: largest tessellation factor it will produce.",
    ),
    op(
        153,
        "DCL_HS_FORK_PHASE_INSTANCE_COUNT",
        "dcl_hs_fork_phase_instance_count",
        OpClass::Decl,
        NumType::None,
        -1,
        "How many instances of the current fork phase run.",
    ),
    op(
        154,
        "DCL_HS_JOIN_PHASE_INSTANCE_COUNT",
        "dcl_hs_join_phase_instance_count",
        OpClass::Decl,
        NumType::None,
        -1,
        "How many instances of the current join phase run.",
    ),
    op(
        155,
        "DCL_THREAD_GROUP",
        "dcl_thread_group",
        OpClass::Decl,
        NumType::None,
        -1,
        "Compute shader: threads per group in x, y, z.",
    ),
    op(
        156,
        "DCL_UNORDERED_ACCESS_VIEW_TYPED",
        "dcl_uav_typed",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares a typed read-write resource u#.",
    ),
    op(
        157,
        "DCL_UNORDERED_ACCESS_VIEW_RAW",
        "dcl_uav_raw",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares a byte-addressed read-write buffer u#.",
    ),
    op(
        158,
        "DCL_UNORDERED_ACCESS_VIEW_STRUCTURED",
        "dcl_uav_structured",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares a structured read-write buffer u# and its stride.",
    ),
    op(
        159,
        "DCL_THREAD_GROUP_SHARED_MEMORY_RAW",
        "dcl_tgsm_raw",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares group-shared memory g# as raw bytes.",
    ),
    op(
        160,
        "DCL_THREAD_GROUP_SHARED_MEMORY_STRUCTURED",
        "dcl_tgsm_structured",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares group-shared memory g# as an array of structures.",
    ),
    op(
        161,
        "DCL_RESOURCE_RAW",
        "dcl_resource_raw",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares a byte-addressed read-only buffer t#.",
    ),
    op(
        162,
        "DCL_RESOURCE_STRUCTURED",
        "dcl_resource_structured",
        OpClass::Decl,
        NumType::None,
        -1,
        "Declares a structured read-only buffer t# and its stride.",
    ),
    op(163, "LD_UAV_TYPED", "ld_uav_typed", OpClass::Resource, NumType::Int, 3, "Loads from a typed UAV."),
    op(164, "STORE_UAV_TYPED", "store_uav_typed", OpClass::Resource, NumType::Untyped, 3, "Stores to a typed UAV."),
    op(165, "LD_RAW", "ld_raw", OpClass::Resource, NumType::Int, 3, "Loads 32-bit values from a byte address."),
    op(
        166,
        "STORE_RAW",
        "store_raw",
        OpClass::Resource,
        NumType::Untyped,
        3,
        "Stores 32-bit values at a byte address.",
    ),
    op(
        167,
        "LD_STRUCTURED",
        "ld_structured",
        OpClass::Resource,
        NumType::Int,
        4,
        "Loads from a structure element at a byte offset.",
    ),
    op(
        168,
        "STORE_STRUCTURED",
        "store_structured",
        OpClass::Resource,
        NumType::Untyped,
        4,
        "Stores into a structure element.",
    ),
    op(169, "ATOMIC_AND", "atomic_and", OpClass::Atomic, NumType::Uint, 3, "Atomic AND in memory."),
    op(170, "ATOMIC_OR", "atomic_or", OpClass::Atomic, NumType::Uint, 3, "Atomic OR in memory."),
    op(171, "ATOMIC_XOR", "atomic_xor", OpClass::Atomic, NumType::Uint, 3, "Atomic XOR in memory."),
    op(172, "ATOMIC_CMP_STORE", "atomic_cmp_store", OpClass::Atomic, NumType::Uint, 4, "Atomic compare-and-store."),
    op(173, "ATOMIC_IADD", "atomic_iadd", OpClass::Atomic, NumType::Int, 3, "Atomic integer add."),
    op(174, "ATOMIC_IMAX", "atomic_imax", OpClass::Atomic, NumType::Int, 3, "Atomic signed maximum."),
    op(175, "ATOMIC_IMIN", "atomic_imin", OpClass::Atomic, NumType::Int, 3, "Atomic signed minimum."),
    op(176, "ATOMIC_UMAX", "atomic_umax", OpClass::Atomic, NumType::Uint, 3, "Atomic unsigned maximum."),
    op(177, "ATOMIC_UMIN", "atomic_umin", OpClass::Atomic, NumType::Uint, 3, "Atomic unsigned minimum."),
    op(
        178,
        "IMM_ATOMIC_ALLOC",
        "imm_atomic_alloc",
        OpClass::Atomic,
        NumType::Uint,
        2,
        "Increments a UAV's hidden counter, returning the old value.",
    ),
    op(
        179,
        "IMM_ATOMIC_CONSUME",
        "imm_atomic_consume",
        OpClass::Atomic,
        NumType::Uint,
        2,
        "Decrements a UAV's hidden counter, returning the new value.",
    ),
    op(
        180,
        "IMM_ATOMIC_IADD",
        "imm_atomic_iadd",
        OpClass::Atomic,
        NumType::Int,
        4,
        "Atomic add returning the previous value.",
    ),
    op(
        181,
        "IMM_ATOMIC_AND",
        "imm_atomic_and",
        OpClass::Atomic,
        NumType::Uint,
        4,
        "Atomic AND returning the previous value.",
    ),
    op(
        182,
        "IMM_ATOMIC_OR",
        "imm_atomic_or",
        OpClass::Atomic,
        NumType::Uint,
        4,
        "Atomic OR returning the previous value.",
    ),
    op(
        183,
        "IMM_ATOMIC_XOR",
        "imm_atomic_xor",
        OpClass::Atomic,
        NumType::Uint,
        4,
        "Atomic XOR returning the previous value.",
    ),
    op(
        184,
        "IMM_ATOMIC_EXCH",
        "imm_atomic_exch",
        OpClass::Atomic,
        NumType::Uint,
        4,
        "Atomic exchange returning the previous value.",
    ),
    op(
        185,
        "IMM_ATOMIC_CMP_EXCH",
        "imm_atomic_cmp_exch",
        OpClass::Atomic,
        NumType::Uint,
        5,
        "Atomic compare-exchange returning the previous value.",
    ),
    op(
        186,
        "IMM_ATOMIC_IMAX",
        "imm_atomic_imax",
        OpClass::Atomic,
        NumType::Int,
        4,
        "Atomic signed maximum returning the previous value.",
    ),
    op(
        187,
        "IMM_ATOMIC_IMIN",
        "imm_atomic_imin",
        OpClass::Atomic,
        NumType::Int,
        4,
        "Atomic signed minimum returning the previous value.",
    ),
    op(
        188,
        "IMM_ATOMIC_UMAX",
        "imm_atomic_umax",
        OpClass::Atomic,
        NumType::Uint,
        4,
        "Atomic unsigned maximum returning the previous value.",
    ),
    op(
        189,
        "IMM_ATOMIC_UMIN",
        "imm_atomic_umin",
        OpClass::Atomic,
        NumType::Uint,
        4,
        "Atomic unsigned minimum returning the previous value.",
    ),
    op(190, "SYNC", "sync", OpClass::Flow, NumType::None, 0, "Barrier and/or memory fence, as its flags say."),
    op(191, "DADD", "dadd", OpClass::Alu, NumType::Double, 3, "Double-precision addition."),
    op(192, "DMAX", "dmax", OpClass::Alu, NumType::Double, 3, "Double-precision maximum."),
    op(193, "DMIN", "dmin", OpClass::Alu, NumType::Double, 3, "Double-precision minimum."),
    op(194, "DMUL", "dmul", OpClass::Alu, NumType::Double, 3, "Double-precision multiplication."),
    op(195, "DEQ", "deq", OpClass::Alu, NumType::Double, 3, "Double equality comparison."),
    op(196, "DGE", "dge", OpClass::Alu, NumType::Double, 3, "Double greater-or-equal comparison."),
    op(197, "DLT", "dlt", OpClass::Alu, NumType::Double, 3, "Double less-than comparison."),
    op(198, "DNE", "dne", OpClass::Alu, NumType::Double, 3, "Double inequality comparison."),
    op(199, "DMOV", "dmov", OpClass::Alu, NumType::Double, 2, "Copies a double."),
    op(200, "DMOVC", "dmovc", OpClass::Alu, NumType::Double, 4, "Per-component select of doubles."),
    op(201, "DTOF", "dtof", OpClass::Alu, NumType::Double, 2, "Double to float."),
    op(202, "FTOD", "ftod", OpClass::Alu, NumType::Float, 2, "Float to double."),
    op(
        203,
        "EVAL_SNAPPED",
        "eval_snapped",
        OpClass::Alu,
        NumType::Int,
        3,
        "Evaluates an input attribute at a pixel offset on the 16x16 grid.",
    ),
    op(
        204,
        "EVAL_SAMPLE_INDEX",
        "eval_sample_index",
        OpClass::Alu,
        NumType::Int,
        3,
        "Evaluates an input attribute at a sample's position.",
    ),
    op(
        205,
        "EVAL_CENTROID",
        "eval_centroid",
        OpClass::Alu,
        NumType::Float,
        2,
        "Evaluates an input attribute at the centroid.",
    ),
    op(
        206,
        "DCL_GS_INSTANCE_COUNT",
        "dcl_gsinstances",
        OpClass::Decl,
        NumType::None,
        -1,
        "Geometry shader: how many instances run per primitive.",
    ),
    op(207, "ABORT", "abort", OpClass::Flow, NumType::None, 0, "Stops execution (debug layers)."),
    op(208, "DEBUG_BREAK", "debug_break", OpClass::Flow, NumType::None, 0, "Breaks into a debugger (debug layers)."),
    op(
        209,
        "RESERVED0",
        "reserved2",
        OpClass::Reserved,
        NumType::None,
        -1,
        "Reserved value that ends the D3D11.0 opcodes.",
    ),
    op(210, "DDIV", "ddiv", OpClass::Alu, NumType::Double, 3, "Double-precision division."),
    op(211, "DFMA", "dfma", OpClass::Alu, NumType::Double, 4, "Double-precision fused multiply-add."),
    op(212, "DRCP", "drcp", OpClass::Alu, NumType::Double, 2, "Double-precision reciprocal."),
    op(213, "MSAD", "msad", OpClass::Alu, NumType::Uint, 4, "Masked sum of absolute byte differences."),
    op(214, "DTOI", "dtoi", OpClass::Alu, NumType::Double, 2, "Double to signed integer."),
    op(215, "DTOU", "dtou", OpClass::Alu, NumType::Double, 2, "Double to unsigned integer."),
    op(216, "ITOD", "itod", OpClass::Alu, NumType::Int, 2, "Signed integer to double."),
    op(217, "UTOD", "utod", OpClass::Alu, NumType::Uint, 2, "Unsigned integer to double."),
    op(
        218,
        "RESERVED0",
        "reserved3",
        OpClass::Reserved,
        NumType::None,
        -1,
        "Reserved value that ends the D3D11.1 opcodes.",
    ),
    op(
        219,
        "GATHER4_FEEDBACK",
        "gather4_s",
        OpClass::Resource,
        NumType::Float,
        5,
        "gather4 that also returns tiled-resource residency feedback.",
    ),
    op(
        220,
        "GATHER4_C_FEEDBACK",
        "gather4_c_s",
        OpClass::Resource,
        NumType::Float,
        6,
        "gather4_c with residency feedback.",
    ),
    op(
        221,
        "GATHER4_PO_FEEDBACK",
        "gather4_po_s",
        OpClass::Resource,
        NumType::Float,
        6,
        "gather4_po with residency feedback.",
    ),
    op(
        222,
        "GATHER4_PO_C_FEEDBACK",
        "gather4_po_c_s",
        OpClass::Resource,
        NumType::Float,
        7,
        "gather4_po_c with residency feedback.",
    ),
    op(223, "LD_FEEDBACK", "ld_s", OpClass::Resource, NumType::Int, 4, "ld with residency feedback."),
    op(224, "LD_MS_FEEDBACK", "ldms_s", OpClass::Resource, NumType::Int, 5, "ldms with residency feedback."),
    op(
        225,
        "LD_UAV_TYPED_FEEDBACK",
        "ld_uav_typed_s",
        OpClass::Resource,
        NumType::Int,
        4,
        "ld_uav_typed with residency feedback.",
    ),
    op(226, "LD_RAW_FEEDBACK", "ld_raw_s", OpClass::Resource, NumType::Int, 4, "ld_raw with residency feedback."),
    op(
        227,
        "LD_STRUCTURED_FEEDBACK",
        "ld_structured_s",
        OpClass::Resource,
        NumType::Int,
        5,
        "ld_structured with residency feedback.",
    ),
    op(
        228,
        "SAMPLE_L_FEEDBACK",
        "sample_l_s",
        OpClass::Resource,
        NumType::Float,
        6,
        "sample_l with residency feedback.",
    ),
    op(
        229,
        "SAMPLE_C_LZ_FEEDBACK",
        "sample_c_lz_s",
        OpClass::Resource,
        NumType::Float,
        6,
        "sample_c_lz with residency feedback.",
    ),
    op(
        230,
        "SAMPLE_CLAMP_FEEDBACK",
        "sample_cl_s",
        OpClass::Resource,
        NumType::Float,
        6,
        "sample with a level-of-detail clamp and residency feedback.",
    ),
    op(
        231,
        "SAMPLE_B_CLAMP_FEEDBACK",
        "sample_b_cl_s",
        OpClass::Resource,
        NumType::Float,
        7,
        "sample_b with clamp and residency feedback.",
    ),
    op(
        232,
        "SAMPLE_D_CLAMP_FEEDBACK",
        "sample_d_cl_s",
        OpClass::Resource,
        NumType::Float,
        8,
        "sample_d with clamp and residency feedback.",
    ),
    op(
        233,
        "SAMPLE_C_CLAMP_FEEDBACK",
        "sample_c_cl_s",
        OpClass::Resource,
        NumType::Float,
        7,
        "sample_c with clamp and residency feedback.",
    ),
    op(
        234,
        "CHECK_ACCESS_FULLY_MAPPED",
        "check_access_fully_mapped",
        OpClass::Alu,
        NumType::Uint,
        2,
        "Tells from a feedback value whether all texels touched were resident.",
    ),
];

/// Looks up an opcode number.
pub fn opcode(code: u32) -> Option<&'static OpcodeInfo> {
    OPCODES.get(code as usize)
}

/// Named opcode numbers used by the decoder and printer.
#[allow(missing_docs)]
pub mod opc {
    pub const ADD: u16 = 0;
    pub const BREAKC: u16 = 3;
    pub const CALLC: u16 = 5;
    pub const CASE: u16 = 6;
    pub const CONTINUEC: u16 = 8;
    pub const DEFAULT: u16 = 10;
    pub const DISCARD: u16 = 13;
    pub const ELSE: u16 = 18;
    pub const ENDIF: u16 = 21;
    pub const ENDLOOP: u16 = 22;
    pub const ENDSWITCH: u16 = 23;
    pub const IF: u16 = 31;
    pub const LD: u16 = 45;
    pub const LD_MS: u16 = 46;
    pub const LOOP: u16 = 48;
    pub const CUSTOMDATA: u16 = 53;
    pub const MOV: u16 = 54;
    pub const MOVC: u16 = 55;
    pub const RESINFO: u16 = 61;
    pub const RETC: u16 = 63;
    pub const SWITCH: u16 = 76;
    pub const DCL_RESOURCE: u16 = 88;
    pub const DCL_CONSTANT_BUFFER: u16 = 89;
    pub const DCL_SAMPLER: u16 = 90;
    pub const DCL_INDEX_RANGE: u16 = 91;
    pub const DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY: u16 = 92;
    pub const DCL_GS_INPUT_PRIMITIVE: u16 = 93;
    pub const DCL_MAX_OUTPUT_VERTEX_COUNT: u16 = 94;
    pub const DCL_INPUT: u16 = 95;
    pub const DCL_INPUT_SGV: u16 = 96;
    pub const DCL_INPUT_SIV: u16 = 97;
    pub const DCL_INPUT_PS: u16 = 98;
    pub const DCL_INPUT_PS_SGV: u16 = 99;
    pub const DCL_INPUT_PS_SIV: u16 = 100;
    pub const DCL_OUTPUT: u16 = 101;
    pub const DCL_OUTPUT_SGV: u16 = 102;
    pub const DCL_OUTPUT_SIV: u16 = 103;
    pub const DCL_TEMPS: u16 = 104;
    pub const DCL_INDEXABLE_TEMP: u16 = 105;
    pub const DCL_GLOBAL_FLAGS: u16 = 106;
    pub const LOD: u16 = 108;
    pub const GATHER4: u16 = 109;
    pub const SAMPLE_POS: u16 = 110;
    pub const SAMPLE_INFO: u16 = 111;
    pub const HS_DECLS: u16 = 113;
    pub const HS_CONTROL_POINT_PHASE: u16 = 114;
    pub const HS_FORK_PHASE: u16 = 115;
    pub const HS_JOIN_PHASE: u16 = 116;
    pub const INTERFACE_CALL: u16 = 120;
    pub const BUFINFO: u16 = 121;
    pub const DCL_STREAM: u16 = 143;
    pub const DCL_FUNCTION_BODY: u16 = 144;
    pub const DCL_FUNCTION_TABLE: u16 = 145;
    pub const DCL_INTERFACE: u16 = 146;
    pub const DCL_INPUT_CONTROL_POINT_COUNT: u16 = 147;
    pub const DCL_OUTPUT_CONTROL_POINT_COUNT: u16 = 148;
    pub const DCL_TESS_DOMAIN: u16 = 149;
    pub const DCL_TESS_PARTITIONING: u16 = 150;
    pub const DCL_TESS_OUTPUT_PRIMITIVE: u16 = 151;
    pub const DCL_HS_MAX_TESSFACTOR: u16 = 152;
    pub const DCL_HS_FORK_PHASE_INSTANCE_COUNT: u16 = 153;
    pub const DCL_HS_JOIN_PHASE_INSTANCE_COUNT: u16 = 154;
    pub const DCL_THREAD_GROUP: u16 = 155;
    pub const DCL_UAV_TYPED: u16 = 156;
    pub const DCL_UAV_RAW: u16 = 157;
    pub const DCL_UAV_STRUCTURED: u16 = 158;
    pub const DCL_TGSM_RAW: u16 = 159;
    pub const DCL_TGSM_STRUCTURED: u16 = 160;
    pub const DCL_RESOURCE_RAW: u16 = 161;
    pub const DCL_RESOURCE_STRUCTURED: u16 = 162;
    pub const SYNC: u16 = 190;
    pub const DCL_GS_INSTANCE_COUNT: u16 = 206;
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
#[derive(Debug, serde::Serialize)]
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

/// Program type in the version token.
pub static PROGRAM_TYPE: EnumDef = EnumDef {
    name: "program type",
    values: &[
        ev(0, "PIXEL_SHADER", "ps", "Pixel shader: runs once per covered pixel or sample."),
        ev(1, "VERTEX_SHADER", "vs", "Vertex shader: runs once per vertex."),
        ev(2, "GEOMETRY_SHADER", "gs", "Geometry shader: runs once per primitive and may emit new ones."),
        ev(3, "HULL_SHADER", "hs", "Hull shader: computes tessellation factors and control points per patch."),
        ev(4, "DOMAIN_SHADER", "ds", "Domain shader: positions each point the tessellator generates."),
        ev(5, "COMPUTE_SHADER", "cs", "Compute shader: runs in thread groups outside the graphics pipeline."),
        ev(13, "MESH_SHADER", "ms", "Mesh shader (D3D12, never in DXBC)."),
        ev(14, "AMPLIFICATION_SHADER", "as", "Amplification shader (D3D12, never in DXBC)."),
    ],
};

/// Operand types (register files).
pub static OPERAND_TYPE: EnumDef = EnumDef {
    name: "operand type",
    values: &[
        ev(0, "TEMP", "r", "Temporary register r#: 4 x 32-bit scratch values."),
        ev(1, "INPUT", "v", "Input register v#: values the stage receives."),
        ev(2, "OUTPUT", "o", "Output register o#: values the stage passes on."),
        ev(3, "INDEXABLE_TEMP", "x", "Indexable temporary array x#[n]."),
        ev(4, "IMMEDIATE32", "l", "A 32-bit literal stored in the instruction (1 or 4 components)."),
        ev(5, "IMMEDIATE64", "d", "A 64-bit literal (double) stored in the instruction."),
        ev(6, "SAMPLER", "s", "Sampler s#."),
        ev(7, "RESOURCE", "t", "Shader resource view t# (texture or buffer)."),
        ev(8, "CONSTANT_BUFFER", "cb", "Constant buffer cb#[element]."),
        ev(9, "IMMEDIATE_CONSTANT_BUFFER", "icb", "The immediate constant buffer embedded in the program."),
        ev(10, "LABEL", "l", "A subroutine label."),
        ev(11, "INPUT_PRIMITIVEID", "vPrim", "The primitive ID input."),
        ev(12, "OUTPUT_DEPTH", "oDepth", "Pixel depth output."),
        ev(13, "NULL", "null", "Discards a result (or an unused operand)."),
        ev(14, "RASTERIZER", "rasterizer", "The rasterizer (for sampleinfo / samplepos)."),
        ev(15, "OUTPUT_COVERAGE_MASK", "oMask", "Pixel coverage mask output."),
        ev(16, "STREAM", "m", "Geometry shader output stream m#."),
        ev(17, "FUNCTION_BODY", "fb", "Function body fb# (dynamic linkage)."),
        ev(18, "FUNCTION_TABLE", "ft", "Function table ft# (dynamic linkage)."),
        ev(19, "INTERFACE", "fp", "Interface pointer fp# (dynamic linkage)."),
        ev(20, "FUNCTION_INPUT", "fi", "Function input (dynamic linkage)."),
        ev(21, "FUNCTION_OUTPUT", "fo", "Function output (dynamic linkage)."),
        ev(
            22,
            "OUTPUT_CONTROL_POINT_ID",
            "vOutputControlPointID",
            "Hull shader: which output control point this invocation computes.",
        ),
        ev(23, "INPUT_FORK_INSTANCE_ID", "vForkInstanceID", "Hull shader: instance number of the fork phase."),
        ev(24, "INPUT_JOIN_INSTANCE_ID", "vJoinInstanceID", "Hull shader: instance number of the join phase."),
        ev(25, "INPUT_CONTROL_POINT", "vicp", "Input control points [point][register]."),
        ev(26, "OUTPUT_CONTROL_POINT", "vocp", "Output control points [point][register] (fork/join phases)."),
        ev(27, "INPUT_PATCH_CONSTANT", "vpc", "Patch constants (domain shader, join phase)."),
        ev(28, "INPUT_DOMAIN_POINT", "vDomain", "Domain shader: the tessellated point's coordinates."),
        ev(29, "THIS_POINTER", "this", "Class instance data for an interface call."),
        ev(30, "UNORDERED_ACCESS_VIEW", "u", "Unordered access view u# (read-write resource)."),
        ev(31, "THREAD_GROUP_SHARED_MEMORY", "g", "Group-shared memory g#."),
        ev(32, "INPUT_THREAD_ID", "vThreadID", "Compute: global thread ID (SV_DispatchThreadID)."),
        ev(33, "INPUT_THREAD_GROUP_ID", "vThreadGroupID", "Compute: group ID (SV_GroupID)."),
        ev(
            34,
            "INPUT_THREAD_ID_IN_GROUP",
            "vThreadIDInGroup",
            "Compute: thread ID within the group (SV_GroupThreadID).",
        ),
        ev(35, "INPUT_COVERAGE_MASK", "vCoverage", "Pixel shader: input coverage mask."),
        ev(
            36,
            "INPUT_THREAD_ID_IN_GROUP_FLATTENED",
            "vThreadIDInGroupFlattened",
            "Compute: flattened thread index in the group (SV_GroupIndex).",
        ),
        ev(37, "INPUT_GS_INSTANCE_ID", "vGSInstanceID", "Geometry shader instance ID."),
        ev(38, "OUTPUT_DEPTH_GREATER_EQUAL", "oDepthGE", "Depth output that may only grow (conservative depth)."),
        ev(39, "OUTPUT_DEPTH_LESS_EQUAL", "oDepthLE", "Depth output that may only shrink (conservative depth)."),
        ev(40, "CYCLE_COUNTER", "vCycleCounter", "A cycle counter (debug)."),
        ev(41, "OUTPUT_STENCIL_REF", "oStencilRef", "Pixel stencil reference output."),
        ev(
            42,
            "INNER_COVERAGE",
            "vInnerCoverage",
            "Pixel shader: whether the pixel is fully covered (conservative rasterization).",
        ),
    ],
};

/// Number of components of an operand.
pub static NUM_COMPONENTS: EnumDef = EnumDef {
    name: "component count",
    values: &[
        ev(0, "0_COMPONENT", "", "No components (samplers, labels, null)."),
        ev(1, "1_COMPONENT", "", "A scalar."),
        ev(2, "4_COMPONENT", "", "A 4-vector, with a mask, swizzle or single-component select."),
        ev(3, "N_COMPONENT", "", "N components (reserved, unused)."),
    ],
};

/// How a 4-component operand picks its components.
pub static SELECTION_MODE: EnumDef = EnumDef {
    name: "selection mode",
    values: &[
        ev(0, "MASK_MODE", "", "A write mask: bits 4..7 say which of x, y, z, w are used."),
        ev(1, "SWIZZLE_MODE", "", "A swizzle: four 2-bit selectors in bits 4..11 pick the source of each component."),
        ev(2, "SELECT_1_MODE", "", "A single component, chosen by bits 4..5."),
    ],
};

/// Index dimension of an operand.
pub static INDEX_DIMENSION: EnumDef = EnumDef {
    name: "index dimension",
    values: &[
        ev(0, "INDEX_0D", "", "No index (e.g. oDepth, vPrim)."),
        ev(1, "INDEX_1D", "", "One index, the register number (r3, v1)."),
        ev(2, "INDEX_2D", "", "Two indices (cb0[5], v[vertex][register])."),
        ev(3, "INDEX_3D", "", "Three indices (SM5.1 ranges: CB0[lo:hi][n])."),
    ],
};

/// How one index of an operand is stored.
pub static INDEX_REPRESENTATION: EnumDef = EnumDef {
    name: "index representation",
    values: &[
        ev(0, "IMMEDIATE32", "", "A 32-bit number follows."),
        ev(1, "IMMEDIATE64", "", "A 64-bit number follows (high dword first)."),
        ev(2, "RELATIVE", "", "A whole operand follows whose value is the index (e.g. [r0.x])."),
        ev(3, "IMMEDIATE32_PLUS_RELATIVE", "", "A 32-bit number then an operand; the index is their sum ([r0.x + 4])."),
        ev(4, "IMMEDIATE64_PLUS_RELATIVE", "", "A 64-bit number then an operand, summed."),
    ],
};

/// Kind of extended operand token.
pub static EXTENDED_OPERAND_TYPE: EnumDef = EnumDef {
    name: "extended operand type",
    values: &[
        ev(0, "EMPTY", "", "Carries nothing."),
        ev(1, "MODIFIER", "", "Carries a source modifier, minimum precision and the non-uniform flag."),
    ],
};

/// Source operand modifier.
pub static OPERAND_MODIFIER: EnumDef = EnumDef {
    name: "operand modifier",
    values: &[
        ev(0, "NONE", "", "Value used as is."),
        ev(1, "NEG", "-", "Negated: -x."),
        ev(2, "ABS", "|", "Absolute value: |x|."),
        ev(3, "ABSNEG", "-|", "Negated absolute value: -|x|."),
    ],
};

/// Minimum precision of an operand.
pub static MIN_PRECISION: EnumDef = EnumDef {
    name: "minimum precision",
    values: &[
        ev(0, "DEFAULT", "", "Full 32-bit precision."),
        ev(1, "FLOAT_16", "min16f", "At least 16-bit float."),
        ev(2, "FLOAT_2_8", "min2_8f", "At least 10-bit (2.8 fixed point) float."),
        ev(4, "SINT_16", "min16i", "At least 16-bit signed integer."),
        ev(5, "UINT_16", "min16u", "At least 16-bit unsigned integer."),
    ],
};

/// Kind of extended opcode token.
pub static EXTENDED_OPCODE_TYPE: EnumDef = EnumDef {
    name: "extended opcode type",
    values: &[
        ev(0, "EMPTY", "", "Carries nothing."),
        ev(1, "SAMPLE_CONTROLS", "aoffimmi", "Immediate texel offsets (u, v, w) for sample/ld/gather."),
        ev(2, "RESOURCE_DIM", "", "The resource's dimension (and structure stride), printed as (texture2d) etc."),
        ev(
            3,
            "RESOURCE_RETURN_TYPE",
            "",
            "The resource's per-component return types, printed as (float,float,float,float).",
        ),
    ],
};

/// Resource dimension.
pub static RESOURCE_DIMENSION: EnumDef = EnumDef {
    name: "resource dimension",
    values: &[
        ev(0, "UNKNOWN", "unknown", "Not specified."),
        ev(1, "BUFFER", "buffer", "Typed buffer."),
        ev(2, "TEXTURE1D", "texture1d", "1D texture."),
        ev(3, "TEXTURE2D", "texture2d", "2D texture."),
        ev(4, "TEXTURE2DMS", "texture2dms", "Multisampled 2D texture."),
        ev(5, "TEXTURE3D", "texture3d", "Volume texture."),
        ev(6, "TEXTURECUBE", "texturecube", "Cube map."),
        ev(7, "TEXTURE1DARRAY", "texture1darray", "Array of 1D textures."),
        ev(8, "TEXTURE2DARRAY", "texture2darray", "Array of 2D textures."),
        ev(9, "TEXTURE2DMSARRAY", "texture2dmsarray", "Array of multisampled 2D textures."),
        ev(10, "TEXTURECUBEARRAY", "texturecubearray", "Array of cube maps."),
        ev(11, "RAW_BUFFER", "raw_buffer", "Byte-address buffer."),
        ev(12, "STRUCTURED_BUFFER", "structured_buffer", "Buffer of structures."),
    ],
};

/// Per-component return type of a resource.
pub static RETURN_TYPE: EnumDef = EnumDef {
    name: "return type",
    values: &[
        ev(0, "UNDEFINED", "", "Not set."),
        ev(1, "UNORM", "unorm", "Unsigned normalized: stored integers map to 0..1."),
        ev(2, "SNORM", "snorm", "Signed normalized: stored integers map to -1..1."),
        ev(3, "SINT", "sint", "Signed integer."),
        ev(4, "UINT", "uint", "Unsigned integer."),
        ev(5, "FLOAT", "float", "Float."),
        ev(6, "MIXED", "mixed", "Mixed / untyped (structured and raw data)."),
        ev(7, "DOUBLE", "double", "Double (two components per value)."),
        ev(8, "CONTINUED", "continued", "Second half of a double."),
        ev(9, "UNUSED", "unused", "Component not used."),
    ],
};

/// Sampler mode.
pub static SAMPLER_MODE: EnumDef = EnumDef {
    name: "sampler mode",
    values: &[
        ev(0, "DEFAULT", "mode_default", "Ordinary filtering sampler."),
        ev(1, "COMPARISON", "mode_comparison", "Comparison sampler (sample_c, gather4_c)."),
        ev(2, "MONO", "mode_mono", "Monochrome 1-bit sampler (reserved)."),
    ],
};

/// Constant buffer access pattern.
pub static CB_ACCESS_PATTERN: EnumDef = EnumDef {
    name: "constant buffer access",
    values: &[
        ev(0, "IMMEDIATE_INDEXED", "immediateIndexed", "Only read at indices known at compile time."),
        ev(1, "DYNAMIC_INDEXED", "dynamicIndexed", "Read at indices computed at run time."),
    ],
};

/// Interpolation mode of a pixel shader input.
pub static INTERPOLATION_MODE: EnumDef = EnumDef {
    name: "interpolation mode",
    values: &[
        ev(0, "UNDEFINED", "", "Not interpolated / not specified."),
        ev(1, "CONSTANT", "constant", "Taken from the provoking vertex, not interpolated."),
        ev(2, "LINEAR", "linear", "Perspective-correct interpolation at the pixel centre."),
        ev(3, "LINEAR_CENTROID", "linear centroid", "Perspective-correct, evaluated inside the covered area."),
        ev(4, "LINEAR_NOPERSPECTIVE", "linear noperspective", "Screen-space linear interpolation."),
        ev(
            5,
            "LINEAR_NOPERSPECTIVE_CENTROID",
            "linear noperspective centroid",
            "Screen-space linear, at the centroid.",
        ),
        ev(6, "LINEAR_SAMPLE", "linear sample", "Perspective-correct, per sample."),
        ev(7, "LINEAR_NOPERSPECTIVE_SAMPLE", "linear noperspective sample", "Screen-space linear, per sample."),
    ],
};

/// System value names used by dcl_*_siv / dcl_*_sgv.
pub static SYSTEM_NAME: EnumDef = EnumDef {
    name: "system value",
    values: &[
        ev(0, "UNDEFINED", "undefined", "No system meaning."),
        ev(1, "POSITION", "position", "Clip-space (or screen) position."),
        ev(2, "CLIP_DISTANCE", "clip_distance", "Distance to a user clip plane."),
        ev(3, "CULL_DISTANCE", "cull_distance", "Distance to a user cull plane."),
        ev(4, "RENDER_TARGET_ARRAY_INDEX", "rendertarget_array_index", "Which render-target array slice to draw to."),
        ev(5, "VIEWPORT_ARRAY_INDEX", "viewport_array_index", "Which viewport to use."),
        ev(6, "VERTEX_ID", "vertex_id", "Index of the vertex."),
        ev(7, "PRIMITIVE_ID", "primitive_id", "Index of the primitive."),
        ev(8, "INSTANCE_ID", "instance_id", "Index of the instance."),
        ev(9, "IS_FRONT_FACE", "is_front_face", "Whether the primitive faces the viewer."),
        ev(10, "SAMPLE_INDEX", "sampleIndex", "Which MSAA sample is being shaded."),
        ev(
            11,
            "FINAL_QUAD_U_EQ_0_EDGE_TESSFACTOR",
            "finalQuadUeq0EdgeTessFactor",
            "Quad patch: tessellation factor of the u=0 edge.",
        ),
        ev(
            12,
            "FINAL_QUAD_V_EQ_0_EDGE_TESSFACTOR",
            "finalQuadVeq0EdgeTessFactor",
            "Quad patch: factor of the v=0 edge.",
        ),
        ev(
            13,
            "FINAL_QUAD_U_EQ_1_EDGE_TESSFACTOR",
            "finalQuadUeq1EdgeTessFactor",
            "Quad patch: factor of the u=1 edge.",
        ),
        ev(
            14,
            "FINAL_QUAD_V_EQ_1_EDGE_TESSFACTOR",
            "finalQuadVeq1EdgeTessFactor",
            "Quad patch: factor of the v=1 edge.",
        ),
        ev(15, "FINAL_QUAD_U_INSIDE_TESSFACTOR", "finalQuadUInsideTessFactor", "Quad patch: inside factor along u."),
        ev(16, "FINAL_QUAD_V_INSIDE_TESSFACTOR", "finalQuadVInsideTessFactor", "Quad patch: inside factor along v."),
        ev(
            17,
            "FINAL_TRI_U_EQ_0_EDGE_TESSFACTOR",
            "finalTriUeq0EdgeTessFactor",
            "Triangle patch: factor of the u=0 edge.",
        ),
        ev(
            18,
            "FINAL_TRI_V_EQ_0_EDGE_TESSFACTOR",
            "finalTriVeq0EdgeTessFactor",
            "Triangle patch: factor of the v=0 edge.",
        ),
        ev(
            19,
            "FINAL_TRI_W_EQ_0_EDGE_TESSFACTOR",
            "finalTriWeq0EdgeTessFactor",
            "Triangle patch: factor of the w=0 edge.",
        ),
        ev(20, "FINAL_TRI_INSIDE_TESSFACTOR", "finalTriInsideTessFactor", "Triangle patch: inside factor."),
        ev(21, "FINAL_LINE_DETAIL_TESSFACTOR", "finalLineDetailTessFactor", "Isoline: detail factor."),
        ev(22, "FINAL_LINE_DENSITY_TESSFACTOR", "finalLineDensityTessFactor", "Isoline: density factor."),
        ev(23, "BARYCENTRICS", "barycentrics", "Barycentric coordinates (D3D12)."),
        ev(24, "SHADINGRATE", "shadingrate", "Variable shading rate (D3D12)."),
        ev(25, "CULLPRIMITIVE", "cullprimitive", "Primitive culling output (D3D12)."),
    ],
};

/// Geometry shader input primitive.
pub static PRIMITIVE: EnumDef = EnumDef {
    name: "input primitive",
    values: &[
        ev(0, "UNDEFINED", "undefined", "Not set."),
        ev(1, "POINT", "point", "Points."),
        ev(2, "LINE", "line", "Lines."),
        ev(3, "TRIANGLE", "triangle", "Triangles."),
        ev(6, "LINE_ADJ", "lineadj", "Lines with adjacency."),
        ev(7, "TRIANGLE_ADJ", "triangleadj", "Triangles with adjacency."),
        ev(8, "1_CONTROL_POINT_PATCH", "patch1", "Patch of 1 control point."),
        ev(9, "2_CONTROL_POINT_PATCH", "patch2", "Patch of 2 control points."),
        ev(10, "3_CONTROL_POINT_PATCH", "patch3", "Patch of 3 control points."),
        ev(11, "4_CONTROL_POINT_PATCH", "patch4", "Patch of 4 control points."),
        ev(12, "5_CONTROL_POINT_PATCH", "patch5", "Patch of 5 control points."),
        ev(13, "6_CONTROL_POINT_PATCH", "patch6", "Patch of 6 control points."),
        ev(14, "7_CONTROL_POINT_PATCH", "patch7", "Patch of 7 control points."),
        ev(15, "8_CONTROL_POINT_PATCH", "patch8", "Patch of 8 control points."),
        ev(16, "9_CONTROL_POINT_PATCH", "patch9", "Patch of 9 control points."),
        ev(17, "10_CONTROL_POINT_PATCH", "patch10", "Patch of 10 control points."),
        ev(18, "11_CONTROL_POINT_PATCH", "patch11", "Patch of 11 control points."),
        ev(19, "12_CONTROL_POINT_PATCH", "patch12", "Patch of 12 control points."),
        ev(20, "13_CONTROL_POINT_PATCH", "patch13", "Patch of 13 control points."),
        ev(21, "14_CONTROL_POINT_PATCH", "patch14", "Patch of 14 control points."),
        ev(22, "15_CONTROL_POINT_PATCH", "patch15", "Patch of 15 control points."),
        ev(23, "16_CONTROL_POINT_PATCH", "patch16", "Patch of 16 control points."),
        ev(24, "17_CONTROL_POINT_PATCH", "patch17", "Patch of 17 control points."),
        ev(25, "18_CONTROL_POINT_PATCH", "patch18", "Patch of 18 control points."),
        ev(26, "19_CONTROL_POINT_PATCH", "patch19", "Patch of 19 control points."),
        ev(27, "20_CONTROL_POINT_PATCH", "patch20", "Patch of 20 control points."),
        ev(28, "21_CONTROL_POINT_PATCH", "patch21", "Patch of 21 control points."),
        ev(29, "22_CONTROL_POINT_PATCH", "patch22", "Patch of 22 control points."),
        ev(30, "23_CONTROL_POINT_PATCH", "patch23", "Patch of 23 control points."),
        ev(31, "24_CONTROL_POINT_PATCH", "patch24", "Patch of 24 control points."),
        ev(32, "25_CONTROL_POINT_PATCH", "patch25", "Patch of 25 control points."),
        ev(33, "26_CONTROL_POINT_PATCH", "patch26", "Patch of 26 control points."),
        ev(34, "27_CONTROL_POINT_PATCH", "patch27", "Patch of 27 control points."),
        ev(35, "28_CONTROL_POINT_PATCH", "patch28", "Patch of 28 control points."),
        ev(36, "29_CONTROL_POINT_PATCH", "patch29", "Patch of 29 control points."),
        ev(37, "30_CONTROL_POINT_PATCH", "patch30", "Patch of 30 control points."),
        ev(38, "31_CONTROL_POINT_PATCH", "patch31", "Patch of 31 control points."),
        ev(39, "32_CONTROL_POINT_PATCH", "patch32", "Patch of 32 control points."),
    ],
};

/// Geometry shader output topology.
pub static PRIMITIVE_TOPOLOGY: EnumDef = EnumDef {
    name: "output topology",
    values: &[
        ev(0, "UNDEFINED", "undefined", "Not set."),
        ev(1, "POINTLIST", "pointlist", "Points."),
        ev(2, "LINELIST", "linelist", "Separate lines."),
        ev(3, "LINESTRIP", "linestrip", "Line strips."),
        ev(4, "TRIANGLELIST", "trianglelist", "Separate triangles."),
        ev(5, "TRIANGLESTRIP", "trianglestrip", "Triangle strips."),
        ev(10, "LINELIST_ADJ", "linelistadj", "Lines with adjacency."),
        ev(11, "LINESTRIP_ADJ", "linestripadj", "Line strips with adjacency."),
        ev(12, "TRIANGLELIST_ADJ", "trianglelistadj", "Triangles with adjacency."),
        ev(13, "TRIANGLESTRIP_ADJ", "trianglestripadj", "Triangle strips with adjacency."),
    ],
};

/// Tessellator domain.
pub static TESS_DOMAIN: EnumDef = EnumDef {
    name: "tessellator domain",
    values: &[
        ev(0, "UNDEFINED", "domain_undefined", "Not set."),
        ev(1, "ISOLINE", "domain_isoline", "Isolines."),
        ev(2, "TRI", "domain_tri", "Triangles."),
        ev(3, "QUAD", "domain_quad", "Quads."),
    ],
};

/// Tessellator partitioning.
pub static TESS_PARTITIONING: EnumDef = EnumDef {
    name: "tessellator partitioning",
    values: &[
        ev(0, "UNDEFINED", "partitioning_undefined", "Not set."),
        ev(1, "INTEGER", "partitioning_integer", "Factors rounded up to integers."),
        ev(2, "POW2", "partitioning_pow2", "Factors rounded up to powers of two."),
        ev(3, "FRACTIONAL_ODD", "partitioning_fractional_odd", "Smooth fractional factors, odd segment counts."),
        ev(4, "FRACTIONAL_EVEN", "partitioning_fractional_even", "Smooth fractional factors, even segment counts."),
    ],
};

/// Tessellator output primitive.
pub static TESS_OUTPUT_PRIMITIVE: EnumDef = EnumDef {
    name: "tessellator output primitive",
    values: &[
        ev(0, "UNDEFINED", "output_undefined", "Not set."),
        ev(1, "POINT", "output_point", "Points."),
        ev(2, "LINE", "output_line", "Lines."),
        ev(3, "TRIANGLE_CW", "output_triangle_cw", "Clockwise triangles."),
        ev(4, "TRIANGLE_CCW", "output_triangle_ccw", "Counter-clockwise triangles."),
    ],
};

/// resinfo's return type.
pub static RESINFO_RETURN_TYPE: EnumDef = EnumDef {
    name: "resinfo return type",
    values: &[
        ev(0, "FLOAT", "", "Dimensions as floats."),
        ev(1, "RCPFLOAT", "_rcpFloat", "Reciprocals of the dimensions as floats."),
        ev(2, "UINT", "_uint", "Dimensions as unsigned integers."),
    ],
};

/// sampleinfo / samplepos return type.
pub static INSTRUCTION_RETURN_TYPE: EnumDef = EnumDef {
    name: "instruction return type",
    values: &[ev(0, "FLOAT", "", "Result as float."), ev(1, "UINT", "_uint", "Result as unsigned integer.")],
};

/// Zero / non-zero test of conditional instructions.
pub static TEST_BOOLEAN: EnumDef = EnumDef {
    name: "test",
    values: &[
        ev(0, "ZERO", "_z", "The condition holds when the value is zero."),
        ev(1, "NONZERO", "_nz", "The condition holds when the value is not zero."),
    ],
};

/// Custom-data block classes.
pub static CUSTOMDATA_CLASS: EnumDef = EnumDef {
    name: "custom-data class",
    values: &[
        ev(0, "COMMENT", "", "A comment."),
        ev(1, "DEBUGINFO", "", "Debug information."),
        ev(2, "OPAQUE", "", "Opaque data."),
        ev(
            3,
            "DCL_IMMEDIATE_CONSTANT_BUFFER",
            "dcl_immediateConstantBuffer",
            "The immediate constant buffer: vec4 constants indexed as icb[n].",
        ),
        ev(4, "SHADER_MESSAGE", "", "A message the shader prints (debug layers)."),
        ev(
            5,
            "SHADER_CLIP_PLANE_CONSTANT_MAPPINGS_FOR_DX9",
            "",
            "Where DX9-level hardware finds clip planes in constant buffers.",
        ),
    ],
};

/// Yes / no.
pub static FLAG: EnumDef = EnumDef { name: "flag", values: &[ev(0, "no", "", "Off."), ev(1, "yes", "", "On.")] };

/// Component names of a 4-component select.
pub static COMPONENT: EnumDef = EnumDef {
    name: "component",
    values: &[
        ev(0, "X", "x", "x (red)"),
        ev(1, "Y", "y", "y (green)"),
        ev(2, "Z", "z", "z (blue)"),
        ev(3, "W", "w", "w (alpha)"),
    ],
};

// ------------------------------------------------------------- bitfields

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

/// Fields common to every opcode token (bits 23:11 depend on the opcode).
pub static OPCODE_COMMON_FIELDS: &[FieldDef] = &[
    f("opcode", 10, 0, None, "Which instruction or declaration this is."),
    f("instruction length", 30, 24, None, "Length of the instruction in dwords including this token (0 only in custom-data blocks and long declarations)."),
    f("extended", 31, 31, Some(&FLAG), "Set when an extended opcode token follows."),
];

/// Controls of ordinary instructions.
pub static ALU_CONTROLS: &[FieldDef] = &[
    f("saturate", 13, 13, Some(&FLAG), "Clamp results to [0, 1] (printed as _sat)."),
    f(
        "precise mask",
        22,
        19,
        None,
        "Components whose result must not be reassociated or fused (printed [precise(...)]).",
    ),
];

/// Controls of conditional instructions.
pub static TEST_CONTROLS: &[FieldDef] =
    &[f("test", 18, 18, Some(&TEST_BOOLEAN), "Whether the condition holds on zero (_z) or non-zero (_nz).")];

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
pub static CUSTOMDATA_FIELDS: &[FieldDef] = &[
    f("opcode", 10, 0, None, "53: a custom-data block."),
    f("class", 31, 11, Some(&CUSTOMDATA_CLASS), "What the block contains."),
];

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

/// Operand token 0.
pub static OPERAND_FIELDS: &[FieldDef] = &[
    f("component count", 1, 0, Some(&NUM_COMPONENTS), "How many components the operand has."),
    f(
        "selection mode",
        3,
        2,
        Some(&SELECTION_MODE),
        "For 4-component operands: mask, swizzle or single-component select.",
    ),
    f(
        "component selection",
        11,
        4,
        None,
        "The mask (bits 4..7), swizzle (bits 4..11) or selected component (bits 4..5), as the mode says.",
    ),
    f("operand type", 19, 12, Some(&OPERAND_TYPE), "Which register file (or literal) the operand names."),
    f(
        "index dimension",
        21,
        20,
        Some(&INDEX_DIMENSION),
        "How many indices follow (register number, array element ...).",
    ),
    f("index 0 representation", 24, 22, Some(&INDEX_REPRESENTATION), "How the first index is stored."),
    f("index 1 representation", 27, 25, Some(&INDEX_REPRESENTATION), "How the second index is stored."),
    f("index 2 representation", 30, 28, Some(&INDEX_REPRESENTATION), "How the third index is stored."),
    f("extended", 31, 31, Some(&FLAG), "Set when an extended operand token (modifiers) follows."),
];

/// Extended operand token.
pub static EXTENDED_OPERAND_FIELDS: &[FieldDef] = &[
    f("extended operand type", 5, 0, Some(&EXTENDED_OPERAND_TYPE), "What this extension carries."),
    f("modifier", 13, 6, Some(&OPERAND_MODIFIER), "Source modifier: negate, absolute value, or both."),
    f("minimum precision", 16, 14, Some(&MIN_PRECISION), "Lowest precision the hardware may use for this operand."),
    f(
        "non-uniform",
        17,
        17,
        Some(&FLAG),
        "SM5.1: the resource index differs across threads (NonUniformResourceIndex).",
    ),
    f("reserved", 30, 18, None, "Unused."),
    f("extended", 31, 31, Some(&FLAG), "Another extended operand token follows."),
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
    match token & 0x3f {
        1 => EXT_SAMPLE_CONTROLS_FIELDS,
        2 => EXT_RESOURCE_DIM_FIELDS,
        3 => EXT_RETURN_TYPE_FIELDS,
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
