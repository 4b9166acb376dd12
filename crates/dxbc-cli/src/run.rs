//! `dxbc run`: one invocation on the interpreter with the preview's inputs,
//! printed as a trace (each instruction as the listing prints it, then
//! what it wrote).

use std::collections::HashMap;

use preview_model::debug::{self, Invocation};
use preview_model::PreviewModel;

/// Most steps `dxbc run` records and prints.
pub const MAX_STEPS: usize = 1 << 20;

/// Parses `X,Y`, `N` or `GX,GY,GZ:TX,TY,TZ`.
pub fn invocation(pixel: Option<&str>, vertex: Option<u32>, thread: Option<&str>) -> Result<Invocation, String> {
    let nums = |s: &str, n: usize| -> Result<Vec<u32>, String> {
        let v: Vec<u32> = s
            .split(',')
            .map(|x| x.trim().parse::<u32>())
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{s:?}: {e}"))?;
        if v.len() == n {
            Ok(v)
        } else {
            Err(format!("{s:?}: expected {n} numbers separated by commas"))
        }
    };
    match (pixel, vertex, thread) {
        (Some(p), None, None) => {
            let v = nums(p, 2)?;
            Ok(Invocation::Pixel { x: v[0], y: v[1] })
        }
        (None, Some(n), None) => Ok(Invocation::Vertex(n)),
        (None, None, Some(t)) => {
            let (g, t) = t.split_once(':').ok_or_else(|| format!("{t:?}: expected GX,GY,GZ:TX,TY,TZ"))?;
            let (g, t) = (nums(g, 3)?, nums(t, 3)?);
            Ok(Invocation::Thread { group: [g[0], g[1], g[2]], thread: [t[0], t[1], t[2]] })
        }
        _ => Err("give exactly one of --pixel X,Y, --vertex N, --thread GX,GY,GZ:TX,TY,TZ".into()),
    }
}

/// What a run starts from.
pub struct Inputs {
    /// The shader file.
    pub shader: Vec<u8>,
    /// The preview's control values record (None: defaults).
    pub values: Option<Vec<u8>>,
    /// The preview's settings record (None: defaults).
    pub settings: Option<Vec<u8>>,
    /// The invocation a debug link records.
    pub invocation: Option<Invocation>,
}

/// The inputs from FILE, from a preview link, or FILE with the link's
/// values and settings.
pub fn inputs(file: Option<&[u8]>, link: Option<&str>) -> Result<Inputs, String> {
    match (file, link) {
        (Some(f), None) => Ok(Inputs { shader: f.to_vec(), values: None, settings: None, invocation: None }),
        (f, Some(l)) => {
            let p = dxbc::permalink::decode(l).map_err(|e| format!("--link: {e}"))?;
            let shader = f.map_or(p.shader, |f| f.to_vec());
            let invocation = p.view.debug.map(|d| d.invocation);
            Ok(Inputs { shader, values: p.view.preview_values, settings: p.view.preview_settings, invocation })
        }
        (None, None) => Err("give FILE or --link".into()),
    }
}

/// The trace of `inv` as text.
pub fn trace_text(inputs: &Inputs, inv: Invocation) -> Result<String, String> {
    let shader = dxbc::Shader::decode(&inputs.shader).map_err(|e| e.to_string())?;
    let model = PreviewModel::new(&shader);
    let (values, settings) =
        model.restore_state(inputs.values.as_deref(), inputs.settings.as_deref()).map_err(|e| e.to_string())?;
    let plan =
        preview_model::plan::build(&shader, &model, &values, &settings).map_err(|e| format!("not previewable: {e}"))?;
    let d = debug::debug(&shader, &model, &plan, inv, dxbc_interp::Limits::default(), MAX_STEPS)
        .map_err(|e| e.to_string())?;
    let (listing, lines) = dxbc::listing::disassemble_mapped(&shader);
    let text: Vec<&str> = listing.lines().collect();
    let by_offset: HashMap<u32, &str> = shader
        .program
        .iter()
        .flat_map(|p| p.instructions.iter().enumerate())
        .filter_map(|(k, ins)| Some((ins.offset, *text.get(lines.instruction_line(k)?)?)))
        .collect();
    let t = &d.traced.trace;
    let mut out = format!("; {inv}: lane {} of {}, {} steps\n", d.prepared.lane, d.prepared.lanes.len(), t.steps.len());
    for (n, s) in t.steps.iter().enumerate() {
        out += &format!("{:#06x}  {}\n", s.offset, by_offset.get(&s.offset).map_or("", |l| l.trim()));
        for w in debug::describe_changes(t.changes(n)).into_iter().chain(debug::describe_stores(t.stores(n))) {
            out += &format!("        {w}\n");
        }
    }
    if t.truncated {
        out += &format!("; the record stops after {MAX_STEPS} steps\n");
    }
    if let Err(e) = &d.traced.result {
        out += &format!("; stopped: {e}\n");
    }
    // Memory the run wrote (a compute group's UAV words), against what the plan bound.
    let before = debug::bindings(&plan, &d.code);
    for (slot, r) in &d.prepared.bindings.uavs {
        if let (dxbc_interp::Resource::Buffer(after), Some(dxbc_interp::Resource::Buffer(b))) =
            (r, before.uavs.get(slot))
        {
            let changed = after.words.iter().enumerate().filter(|(i, w)| b.words.get(*i) != Some(w));
            for (i, w) in changed.take(256) {
                out += &format!("; u{slot} word {i} = {w:#010x} ({:?})\n", f32::from_bits(*w));
            }
        }
    }
    if let Some(lane) = d.prepared.lanes.get(d.prepared.lane) {
        for (r, v) in lane.outputs.iter().enumerate() {
            let f: Vec<String> = v.iter().map(|&x| format!("{:?}", f32::from_bits(x))).collect();
            let h: Vec<String> = v.iter().map(|&x| format!("{x:#010x}")).collect();
            out += &format!("; final o{r} = ({}) [{}]\n", f.join(", "), h.join(", "));
        }
        if d.code.writes_depth {
            out += &format!("; final oDepth = {:?} [{:#010x}]\n", f32::from_bits(lane.depth), lane.depth);
        }
    }
    Ok(out)
}
