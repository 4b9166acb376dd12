//! The debugger's replay of one invocation (`preview_model::debug`: the
//! preview's plan as interpreter bindings and lane inputs, run on
//! `dxbc-interp`) against the native preview renderer (the same plan
//! translated and drawn on lavapipe, `shader_runner::preview::run`): a
//! pixel's outputs must equal the GPU's read-back of that pixel, and a
//! compute group's UAV words the GPU's, within the tolerance the preview's
//! compare mode uses (`reference::floats_agree` with the plan's
//! tolerance: 4 ulps, or 1/128 relative when a linear sampler is bound;
//! integer targets exactly).

use preview_model::debug::{self, Invocation};
use preview_model::plan::{self, Readback};
use preview_model::reference::{self, WordKind};
use preview_model::PreviewModel;
use shader_runner::gpu::Gpu;

fn corpus(name: &str) -> Vec<u8> {
    let path = format!("{}/../../../shared/corpus/fxc/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("the corpus is missing ({path}): {e}"))
}

struct Previewed {
    shader: dxbc::Shader,
    model: PreviewModel,
    plan: plan::Plan,
    readbacks: Vec<Vec<u8>>,
}

fn preview(gpu: &mut Gpu, name: &str) -> Previewed {
    let shader = dxbc::Shader::decode(&corpus(name)).unwrap();
    let model = PreviewModel::new(&shader);
    let (values, settings) = model.restore_state(None, None).unwrap();
    let plan = plan::build(&shader, &model, &values, &settings).unwrap_or_else(|e| panic!("{name}: {e}"));
    let readbacks = shader_runner::preview::run(gpu, &plan).unwrap_or_else(|e| panic!("{name}: {e}"));
    Previewed { shader, model, plan, readbacks }
}

fn agree(p: &Previewed, r: &Readback, word: usize, got: u32, gpu: u32) -> bool {
    match reference::word_kind(&p.plan, r, word) {
        WordKind::Float => reference::floats_agree(f32::from_bits(got), f32::from_bits(gpu), &p.plan.tolerance),
        WordKind::Exact => got == gpu,
    }
}

fn check_pixels(gpu: &mut Gpu, name: &str, pixels: &[(u32, u32)]) {
    let p = preview(gpu, name);
    let targets = debug::target_readbacks(&p.plan);
    assert!(!targets.is_empty(), "{name}: no colour target");
    for &(x, y) in pixels {
        let inv = Invocation::Pixel { x, y };
        let d = debug::debug(&p.shader, &p.model, &p.plan, inv, dxbc_interp::Limits::default(), 1 << 20)
            .unwrap_or_else(|e| panic!("{name} {inv}: {e}"));
        d.traced.result.clone().unwrap_or_else(|e| panic!("{name} {inv}: {e}"));
        assert!(!d.traced.trace.steps.is_empty());
        let lane = &d.prepared.lanes[d.prepared.lane];
        // The replayed record ends where the run ended.
        let mut cur = d.traced.trace.cursor();
        cur.seek(usize::MAX);
        for &(i, location) in &targets {
            let r = &p.plan.readbacks[i];
            let gpu = debug::target_texel(&p.plan, &p.readbacks[i], x, y).unwrap();
            let got = lane.outputs[location as usize];
            assert_eq!(cur.registers().outputs[location as usize], got, "{name} {inv}: replay");
            let word = ((y * p.plan.width + x) * 4) as usize;
            let ok = (0..4).all(|c| agree(&p, r, word + c, got[c], gpu[c]));
            assert!(
                ok,
                "{name} {inv} o{location}: interpreter {:?} GPU {:?}",
                got.map(f32::from_bits),
                gpu.map(f32::from_bits)
            );
        }
    }
}

/// Corners, the quad's diagonal (where the two triangles meet) and an
/// odd pixel (the bottom-right lane of its quad).
const PIXELS: [(u32, u32); 6] = [(0, 0), (255, 255), (100, 155), (101, 154), (37, 201), (128, 3)];

#[test]
fn pixels_of_corpus_pixel_shaders_equal_the_gpu_readback() {
    let mut g = Gpu::new().expect("a Vulkan adapter (lavapipe: apt-get install mesa-vulkan-drivers)");
    for name in [
        // A texture sampled with the quad's interpolated coordinates.
        "angle63_passthroughlum2d11ps.dxbc",
        // Integer arithmetic on constant-buffer values.
        "angle930_clearuint11ps.dxbc",
        "angle930_clearfloat11ps.dxbc",
        // Derivatives of interpolated inputs over the quad.
        "dxdecompiler_transparencyaa10_1_transparencyaa10_1_ps.dxbc",
        "slimshader_varianceshadows11_rendervariancescene_ps.dxbc",
    ] {
        check_pixels(&mut g, name, &PIXELS);
    }
}

#[test]
fn a_compute_group_with_groupshared_memory_writes_what_the_gpu_writes() {
    // An 8×8 group reduces a texture through groupshared memory with six
    // barriers; thread 0 of each group writes the group's sum to u0.
    let name = "slimshader_hdrtonemappingcs11_reduceto1dcs.dxbc";
    let mut g = Gpu::new().expect("a Vulkan adapter (lavapipe: apt-get install mesa-vulkan-drivers)");
    let p = preview(&mut g, name);
    let (i, r) = p
        .plan
        .readbacks
        .iter()
        .enumerate()
        .find(|(_, r)| matches!(r, Readback::Buffer { .. }))
        .expect("a UAV read-back");
    let Readback::Buffer { entry, .. } = r else { unreachable!() };
    let gpu = &p.readbacks[i];
    let groups = p.plan.dispatch.map_or([1, 1, 1], |(_, g)| g);
    let mut written = 0;
    for gx in 0..groups[0].min(4) {
        let inv = Invocation::Thread { group: [gx, 0, 0], thread: [0, 0, 0] };
        let d = debug::debug(&p.shader, &p.model, &p.plan, inv, dxbc_interp::Limits::default(), 1 << 20).unwrap();
        d.traced.result.clone().unwrap();
        assert!(d.traced.trace.steps.len() > 20, "{inv}");
        let before = debug::bindings(&p.plan, &d.code);
        let reg = p.plan.entries[*entry].register[1..].parse::<u32>().unwrap();
        let (Some(dxbc_interp::Resource::Buffer(after)), Some(dxbc_interp::Resource::Buffer(b))) =
            (d.prepared.bindings.uavs.get(&reg), before.uavs.get(&reg))
        else {
            panic!("u{reg} is not a buffer")
        };
        for (w, (&now, &was)) in after.words.iter().zip(&b.words).enumerate() {
            if now != was {
                written += 1;
                let gpu_word = u32::from_le_bytes(gpu[w * 4..w * 4 + 4].try_into().unwrap());
                assert!(
                    agree(&p, r, w, now, gpu_word),
                    "{inv} u{reg} word {w}: {} vs GPU {}",
                    f32::from_bits(now),
                    f32::from_bits(gpu_word)
                );
            }
        }
    }
    assert!(written > 0, "the groups wrote nothing");
}

/// The page's "compare with the CPU interpreter": every pixel or thread of
/// the plan run on the interpreter (`preview_model::cpu::readbacks`) and
/// judged against the native renderer's read-backs by the compare mode's
/// own comparison, with the plan's tolerance.
fn cpu_rows(gpu: &mut Gpu, name: &str) -> Vec<(String, reference::Verdict)> {
    let p = preview(gpu, name);
    let cpu = preview_model::cpu::readbacks(&p.shader, &p.model, &p.plan, preview_model::cpu::BUDGET)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(cpu.len(), p.plan.readbacks.len(), "{name}");
    (0..cpu.len())
        .map(|i| {
            // As the page compares: its read-backs (here the GPU's) against the reference (the CPU's).
            let c = reference::compare(&p.plan, i, &p.readbacks[i], &cpu[i]);
            assert!(c.words > 0, "{name}: read-back {i} is empty");
            (format!("{name} #{i}"), c.verdict())
        })
        .collect()
}

#[test]
fn the_cpu_reference_of_whole_previews_matches_the_gpu() {
    use reference::Verdict;
    let mut g = Gpu::new().expect("a Vulkan adapter (lavapipe: apt-get install mesa-vulkan-drivers)");
    // Pixel shaders (the two the browser test compares in the page, and
    // derivatives over quads) and compute shaders (groupshared reduction;
    // a storage texture).
    for name in [
        "angle930_clearfloat11ps.dxbc",
        "directxtk12_basiceffect_psbasictxnofog.dxbc",
        "dxdecompiler_transparencyaa10_1_transparencyaa10_1_ps.dxbc",
        "slimshader_hdrtonemappingcs11_reduceto1dcs.dxbc",
    ] {
        for (row, v) in cpu_rows(&mut g, name) {
            assert!(matches!(v, Verdict::Identical | Verdict::WithinTolerance { .. }), "{row}: {v:?}");
        }
    }
}

#[test]
fn the_cpu_reference_refuses_what_the_interpreter_does_not_draw() {
    let mut g = Gpu::new().expect("a Vulkan adapter (lavapipe: apt-get install mesa-vulkan-drivers)");
    let p = preview(&mut g, "dxdecompiler_varianceshadows11_rendervariancescene_vs.dxbc");
    let e = preview_model::cpu::readbacks(&p.shader, &p.model, &p.plan, preview_model::cpu::BUDGET).unwrap_err();
    assert_eq!(e, preview_model::cpu::CpuError::Rasterisation);
    // A budget too small for the picture is refused whole.
    let p = preview(&mut g, "angle930_clearfloat11ps.dxbc");
    let e = preview_model::cpu::readbacks(&p.shader, &p.model, &p.plan, 1000).unwrap_err();
    assert_eq!(e, preview_model::cpu::CpuError::Budget { budget: 1000 });
}
