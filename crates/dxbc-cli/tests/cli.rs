//! The `dxbc` command end to end: outputs on real files, stdin, and errors.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn corpus(rel: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(rel);
    assert!(p.exists(), "corpus file {} is missing", p.display());
    p
}

fn dxbc(args: &[&str], stdin: Option<&[u8]>) -> (i32, Vec<u8>, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dxbc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(data) = stdin {
        c.stdin.take().unwrap().write_all(data).unwrap();
    } else {
        drop(c.stdin.take());
    }
    let o = c.wait_with_output().unwrap();
    (o.status.code().unwrap_or(-1), o.stdout, String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn disasm_prints_exactly_the_fxc_listing() {
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let (code, out, _) = dxbc(&["disasm", f.to_str().unwrap()], None);
    assert_eq!(code, 0);
    assert_eq!(String::from_utf8(out).unwrap(), std::fs::read_to_string(f.with_extension("asm")).unwrap());
}

#[test]
fn reads_stdin_and_rebuilds_identically() {
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let bytes = std::fs::read(&f).unwrap();
    let (code, out, _) = dxbc(&["rebuild", "-"], Some(&bytes));
    assert_eq!(code, 0);
    assert_eq!(out, bytes);
}

#[test]
fn info_names_profile_checksum_and_chunks() {
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let (code, out, _) = dxbc(&["info", f.to_str().unwrap()], None);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(code, 0);
    assert!(text.contains("profile   vs_4_0_level_9_3"), "{text}");
    assert!(text.contains("checksum  valid"), "{text}");
    assert!(text.contains("Aon9   offset 0x000038  size     136"), "{text}");
}

#[test]
fn bad_input_exits_nonzero_with_one_line_naming_the_offset() {
    let (code, out, err) = dxbc(&["disasm", "-"], Some(b"DXBC but not really"));
    assert_ne!(code, 0);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("(at offset 0x"), "{err}");
}

#[test]
fn link_fragment_decodes_to_the_file_and_panes() {
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let (code, out, _) = dxbc(&["link", "--pane", "preview", f.to_str().unwrap()], None);
    assert_eq!(code, 0);
    let fragment = String::from_utf8(out).unwrap();
    assert!(fragment.starts_with("#v1/"), "{fragment}");
    let link = dxbc::permalink::decode(fragment.trim()).unwrap();
    assert_eq!(link.shader, std::fs::read(&f).unwrap());
    assert_eq!(link.view.panes, dxbc::permalink::panes::PREVIEW);
}

#[test]
fn link_select_opens_with_the_token_at_an_offset_selected() {
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let f = f.to_str().unwrap();
    for (arg, want) in [("0x1e", 0x1c), ("30", 0x1c), ("0x20", 0x20)] {
        let (code, out, err) = dxbc(&["link", "--select", arg, f], None);
        assert_eq!(code, 0, "{err}");
        let link = dxbc::permalink::decode(String::from_utf8(out).unwrap().trim()).unwrap();
        assert_eq!(link.view.selection, Some((want, 4)), "--select {arg}");
        assert_eq!(link.view.panes, dxbc::permalink::panes::DEFAULT);
    }
    // Outside the program a byte selects its whole field: here a string.
    let bytes = std::fs::read(f).unwrap();
    let s = dxbc::Shader::decode(&bytes).unwrap();
    let creator =
        dxbc::spans::leaves(&s).leaves.into_iter().find(|l| l.len > 8 && l.path.ends_with("creator")).unwrap();
    let inside = format!("{}", creator.offset + 5);
    let (_, out, _) = dxbc(&["link", "--select", &inside, f], None);
    let link = dxbc::permalink::decode(String::from_utf8(out).unwrap().trim()).unwrap();
    assert_eq!(link.view.selection, Some((creator.offset as u32, creator.len as u32)));
    let len = std::fs::metadata(f).unwrap().len();
    for bad in [len.to_string(), "zz".to_string()] {
        let (code, out, err) = dxbc(&["link", "--select", &bad, f], None);
        assert_ne!(code, 0);
        assert!(out.is_empty());
        assert!(err.contains("--select"), "{err}");
    }
}

#[test]
fn translate_writes_wgsl_with_the_binding_map() {
    let f = corpus("vkd3d/abs/000_ps_4_0.dxbc");
    let (code, out, err) = dxbc(&["translate", "--to", "wgsl", f.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("// b0, space0 -> @group(0) @binding(0)\n"), "{text}");
    assert!(text.contains("@fragment"));
    let gs = corpus("fxc/angle63_buffertotexture11_gs.dxbc");
    let (code, _, err) = dxbc(&["translate", "--to", "wgsl", "--form", "native", gs.to_str().unwrap()], None);
    assert_eq!(code, 3, "a refusal has its own exit status");
    assert!(err.contains("geometry shaders have no naga stage"), "{err}");
    let l = dxbc_naga::Limitation::GeometryStage;
    assert!(err.contains(&format!("refused ({}): {}", l.name(), l.why())), "{err}");
    assert!(err.lines().next().unwrap().ends_with(')') && err.contains("(at offset 0x"), "{err}");
    // Malformed input is an error, not a refusal.
    let (code, _, _) = dxbc(&["translate", "--to", "wgsl", "-"], Some(&b"DXBC"[..]));
    assert_eq!(code, 1);
}

#[test]
fn translate_writes_a_geometry_shader_as_its_compute_pass_and_its_draw() {
    let gs = corpus("blobs/vkd3dproton_pso_gs_topology_triangle.dxbc");
    let gs = gs.to_str().unwrap();
    let shader = dxbc::Shader::parse(&std::fs::read(gs).unwrap()).unwrap();
    for (form, stage) in [("auto", "@compute"), ("draw", "@vertex")] {
        let (code, out, err) = dxbc(&["translate", "--to", "wgsl", "--form", form, gs], None);
        assert_eq!(code, 0, "{err}");
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains(stage), "{text}");
        // The header is the library's description of the pass and its buffers.
        let form = if form == "auto" { dxbc_naga::StageForm::Compute } else { dxbc_naga::StageForm::DrawFromBuffer };
        let t = dxbc_naga::translate_pipeline_stage(&shader, &Default::default(), form).unwrap();
        for line in t.compute_form.as_ref().unwrap().describe() {
            assert!(text.contains(&format!("// {line}\n")), "{line}");
        }
        assert_stage_buffers_listed(&t, &text);
    }
    // SPIR-V (naga 30 has no geometry stage either) is the compute pass.
    let (code, out, err) = dxbc(&["translate", "--to", "spirv-asm", gs], None);
    assert_eq!(code, 0, "{err}");
    assert!(String::from_utf8(out).unwrap().contains("OpEntryPoint GLCompute"));
}

/// The header names every stage buffer of `t`, its access and binding.
fn assert_stage_buffers_listed(t: &dxbc_naga::Translation, text: &str) {
    let mut n = 0;
    for b in &t.bindings {
        let dxbc_naga::BindingKind::StageBuffer { role, writable } = b.kind else { continue };
        let access = if writable { "read-write" } else { "read-only" };
        let line = format!("// {} buffer ({access}) -> @group({}) @binding({})", role.name(), b.group, b.binding);
        assert!(text.contains(&line), "{line}");
        n += 1;
    }
    assert!(n > 0, "no stage buffer in {text}");
}

#[test]
fn translate_writes_hull_and_domain_shaders_as_their_passes() {
    let hs = corpus("fxc/dxdecompiler_apps_tesselation_hs.dxbc");
    let ds = corpus("fxc/dxdecompiler_apps_tesselation_ds.dxbc");
    use dxbc_naga::StageForm as F;
    let cases = [
        (&hs, "auto", F::Compute, "@compute"),
        (&hs, "patch-constant", F::PatchConstant, "@compute"),
        (&ds, "auto", F::DrawFromBuffer, "@vertex"),
        (&ds, "compute", F::Compute, "@compute"),
    ];
    for (file, form, library_form, stage) in cases {
        let path = file.to_str().unwrap();
        let (code, out, err) = dxbc(&["translate", "--to", "wgsl", "--form", form, path], None);
        assert_eq!(code, 0, "{form}: {err}");
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains(stage), "{text}");
        // The header is the library's description of the passes.
        let shader = dxbc::Shader::parse(&std::fs::read(file).unwrap()).unwrap();
        let t = dxbc_naga::translate_pipeline_stage(&shader, &Default::default(), library_form).unwrap();
        for line in t.compute_form.as_ref().unwrap().describe() {
            assert!(text.contains(&format!("// {line}\n")), "{line}");
        }
        assert_stage_buffers_listed(&t, &text);
    }
    // The fxc listing of this hull shader: quad domain, integer
    // partitioning, ccw triangles, 4 control points in and out; its patch
    // constants are 4 edge factors in o0..o3.x and 2 inside ones in o4, o5.
    let shader = dxbc::Shader::parse(&std::fs::read(&hs).unwrap()).unwrap();
    let t = dxbc_naga::translate_pipeline_stage(&shader, &Default::default(), F::PatchConstant).unwrap();
    let tess = t.compute_form.unwrap().tessellation.unwrap();
    assert_eq!(tess.domain, Some(dxbc_naga::stages::TessDomain::Quad));
    assert_eq!(tess.partitioning, Some(dxbc_naga::stages::Partitioning::Integer));
    assert_eq!(tess.output_primitive, Some(dxbc_naga::stages::TessOutputPrimitive::TriangleCcw));
    assert_eq!((tess.input_control_points, tess.output_control_points), (4, 4));
    let factors: Vec<(&str, u32, u32, u32)> =
        tess.factors.iter().map(|f| (f.system_value.as_str(), f.semantic_index, f.register, f.component)).collect();
    assert_eq!(
        factors,
        [
            ("QUADEDGE", 0, 0, 0),
            ("QUADEDGE", 1, 1, 0),
            ("QUADEDGE", 2, 2, 0),
            ("QUADEDGE", 3, 3, 0),
            ("QUADINT", 0, 4, 0),
            ("QUADINT", 1, 5, 0)
        ]
    );
    // Native, a hull shader is still refused, typed.
    let (code, _, err) = dxbc(&["translate", "--to", "wgsl", "--form", "native", hs.to_str().unwrap()], None);
    assert_eq!(code, 3, "{err}");
    let l = dxbc_naga::Limitation::HullStage;
    assert!(err.contains(&format!("refused ({}): {}", l.name(), l.why())), "{err}");
}

#[test]
fn translate_writes_doubles_for_every_target() {
    // Doubles: native f64 in SPIR-V, software binary64 (`f64_add` on u32 pairs) in the text targets.
    let f = corpus("fxc/dxdecompiler_basiccompute11_basiccompute11_raw_double.dxbc");
    let f = f.to_str().unwrap();
    for to in ["wgsl", "hlsl", "msl", "glsl"] {
        let (code, out, err) = dxbc(&["translate", "--to", to, f], None);
        assert_eq!(code, 0, "{to}: {err}");
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("f64_add") && text.contains("f64_fma"), "{to}");
    }
    let (code, out, err) = dxbc(&["translate", "--to", "spirv", f], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(&out[..4], &0x0723_0203u32.to_le_bytes(), "SPIR-V magic");
}

/// The offset `dxbc dump` prints for the opcode token of the listing line `line`.
#[test]
fn translate_states_emulations_and_their_bindings() {
    let f = corpus("blobs/vkd3d_d3d12_cs_producer_code.dxbc");
    let (code, out, err) = dxbc(&["translate", "--to", "wgsl", f.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    // The counter's binding is the library's placement, named as a counter.
    let (g, b) = dxbc_naga::BindingScheme::GroupPerClass.place_counter(0, 0);
    assert!(text.contains(&format!("// u0 counter, space0 -> @group({g}) @binding({b})\n")), "{text}");
    let e = dxbc_naga::Emulation::UavCounters;
    assert!(text.contains(&format!("// emulated ({}): {}\n", e.name(), e.what())), "{text}");
    assert!(text.contains(&format!("@group({g}) @binding({b}) var<storage, read_write> u0_counter: atomic<u32>;")));
}

/// Interfaces: the header names the class-instance binding and each slot's
/// default, which for DynamicShaderLinkage11's PS follows fxc's listing of
/// IFCE: slot 0 takes g_plasticMaterial (type 5, cb1 row 0; type 5's table
/// in slot 0 is ft5), slots 1-3 g_ambientLight (type 12, cb0 row 0; tables
/// ft12, ft18, ft24).
#[test]
fn translate_states_the_default_class_instances() {
    let f = corpus("fxc/slimshader_dynamicshaderlinkage11_dynamicshaderlinkage11_ps.dxbc");
    let (code, out, err) = dxbc(&["translate", "--to", "wgsl", f.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    let (g, b) = dxbc_naga::BindingScheme::GroupPerClass.place_class_instances();
    assert!(text.contains(&format!("// class instances (4 interface slots) -> @group({g}) @binding({b})\n")), "{text}");
    for (slot, table, cb) in [(0, 5, 1), (1, 12, 0), (2, 18, 0), (3, 24, 0)] {
        let line = format!("//   slot {slot} default: table ft{table}, this = {{cb {cb}, row 0, t 0, s 0}}\n");
        assert!(text.contains(&line), "{line}{text}");
    }
}

fn offset_of(file: &str, line: &str) -> String {
    let (_, dump, _) = dxbc(&["dump", file], None);
    let dump = String::from_utf8(dump).unwrap();
    let mut it = dump.lines().skip_while(|l| *l != format!("; {line}"));
    assert!(it.next().is_some(), "`{line}` not in the dump");
    it.next().unwrap().split_whitespace().next().unwrap().to_string()
}

#[test]
fn edit_sets_a_field_by_name_and_re_signs() {
    let f = corpus("fxc/angle63_passthrougha2d11ps.dxbc");
    let f = f.to_str().unwrap();
    let at = offset_of(f, "mov o0.w, r0.w");
    let (code, edited, err) = dxbc(&["edit", f, "--at", &at, "--field", "saturate", "--value", "1"], None);
    assert_eq!(code, 0, "{err}");
    let (code, listing, _) = dxbc(&["disasm", "-"], Some(&edited));
    assert_eq!(code, 0);
    let expect = std::fs::read_to_string(PathBuf::from(f).with_extension("asm"))
        .unwrap()
        .replace("\nmov o0.w, r0.w\n", "\nmov_sat o0.w, r0.w\n");
    assert_eq!(String::from_utf8(listing).unwrap(), expect);
    let (_, info, _) = dxbc(&["info", "-"], Some(&edited));
    assert!(String::from_utf8(info).unwrap().contains("checksum  valid"));
    // An enum value by name, and a refusal that names the field and offset.
    let (code, _, err) = dxbc(&["edit", f, "--at", &at, "--field", "opcode", "--value", "not_an_op"], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("field `opcode`")
            && err.trim_end().ends_with(&format!("(at offset {:#x})", u32::from_str_radix(&at[2..], 16).unwrap())),
        "{err}"
    );
    let (code, edited, _) = dxbc(&["edit", f, "--at", &at, "--delete"], None);
    assert_eq!(code, 0);
    let (_, listing, _) = dxbc(&["disasm", "-"], Some(&edited));
    assert!(!String::from_utf8(listing).unwrap().contains("mov o0.w, r0.w"));
}

#[test]
fn info_on_a_truncated_file_lists_what_decoded_and_each_error() {
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let bytes = std::fs::read(&f).unwrap();
    let c = dxbc::Container::parse(&bytes).unwrap();
    // Cut inside the last chunk: every chunk before it stays whole.
    let last = c.chunks.iter().max_by_key(|ch| ch.offset).unwrap();
    let cut = last.offset + 12;
    let (code, out, err) = dxbc(&["info", "-"], Some(&bytes[..cut]));
    let text = String::from_utf8(out).unwrap();
    assert_ne!(code, 0);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("truncated: container size field"), "{err}");
    for ch in c.chunks.iter().filter(|ch| ch.offset != last.offset) {
        let line = format!("{:<6} offset 0x{:06x}  size {:>7}", ch.fourcc(), ch.offset, ch.size);
        assert!(text.contains(&line), "{line} missing from\n{text}");
    }
    let slot = c.chunks.len() - 1;
    let want = format!(
        "  [truncated] chunk #{slot} {} at {:#x}: chunk declares {} payload bytes but only 4 remain; decoding those (at offset {:#x})",
        last.fourcc(),
        last.offset,
        last.size,
        last.offset + 4
    );
    assert!(text.lines().any(|l| l == want), "{want} missing from\n{text}");
}

#[test]
fn disasm_on_a_damaged_file_prints_what_decoded_and_fails() {
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let mut bytes = std::fs::read(&f).unwrap();
    let c = dxbc::Container::parse(&bytes).unwrap();
    // Point the RDEF slot outside the file: the program still disassembles.
    let slot = c.chunks.iter().position(|ch| &ch.tag == b"RDEF").unwrap();
    let rdef = &c.chunks[slot];
    let outside = (bytes.len() as u32 + 64).to_le_bytes();
    bytes[rdef.table_offset..rdef.table_offset + 4].copy_from_slice(&outside);
    let (code, out, err) = dxbc(&["disasm", "-"], Some(&bytes));
    let text = String::from_utf8(out).unwrap();
    assert_ne!(code, 0);
    assert!(err.contains(&format!("out of bounds: chunk #{slot} at ")), "{err}");
    let golden = std::fs::read_to_string(f.with_extension("asm")).unwrap();
    let body = |t: &str| t.lines().skip_while(|l| !l.starts_with("vs_")).map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(body(&text), body(&golden));
}

#[test]
fn asm_assembles_the_fxc_listing_to_the_same_program() {
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let (code, out, err) = dxbc(&["asm", f.with_extension("asm").to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let ours = dxbc::Shader::parse(&out).unwrap();
    let orig = dxbc::Shader::parse(&std::fs::read(&f).unwrap()).unwrap();
    assert!(ours.checksum_ok());
    assert_eq!(ours.program.unwrap().encode(), orig.program.unwrap().encode());
}

#[test]
fn asm_error_names_line_column_and_offset() {
    let (code, out, err) = dxbc(&["asm", "-"], Some(b"ps_5_0\nmov r0.x, q1.x\n"));
    assert_ne!(code, 0);
    assert!(out.is_empty());
    assert_eq!(err.trim_end(), "dxbc: unknown register `q` at line 2, column 11 (at offset 0x11)");
}

/// `dxbc spans` lines as (offset, length, path, value).
fn spans_lines(out: &[u8]) -> Vec<(usize, usize, String, String)> {
    String::from_utf8(out.to_vec())
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "{l}");
            (f[0].parse().unwrap(), f[1].parse().unwrap(), f[2].to_string(), f[3].to_string())
        })
        .collect()
}

/// Names in the first column of one signature table of an fxc listing.
fn listed_names(asm: &str, title: &str) -> Vec<String> {
    let table = asm.split(title).nth(1).unwrap();
    table.lines().skip(4).take_while(|l| *l != "//").map(|l| l[3..].split(' ').next().unwrap().to_string()).collect()
}

#[test]
fn spans_tile_the_file_and_name_the_listed_semantics() {
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let bytes = std::fs::read(&f).unwrap();
    let (code, out, _) = dxbc(&["spans", f.to_str().unwrap()], None);
    assert_eq!(code, 0);
    let lines = spans_lines(&out);
    let mut end = 0;
    for (o, n, p, _) in &lines {
        assert_eq!(*o, end, "{p}");
        end = o + n;
    }
    assert_eq!(end, bytes.len());
    let value = |path: &str| lines.iter().find(|l| l.2 == path).map(|l| l.3.clone()).unwrap();
    assert_eq!(value("header/total_size"), format!("0x{:08x}", bytes.len()));
    let asm = std::fs::read_to_string(f.with_extension("asm")).unwrap();
    for (chunk, title) in [("ISGN", "// Input signature:"), ("OSGN", "// Output signature:")] {
        let names: Vec<String> = lines
            .iter()
            .filter(|l| l.2.starts_with(&format!("{chunk}/elements[")) && l.2.ends_with("/semantic_name"))
            .map(|l| l.3.clone())
            .collect();
        assert_eq!(names, listed_names(&asm, title), "{chunk}");
    }
    let (code, from_stdin, _) = dxbc(&["spans", "-"], Some(&bytes));
    assert_eq!((code, from_stdin), (0, out));
}

#[test]
fn spans_of_a_damaged_file_still_tile_and_exit_nonzero() {
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let mut bytes = std::fs::read(&f).unwrap();
    // Cut the last chunk short and make the container's and the chunk's
    // size fields agree, so the container parses and the chunk decoder
    // meets the cut.
    let dword = |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as usize;
    let last = dword(&bytes, 0x20 + 4 * (dword(&bytes, 0x1c) - 1));
    bytes.truncate(bytes.len() - 10);
    let (n, size) = (bytes.len() as u32, dword(&bytes, last + 4) as u32 - 10);
    bytes[0x18..0x1c].copy_from_slice(&n.to_le_bytes());
    bytes[last + 4..last + 8].copy_from_slice(&size.to_le_bytes());
    let (code, out, err) = dxbc(&["spans", "-"], Some(&bytes));
    assert_ne!(code, 0);
    assert!(err.contains("(at offset 0x"), "{err}");
    let lines = spans_lines(&out);
    assert_eq!(lines.iter().map(|l| l.1).sum::<usize>(), bytes.len());
    assert!(lines.iter().any(|l| l.2.ends_with("/undecoded")), "no undecoded leaf");
}

#[test]
fn edit_by_path_and_by_listing_text() {
    let f = corpus("fxc/angle63_passthrougha2d11ps.dxbc");
    let f = f.to_str().unwrap();
    let golden = std::fs::read_to_string(PathBuf::from(f).with_extension("asm")).unwrap();
    let at = offset_of(f, "mov o0.w, r0.w");
    let (code, edited, err) = dxbc(&["edit", f, "--at", &at, "--replace", "mov_sat o0.w, r0.w"], None);
    assert_eq!(code, 0, "{err}");
    let (_, listing, _) = dxbc(&["disasm", "-"], Some(&edited));
    assert_eq!(String::from_utf8(listing).unwrap(), golden.replace("\nmov o0.w, r0.w\n", "\nmov_sat o0.w, r0.w\n"));
    let (code, edited, err) = dxbc(&["edit", f, "--at", &at, "--insert", "add r0.x, r0.x, l(1.000000)"], None);
    assert_eq!(code, 0, "{err}");
    let (_, listing, _) = dxbc(&["disasm", "-"], Some(&edited));
    let want = golden.replace("\nmov o0.w, r0.w\n", "\nadd r0.x, r0.x, l(1.000000)\nmov o0.w, r0.w\n");
    // The slot count in the trailer comes from STAT, which the edit leaves alone.
    assert_eq!(String::from_utf8(listing).unwrap(), want);
    let (code, edited, err) = dxbc(&["edit", f, "--path", "OSGN/elements[0]/register", "--value", "3"], None);
    assert_eq!(code, 0, "{err}");
    let (_, spans, _) = dxbc(&["spans", "-"], Some(&edited));
    assert!(spans_lines(&spans).iter().any(|l| l.2 == "OSGN/elements[0]/register" && l.3 == "0x00000003"));
    let (code, _, err) = dxbc(&["edit", f, "--at", &at, "--insert", "mov r0.x, q1.x"], None);
    assert_eq!(code, 1);
    assert!(err.contains("cannot assemble"), "{err}");
}

#[test]
fn search_prints_one_tab_separated_line_per_match_and_a_count() {
    let f = corpus("fxc/angle930_buffertotexture11_ps_4f.dxbc");
    let (code, out, err) = dxbc(&["search", f.to_str().unwrap(), "v1"], None);
    assert_eq!(code, 0);
    let text = String::from_utf8(out).unwrap();
    // fxc's listing: `dcl_input_ps constant v1.x` and `ld o0.xyzw, v1.xxxx, t0.xyzw`.
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(rows[0][3], "dcl_input_ps constant v1.x");
    assert_eq!(rows[1][3], "ld o0.xyzw, v1.xxxx, t0.xyzw");
    assert_eq!(err.trim(), "2 matches");
    // The disassembly's line numbers (1-based) are the lines printing them.
    let (_, listing, _) = dxbc(&["disasm", f.to_str().unwrap()], None);
    let listing = String::from_utf8(listing).unwrap();
    let lines: Vec<&str> = listing.lines().collect();
    for r in &rows {
        assert_eq!(lines[r[2].parse::<usize>().unwrap() - 1], r[3]);
    }
    // The file's magic, as hex bytes, at offset 0.
    let (_, out, err) = dxbc(&["search", f.to_str().unwrap(), "44 58 42 43"], None);
    assert!(String::from_utf8(out).unwrap().starts_with("0\t4\t-\t"));
    assert_eq!(err.trim(), "1 match");
}

#[test]
fn search_counts_every_mov_of_fxcs_listing() {
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let asm = std::fs::read_to_string(f.with_extension("asm")).unwrap();
    // The level-9 part of the header has its own `mov`s; count after the profile line.
    let program = asm.split_once("\nvs_4_0\n").unwrap().1;
    let want = program.lines().filter(|l| l.split(' ').next() == Some("mov")).count();
    let (code, out, _) = dxbc(&["search", f.to_str().unwrap(), "mov"], None);
    assert_eq!(code, 0);
    assert_eq!(String::from_utf8(out).unwrap().lines().count(), want);
    assert!(want > 0);
}

#[test]
fn diff_exits_0_for_identical_and_1_naming_the_changed_field() {
    let f = corpus("fxc/angle930_buffertotexture11_ps_4f.dxbc");
    let (code, out, _) = dxbc(&["diff", f.to_str().unwrap(), f.to_str().unwrap()], None);
    assert_eq!((code, String::from_utf8(out).unwrap().as_str()), (0, "  ... 6 unchanged\n"));
    // Saturate the `ld` at 0x33c (the fifth of six instructions).
    let (code, edited, err) =
        dxbc(&["edit", f.to_str().unwrap(), "--at", "0x33c", "--field", "saturate", "--value", "1"], None);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = dxbc(&["diff", f.to_str().unwrap(), "-"], Some(&edited));
    let text = String::from_utf8(out).unwrap();
    assert_eq!(code, 1);
    assert_eq!(
        text,
        "header bytes 4..20 differ (checksum)\n\
         chunk SHDR changed (a 0x2f4+104, b 0x2f4+104)\n\
         \x20 ... 4 unchanged\n\
         - 0x00033c  ld o0.xyzw, v1.xxxx, t0.xyzw\n\
         + 0x00033c  ld_sat o0.xyzw, v1.xxxx, t0.xyzw\n\
         \x20   saturate: 0 -> 1 (dword 0x00033c / 0x00033c)\n\
         \x20 ... 1 unchanged\n"
    );
    let (code, _, err) = dxbc(&["diff", f.to_str().unwrap(), "/nonexistent"], None);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn link_diff_carries_both_files_and_opens_the_diff_view() {
    let f = corpus("fxc/angle930_buffertotexture11_ps_4f.dxbc");
    let original = std::fs::read(&f).unwrap();
    let (code, edited, err) =
        dxbc(&["edit", f.to_str().unwrap(), "--at", "0x33c", "--field", "saturate", "--value", "1"], None);
    assert_eq!(code, 0, "{err}");
    // The edited file comes on stdin; the original is compared with it.
    let (code, out, err) = dxbc(&["link", "-", "--diff", f.to_str().unwrap(), "--select", "0x33c"], Some(&edited));
    assert_eq!(code, 0, "{err}");
    let link = dxbc::permalink::decode(String::from_utf8(out).unwrap().trim()).unwrap();
    assert_eq!(link.shader, edited);
    assert_eq!(link.view.compare.as_deref(), Some(original.as_slice()));
    assert_eq!(link.view.panes, dxbc::permalink::panes::DEFAULT | dxbc::permalink::panes::DIFF);
    assert_eq!(link.view.selection, Some((0x33c, 4)));
    // Without --diff the link carries no second file and leaves the diff view closed.
    let (_, out, _) = dxbc(&["link", f.to_str().unwrap()], None);
    let plain = dxbc::permalink::decode(String::from_utf8(out).unwrap().trim()).unwrap();
    assert_eq!((plain.view.compare, plain.view.panes & dxbc::permalink::panes::DIFF), (None, 0));
    // A second file that does not decode is refused, with its name.
    let (code, out, err) = dxbc(&["link", f.to_str().unwrap(), "--diff", "-"], Some(b"not a shader"));
    assert_eq!((code, out.is_empty()), (1, true), "{err}");
    assert!(err.contains("--diff -"), "{err}");
}

/// The numbers between the braces of the first `const BYTE` array.
fn c_bytes(h: &str) -> Vec<u8> {
    let body = h.split_once("const BYTE").unwrap().1;
    let body = &body[body.find('{').unwrap() + 1..body.find('}').unwrap()];
    body.split(',').map(|v| v.trim().parse().unwrap()).collect()
}

#[test]
fn header_is_fxcs_fh_layout_and_reads_back() {
    let f = corpus("fxc/angle930_buffertotexture11_ps_4f.dxbc");
    let bytes = std::fs::read(&f).unwrap();
    let (code, out, _) = dxbc(&["header", f.to_str().unwrap(), "--name", "Copy"], None);
    assert_eq!(code, 0);
    let h = String::from_utf8(out).unwrap();
    let (_, listing, _) = dxbc(&["disasm", f.to_str().unwrap()], None);
    let listing = String::from_utf8(listing).unwrap();
    assert!(h.starts_with(&format!("#if 0\n{listing}#endif\n\nconst BYTE g_Copy[] =\n{{\n     68,  88,  66,  67, ")));
    assert_eq!(c_bytes(&h), bytes);
    // 984 bytes: 164 full rows, the last without a trailing comma.
    assert!(h.ends_with("      0,   0,   0,   0,   0,   0\n};\n"), "{}", &h[h.len() - 200..]);
}

/// `--format` gives the view format the bytecode does not carry: the vkd3d
/// test binds u0 of this shader as r32g32b32a32-float
/// (`vkd3d/uav-out-param/uav-out-param.shader_test`).
#[test]
fn translate_takes_the_typed_uav_format() {
    let test = std::fs::read_to_string(corpus("vkd3d/uav-out-param/uav-out-param.shader_test")).unwrap();
    assert!(test.contains("\n[uav 0]\nformat r32g32b32a32-float\n"), "{test}");
    let f = corpus("vkd3d/uav-out-param/002_cs_5_0.dxbc");
    let f = f.to_str().unwrap();
    let (code, out, err) = dxbc(&["translate", "--to", "wgsl", f], None);
    assert_eq!(code, 0, "{err}");
    let default = String::from_utf8(out).unwrap();
    assert!(default.contains("texture_storage_2d<r32float,read_write>"), "{default}");
    let (code, out, err) = dxbc(&["translate", "--to", "wgsl", "--format", "u0=rgba32float", f], None);
    assert_eq!(code, 0, "{err}");
    let given = String::from_utf8(out).unwrap();
    assert!(given.contains("texture_storage_2d<rgba32float,read_write>"), "{given}");
    assert!(!given.contains("r32float"), "{given}");
    // A format of another kind than the declared one is not applied.
    let (_, out, _) = dxbc(&["translate", "--to", "wgsl", "--format", "u0=rgba32uint", f], None);
    assert_eq!(String::from_utf8(out).unwrap(), default);
    for bad in ["u0", "x0=r32float", "u=r32float", "u0=rgba8unorm"] {
        let (code, out, err) = dxbc(&["translate", "--to", "wgsl", "--format", bad, f], None);
        assert_eq!(code, 1, "{bad}");
        assert!(out.is_empty() && err.contains("--format"), "{bad}: {err}");
    }
}

/// `--link-ps` gives a vertex shader its pixel shader's interpolation: in
/// vkd3d's nointerpolation test the pixel shader's input is
/// `nointerpolation float4 t : texcoord` (register v0), so the vertex
/// shader's output o0 must be flat too, as the pixel shader declares it.
#[test]
fn translate_links_a_vertex_shader_to_its_pixel_shader() {
    let ps_source = std::fs::read_to_string(corpus("vkd3d/nointerpolation/004_ps.hlsl")).unwrap();
    assert!(ps_source.contains("nointerpolation float4 t : texcoord"), "{ps_source}");
    let vs = corpus("vkd3d/nointerpolation/003_vs_4_0.dxbc");
    let ps = corpus("vkd3d/nointerpolation/004_ps_4_0.dxbc");
    let (vs, ps) = (vs.to_str().unwrap(), ps.to_str().unwrap());
    let wgsl = |args: &[&str]| {
        let (code, out, err) = dxbc(args, None);
        assert_eq!(code, 0, "{err}");
        String::from_utf8(out).unwrap()
    };
    let ps_wgsl = wgsl(&["translate", "--to", "wgsl", ps]);
    assert!(ps_wgsl.contains("@location(0) @interpolate(flat) texcoord: vec4<f32>"), "{ps_wgsl}");
    let alone = wgsl(&["translate", "--to", "wgsl", vs]);
    assert!(alone.contains("    @location(0) texcoord0_: vec4<f32>,"), "{alone}");
    let linked = wgsl(&["translate", "--to", "wgsl", "--link-ps", ps, vs]);
    assert!(linked.contains("    @location(0) @interpolate(flat) texcoord0_: vec4<f32>,"), "{linked}");
    // Only the interpolation differs.
    assert_eq!(linked.replace("@interpolate(flat) ", ""), alone);
    // SPIR-V carries it as a decoration (Flat on the output variable).
    let (code, out, err) = dxbc(&["translate", "--to", "spirv-asm", "--link-ps", ps, vs], None);
    assert_eq!(code, 0, "{err}");
    assert!(String::from_utf8(out).unwrap().contains("Flat"));
    // Linking with anything but a pixel shader is an error, not a silent default.
    let (code, out, err) = dxbc(&["translate", "--to", "wgsl", "--link-ps", vs, vs], None);
    assert_eq!(code, 1);
    assert!(out.is_empty() && err.contains("not a pixel shader"), "{err}");
}

/// Operands of an fxc listing line (`mul r0.xyzw, r1.xyzw, cb0[2].xyzw`),
/// split at the top-level commas.
fn operands_of(line: &str) -> Vec<String> {
    let Some((_, rest)) = line.trim().split_once(' ') else { return Vec::new() };
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0);
    for c in rest.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur.trim().to_string());
    out
}

#[test]
fn defuse_prints_every_write_and_read_of_a_register_at_fxcs_lines() {
    let f = corpus("fxc/dxdecompiler_apps_tesselation_vs.dxbc");
    let golden = std::fs::read_to_string(f.with_extension("asm")).unwrap();
    // The truth from fxc's listing: instructions whose destination is r0,
    // and those naming r0 in a source.
    let names_r0 = |o: &str| o.trim_start_matches('-').trim_start_matches('|').starts_with("r0.");
    let (mut writes, mut reads) = (Vec::new(), Vec::new());
    for (k, l) in golden.lines().enumerate() {
        if l.starts_with("dcl_") || l.starts_with("//") {
            continue;
        }
        let ops = operands_of(l);
        if ops.first().is_some_and(|o| names_r0(o)) {
            writes.push(k + 1);
        }
        for _ in ops.iter().skip(1).filter(|o| names_r0(o)) {
            reads.push(k + 1);
        }
    }
    assert!(!writes.is_empty() && !reads.is_empty());
    let (code, out, err) = dxbc(&["defuse", f.to_str().unwrap(), "r0"], None);
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    let lines_of =
        |kind: &str| -> Vec<usize> { rows.iter().filter(|r| r[0] == kind).map(|r| r[3].parse().unwrap()).collect() };
    assert_eq!(lines_of("write"), writes, "{text}");
    assert_eq!(lines_of("read"), reads, "{text}");
    let golden_lines: Vec<&str> = golden.lines().collect();
    for r in &rows {
        assert_eq!(golden_lines[r[3].parse::<usize>().unwrap() - 1], r[5], "the line printed is fxc's");
    }
    assert_eq!(err.trim(), format!("r0: {} writes, {} reads", writes.len(), reads.len()));
    // Not a register: a one-line error, exit non-zero.
    let (code, _, err) = dxbc(&["defuse", f.to_str().unwrap(), "mul"], None);
    assert_ne!(code, 0);
    assert!(err.contains("not a register"), "{err}");
}

/// A temporary folder removed on drop.
struct TempDir(PathBuf);
impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("dxbc-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Three corpus shaders among junk, and their offsets.
fn three_among_junk(names: &[&str]) -> (Vec<u8>, Vec<(usize, Vec<u8>)>) {
    let mut data = b"header of some archive, mentions DXBC in text ".to_vec();
    let mut at = Vec::new();
    for (i, n) in names.iter().enumerate() {
        data.extend(std::iter::repeat_n(0xA5u8, 3 + i * 5));
        let bytes = std::fs::read(corpus(&format!("fxc/{n}.dxbc"))).unwrap();
        at.push((data.len(), bytes.clone()));
        data.extend_from_slice(&bytes);
    }
    data.extend_from_slice(b"trailer");
    (data, at)
}

fn sha256sum(bytes: &[u8]) -> String {
    // The system tool as the oracle for our digest.
    let mut c = Command::new("sha256sum").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    c.stdin.take().unwrap().write_all(bytes).unwrap();
    let o = c.wait_with_output().unwrap();
    String::from_utf8(o.stdout).unwrap().split_whitespace().next().unwrap().to_string()
}

/// MANIFEST.tsv rows of the fxc corpus: name → (profile, compiler, bytes, slots).
fn manifest() -> std::collections::HashMap<String, (String, String, usize, u32)> {
    let text = std::fs::read_to_string(corpus("fxc/MANIFEST.tsv")).unwrap();
    let mut rows = text.lines();
    let head: Vec<&str> = rows.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (p, c, b, s) = (col("profile"), col("compiler"), col("bytes"), col("slots"));
    rows.map(|l| {
        let f: Vec<&str> = l.split('\t').collect();
        (f[0].to_string(), (f[p].to_string(), f[c].to_string(), f[b].parse().unwrap(), f[s].parse().unwrap()))
    })
    .collect()
}

#[test]
fn scan_finds_each_shader_among_junk_with_offset_digest_and_facts() {
    let names = ["angle63_passthrough2d11vs", "angle63_buffertotexture11_gs", "angle63_passthrough2d11vs"];
    let (data, at) = three_among_junk(&names);
    let dir = TempDir::new("scan");
    let file = dir.0.join("archive.pak");
    std::fs::write(&file, &data).unwrap();
    let (code, out, err) = dxbc(&["scan", file.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("1 files, 3 shaders"), "{err}");
    let lines: Vec<serde_json::Value> =
        String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    let m = manifest();
    for ((l, (offset, bytes)), name) in lines.iter().zip(&at).zip(names) {
        let (profile, compiler, size, slots) = &m[name];
        assert_eq!(l["file"], file.to_str().unwrap());
        assert_eq!(l["offset"], *offset);
        assert_eq!(l["size"], *size);
        assert_eq!(l["size"], bytes.len());
        assert_eq!(l["sha256"], sha256sum(bytes));
        assert_eq!(l["profile"], profile.as_str());
        assert_eq!(l["creator"], compiler.as_str());
        assert_eq!(l["instructions"], *slots);
        assert_eq!(l["checksum"], "valid");
        assert_eq!(l["program"], "dxbc");
        assert_eq!(l["stage"], &profile[..2]);
        // Whether it translates: the exit status of `dxbc translate` on the file.
        let (t, _, _) =
            dxbc(&["translate", "--to", "wgsl", corpus(&format!("fxc/{name}.dxbc")).to_str().unwrap()], None);
        assert_eq!(l["translates"], t == 0, "{name}");
    }
    assert_eq!(lines[1]["features"], serde_json::json!(["geometry"]));
}

#[test]
fn scan_walks_a_folder_and_agrees_with_the_manifest() {
    let m = manifest();
    let dir = corpus("fxc");
    let (code, out, err) = dxbc(&["scan", "--no-translate", dir.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    let mut seen = 0;
    for l in text.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let path = PathBuf::from(v["file"].as_str().unwrap());
        let name = path.file_stem().unwrap().to_str().unwrap();
        let (profile, compiler, size, slots) = &m[name];
        assert_eq!(v["offset"], 0, "{name}");
        assert_eq!((&v["profile"], &v["size"]), (&profile.as_str().into(), &(*size).into()), "{name}");
        // Stripped files (no RDEF) name the disassembler in the manifest and have no creator string.
        let creator =
            if compiler.starts_with("Microsoft (R) D3D Shader Disassembler") { None } else { Some(compiler.as_str()) };
        assert_eq!(v["creator"].as_str(), creator, "{name}");
        // The manifest's slots are fxc's "Approximately N instruction slots used"
        // (0 where a stripped file has no STAT chunk to count them).
        let stat = if creator.is_none() && *slots == 0 { None } else { Some(u64::from(*slots)) };
        assert_eq!(v["instructions"].as_u64(), stat, "{name}");
        assert_eq!(v["checksum"], "valid");
        seen += 1;
    }
    assert_eq!(seen, m.len());
}

#[test]
fn scan_reports_a_damaged_container_as_invalid() {
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let mut bytes = b"junk".to_vec();
    bytes.extend(std::fs::read(&f).unwrap());
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    let dir = TempDir::new("invalid");
    let file = dir.0.join("damaged.bin");
    std::fs::write(&file, &bytes).unwrap();
    let (code, out, _) = dxbc(&["scan", "--no-translate", file.to_str().unwrap()], None);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!((v["offset"].as_u64(), v["checksum"].as_str()), (Some(4), Some("invalid")));
}

#[test]
fn extract_writes_each_container_as_name_offset() {
    let names = ["angle63_passthrough2d11vs", "angle63_buffertotexture11_gs", "angle63_passthrough3d11gs"];
    let (data, at) = three_among_junk(&names);
    let dir = TempDir::new("extract");
    let file = dir.0.join("bundle.bin");
    std::fs::write(&file, &data).unwrap();
    let out = dir.0.join("out");
    let (code, _, err) = dxbc(&["extract", file.to_str().unwrap(), "--out", out.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let mut written: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    written.sort();
    let mut expected: Vec<String> = at.iter().map(|(o, _)| format!("bundle_{o}.dxbc")).collect();
    expected.sort();
    assert_eq!(written, expected);
    for (o, bytes) in &at {
        assert_eq!(&std::fs::read(out.join(format!("bundle_{o}.dxbc"))).unwrap(), bytes);
    }
}

#[test]
fn scan_summary_counts_opcodes_as_the_listings_show_them() {
    // Mnemonics fxc prints without suffixes, counted in the listings.
    let names = ["angle63_passthrough2d11vs", "angle63_buffertotexture11_gs", "angle63_passthrough3d11gs"];
    let dir = TempDir::new("summary");
    let mut want: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    for n in names {
        std::fs::copy(corpus(&format!("fxc/{n}.dxbc")), dir.0.join(format!("{n}.dxbc"))).unwrap();
        let listing = std::fs::read_to_string(corpus(&format!("fxc/{n}.asm"))).unwrap();
        for op in ["ret", "dcl_input", "dcl_output", "dcl_temps", "dcl_inputprimitive"] {
            let k = listing.lines().filter(|l| l.split_whitespace().next() == Some(op)).count();
            let e = want.entry(op).or_default();
            e.0 += k;
            e.1 += usize::from(k > 0);
        }
    }
    let (code, out, err) = dxbc(&["scan", "--summary", dir.0.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("files\t3\nshaders\t3\n"), "{text}");
    assert!(text.contains("\nchecksum\tshaders\nvalid\t3\n"), "{text}");
    assert!(text.contains("\nfeature\tshaders\ngeometry\t2\n"), "{text}");
    let opcodes = text.split("opcode\tcount\tshaders\n").nth(1).unwrap();
    for (op, (count, shaders)) in want {
        assert!(count > 0, "{op} does not occur in the listings");
        let row = format!("{op}\t{count}\t{shaders}");
        assert!(opcodes.lines().any(|l| l == row), "{row} not in\n{opcodes}");
    }
}

#[test]
fn a_dxil_container_is_listed_as_dxil_and_says_its_code_is_not_disassembled() {
    // DXIL program header (vs_6_0, 6 dwords) and bitcode header, no bitcode;
    // an input signature with no elements.
    let mut dxil = Vec::new();
    for w in [0x0001_0060u32, 6, u32::from_le_bytes(*b"DXIL"), 0x100, 16, 0] {
        dxil.extend_from_slice(&w.to_le_bytes());
    }
    let isg1 = [0u8, 0, 0, 0, 8, 0, 0, 0];
    let c = dxbc::container::write_container(1, &[(*b"ISG1", &isg1[..]), (*b"DXIL", &dxil)]);
    let (code, out, err) = dxbc(&["info", "-"], Some(&c));
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("profile   vs_6_0 (DXIL: signatures and reflection decode; DXIL code is not disassembled)"),
        "{text}"
    );
    let dir = TempDir::new("dxil");
    let file = dir.0.join("dxil.bin");
    let mut data = b"0123456".to_vec();
    data.extend_from_slice(&c);
    std::fs::write(&file, &data).unwrap();
    let (code, out, _) = dxbc(&["scan", file.to_str().unwrap()], None);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        (v["offset"].as_u64(), v["program"].as_str(), v["profile"].as_str()),
        (Some(7), Some("dxil"), Some("vs_6_0"))
    );
    assert_eq!(
        (v["stage"].as_str(), v["checksum"].as_str(), v["translates"].as_bool()),
        (Some("vs"), Some("valid"), Some(false))
    );
}

#[test]
fn source_prints_the_embedded_hlsl_and_info_lists_it() {
    let f = corpus("fxc/dxdecompiler_misc_debugtest.dxbc");
    let (code, out, _) = dxbc(&["source", f.to_str().unwrap()], None);
    assert_eq!(code, 0);
    let text = String::from_utf8(out).unwrap();
    let name = r"C:\Files\KM\DXDecompiler\src\SlimShader.Tests\Shaders\Internal\Misc\DebugTest.hlsl";
    let (head, body) = text.split_once('\n').unwrap();
    assert_eq!(head, format!("// ==== source 1/1: {name} (stream 8, 607 bytes) ===="));
    // The text as stored: 607 bytes, CRLF line ends kept, plus the closing newline.
    assert_eq!(body.len(), 608);
    assert!(body.starts_with("cbuffer cbPerFrame : register(b1)\r\n{\r\n"));
    assert!(body.ends_with("\treturn vDiffuse * fLighting;\r\n}\n"));
    // The listing's `#line` names the same file.
    let asm = std::fs::read_to_string(f.with_extension("asm")).unwrap();
    assert!(asm.contains(&format!("#line 21 \"{name}\"")));

    let (code, out, _) = dxbc(&["info", f.to_str().unwrap()], None);
    assert_eq!(code, 0);
    let info = String::from_utf8(out).unwrap();
    assert!(info.contains(&format!("sources   1\n      607 bytes  md5 ok  {name}\n")), "{info}");

    // A shader without /Zi has nothing to print and says so.
    let g = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let (code, _, err) = dxbc(&["source", g.to_str().unwrap()], None);
    assert_ne!(code, 0);
    assert!(err.contains("no SPDB chunk"), "{err}");
}

/// An fx_5_0 effect written by the library's encoder (fxc cannot run here):
/// technique `Render` (inline VS, PS variable `g_PS`) and `Post/Blur`
/// (inline CS); returns the file and each shader's offset.
fn effect_file() -> (Vec<u8>, Vec<usize>) {
    use dxbc::effects::{Builder, ShaderSource, Stage};
    let read = |n: &str| std::fs::read(corpus(&format!("fxc/{n}.dxbc"))).unwrap();
    let (bytes, shaders) = Builder::new()
        .variable("g_PS", Stage::Pixel, read("angle63_resolvedepth11_ps"))
        .technique(
            None,
            "Render",
            vec![(
                "P0",
                vec![
                    (Stage::Vertex, ShaderSource::Inline(read("angle63_resolvedepthstencil11_vs"))),
                    (Stage::Pixel, ShaderSource::Variable("g_PS".into())),
                ],
            )],
        )
        .technique(
            Some("Post"),
            "Blur",
            vec![("Setup", vec![(Stage::Compute, ShaderSource::Inline(read("depthoffieldfx_cs_fast_filter_setup")))])],
        )
        .build();
    let mut at: Vec<usize> = shaders.iter().map(|s| s.offset).collect();
    at.sort();
    (bytes, at)
}

#[test]
fn scan_names_the_shaders_of_an_effect_file() {
    let (bytes, at) = effect_file();
    let dir = TempDir::new("scan-fx");
    let file = dir.0.join("post.fxo");
    std::fs::write(&file, &bytes).unwrap();
    let (code, out, err) = dxbc(&["scan", "--no-translate", file.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> =
        String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let got: Vec<(u64, &str, &str)> = lines
        .iter()
        .map(|l| (l["offset"].as_u64().unwrap(), l["name"].as_str().unwrap(), l["stage"].as_str().unwrap()))
        .collect();
    // The order the builder lays shaders out: variables first, then passes.
    let want = [
        (at[0] as u64, "Render/P0/ps", "ps"),
        (at[1] as u64, "Render/P0/vs", "vs"),
        (at[2] as u64, "Post/Blur/Setup/cs", "cs"),
    ];
    assert_eq!(got, want);
    assert_eq!(
        lines[0]["effect"],
        serde_json::json!({"technique": "Render", "pass": "P0", "stage": "ps", "variable": "g_PS"})
    );
    assert_eq!(
        lines[2]["effect"],
        serde_json::json!({"group": "Post", "technique": "Blur", "pass": "Setup", "stage": "cs"})
    );
}

#[test]
fn extract_puts_effect_names_in_file_names_and_spans_tile_an_effect() {
    let (bytes, at) = effect_file();
    let dir = TempDir::new("extract-fx");
    let file = dir.0.join("post.fxo");
    std::fs::write(&file, &bytes).unwrap();
    let out = dir.0.join("out");
    let (code, _, err) = dxbc(&["extract", file.to_str().unwrap(), "--out", out.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let mut written: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    written.sort();
    let mut want = vec![
        format!("post_Render_P0_ps_{}.dxbc", at[0]),
        format!("post_Render_P0_vs_{}.dxbc", at[1]),
        format!("post_Post_Blur_Setup_cs_{}.dxbc", at[2]),
    ];
    want.sort();
    assert_eq!(written, want);
    let (code, tsv, err) = dxbc(&["spans", file.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let mut end = 0;
    for line in String::from_utf8(tsv).unwrap().lines() {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f[0].parse::<usize>().unwrap(), end, "{line}");
        end += f[1].parse::<usize>().unwrap();
        if f[0].parse::<usize>().unwrap() == at[1] {
            assert!(f[2].ends_with("/shader/bytecode"), "{line}");
        }
    }
    assert_eq!(end, bytes.len());
}

#[test]
fn run_traces_each_instruction_as_fxc_lists_it_with_what_it_wrote() {
    // Straight-line code: the trace is fxc's instruction lines in order.
    let f = corpus("fxc/xenia_float24_round_ps.dxbc");
    let (code, out, err) = dxbc(&["run", f.to_str().unwrap(), "--pixel", "3,5"], None);
    assert_eq!(code, 0, "{err}");
    let out = String::from_utf8(out).unwrap();
    let asm = std::fs::read_to_string(f.with_extension("asm")).unwrap();
    let fxc: Vec<&str> =
        asm.lines().filter(|l| !l.starts_with("//") && !l.starts_with("dcl_") && !l.is_empty()).skip(1).collect();
    let traced: Vec<&str> =
        out.lines().filter(|l| l.starts_with("0x")).map(|l| l.split_once("  ").unwrap().1).collect();
    assert_eq!(traced, fxc.iter().map(|l| l.trim_end()).collect::<Vec<_>>());
    // Every instruction but `ret` writes one register, printed as floats and bits.
    let writes = out.lines().filter(|l| l.starts_with("        ")).count();
    assert_eq!(writes, fxc.len() - 1);
    assert!(out.contains("        r0.x = ("), "{out}");
    assert!(out.lines().any(|l| l.starts_with("; final oDepth = ")), "{out}");
    // A preview link of the same file gives the same trace.
    let (_, link, _) = dxbc(&["link", f.to_str().unwrap()], None);
    let link = String::from_utf8(link).unwrap();
    let (code, via_link, err) = dxbc(&["run", "--link", link.trim(), "--pixel", "3,5"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(String::from_utf8(via_link).unwrap(), out);
}

#[test]
fn run_refuses_an_invocation_of_another_stage_or_outside_the_preview() {
    let f = corpus("fxc/xenia_float24_round_ps.dxbc");
    let (code, _, err) = dxbc(&["run", f.to_str().unwrap(), "--vertex", "0"], None);
    assert_eq!(code, 1);
    assert!(err.contains("does not fit a Pixel shader"), "{err}");
    let (code, _, err) = dxbc(&["run", f.to_str().unwrap(), "--pixel", "256,0"], None);
    assert_eq!(code, 1);
    assert!(err.contains("outside what the preview runs"), "{err}");
}

#[test]
fn run_takes_the_invocation_of_a_debug_link() {
    use dxbc::permalink::{DebugInvocation, DebugView, Permalink, ViewState};
    let f = corpus("fxc/xenia_float24_round_ps.dxbc");
    let debug = Some(DebugView { invocation: DebugInvocation::Pixel { x: 3, y: 5 }, step: 7 });
    let link = dxbc::permalink::encode(&Permalink {
        shader: std::fs::read(&f).unwrap(),
        view: ViewState { debug, ..Default::default() },
    });
    let (code, via_link, err) = dxbc(&["run", "--link", &link], None);
    assert_eq!(code, 0, "{err}");
    let (_, direct, _) = dxbc(&["run", f.to_str().unwrap(), "--pixel", "3,5"], None);
    assert_eq!(String::from_utf8(via_link).unwrap(), String::from_utf8(direct).unwrap());
}

#[test]
fn run_prints_the_groupshared_and_uav_words_each_store_writes() {
    // Read off fxc's listing: thread 0 of group 0 stores to g0 at index
    // vThreadIDInGroupFlattened = 0 seven times (the first sum, four
    // halvings where it is below 32, 16, 8 and 4, then below 2, then the
    // last at l(0)), each time the r0.x the `add` (or `dp3`) just before
    // wrote; only thread 0 writes word 0, so each store's old word is the
    // previous store's new one (0 at first). Then it stores g0 word 0 to u0
    // word vThreadGroupID.y * cb0[0].x + vThreadGroupID.x = 0.
    let f = corpus("fxc/slimshader_hdrtonemappingcs11_reduceto1dcs.dxbc");
    let (code, out, err) = dxbc(&["run", f.to_str().unwrap(), "--thread", "0,0,0:0,0,0"], None);
    assert_eq!(code, 0, "{err}");
    let out = String::from_utf8(out).unwrap();
    let hex = |s: &str| u32::from_str_radix(s.trim_start_matches("0x"), 16).unwrap();
    let (mut last_r0x, mut g0_word0, mut g0_stores, mut in_store) = (None, 0u32, 0, false);
    let mut u0 = Vec::new();
    for line in out.lines() {
        if let Some(ins) = line.strip_prefix("0x").and_then(|l| l.split_once("  ")).map(|x| x.1) {
            in_store = ins.starts_with("store_structured");
            continue;
        }
        let w = line.trim_start();
        if let Some(bits) = w.strip_prefix("r0.x = (").and_then(|r| r.split_once(") [")).map(|x| x.1) {
            last_r0x = Some(hex(bits.trim_end_matches(']')));
        }
        if let Some(rest) = w.strip_prefix("g0 word ") {
            assert!(in_store, "{line}");
            let (index, rest) = rest.split_once(" = ").unwrap();
            let (new, old) = rest.split_once(" (was ").unwrap();
            assert_eq!(index, "0", "{line}");
            assert_eq!(hex(old.trim_end_matches(')')), g0_word0, "{line}");
            assert_eq!(Some(hex(new)), last_r0x, "{line}");
            g0_word0 = hex(new);
            g0_stores += 1;
        }
        if let Some(rest) = w.strip_prefix("u0 word ") {
            u0.push(rest.to_string());
        }
    }
    assert_eq!(g0_stores, 7, "{out}");
    assert_ne!(g0_word0, 0);
    assert_eq!(u0, [format!("0 = {g0_word0:#010x} (was 0x00000000)")]);
}

/// `disasm --dialect exact | asm` gives back the program of a shader whose
/// fxc listing loses float bits (its Poisson-disc offsets print as six
/// decimals that read back as other floats); the plain listing does not.
#[test]
fn the_exact_listing_assembles_back_to_the_same_program() {
    let f = corpus("fxc/shadowfx_ps_sf_t2d_uniform_tex_fetch_gather4_tap_type_poiss_0064.dxbc");
    let original = std::fs::read(&f).unwrap();
    let program = |bytes: &[u8]| {
        let s = dxbc::Shader::parse(bytes).unwrap();
        let c = s.container.find(b"SHEX").or_else(|| s.container.find(b"SHDR")).unwrap();
        bytes[c.data_range()].to_vec()
    };
    let (code, exact, _) = dxbc(&["disasm", "--dialect", "exact", f.to_str().unwrap()], None);
    assert_eq!(code, 0);
    let text = String::from_utf8(exact.clone()).unwrap();
    // Nine significant digits where six decimals would read back as
    // another float; six where they give the float back.
    assert!(text.contains("l(2.087556, 5.296667, 0.935969889, 3.788376)"), "{text}");
    let (code, rebuilt, err) = dxbc(&["asm", "-"], Some(&exact));
    assert_eq!(code, 0, "{err}");
    assert_eq!(program(&rebuilt), program(&original));
    let (_, plain, _) = dxbc(&["disasm", f.to_str().unwrap()], None);
    let (_, lossy, _) = dxbc(&["asm", "-"], Some(&plain));
    assert_ne!(program(&lossy), program(&original));
}

#[test]
fn spirv_negates_the_position_y_unless_asked_not_to() {
    // A vertex shader that writes SV_Position (o0) from its input.
    let f = corpus("fxc/angle63_passthrough2d11vs.dxbc");
    let f = f.to_str().unwrap();
    let text = |extra: &[&str]| {
        let mut args = vec!["translate", "--to", "spirv-asm", f];
        args.extend_from_slice(extra);
        let (code, out, err) = dxbc(&args, None);
        assert_eq!(code, 0, "{err}");
        String::from_utf8(out).unwrap()
    };
    let (flipped, as_d3d) = (text(&[]), text(&["--no-y-flip"]));
    let negations = |s: &str| s.lines().filter(|l| l.contains("OpFNegate")).count();
    // Vulkan's clip space has y down, D3D's up: one negation of y, only
    // for a viewport of positive height.
    assert_eq!(negations(&flipped), negations(&as_d3d) + 1);
}
