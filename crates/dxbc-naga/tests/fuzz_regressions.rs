//! Fuzzer findings kept as regression tests (rebuilt from their essence).

mod common;

/// The WGSL of an assembled listing that translates, validates and
/// writes SPIR-V.
fn wgsl_of_listing(text: &str) -> String {
    let bytes = dxbc::asm::assemble(text).expect("assembles");
    let s = dxbc::Shader::parse(&bytes).unwrap();
    let t = dxbc_naga::translate(&s, &dxbc_naga::Options::default()).expect("translates and validates");
    dxbc_naga::to_spirv(&t).expect("SPIR-V");
    dxbc_naga::to_wgsl(&t).unwrap()
}

/// translate target: a constant-buffer row index past the declared size
/// (cb0[1000] with dcl_constantbuffer CB0[1]) made naga reject a constant
/// out-of-bounds access. D3D reads zero there; the lowering now does too.
#[test]
fn constant_index_past_a_constant_buffer_reads_zero() {
    let mut bytes = dxbc::examples::tint_pixel_shader();
    let s = dxbc::Shader::parse(&bytes).unwrap();
    let p = s.program.as_ref().unwrap();
    let mul = p.instructions.iter().find(|i| i.opcode() == 56).expect("the example multiplies by cb0[0]");
    let cb = mul.operand(p, 2).unwrap();
    assert_eq!(cb.ty(), 8);
    let at = cb.index[1].offset as usize;
    bytes[at..at + 4].copy_from_slice(&1000u32.to_le_bytes());
    let patched = dxbc::Shader::parse(&bytes).unwrap();
    let t = dxbc_naga::translate(&patched, &dxbc_naga::Options::default()).expect("translates and validates");
    let wgsl = dxbc_naga::to_wgsl(&t).unwrap();
    assert!(!wgsl.contains("cb0_[1000]"), "{wgsl}");
}

/// translate target: a double instruction that read an output register
/// before any instruction wrote it took the f32 output's load for u32 bits
/// (the output's kind was asked before its global existed), and naga
/// rejected the compose of its words. The read now sees the kind the
/// register's global gets, and bitcasts.
#[test]
fn a_double_read_of_an_output_before_its_first_write_validates() {
    let text = "ps_5_0\n\
        dcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps\n\
        dcl_output o0.xyzw\n\
        dcl_temps 1\n\
        dlt r0.z, o0.zwzw, l(0, 0, 0, 0)\n\
        mov o0.xyzw, r0.zzzz\n\
        ret\n";
    let bytes = dxbc::asm::assemble(text).expect("assembles");
    let s = dxbc::Shader::parse(&bytes).unwrap();
    for doubles in [dxbc_naga::DoubleMode::Software, dxbc_naga::DoubleMode::Native] {
        let options = dxbc_naga::Options { doubles, ..Default::default() };
        let t = dxbc_naga::translate(&s, &options).unwrap_or_else(|e| panic!("{doubles:?}: {e}"));
        let wgsl = dxbc_naga::to_wgsl(&t);
        if doubles == dxbc_naga::DoubleMode::Software {
            // The words of o0.zw reach the comparison as bits of the output.
            let wgsl = wgsl.unwrap();
            assert!(wgsl.contains("bitcast<vec4<u32>>"), "{wgsl}");
        }
    }
}

/// translate target: instructions between `switch` and its first `case`
/// (no path reaches them) were lowered, their statements dropped, but the
/// register kept their value: a case read an expression no block emitted,
/// and naga's SPIR-V writer panicked ("not cached"). The first label now
/// starts from the state the switch opened with.
#[test]
fn instructions_before_the_first_case_leave_no_value_behind() {
    let text = "ps_5_0\n\
        dcl_globalFlags refactoringAllowed\n\
        dcl_input_ps constant v0.x\n\
        dcl_output o0.xyzw\n\
        dcl_temps 1\n\
        mov r0.x, v0.x\n\
        switch r0.x\n\
          max r0.x, v0.x, l(-1.000000)\n\
          case l(7)\n\
          mul r0.x, r0.x, l(2.000000)\n\
          break\n\
          default\n\
          break\n\
        endswitch\n\
        mov o0.xyzw, r0.xxxx\n\
        ret\n";
    let wgsl = wgsl_of_listing(text);
    // The unreachable `max` is gone; case 7 doubles v0.x's bits.
    assert!(!wgsl.contains("max("), "{wgsl}");
}

/// translate target (session 27): an integer instruction that read oDepth
/// before anything wrote it took the depth's f32 load as u32 bits (the
/// special register's kind was asked before its global existed, as for
/// outputs above), and naga rejected the `&` of a float. The read now sees
/// the kind depth's global gets, and bitcasts.
#[test]
fn an_integer_read_of_depth_before_its_first_write_validates() {
    let text = "ps_5_0\n\
        dcl_globalFlags refactoringAllowed\n\
        dcl_output oDepth\n\
        dcl_output o0.xyzw\n\
        dcl_temps 1\n\
        and r0.xyzw, oDepth.xxxx, l(0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000)\n\
        mov o0.xyzw, r0.xyzw\n\
        mov oDepth, l(0.5)\n\
        ret\n";
    let bytes = dxbc::asm::assemble(text).expect("assembles");
    let s = dxbc::Shader::parse(&bytes).unwrap();
    let t = dxbc_naga::translate(&s, &dxbc_naga::Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let wgsl = dxbc_naga::to_wgsl(&t).unwrap();
    assert!(wgsl.contains("bitcast<vec4<u32>>(oDepth)"), "{wgsl}");
}

/// translate target: a pixel shader that read `vPrim` and also declared an
/// SV_PrimitiveID input bound the primitive index twice, and naga rejected
/// the entry point ("Built-in PrimitiveIndex is present more than once").
/// Both registers hold the primitive's id (D3D), so both are now filled
/// from one argument.
#[test]
fn vprim_beside_a_primitive_id_input_shares_its_argument() {
    // The signature comments are what the assembler builds the signatures from.
    let text = "// Input signature:\n\
        //\n\
        // Name                 Index   Mask Register SysValue  Format   Used\n\
        // -------------------- ----- ------ -------- -------- ------- ------\n\
        // SV_PrimitiveID           0   x           2   PRIMID    uint   x\n\
        //\n\
        // Output signature:\n\
        //\n\
        // Name                 Index   Mask Register SysValue  Format   Used\n\
        // -------------------- ----- ------ -------- -------- ------- ------\n\
        // SV_Target                0   xyzw        0   TARGET    uint   xyzw\n\
        //\n\
        ps_5_0\n\
        dcl_globalFlags refactoringAllowed\n\
        dcl_input_ps_sgv constant v2.x, primitive_id\n\
        dcl_output o0.xyzw\n\
        mov o0.x, vPrim\n\
        mov o0.y, v2.x\n\
        mov o0.zw, l(0,0,0,0)\n\
        ret\n";
    let bytes = dxbc::asm::assemble(text).expect("assembles");
    let s = dxbc::Shader::parse(&bytes).unwrap();
    let t = dxbc_naga::translate(&s, &dxbc_naga::Options::default()).expect("translates and validates");
    let ep = &t.module.entry_points[0].function;
    let bound: Vec<_> = ep
        .arguments
        .iter()
        .filter(|a| a.binding == Some(naga::Binding::BuiltIn(naga::BuiltIn::PrimitiveIndex)))
        .collect();
    assert_eq!(bound.len(), 1, "{:?}", ep.arguments);
    // Both components of the output come from that one argument.
    let wgsl = dxbc_naga::to_wgsl(&t).unwrap();
    let name = bound[0].name.as_deref().unwrap();
    assert!(wgsl.contains(&format!("vec4<u32>({name}, {name}, ")), "{wgsl}");
    assert!(dxbc_naga::to_spirv(&t).is_ok());
}

/// Asserts that the listing `text` assembles with a temp register as
/// operand `operand` of its first instruction numbered `opcode`, and that
/// translating it is refused as malformed at that operand.
fn malformed_at_temp_operand(text: &str, opcode: u16, operand: usize) {
    let bytes = dxbc::asm::assemble(text).expect("assembles");
    let s = dxbc::Shader::parse(&bytes).unwrap();
    let p = s.program.as_ref().unwrap();
    let ins = p.instructions.iter().find(|i| i.opcode() == opcode).unwrap();
    let op = ins.operand(p, operand).unwrap();
    assert_eq!(op.operand_type(), Some(dxbc::spec::OperandType::Temp));
    match dxbc_naga::translate(&s, &dxbc_naga::Options::default()) {
        Err(dxbc_naga::TranslateError::Malformed { offset, .. }) => assert_eq!(offset, op.offset as usize),
        other => panic!("expected a malformed operand, got {:?}", other.map(|_| "a translation")),
    }
}

/// translate target: a `sample_l` whose sampler operand named a temp
/// register (`r0[1]` in an SM5.1 shader) was looked up as the sampler of
/// the same number, and naga rejected the image access built from it. A
/// sampler or texture operand of another register file is now refused as
/// malformed, at the operand.
#[test]
fn a_sampler_operand_of_another_register_file_is_malformed() {
    let text = "ps_5_0\n\
        dcl_globalFlags refactoringAllowed\n\
        dcl_sampler s0, mode_default\n\
        dcl_resource_texture2d (float,float,float,float) t0\n\
        dcl_output o0.xyzw\n\
        dcl_temps 1\n\
        mov r0.x, l(0)\n\
        sample_l o0.xyzw, l(0.5, 0.5, 0, 0), t0.xyzw, r0.x, l(0)\n\
        ret\n";
    malformed_at_temp_operand(text, dxbc::spec::opc::SAMPLE_L, 3);
}

/// The same for a typed UAV load whose resource operand names a temp: it
/// was looked up as the UAV of the same number and loaded from it.
#[test]
fn a_typed_uav_operand_of_another_register_file_is_malformed() {
    let text = compute_with_u1(
        "dcl_uav_typed_texture2d (float,float,float,float) u1",
        "mov r1.xyzw, l(0,0,0,0)\n\
        ld_uav_typed r0.xyzw, l(0, 0, 0, 0), r1.xyzw\n\
        store_uav_typed u1.xyzw, l(0, 0, 0, 0), r0.xyzw",
    );
    malformed_at_temp_operand(&text, dxbc::spec::opc::LD_UAV_TYPED, 2);
}

/// The same for a UAV counter: `imm_atomic_alloc` naming a temp incremented
/// the counter of the UAV of the same number.
#[test]
fn a_counter_operand_of_another_register_file_is_malformed() {
    let text = compute_with_u1(
        "dcl_uav_structured_opc u1, 16",
        "mov r1.x, l(0)\n\
        imm_atomic_alloc r0.x, r1\n\
        store_structured u1.x, r0.x, l(0), r0.x",
    );
    malformed_at_temp_operand(&text, dxbc::spec::opc::IMM_ATOMIC_ALLOC, 1);
}

/// A one-thread compute listing declaring UAV u1 as `uav` and two temps,
/// running `body`.
fn compute_with_u1(uav: &str, body: &str) -> String {
    format!("cs_5_0\ndcl_globalFlags refactoringAllowed\n{uav}\ndcl_temps 2\ndcl_thread_group 1, 1, 1\n{body}\nret\n")
}

/// translate target: a mangled SM5.1 declaration named the register of
/// another constant buffer (`CB1` at register 0, where `CB0` is), both
/// were placed at group 0 binding 0, and naga rejected the entry point
/// ("Bindings … conflict"). Two resources at one binding are now malformed
/// at the later declaration.
#[test]
fn two_declarations_at_one_register_are_malformed_at_the_second() {
    let text = "cs_5_1\n\
        dcl_globalFlags refactoringAllowed\n\
        dcl_constantbuffer CB0[0:0][1], immediateIndexed, space=0\n\
        dcl_constantbuffer CB1[0:0][1], immediateIndexed, space=0\n\
        dcl_uav_raw U0[0:0], space=0\n\
        dcl_temps 1\n\
        dcl_thread_group 1, 1, 1\n\
        iadd r0.x, CB0[0][0].x, CB1[0][0].x\n\
        store_raw U0[0].x, l(0), r0.x\n\
        ret\n";
    let bytes = dxbc::asm::assemble(text).expect("assembles");
    let s = dxbc::Shader::parse(&bytes).unwrap();
    let p = s.program.as_ref().unwrap();
    let second = p.instructions.iter().filter(|i| i.opcode() == dxbc::spec::Opcode::DclConstantBuffer as u16).nth(1);
    let second = second.expect("two constant-buffer declarations").offset as usize;
    match dxbc_naga::translate(&s, &dxbc_naga::Options::default()) {
        Err(dxbc_naga::TranslateError::Malformed { offset, .. }) => assert_eq!(offset, second),
        other => panic!("expected malformed at {second:#x}, got {:?}", other.map(|_| ())),
    }
}

/// translate target: `atomic_iadd g1, l(0x07000000), …` on a group-shared
/// region of 64 words: the literal word index was kept, and naga rejected
/// the constant out-of-bounds access. A word past the end of group-shared
/// memory whatever the address is, is now touched by no atomic (as stores
/// drop it), and an `imm_atomic_*` there returns 0 (as loads there read).
#[test]
fn a_group_shared_atomic_at_a_literal_address_past_the_end_touches_nothing() {
    let text = "cs_5_0\n\
        dcl_globalFlags refactoringAllowed\n\
        dcl_uav_raw u0\n\
        dcl_temps 1\n\
        dcl_tgsm_raw g1, 256\n\
        dcl_thread_group 1, 1, 1\n\
        atomic_iadd g1, l(0x07000000), l(5)\n\
        imm_atomic_or r0.x, g1, l(256), l(6)\n\
        imm_atomic_iadd r0.y, g1, l(252), l(7)\n\
        store_raw u0.xy, l(0), r0.xyxx\n\
        ret\n";
    let wgsl = wgsl_of_listing(text);
    // Only the last word's atomic (byte 252: word 63) remains.
    assert_eq!(wgsl.matches("atomicAdd(").count(), 1, "{wgsl}");
    assert!(wgsl.contains("atomicAdd((&g1_[63u]), 7u)"), "{wgsl}");
    assert!(!wgsl.contains("atomicOr("), "{wgsl}");
}

/// translate target (once it checked the writers): `eval_centroid` of a
/// register the signature makes a built-in. SV_Position arrives as
/// FragCoord, no input variable, and the SPIR-V post-pass failed ("eval
/// mark of a register with no input variable"). An interpolated system
/// value (SV_Position, clip and cull distances) is now refused, typed, at
/// the instruction; one constant over the primitive (SV_PrimitiveID)
/// evaluates to what it reads, as a flat input does.
#[test]
fn eval_of_a_built_in_input_is_refused_or_reads_its_value() {
    // The signature comments are what the assembler builds the signatures from.
    let listing = |element: &str, declaration: &str| {
        format!(
            "// Input signature:\n\
            //\n\
            // Name                 Index   Mask Register SysValue  Format   Used\n\
            // -------------------- ----- ------ -------- -------- ------- ------\n\
            {element}\n\
            // ATTR                     0   xy          2     NONE   float   xy\n\
            //\n\
            // Output signature:\n\
            //\n\
            // Name                 Index   Mask Register SysValue  Format   Used\n\
            // -------------------- ----- ------ -------- -------- ------- ------\n\
            // SV_Target                0   xyzw        0   TARGET   float   xyzw\n\
            //\n\
            ps_5_0\n\
            dcl_globalFlags refactoringAllowed\n\
            {declaration}\n\
            dcl_input_ps linear centroid v2.xy\n\
            dcl_output o0.xyzw\n\
            dcl_temps 1\n\
            eval_centroid r0.xy, v0.xyxx\n\
            eval_centroid r0.zw, v2.xxxy\n\
            mov o0.xyzw, r0.xyzw\n\
            ret\n"
        )
    };
    let shader = |text: &str| dxbc::Shader::parse(&dxbc::asm::assemble(text).expect("assembles")).unwrap();
    let position = shader(&listing(
        "// SV_Position              0   xyzw        0      POS   float   xy",
        "dcl_input_ps_siv linear noperspective v0.xy, position",
    ));
    let p = position.program.as_ref().unwrap();
    let eval = p.instructions.iter().find(|i| i.opcode() == dxbc::spec::Opcode::EvalCentroid as u16).unwrap();
    match dxbc_naga::translate(&position, &dxbc_naga::Options::default()) {
        Err(dxbc_naga::TranslateError::Unsupported { limitation, offset, .. }) => {
            assert_eq!(limitation, dxbc_naga::Limitation::PullModelInterpolation);
            assert_eq!(offset, eval.offset as usize);
        }
        other => panic!("expected a refusal at {:#x}, got {:?}", eval.offset, other.map(|_| ())),
    }
    let primitive = shader(&listing(
        "// SV_PrimitiveID           0   x           0   PRIMID    uint   x",
        "dcl_input_ps_sgv constant v0.x, primitive_id",
    ));
    let t = dxbc_naga::translate(&primitive, &dxbc_naga::Options::default()).expect("translates and validates");
    let words = dxbc_naga::to_spirv(&t).expect("SPIR-V");
    common::assert_spirv_valid(&words, "the SV_PrimitiveID listing");
    // v2 is still interpolated at the centroid: one OpExtInst (12) of
    // GLSL.std.450's InterpolateAtCentroid (76), for the user element.
    let mut centroid = 0;
    let mut at = 5;
    while at < words.len() {
        let (count, opcode) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        if opcode == 12 && words.get(at + 4) == Some(&76) {
            centroid += 1;
        }
        at += count.max(1);
    }
    assert_eq!(centroid, 1);
}
