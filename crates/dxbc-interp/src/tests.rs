//! Per-family tests: programs assembled from fxc's syntax, run, and their
//! results compared with what the D3D11 functional spec says (the rule is
//! cited next to each expectation).

use crate::*;

fn program(text: &str) -> dxbc::program::Program {
    let bytes = dxbc::asm::assemble_program(text).unwrap_or_else(|e| panic!("assembling: {e}\n{text}"));
    let (p, errors) = dxbc::program::Program::decode(&bytes, 0);
    assert!(errors.is_empty(), "{errors:?}");
    p
}

/// Runs a one-thread compute body that writes `u0` (a raw buffer of `n` words).
fn cs(body: &str, n: usize) -> Vec<u32> {
    let text = format!(
        "cs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_uav_raw u0\ndcl_temps 8\ndcl_thread_group 1, 1, 1\n{body}\nret\n"
    );
    let code = compile(&program(&text)).unwrap();
    let mut b = Bindings::default();
    b.uavs.insert(0, Resource::Buffer(Buffer { words: vec![0; n], ..Buffer::default() }));
    run_group(&code, &mut b, [0, 0, 0], Limits::default()).unwrap();
    match b.uavs.remove(&0) {
        Some(Resource::Buffer(b)) => b.words,
        _ => unreachable!(),
    }
}

fn fl(v: &[u32]) -> Vec<f32> {
    v.iter().map(|&x| f32::from_bits(x)).collect()
}

#[test]
fn float_arithmetic_flushes_denormals_but_mov_keeps_them() {
    // 3.1.3.3: arithmetic flushes denormal inputs (add of a denormal and 0
    // gives 0); mov is data movement and keeps the bits.
    let out = cs(
        "mov r0.x, l(0x00000001)\nadd r1.x, r0.x, l(0.000000)\nmov r1.y, r0.x\n\
         mul r1.z, l(3.000000), l(0.500000)\nmad r1.w, l(2.000000), l(3.000000), l(1.000000)\n\
         store_raw u0.xyzw, l(0), r1.xyzw\n",
        4,
    );
    assert_eq!(out, vec![0, 1, 1.5f32.to_bits(), 7.0f32.to_bits()]);
}

#[test]
fn saturate_min_max_and_rounding() {
    // 3.1.3.4: _sat of NaN is 0; 3.1.3.5: min/max return the non-NaN operand;
    // 22.10.x: round_ne ties to even, round_ni floor, round_pi ceil, round_z trunc.
    let out = cs(
        "mov r0.x, l(0x7fc00000)\nmov_sat r1.x, r0.x\nadd_sat r1.y, l(2.000000), l(0.500000)\n\
         min r1.z, r0.x, l(4.000000)\nmax r1.w, l(-1.000000), r0.x\nstore_raw u0.xyzw, l(0), r1.xyzw\n\
         round_ne r2.x, l(2.500000)\nround_ni r2.y, l(-2.500000)\nround_pi r2.z, l(2.100000)\nround_z r2.w, l(-2.900000)\n\
         store_raw u0.xyzw, l(16), r2.xyzw\n",
        8,
    );
    assert_eq!(fl(&out), vec![0.0, 1.0, 4.0, -1.0, 2.0, -3.0, 3.0, -2.0]);
}

#[test]
fn conversions_clamp_and_send_nan_to_zero() {
    // 22.10.9 ftoi / 22.10.10 ftou: NaN -> 0, out-of-range clamps.
    let out = cs(
        "ftoi r0.x, l(0x7fc00000)\nftoi r0.y, l(-5000000000.000000)\nftou r0.z, l(-3.000000)\nftou r0.w, l(7.900000)\n\
         store_raw u0.xyzw, l(0), r0.xyzw\n",
        4,
    );
    assert_eq!(out, vec![0, i32::MIN as u32, 0, 7]);
}

#[test]
fn integer_rules_division_shifts_and_wide_multiply() {
    // 22.11.24: udiv by 0 writes 0xffffffff to both results; 22.11.10:
    // shift counts use their low 5 bits; imul/umul write high then low.
    let out = cs(
        "udiv r0.x, r0.y, l(7), l(0)\nishl r0.z, l(1), l(33)\nushr r0.w, l(0x80000000), l(63)\n\
         store_raw u0.xyzw, l(0), r0.xyzw\n\
         umul r1.x, r1.y, l(0x80000000), l(4)\nimul r1.z, r1.w, l(-2), l(3)\nstore_raw u0.xyzw, l(16), r1.xyzw\n\
         uaddc r2.x, r2.y, l(0xffffffff), l(2)\nusubb r2.z, r2.w, l(1), l(2)\nstore_raw u0.xyzw, l(32), r2.xyzw\n",
        12,
    );
    assert_eq!(&out[0..4], &[!0, !0, 2, 1]);
    assert_eq!(&out[4..8], &[2, 0, !0, (-6i32) as u32]);
    assert_eq!(&out[8..12], &[1, 1, !0, 1]);
}

#[test]
fn bit_instructions() {
    // 22.11.x: countbits, firstbit_hi from the top, firstbit_lo, bfrev, ubfe, ibfe, bfi.
    let out = cs(
        "countbits r0.x, l(0xf0f0)\nfirstbit_hi r0.y, l(1)\nfirstbit_lo r0.z, l(0)\nbfrev r0.w, l(1)\n\
         store_raw u0.xyzw, l(0), r0.xyzw\n\
         ubfe r1.x, l(4), l(4), l(0xabcd)\nibfe r1.y, l(4), l(4), l(0xabcd)\nbfi r1.z, l(4), l(8), l(3), l(0xffffffff)\nnot r1.w, l(0)\n\
         store_raw u0.xyzw, l(16), r1.xyzw\n",
        8,
    );
    assert_eq!(out, vec![8, 31, !0, 0x8000_0000, 0xc, 0xffff_fffc, 0xffff_f3ff, !0]);
}

#[test]
fn comparisons_write_all_ones_masks_and_movc_selects() {
    // 22.x: comparisons write 0xffffffff or 0; ne is true for NaN.
    let out = cs(
        "lt r0.x, l(1.000000), l(2.000000)\nne r0.y, l(0x7fc00000), l(0x7fc00000)\neq r0.z, l(0x7fc00000), l(0x7fc00000)\n\
         ilt r0.w, l(-1), l(0)\nmovc r1.x, r0.z, l(5), l(6)\nswapc r1.y, r1.z, l(1), l(10), l(20)\nult r1.w, l(-1), l(0)\n\
         store_raw u0.xyzw, l(0), r0.xyzw\nstore_raw u0.xyzw, l(16), r1.xyzw\n",
        8,
    );
    assert_eq!(out, vec![!0, !0, 0, !0, 6, 20, 10, 0]);
}

#[test]
fn half_conversions_and_dot_products() {
    // f32tof16 rounds to nearest even into the low 16 bits; dp3 sums three products.
    let out = cs(
        "f32tof16 r0.x, l(1.000000)\nf16tof32 r0.y, l(0x0000c000)\ndp3 r0.z, l(1.000000, 2.000000, 3.000000, 4.000000), l(1.000000, 1.000000, 1.000000, 1.000000)\n\
         dp2 r0.w, l(1.000000, 2.000000, 3.000000, 4.000000), l(2.000000, 2.000000, 2.000000, 2.000000)\n\
         store_raw u0.xyzw, l(0), r0.xyzw\n",
        4,
    );
    assert_eq!(out, vec![0x3c00, (-2.0f32).to_bits(), 6.0f32.to_bits(), 6.0f32.to_bits()]);
}

#[test]
fn loops_switches_and_subroutines() {
    // A counting loop with breakc, a switch with fallthrough into the next
    // case and a default, and a call whose subroutine returns early.
    let out = cs(
        "mov r0.x, l(0)\nmov r0.y, l(0)\nloop\n  uge r0.z, r0.x, l(5)\n  breakc_nz r0.z\n  iadd r0.y, r0.y, r0.x\n  iadd r0.x, r0.x, l(1)\nendloop\n\
         mov r1.x, l(0)\nswitch l(1)\n  case l(1)\n  iadd r1.x, r1.x, l(1)\n  case l(2)\n  iadd r1.x, r1.x, l(10)\n  break\n  default\n  iadd r1.x, r1.x, l(100)\n  break\nendswitch\n\
         call l0\nstore_raw u0.xyz, l(0), r0.yxxy\nstore_raw u0.x, l(8), r1.x\nstore_raw u0.x, l(12), r2.x\nret\n\
         label l0\nmov r2.x, l(7)\nretc_nz l(1)\nmov r2.x, l(8)\nret\n",
        4,
    );
    assert_eq!(out, vec![10, 5, 11, 7]);
}

#[test]
fn indexable_temps_out_of_range_read_zero_and_drop_writes() {
    // Out-of-range indexable reads give 0 and writes are dropped (the
    // interpreter's defined answer; D3D11 leaves them undefined).
    let out = cs(
        "dcl_indexableTemp x0[2], 4\nmov x0[0].x, l(3)\nmov x0[1].x, l(4)\nmov r0.x, l(5)\nmov x0[r0.x + 0].x, l(9)\n\
         mov r1.x, x0[r0.x + 0].x\nmov r1.y, x0[1].x\nmov r0.y, l(1)\nmov r1.z, x0[r0.y + 0].x\nstore_raw u0.xyz, l(0), r1.xyzx\n",
        3,
    );
    assert_eq!(out, vec![0, 4, 4]);
}

#[test]
fn group_shared_memory_and_barriers_in_group_index_order() {
    // Each of 4 threads writes g0[i] = i + 1, waits at the barrier, then
    // reads its neighbour's slot; atomics return old values in
    // SV_GroupIndex order.
    let text = "cs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_uav_raw u0\ndcl_uav_raw u1\ndcl_input vThreadIDInGroupFlattened\n\
        dcl_temps 2\ndcl_tgsm_raw g0, 16\ndcl_thread_group 4, 1, 1\n\
        ishl r0.x, vThreadIDInGroupFlattened.x, l(2)\niadd r0.y, vThreadIDInGroupFlattened.x, l(1)\nstore_raw g0.x, r0.x, r0.y\n\
        sync_g_t\nand r1.x, r0.y, l(3)\nishl r1.x, r1.x, l(2)\nld_raw r1.y, r1.x, g0.xxxx\nstore_raw u0.x, r0.x, r1.y\n\
        imm_atomic_iadd r1.z, u1, l(0), l(1)\niadd r0.x, r0.x, l(16)\nstore_raw u0.x, r0.x, r1.z\nret\n";
    let code = compile(&program(text)).unwrap();
    let mut b = Bindings::default();
    b.uavs.insert(0, Resource::Buffer(Buffer { words: vec![0; 8], ..Buffer::default() }));
    b.uavs.insert(1, Resource::Buffer(Buffer { words: vec![0; 1], ..Buffer::default() }));
    let stats = run_group(&code, &mut b, [0, 0, 0], Limits::default()).unwrap();
    assert!(stats.instructions > 0);
    let words = |r: &Resource| match r {
        Resource::Buffer(b) => b.words.clone(),
        _ => unreachable!(),
    };
    // Neighbours' slots after the barrier, then the atomic's old values in lane order.
    assert_eq!(words(&b.uavs[&0]), vec![2, 3, 4, 1, 0, 1, 2, 3]);
    assert_eq!(words(&b.uavs[&1]), vec![4]);
}

#[test]
fn quad_derivatives_coarse_and_fine() {
    // 16.8: coarse derivatives are one per quad (top row / left column);
    // fine ones per row / column. Lanes: TL, TR, BL, BR.
    let text = "ps_5_0\ndcl_input_ps linear v0.x\ndcl_output o0.xyzw\n\
        deriv_rtx_coarse o0.x, v0.x\nderiv_rty_coarse o0.y, v0.x\nderiv_rtx_fine o0.z, v0.x\nderiv_rty_fine o0.w, v0.x\nret\n";
    let code = compile(&program(text)).unwrap();
    let vals = [1.0f32, 2.0, 10.0, 14.0];
    let mut lanes: Vec<Lane> =
        vals.iter().map(|v| Lane { inputs: vec![[v.to_bits(), 0, 0, 0]], ..Lane::default() }).collect();
    run(&code, &mut Bindings::default(), &mut lanes, Grouping::Quads, Limits::default()).unwrap();
    let o = |l: usize| fl(&lanes[l].outputs[0]);
    assert_eq!(o(0), vec![1.0, 9.0, 1.0, 9.0]);
    assert_eq!(o(3), vec![1.0, 9.0, 4.0, 12.0]);
}

#[test]
fn discarded_lanes_keep_feeding_derivatives() {
    // A discarded pixel is a helper: the derivative after the discard still
    // reads its value (16.8.1).
    let text = "ps_5_0\ndcl_input_ps linear v0.x\ndcl_output o0.x\ndcl_temps 1\n\
        lt r0.x, v0.x, l(1.500000)\ndiscard_nz r0.x\nderiv_rtx_coarse o0.x, v0.x\nret\n";
    let code = compile(&program(text)).unwrap();
    let mut lanes: Vec<Lane> = [1.0f32, 4.0, 2.0, 2.0]
        .iter()
        .map(|v| Lane { inputs: vec![[v.to_bits(), 0, 0, 0]], ..Lane::default() })
        .collect();
    run(&code, &mut Bindings::default(), &mut lanes, Grouping::Quads, Limits::default()).unwrap();
    assert!(lanes[0].discarded && !lanes[1].discarded);
    assert_eq!(f32::from_bits(lanes[1].outputs[0][0]), 3.0);
}

#[test]
fn endless_loops_stop_at_the_budget_with_the_offset() {
    let text = "cs_5_0\ndcl_thread_group 1, 1, 1\nloop\nendloop\nret\n";
    let code = compile(&program(text)).unwrap();
    let e = run_group(&code, &mut Bindings::default(), [0; 3], Limits { budget: 1000 }).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Budget);
    // version + length + dcl_thread_group (4 dwords): loop at 24, endloop at 28.
    assert!(e.to_string().ends_with("(at offset 0x1c)") || e.to_string().ends_with("(at offset 0x18)"), "{e}");
}

#[test]
fn unbalanced_control_flow_is_malformed_with_the_offset() {
    let text = "cs_5_0\ndcl_thread_group 1, 1, 1\nendif\nret\n";
    let e = compile(&program(text)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Malformed);
    assert!(e.to_string().ends_with("(at offset 0x18)"), "{e}");
}

#[test]
fn constant_buffers_and_the_icb_read_zero_out_of_range() {
    // D3D11 5.4.2: out-of-bounds constant-buffer reads return 0.
    let text = "cs_5_0\ndcl_globalFlags refactoringAllowed\n\
        dcl_immediateConstantBuffer { { 1, 2, 3, 4} }\ndcl_constantbuffer CB0[2], dynamicIndexed\ndcl_uav_raw u0\ndcl_temps 2\ndcl_thread_group 1, 1, 1\n\
        mov r0.x, l(5)\nmov r1.x, cb0[1].y\nmov r1.y, cb0[r0.x + 0].x\nmov r1.z, icb[0].w\nmov r1.w, icb[r0.x + 0].x\n\
        store_raw u0.xyzw, l(0), r1.xyzw\nret\n";
    let code = compile(&program(text)).unwrap();
    let mut b = Bindings::default();
    b.cbs.insert(0, vec![0, 0, 0, 0, 10, 11, 12, 13]);
    b.uavs.insert(0, Resource::Buffer(Buffer { words: vec![0; 4], ..Buffer::default() }));
    run_group(&code, &mut b, [0; 3], Limits::default()).unwrap();
    match &b.uavs[&0] {
        Resource::Buffer(b) => assert_eq!(b.words, vec![11, 0, 4, 0]),
        _ => unreachable!(),
    }
}

#[test]
fn texture_loads_and_samples() {
    // ld reads texel (x, y) of mip w; sample with point filtering reads the
    // texel containing the coordinate (7.18.6).
    let text = "ps_5_0\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_sampler s0, mode_default\ndcl_output o0.xyzw\ndcl_output o1.xyzw\n\
        ld o0.xyzw, l(1, 1, 0, 0), t0.xyzw\nsample_l o1.xyzw, l(0.100000, 0.900000, 0.000000, 0.000000), t0.yxzw, s0, l(0.000000)\nret\n";
    let code = compile(&program(text)).unwrap();
    let texels: Vec<[u32; 4]> =
        (0..4).map(|i| [(i as f32).to_bits(), (10.0 + i as f32).to_bits(), 0, 1.0f32.to_bits()]).collect();
    let mut b = Bindings::default();
    b.srvs.insert(0, Resource::Texture(Texture::new_2d(2, 2, Channel::Float, 4, texels)));
    b.samplers.insert(0, Sampler { min_linear: false, mag_linear: false, mip_linear: false, ..Sampler::default() });
    let mut lanes = vec![Lane::default()];
    run(&code, &mut b, &mut lanes, Grouping::Independent, Limits::default()).unwrap();
    assert_eq!(fl(&lanes[0].outputs[0]), vec![3.0, 13.0, 0.0, 1.0]);
    // Texel (0, 1) = 2, swizzled .yx by the resource operand.
    assert_eq!(fl(&lanes[0].outputs[1]), vec![12.0, 2.0, 0.0, 1.0]);
}

#[test]
fn doubles_add_and_convert() {
    // Doubles occupy register pairs (x low, y high); dtof rounds to float.
    let out = cs(
        "ftod r0.xy, l(1.500000)\ndadd r0.xy, r0.xyxy, d(2.250000l, 0.000000l)\ndtof r1.x, r0.xyxy\n\
         store_raw u0.xyz, l(0), r0.xyxx\nstore_raw u0.x, l(12), r1.x\n",
        4,
    );
    assert_eq!(f64::from_bits(out[0] as u64 | (out[1] as u64) << 32), 3.75);
    assert_eq!(f32::from_bits(out[3]), 3.75);
}

#[test]
fn a_derivative_into_its_own_source_register_reads_the_neighbours_before_any_write() {
    // vkd3d's ddxddy test: `deriv_rtx_coarse r0.x, r0.x` must see every
    // lane's old r0.x (found by shader-runner --cpu).
    let text = "ps_5_0\ndcl_input_ps linear v0.x\ndcl_output o0.x\ndcl_temps 1\n\
        mov r0.x, v0.x\nderiv_rtx_coarse r0.x, r0.x\nmov o0.x, r0.x\nret\n";
    let code = compile(&program(text)).unwrap();
    let mut lanes: Vec<Lane> = [0.5f32, 1.5, 0.5, 1.5]
        .iter()
        .map(|v| Lane { inputs: vec![[v.to_bits(), 0, 0, 0]], ..Lane::default() })
        .collect();
    run(&code, &mut Bindings::default(), &mut lanes, Grouping::Quads, Limits::default()).unwrap();
    for l in &lanes {
        assert_eq!(f32::from_bits(l.outputs[0][0]), 1.0);
    }
}

#[test]
fn a_geometry_shader_cuts_only_the_strip_of_the_stream_it_names() {
    // Each stream has its own strip: cut_stream m1, right after an emit to
    // stream 0, ends stream 1's strip and leaves stream 0's open.
    let text = "gs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_inputprimitive point\ndcl_stream m0\n\
                dcl_outputtopology linestrip\ndcl_output o0.xyzw\ndcl_stream m1\ndcl_outputtopology linestrip\n\
                dcl_output o0.xyzw\ndcl_maxout 8\n\
                mov o0.xyzw, l(0,0,0,0)\nemit_stream m0\nmov o0.xyzw, l(10,0,0,0)\nemit_stream m1\n\
                mov o0.xyzw, l(11,0,0,0)\nemit_stream m1\nmov o0.xyzw, l(1,0,0,0)\nemit_stream m0\n\
                cut_stream m1\nmov o0.xyzw, l(2,0,0,0)\nemit_stream m0\nmov o0.xyzw, l(12,0,0,0)\nemit_stream m1\n\
                ret\n";
    let code = compile(&program(text)).unwrap();
    assert_eq!(code.gs.input_vertices, 1);
    let input = GsInput { primitive_id: 0, registers: vec![[0; 4]; code.input_regs as usize] };
    let (prims, _) = run_geometry(&code, &mut Bindings::default(), &[input], Limits::default()).unwrap();
    let lines = |s: u32| -> Vec<Vec<u32>> {
        prims.iter().filter(|p| p.stream == s).map(|p| p.vertices.iter().map(|v| v[0][0]).collect()).collect()
    };
    assert_eq!(lines(0), vec![vec![0, 1], vec![1, 2]]);
    assert_eq!(lines(1), vec![vec![10, 11]]);
}

/// A corpus shader (fxc's output, with its listing beside it).
fn corpus_shader(name: &str) -> Code {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let shader = dxbc::Shader::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    compile_shader(&shader).unwrap()
}

/// The quad-domain hull and domain shaders of the dxdecompiler corpus.
/// Their fxc listing: the hull shader has no control-point phase (the
/// input control points pass through), a fork phase of 4 instances writes
/// `o[vForkInstanceID].x = cb0[12].y` (OuterFactor) and one of 2 instances
/// `o[vForkInstanceID + 4].x = cb0[12].x` (InnerFactor); the signature puts
/// the four QUADEDGE factors in o0..o3.x and the two QUADINT ones in
/// o4.x, o5.x. The domain shader bilinearly interpolates its 4 control
/// points' position (`o0`) by vDomain.xy.
#[test]
fn a_hull_and_domain_pair_runs_every_phase_and_shades_the_tessellators_points() {
    let hs = corpus_shader("dxdecompiler_apps_tesselation_hs.dxbc");
    let ds = corpus_shader("dxdecompiler_apps_tesselation_ds.dxbc");
    let hull = hs.hull.as_deref().unwrap();
    assert!(hull.control_point.is_none());
    assert_eq!(hull.phases.iter().map(|p| (p.join, p.instances)).collect::<Vec<_>>(), vec![(false, 4), (false, 2)]);
    let mut b = Bindings::default();
    let mut cb = vec![0u32; 13 * 4];
    // InnerFactor 3, OuterFactor 2.
    cb[48] = 3.0f32.to_bits();
    cb[49] = 2.0f32.to_bits();
    b.cbs.insert(0, cb);
    // Corners (0,0) (1,0) (1,1) (0,1) at z 0.5, w 1.
    let corners = [[0.0f32, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let mut points = vec![[0u32; 4]; 4 * CONTROL_POINT_REGS];
    for (i, c) in corners.iter().enumerate() {
        points[i * CONTROL_POINT_REGS] = [c[0], c[1], 0.5, 1.0].map(f32::to_bits);
        points[i * CONTROL_POINT_REGS + 1] = [i as u32; 4];
    }
    let input = HullInput { primitive_id: 0, control_points: points.clone() };
    let (patches, stats) = run_hull(&hs, &mut b, &[input], Limits::default()).unwrap();
    // 4 + 2 fork instances of 3 instructions (mov, mov, ret).
    assert_eq!(stats.instructions, 18);
    let patch = &patches[0];
    assert_eq!(&patch.control_points[..], &points[..], "no control-point phase: the inputs pass through");
    let factors: Vec<f32> = patch.patch_constants[..6].iter().map(|r| f32::from_bits(r[0])).collect();
    assert_eq!(factors, vec![2.0, 2.0, 2.0, 2.0, 3.0, 3.0]);
    assert_eq!(
        patch_factors(&hs, &patch.patch_constants).unwrap(),
        tessellator::TessFactors::Quad { edges: [2.0; 4], inside: [3.0; 2] }
    );
    let t = tessellate_patch(&hs, patch).unwrap();
    // The spec's rings: the outer ring has 2 segments a side (8 points),
    // the inside factor 3 leaves one ring of 3 − 2 = 1 segment a side (4
    // points). Stitching a 2-segment side to a 1-segment one gives 3
    // triangles (4 sides: 12), and the 1×1 centre 2: 14, counter-clockwise.
    assert_eq!((t.points.len(), t.primitive_count()), (12, 14));
    assert_eq!(t.primitive, tessellator::OutputPrimitive::TriangleCcw);
    let (outputs, _) = run_domain(&ds, &mut b, patch, &t.points, Limits::default()).unwrap();
    // Over the unit square the bilinear position is the domain point itself.
    for (o, p) in outputs.iter().zip(&t.points) {
        assert_eq!(o[0], [p.u, p.v, 0.5, 1.0].map(f32::to_bits), "{p:?}");
    }
    assert_eq!(outputs.len(), 12);
}

/// A hull shader with all three kinds of phase, in fxc's syntax.
const HULL_PHASES: &str = "hs_5_0\n\
hs_decls\n\
dcl_input_control_point_count 2\n\
dcl_output_control_point_count 3\n\
dcl_tessellator_domain domain_isoline\n\
dcl_tessellator_partitioning partitioning_integer\n\
dcl_tessellator_output_primitive output_line\n\
hs_control_point_phase\n\
dcl_input vOutputControlPointID\n\
dcl_input vPrim\n\
dcl_input vicp[2][0].xyzw\n\
dcl_output o0.xyzw\n\
dcl_temps 1\n\
utof r0.x, vOutputControlPointID\n\
mov o0.x, r0.x\n\
mov o0.y, vicp[1][0].y\n\
mov o0.z, vPrim\n\
mov o0.w, l(7)\n\
ret\n\
hs_fork_phase\n\
dcl_hs_fork_phase_instance_count 2\n\
dcl_input vForkInstanceID\n\
dcl_input vocp[3][0].xyzw\n\
dcl_output_siv o0.x, finalLineDetailTessFactor\n\
dcl_output_siv o1.x, finalLineDensityTessFactor\n\
dcl_temps 1\n\
dcl_indexrange o0.x 2\n\
mov r0.x, vForkInstanceID.x\n\
add o[r0.x + 0].x, vocp[2][0].x, l(1.000000)\n\
ret\n\
hs_join_phase\n\
dcl_input vpc0.x\n\
dcl_input vpc1.x\n\
dcl_input vJoinInstanceID\n\
dcl_output o2.xyzw\n\
mov o2.x, vpc0.x\n\
mov o2.y, vpc1.x\n\
mov o2.z, vJoinInstanceID\n\
mov o2.w, l(5)\n\
ret\n";

/// The D3D11 hull-shader phases: the control-point phase runs once per
/// output control point with vOutputControlPointID and vPrim set and reads
/// vicp; each fork instance sees vForkInstanceID and the output control
/// points (vocp); the join phase reads what the forks wrote (vpc). The
/// isoline factors (detail o0.x, density o1.x, both 2 + 1 = 3) give the
/// spec's 3 lines at v = 0, 1/3, 2/3 (none at 1), of 3 segments each: 12 points, 9 lines.
#[test]
fn hull_phases_see_their_ids_and_each_others_outputs() {
    let hs = compile(&program(HULL_PHASES)).unwrap();
    let mut input = vec![[0u32; 4]; 2 * CONTROL_POINT_REGS];
    input[CONTROL_POINT_REGS][1] = 42;
    let mut b = Bindings::default();
    let (patches, _) =
        run_hull(&hs, &mut b, &[HullInput { primitive_id: 5, control_points: input }], Limits::default()).unwrap();
    let p = &patches[0];
    for i in 0..3 {
        assert_eq!(p.control_points[i * CONTROL_POINT_REGS], [(i as f32).to_bits(), 42, 5, 7], "point {i}");
    }
    let three = 3.0f32.to_bits();
    assert_eq!(p.patch_constants[0][0], three);
    assert_eq!(p.patch_constants[1][0], three);
    assert_eq!(p.patch_constants[2], [three, three, 0, 5]);
    assert_eq!(
        patch_factors(&hs, &p.patch_constants).unwrap(),
        tessellator::TessFactors::Isoline { detail: 3.0, density: 3.0 }
    );
    let t = tessellate_patch(&hs, p).unwrap();
    assert_eq!((t.points.len(), t.primitive_count()), (12, 9));
    // Line k at v = k/3 in the tessellator's 0.24 fixed point (rounded down).
    let rows: Vec<f32> = t.points.iter().map(|q| q.v).step_by(4).collect();
    let at = |k: u32| ((k << 24) / 3) as f32 / (1u32 << 24) as f32;
    assert_eq!(rows, vec![0.0, at(1), at(2)]);
}

/// Every hull and domain shader of the fxc corpus compiles (fxc accepted
/// them, so each is well formed) and runs its default invocation — one
/// patch of zeroed control points through every phase, or one domain
/// point — within the budget.
#[test]
fn every_corpus_hull_and_domain_shader_runs() {
    use dxbc::spec::ProgramType as P;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).collect();
    names.sort();
    let mut ran = [0usize; 2];
    for path in names.iter().filter(|p| p.extension().is_some_and(|e| e == "dxbc")) {
        let Ok(shader) = dxbc::Shader::decode(&std::fs::read(path).unwrap()) else { continue };
        let Some(p) = &shader.program else { continue };
        let stage = P::from_u32(p.version.program_type());
        if !matches!(stage, Some(P::HullShader | P::DomainShader)) {
            continue;
        }
        let code = compile_shader(&shader).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut b = default_bindings(&code);
        run_default(&code, &mut b, Limits::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        ran[(stage == Some(P::DomainShader)) as usize] += 1;
    }
    // The corpus holds 32 hull and 11 domain shaders.
    assert_eq!(ran, [32, 11], "hull and domain shaders run");
}
