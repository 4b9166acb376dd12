use super::*;
use wasm_encoder::{Function, MemorySection, MemoryType, TableType};

/// A funcref table of `minimum` (up to `maximum`) slots, one memory page and
/// one mutable i32 global (a stack pointer), as wasm-ld lays them out.
fn table_memory_global(m: &mut Module, minimum: u64, maximum: Option<u64>) {
    let mut tables = TableSection::new();
    tables.table(TableType {
        element_type: wasm_encoder::RefType::FUNCREF,
        table64: false,
        minimum,
        maximum,
        shared: false,
    });
    m.section(&tables);
    let mut memories = MemorySection::new();
    memories.memory(MemoryType { minimum: 1, maximum: None, memory64: false, shared: false, page_size_log2: None });
    m.section(&memories);
    let mut globals = GlobalSection::new();
    let gty = wasm_encoder::GlobalType { val_type: ValType::I32, mutable: true, shared: false };
    globals.global(gty, &ConstExpr::i32_const(0));
    m.section(&globals);
}

/// A module like a small Rust one: an import `env.ext(x) = 10x` (given by
/// the test), a funcref table holding f2, a memory, a stack-pointer global.
///   f1 a(x) = b(x) + 1            exported
///   f2 b(x) = c(x) * ext(x)       (also in table slot 1)
///   f3 c(x) = x + 2 + sp          (sp = 0)
///   f4 d(x) = call_indirect slot 1 (x)   exported
fn sample() -> Vec<u8> {
    let mut m = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([ValType::I32], [ValType::I32]);
    m.section(&types);
    let mut imports = ImportSection::new();
    imports.import("env", "ext", EntityType::Function(0));
    m.section(&imports);
    let mut funcs = FunctionSection::new();
    for _ in 0..4 {
        funcs.function(0);
    }
    m.section(&funcs);
    table_memory_global(&mut m, 2, Some(2));
    let mut exports = ExportSection::new();
    exports.export("a", ExportKind::Func, 1);
    exports.export("d", ExportKind::Func, 4);
    exports.export("memory", ExportKind::Memory, 0);
    m.section(&exports);
    let mut elements = ElementSection::new();
    elements.active(None, &ConstExpr::i32_const(1), Elements::Functions(Cow::Borrowed(&[2])));
    m.section(&elements);
    let mut code = CodeSection::new();
    let body = |ins: &[Instruction]| {
        let mut f = Function::new([]);
        for i in ins {
            f.instruction(i);
        }
        f.instruction(&Instruction::End);
        f
    };
    use Instruction::*;
    code.function(&body(&[LocalGet(0), Call(2), I32Const(1), I32Add]));
    code.function(&body(&[LocalGet(0), Call(3), LocalGet(0), Call(0), I32Mul]));
    code.function(&body(&[LocalGet(0), I32Const(2), I32Add, GlobalGet(0), I32Add]));
    code.function(&body(&[LocalGet(0), I32Const(1), CallIndirect { type_index: 0, table_index: 0 }]));
    m.section(&code);
    m.finish()
}

fn imports_of(wasm: &[u8]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in Parser::new(0).parse_all(wasm) {
        if let Payload::ImportSection(r) = p.unwrap() {
            for i in r.into_imports() {
                let i = i.unwrap();
                out.push((i.module.to_string(), i.name.to_string()));
            }
        }
    }
    out
}

#[test]
fn moves_the_cold_function_and_imports_what_it_calls() {
    let wasm = sample();
    let split = split(&wasm, &[true, false, true, true]).unwrap();
    assert_eq!((split.kept, split.moved), (3, 1));
    assert_eq!(imports_of(&split.primary), [("env".into(), "ext".into()), ("__split".into(), "load".into())]);
    // b calls c (f3) and ext (f0); the secondary imports both, plus table, memory and global.
    let names: Vec<String> = imports_of(&split.secondary).into_iter().map(|(m, n)| format!("{m}.{n}")).collect();
    assert_eq!(names, ["__primary.t0", "__primary.m0", "__primary.g0", "__primary.f0", "__primary.f3"]);
}

/// The custom sections of `wasm`: (name, contents).
fn custom_sections(wasm: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for p in Parser::new(0).parse_all(wasm) {
        if let Payload::CustomSection(c) = p.unwrap() {
            out.push((c.name().to_string(), c.data().to_vec()));
        }
    }
    out
}

#[test]
fn the_secondary_declares_the_features_the_input_declares() {
    // LLVM's list: a prefix byte ('+' used) and a name per feature.
    let features = b"\x02\x2b\x0bbulk-memory\x2b\x08sign-ext".to_vec();
    let mut tail = Module::new();
    tail.section(&wasm_encoder::CustomSection { name: "target_features".into(), data: Cow::Borrowed(&features) });
    let mut wasm = sample();
    wasm.extend_from_slice(&tail.finish()[8..]);
    let s = split(&wasm, &[true, false, true, true]).unwrap();
    assert_eq!(custom_sections(&s.secondary), [("target_features".to_string(), features)]);
}

#[test]
fn a_profile_of_the_wrong_length_is_refused() {
    let e = split(&sample(), &[true]).err().unwrap();
    assert!(matches!(e, SplitError::ProfileLength { expected: 4, found: 1 }));
}

#[test]
fn with_an_empty_profile_every_function_moves() {
    // Nothing names a data or element segment, so nothing has to stay.
    let s = split(&sample(), &[false; 4]).unwrap();
    assert_eq!((s.kept, s.moved), (0, 4));
}

/// Runs both halves in node (V8) the way web/boot.js does: the primary's
/// `__split.load` instantiates the secondary against the primary's exports.
fn run_in_node(primary: &[u8], secondary: &[u8], script: &str) -> String {
    let dir = std::env::temp_dir().join(format!("wasm-split-test-{}-{}", std::process::id(), script.len()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("p.wasm"), primary).unwrap();
    std::fs::write(dir.join("s.wasm"), secondary).unwrap();
    let js = format!(
        "const fs = require('fs');
         let loads = 0, p;
         const load = () => {{ loads++; new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync('{d}/s.wasm')), {{ __primary: p.exports }}); }};
         p = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync('{d}/p.wasm')),
           {{ env: {{ ext: (x) => 10 * x }}, __split: {{ load }} }});
         {script}",
        d = dir.display()
    );
    let out = std::process::Command::new("node").arg("-e").arg(js).output().expect("node runs");
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_split_module_computes_what_the_whole_one_does() {
    let split = split(&sample(), &[true, false, true, true]).unwrap();
    // a(5) = b(5) + 1 = c(5) * ext(5) + 1 = 7 * 50 + 1; d(2) = b(2) through the table slot = 4 * 20.
    let out = run_in_node(
        &split.primary,
        &split.secondary,
        "console.log(loads, p.exports.a(5), loads, p.exports.a(1), p.exports.d(2), loads);",
    );
    assert_eq!(out.trim(), "0 351 1 31 80 1");
}

#[test]
fn the_instrumented_module_marks_what_ran() {
    let inst = instrument(&sample()).unwrap();
    let out = run_in_node(
        &inst,
        &inst,
        "p.exports.a(1); console.log([0, 1, 2, 3].map((i) => p.exports['__split_ran' + i].value).join(''));",
    );
    // a, b and c ran; d did not.
    assert_eq!(out.trim(), "1110");
}

fn table_size(wasm: &[u8]) -> u64 {
    for p in Parser::new(0).parse_all(wasm) {
        if let Payload::TableSection(r) = p.unwrap() {
            return r.into_iter().next().unwrap().unwrap().ty.initial;
        }
    }
    panic!("no table")
}

#[test]
fn a_moved_function_only_moved_code_calls_gets_no_stub_and_no_slot() {
    // b and c move; c is called only by b, so the primary cannot reach it.
    let split = split(&sample(), &[true, false, false, true]).unwrap();
    assert_eq!(table_size(&split.primary), 3); // 2 slots + 1 for b
    let out = run_in_node(&split.primary, &split.secondary, "console.log(p.exports.a(5), p.exports.d(2), loads);");
    assert_eq!(out.trim(), "351 80 1");
}

/// Bytes of an unsigned LEB128.
fn leb(mut v: u64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        out.push(if v == 0 { b } else { b | 0x80 });
        if v == 0 {
            return;
        }
    }
}

/// Bytes of a signed LEB128.
fn sleb(mut v: i64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        let done = (v == 0 && b & 0x40 == 0) || (v == -1 && b & 0x40 != 0);
        out.push(if done { b } else { b | 0x80 });
        if done {
            return;
        }
    }
}

/// Data symbols of [`data_sample`]: (name, address, size); one segment at 1024.
const SYMBOLS: [(&str, u32, u32); 6] = [
    ("s0", 1024, 4),  // read by h (kept)
    ("s1", 1028, 32), // read by c (moved)
    ("s2", 1060, 4),  // read by t (kept): a pointer to s3
    ("s3", 1064, 32), // reached through s2
    ("s5", 1096, 32), // nothing reads it
    ("s4", 1136, 32), // read by b through 1130 = s4 - 6 (padding before it)
];

/// A module as wasm-ld links one with `--emit-relocs`: a memory with the
/// data above, a table, an import env.ext (unused), and
///   f1 h() = load(1024)                 exported
///   f2 c() = load(offset=1028)          exported
///   f3 t() = load(load(1060))           exported
///   f4 b(x) = load(x + 1130)            exported
/// with a symbol table, `reloc.DATA` for the pointer in s2, and
/// `reloc.CODE` for t's constant as s2 (when `t_reloc`) and b's as s4 - 6
/// (when `bias`).
/// h's 1024 has no relocation, as if wasm-opt had folded it.
fn data_sample(bias: bool, t_reloc: bool) -> Vec<u8> {
    let mut m = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([], [ValType::I32]);
    types.ty().function([ValType::I32], [ValType::I32]);
    m.section(&types);
    // The splitter adds its import to an import section (every Rust module has one).
    let mut imports = ImportSection::new();
    imports.import("env", "ext", EntityType::Function(1));
    m.section(&imports);
    let mut funcs = FunctionSection::new();
    for t in [0, 0, 0, 1] {
        funcs.function(t);
    }
    m.section(&funcs);
    table_memory_global(&mut m, 1, None);
    let mut exports = ExportSection::new();
    for (name, f) in [("h", 1), ("c", 2), ("t", 3), ("b", 4)] {
        exports.export(name, ExportKind::Func, f);
    }
    exports.export("memory", ExportKind::Memory, 0);
    m.section(&exports);
    let mut code = CodeSection::new();
    let body = |ins: &[Instruction]| {
        let mut f = Function::new([]);
        for i in ins {
            f.instruction(i);
        }
        f.instruction(&Instruction::End);
        f
    };
    use Instruction::*;
    let at = |offset| wasm_encoder::MemArg { offset, align: 2, memory_index: 0 };
    code.function(&body(&[I32Const(1024), I32Load(at(0))]));
    code.function(&body(&[I32Const(0), I32Load(at(1028))]));
    code.function(&body(&[I32Const(1060), I32Load(at(0)), I32Load(at(0))]));
    code.function(&body(&[LocalGet(0), I32Const(1130), I32Add, I32Load(at(0))]));
    m.section(&code);
    let mut bytes = vec![0u8; 144];
    let mut word = |a: u32, v: u32, fill: u8, len: usize| {
        let i = (a - 1024) as usize;
        bytes[i..i + len].fill(fill);
        bytes[i..i + 4].copy_from_slice(&v.to_le_bytes());
    };
    word(1024, 17, 0, 4);
    word(1028, 42, 1, 32);
    word(1060, 1064, 0, 4);
    word(1064, 99, 3, 32);
    word(1096, 5, 5, 32);
    word(1136, 77, 4, 32);
    let mut data = wasm_encoder::DataSection::new();
    data.active(0, &ConstExpr::i32_const(1024), bytes);
    m.section(&data);

    // linking: version 2, a symbol table of the data symbols.
    let mut table = Vec::new();
    leb(SYMBOLS.len() as u64, &mut table);
    for (name, addr, size) in SYMBOLS {
        table.extend([1, 0]); // data, flags
        leb(name.len() as u64, &mut table);
        table.extend(name.as_bytes());
        for v in [0, addr - 1024, size] {
            leb(v.into(), &mut table);
        }
    }
    let mut linking = vec![2, 8];
    leb(table.len() as u64, &mut linking);
    linking.extend(table);
    m.section(&wasm_encoder::CustomSection { name: "linking".into(), data: Cow::Owned(linking) });
    // reloc.DATA: the pointer in s2 (data section contents: count, flags,
    // i32.const 1024 (3 bytes), end, length (2 bytes), then the bytes).
    let mut reloc = vec![0, 1, 5]; // section, count, R_WASM_MEMORY_ADDR_I32
    leb(8 + 36, &mut reloc);
    leb(3, &mut reloc); // symbol s3
    sleb(0, &mut reloc);
    m.section(&wasm_encoder::CustomSection { name: "reloc.DATA".into(), data: Cow::Owned(reloc) });
    // reloc.CODE: t's 1060 is s2; b's 1130 is s4 - 6 when `bias` (offsets are not read).
    let relocs: Vec<(u32, i64)> =
        [(t_reloc, (2, 0)), (bias, (5, -6))].into_iter().filter(|r| r.0).map(|r| r.1).collect();
    let mut reloc = vec![0];
    leb(relocs.len() as u64, &mut reloc);
    for (symbol, addend) in relocs {
        reloc.extend([4, 0]); // R_WASM_MEMORY_ADDR_SLEB, offset
        leb(symbol.into(), &mut reloc);
        sleb(addend, &mut reloc);
    }
    m.section(&wasm_encoder::CustomSection { name: "reloc.CODE".into(), data: Cow::Owned(reloc) });
    m.finish()
}

#[test]
fn data_only_moved_functions_reach_moves_and_loads_with_them() {
    let wasm = data_sample(true, true);
    let layout = DataLayout::read(&wasm).unwrap();
    let split = split_with_data(&wasm, &[true, false, true, true], Some(&layout)).unwrap();
    // s1 (only c reads it) and s5 (nothing does) move; s3 stays, reached
    // through s2's pointer. t's 1060 is also where s1 ends, but a
    // relocation says it is s2.
    assert_eq!(split.moved_data, 32 + 32);
    let out = run_in_node(
        &split.primary,
        &split.secondary,
        "const word = (a) => new Uint32Array(p.exports.memory.buffer)[a / 4];
         console.log(p.exports.h(), p.exports.t(), p.exports.b(6), word(1028), word(1096), loads);
         console.log(p.exports.c(), word(1028), word(1096), loads);",
    );
    assert_eq!(out.trim(), "17 99 77 0 0 0\n42 42 5 1");
}

#[test]
fn an_address_formed_outside_its_symbol_keeps_the_symbol() {
    // Without the relocation that says 1130 is s4 - 6, s4 looks unreachable
    // and moves with s5 and the zero padding between them.
    let wasm = data_sample(false, true);
    let layout = DataLayout::read(&wasm).unwrap();
    let split = split_with_data(&wasm, &[true, false, true, true], Some(&layout)).unwrap();
    assert_eq!(split.moved_data, 32 + (1168 - 1096));
}

#[test]
fn data_that_differs_from_the_linked_module_is_refused() {
    let layout = DataLayout::read(&data_sample(true, true)).unwrap();
    let e = split_with_data(&sample(), &[true; 4], Some(&layout)).err().unwrap();
    assert!(matches!(e, SplitError::DataMoved { address: 1024 }), "{e}");
}

#[test]
fn a_module_without_linking_data_is_refused() {
    assert!(matches!(DataLayout::read(&sample()), Err(SplitError::NoRelocations)));
}

#[test]
fn a_constant_no_relocation_forms_also_keeps_the_symbol_ending_there() {
    // Without the relocation that says t's 1060 is s2, it may be s1's end pointer: s1 stays.
    let wasm = data_sample(true, false);
    let layout = DataLayout::read(&wasm).unwrap();
    let split = split_with_data(&wasm, &[true, false, true, true], Some(&layout)).unwrap();
    assert_eq!(split.moved_data, 32); // s5
}
