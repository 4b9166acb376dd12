//! `--cpu` on a handful of vkd3d test files: every probed section runs on
//! the interpreter and passes. The outside truth is vkd3d's own probe
//! values in the `.shader_test` files (integer and float arithmetic, bit
//! operations, compute shaders with barriers and
//! group-shared memory).

use std::path::Path;

use shader_runner::{manifest, run_test_cpu, Status};

fn corpus() -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/vkd3d");
    assert!(root.join("MANIFEST.tsv").is_file(), "vkd3d corpus missing at {}", root.display());
    root
}

#[test]
fn vkd3d_probes_pass_on_the_interpreter() {
    let root = corpus();
    let m = manifest::read(&root.join("MANIFEST.tsv")).expect("manifest");
    let failures = manifest::read_failures(&root.join("COMPILE_FAILURES.tsv"));
    let mut probes = 0;
    let mut passed_sections = 0;
    for test in ["arithmetic-int", "bitwise", "barriers"] {
        let rows = m.get(test).unwrap_or_else(|| panic!("{test} not in the manifest"));
        for r in run_test_cpu(&root.join(test), rows, &failures) {
            if r.probed {
                assert_eq!(r.status, Status::Pass, "{}", r.line_text());
                assert_eq!(r.probes_passed, r.probes, "{}", r.line_text());
                probes += r.probes;
                passed_sections += 1;
            }
        }
    }
    // What the three files hold at the models the corpus compiled.
    assert_eq!((passed_sections, probes), (56, 56), "probed sections and probes");
}

/// Sections drawn through a geometry shader: the interpreter runs the VS
/// per vertex, the GS per point, cuts its triangle strip into triangles and
/// rasterises them; vkd3d's probes check the quad it emits, its colour and
/// the primitive ID the GS writes for the pixel shader.
#[test]
fn geometry_shader_draws_pass_on_the_interpreter() {
    let root = corpus();
    let m = manifest::read(&root.join("MANIFEST.tsv")).expect("manifest");
    let failures = manifest::read_failures(&root.join("COMPILE_FAILURES.tsv"));
    let mut passed = Vec::new();
    let mut probes = 0;
    for test in ["geometry", "primitive-id"] {
        let rows = m.get(test).unwrap_or_else(|| panic!("{test} not in the manifest"));
        for r in run_test_cpu(&root.join(test), rows, &failures) {
            if r.probes > 0 && !matches!(r.status, Status::NotRun(_)) {
                assert_eq!(r.status, Status::Pass, "{}", r.line_text());
                assert_eq!(r.probes_passed, r.probes, "{}", r.line_text());
                probes += r.probes;
                passed.push(r.id());
            }
        }
    }
    // geometry: the SM4 VS, GS and PS and the SM5 GS (5 probes each; the
    // instanced GS has no DXBC); primitive-id: VS, GS and PS at 4.0 and 5.0
    // (6 probes each).
    assert!(passed.iter().any(|id| id == "geometry:004 gs_5_0"), "{passed:?}");
    assert!(passed.iter().any(|id| id == "primitive-id:002 gs_4_0"), "{passed:?}");
    assert_eq!((passed.len(), probes), (10, 56), "{passed:?}");
}

/// Sections drawn through hull and domain shaders: the interpreter runs
/// the VS per control point, every hull phase per patch, the tessellator
/// over the factors the fork phase wrote, the DS per domain point, and
/// rasterises the triangles; vkd3d's probes check the colour the control
/// points carry to every pixel (and, in tessellation-patch-vars, the
/// patch constants the DS reads).
#[test]
fn tessellation_draws_pass_on_the_interpreter() {
    let root = corpus();
    let m = manifest::read(&root.join("MANIFEST.tsv")).expect("manifest");
    let failures = manifest::read_failures(&root.join("COMPILE_FAILURES.tsv"));
    let mut passed = Vec::new();
    let mut probes = 0;
    for test in ["tessellation", "tessellation-patch-vars"] {
        let rows = m.get(test).unwrap_or_else(|| panic!("{test} not in the manifest"));
        for r in run_test_cpu(&root.join(test), rows, &failures) {
            assert_eq!(r.status, Status::Pass, "{}", r.line_text());
            assert_eq!(r.probes_passed, r.probes, "{}", r.line_text());
            probes += r.probes;
            passed.push(r.id());
        }
    }
    // The copying hull shader (002) and the one whose control-point phase
    // is empty (006: the points pass through), the hex hull shader with
    // its index ranges (009) and its DS (010), and the patch-constant
    // file's four stages; 16 probes, as the manifest counts them for
    // these rows (3 + 1 + 2 + 3 + 1 + 1 + 1 and 1 + 1 + 1 + 1).
    assert!(passed.iter().any(|id| id == "tessellation:006 hs_5_0"), "{passed:?}");
    assert!(passed.iter().any(|id| id == "tessellation-patch-vars:003 ds_5_0"), "{passed:?}");
    assert_eq!((passed.len(), probes), (11, 16), "{passed:?}");
}

/// The suite runs its files on several threads: the rows are those of one
/// thread, in the same order.
#[test]
fn files_on_several_threads_give_the_rows_of_one_in_order() {
    let root = corpus();
    let m = manifest::read(&root.join("MANIFEST.tsv")).expect("manifest");
    let failures = manifest::read_failures(&root.join("COMPILE_FAILURES.tsv"));
    let names = ["arithmetic-int", "barriers", "bitwise", "geometry", "primitive-id"];
    let tests: Vec<(&str, &[manifest::Row])> =
        names.iter().map(|t| (*t, &m.get(*t).unwrap_or_else(|| panic!("{t} not in the manifest"))[..])).collect();
    let one: Vec<String> = tests
        .iter()
        .flat_map(|(t, rows)| run_test_cpu(&root.join(t), rows, &failures))
        .map(|r| r.line_text())
        .collect();
    let mut several = Vec::new();
    shader_runner::run_tests_cpu(&root, &tests, &failures, 3, |rows| {
        several.extend(rows.into_iter().map(|r| r.line_text()))
    });
    assert!(one.len() > 50, "{} rows", one.len());
    assert_eq!(several, one);
}
