//! SPDB (`/Zi` debug information) against the corpus: every file with the
//! chunk decodes, its listing with debug info equals fxc's, and the decoded
//! fields agree with what fxc's own listing prints.

use dxbc::chunks::spdb::{msf, Spdb};
use dxbc::{ErrorKind, Shader};
use std::path::PathBuf;

fn corpus() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fxc");
    assert!(d.is_dir(), "corpus directory {} is missing", d.display());
    d
}

/// Every corpus file whose container has an SPDB chunk.
fn spdb_files() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(corpus()).unwrap().flatten().map(|e| e.path()).collect();
    names.sort();
    for p in names {
        if p.extension().is_some_and(|e| e == "dxbc") {
            let b = std::fs::read(&p).unwrap();
            if let Ok(c) = dxbc::Container::parse(&b) {
                if c.find(b"SPDB").is_some() {
                    out.push((p.file_stem().unwrap().to_string_lossy().into_owned(), b));
                }
            }
        }
    }
    out
}

fn load(name: &str) -> Shader {
    let b = std::fs::read(corpus().join(format!("{name}.dxbc"))).unwrap_or_else(|_| panic!("{name}.dxbc missing"));
    Shader::parse(&b).unwrap()
}

#[test]
fn every_spdb_file_decodes_and_prints_fxcs_listing() {
    let files = spdb_files();
    assert_eq!(files.len(), 3, "the corpus has three /Zi files");
    for (name, b) in files {
        let s = Shader::parse(&b).unwrap_or_else(|e| panic!("{name}: {e}"));
        let p = s.spdb.as_deref().unwrap_or_else(|| panic!("{name}: no SPDB model"));
        assert!(p.faults.is_empty(), "{name}: {:?}", p.faults);
        assert!(p.info.is_some() && p.names.is_some() && p.types.is_some() && p.module.is_some(), "{name}");
        assert_eq!(p.sources.len(), 1, "{name}: one source file");
        let asm = std::fs::read_to_string(corpus().join(format!("{name}.asm"))).unwrap();
        let ours = dxbc::listing::disassemble(&s);
        if ours != asm {
            let d: Vec<String> = ours
                .lines()
                .zip(asm.lines())
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .take(5)
                .map(|(i, (a, b))| format!("line {}: ours {a:?} fxc {b:?}", i + 1))
                .collect();
            panic!("{name}: listing differs\n{}", d.join("\n"));
        }
        // The MD5 fxc recorded for the file is the MD5 of the stored text.
        assert_eq!(p.sources[0].checksum_ok, Some(true), "{name}");
        // The source text fxc stored is what its `#line` names point into.
        let src = &p.sources[0];
        let line_file = asm.lines().find_map(|l| l.strip_prefix("#line ")).and_then(|l| l.split_once(' ')).unwrap().1;
        assert_eq!(format!("\"{}\"", src.name), line_file, "{name}");
    }
}

#[test]
fn container_and_info_stream_fields() {
    let s = load("dxdecompiler_misc_debugtest");
    let p = s.spdb.as_deref().unwrap();
    assert_eq!(p.msf.block_size, 512);
    assert_eq!(p.msf.block_count, 27);
    assert_eq!(p.msf.streams.len(), 16);
    assert_eq!(p.msf.directory_map_block, 25);
    // Every block of the chunk is 512 bytes: 27 blocks are the whole payload.
    let c = s.container.find(b"SPDB").unwrap();
    assert_eq!(c.size, 27 * 512);
    let i = p.info.as_ref().unwrap();
    assert_eq!(i.version, 20000404);
    assert_eq!(i.age, 1);
    let names: Vec<&str> = i.named_streams.iter().map(|n| n.name.as_str()).collect();
    assert!(names.contains(&"/names") && names.contains(&"/LinkInfo") && names.contains(&"/src/headerblock"));
    let src = &p.sources[0];
    assert_eq!(src.stream_name, r"c:\files\km\dxdecompiler\src\slimshader.tests\shaders\internal\misc\debugtest.hlsl");
    assert_eq!(src.name, r"C:\Files\KM\DXDecompiler\src\SlimShader.Tests\Shaders\Internal\Misc\DebugTest.hlsl");
    assert!(src.text.starts_with("cbuffer cbPerFrame : register(b1)\r\n"));
    assert!(src.text.contains("float4 PSMain(VS_OUTPUT Input) : SV_TARGET"));
    let m = p.module.as_ref().unwrap();
    assert_eq!(m.compiler.as_deref(), Some("Microsoft (R) HLSL Shader Compiler 10.1"));
    assert!(m.environment.contains(&("hlslTarget".into(), "ps_5_0".into())));
    assert!(m.environment.contains(&("hlslEntry".into(), "PSMain".into())));
    let e = m.entry.as_ref().unwrap();
    assert_eq!(e.name, "PSMain");
    // The entry point's code range ends at the end of the SHEX payload.
    let shex = s.container.find(b"SHEX").unwrap();
    assert_eq!((e.code_offset + e.code_len) as usize, shex.size);
}

#[test]
fn line_table_maps_instruction_offsets_to_source_lines() {
    let s = load("dxdecompiler_misc_debugtest");
    let p = s.spdb.as_deref().unwrap();
    let m = p.module.as_ref().unwrap();
    let prog = s.program.as_ref().unwrap();
    // The first executable instruction (dp3_sat) is the statement on line 21.
    let dp3 = prog.instructions.iter().find(|i| i.info().is_some_and(|x| x.asm == "dp3")).unwrap();
    let rel = dp3.offset - prog.offset as u32;
    assert_eq!(rel, 0x64);
    let e = m.line_at(rel).unwrap();
    assert_eq!((e.line, e.statement), (21, true));
    let text = &p.sources[0].text;
    assert!(text.lines().nth(20).unwrap().contains("saturate(dot(g_vLightDir, Input.vNormal))"));
    // fxc writes two entries per instruction: statement, then expression.
    assert_eq!(m.lines.len(), 12);
    assert!(m.lines.chunks(2).all(|w| w[0].offset == w[1].offset && w[0].statement && !w[1].statement));
}

#[test]
fn variable_records_name_registers_and_ranges() {
    let s = load("dxdecompiler_misc_debugtest");
    let p = s.spdb.as_deref().unwrap();
    let m = p.module.as_ref().unwrap();
    let names: Vec<&str> = m.locals.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["Input", "<PSMain return value>", "vDiffuse", "fLighting"]);
    let input = &m.locals[0];
    assert_eq!(input.ranges.len(), 9);
    let regs: Vec<String> = input.ranges.iter().map(|r| r.register_name()).collect();
    assert_eq!(regs, ["v0.x", "v0.y", "v0.z", "v1.x", "v1.y", "v2.x", "v2.y", "v2.z", "v2.w"]);
    let types = p.types.as_ref().unwrap();
    assert_eq!(types.piece_path(input.type_index, 12), ".vTexcoord.x");
    let f = &m.locals[3];
    assert_eq!(f.ranges[0].register_name(), "r0.x");
    assert!(!f.ranges[0].is_member());
    assert_eq!((f.ranges[0].start, f.ranges[0].length), (0x84, 0x88));
}

#[test]
fn gaps_and_inline_sites_decode() {
    let s = load("specialk_rec2020_pq_10bit_fixed");
    let m = s.spdb.as_deref().unwrap().module.as_ref().unwrap();
    let ret = m.locals.iter().find(|l| l.name == "<main return value>").unwrap();
    // o0.x leaves its register at 0x100 and is back at 0x26c (fxc prints it after `exp o0.xyz`).
    assert_eq!(ret.ranges[0].gaps, vec![(0xa0, 0x16c)]);
    assert_eq!(ret.ranges[0].arrivals(), vec![0x60, 0x26c]);
    assert_eq!(m.inline_sites.len(), 1);
    assert_eq!(m.inlinees, vec![(0x1000, 0, 15)]);
    // The inlined ApplyREC2084Curve starts on line 26 at 0x100 and its statements cover 0x100..0x26c.
    assert_eq!(m.inline_line_at(0x100), Some((0, 26)));
    assert_eq!(m.inline_line_at(0x11c), Some((0, 27)));
    assert_eq!(m.inline_line_at(0x26c), None);
}

#[test]
fn damaged_containers_fail_with_offsets() {
    let s = load("specialk_vs_colorutil");
    let c = s.container.find(b"SPDB").unwrap();
    let data = s.bytes[c.data_range()].to_vec();
    let base = c.offset + 8;
    assert!(Spdb::parse(&data, base).is_ok());
    // Wrong magic.
    let mut d = data.clone();
    d[0] = b'X';
    let e = Spdb::parse(&d, base).unwrap_err();
    assert_eq!(e.offset(), base);
    // Block count beyond the chunk.
    let mut d = data.clone();
    d[40..44].copy_from_slice(&1000u32.to_le_bytes());
    let e = Spdb::parse(&d, base).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::OutOfBounds, base + 40));
    // Directory map block past the file.
    let mut d = data.clone();
    d[52..56].copy_from_slice(&99u32.to_le_bytes());
    let e = Spdb::parse(&d, base).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::OutOfBounds, base + 52));
    assert!(e.to_string().contains("(at offset 0x"), "{e}");
    // Truncated to the superblock.
    let e = Spdb::parse(&data[..msf::SUPERBLOCK_SIZE], base).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfBounds);
    // A stream block number past the file: the directory's first stream block.
    let dir_map = u32::from_le_bytes(data[52..56].try_into().unwrap()) as usize;
    let dir_block = u32::from_le_bytes(data[dir_map * 512..dir_map * 512 + 4].try_into().unwrap()) as usize;
    let count = u32::from_le_bytes(data[dir_block * 512..dir_block * 512 + 4].try_into().unwrap()) as usize;
    let first_block = dir_block * 512 + 4 + 4 * count;
    let mut d = data.clone();
    d[first_block..first_block + 4].copy_from_slice(&5000u32.to_le_bytes());
    let e = Spdb::parse(&d, base).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::OutOfBounds, base + first_block));
}
