use super::*;
use wasm_encoder::{Function, MemorySection, MemoryType, TableType};

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
    let mut tables = TableSection::new();
    let ty = TableType {
        element_type: wasm_encoder::RefType::FUNCREF,
        table64: false,
        minimum: 2,
        maximum: Some(2),
        shared: false,
    };
    tables.table(ty);
    m.section(&tables);
    let mut memories = MemorySection::new();
    memories.memory(MemoryType { minimum: 1, maximum: None, memory64: false, shared: false, page_size_log2: None });
    m.section(&memories);
    let mut globals = GlobalSection::new();
    let gty = wasm_encoder::GlobalType { val_type: ValType::I32, mutable: true, shared: false };
    globals.global(gty, &ConstExpr::i32_const(0));
    m.section(&globals);
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
