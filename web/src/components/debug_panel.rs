//! The step debugger: pick a pixel (click the preview), a vertex of the
//! mesh or a compute thread, run it on the interpreter in the worker with
//! the preview's inputs, then step through the record forward and back, to
//! the next breakpoint (toggled in the listing's gutter, or "Break here")
//! or to the end, with every register and the memory each step stored
//! shown and the current instruction selected in the listing and the hex
//! view; at the end, the pixel's value beside the GPU's.

use crate::debugger::{self, Radix, Request, Session};
use crate::{preview, selection, st, State};
use leptos::prelude::*;
use preview_model::debug::Invocation;
use preview_model::reference;
use preview_model::Stage;
use std::sync::Arc;

/// The debugger's own signals.
#[derive(Clone, Copy)]
struct Dbg {
    session: RwSignal<Option<Arc<Session>>>,
    /// Steps executed (0..=steps).
    pos: RwSignal<usize>,
    radix: RwSignal<Radix>,
    /// Why there is no session, or the time the last one took.
    note: RwSignal<Option<String>>,
    thread: RwSignal<String>,
    vertex: RwSignal<String>,
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Moves to position `n` and selects the instruction that runs next (the
/// last one at the end) in the listing and the hex view.
fn go(s: State, d: Dbg, n: usize) {
    let Some(sess) = d.session.get_untracked() else { return };
    let n = n.min(sess.steps.len());
    d.pos.set(n);
    let step = n as u32;
    s.pv.debug_link.set(Some(dxbc::permalink::DebugView { invocation: sess.invocation, step }));
    let at = sess.steps.get(n).or(sess.steps.last()).map(|st| st.offset);
    let m = s.model.get_untracked();
    if let Some(sel) = at.and_then(|o| selection::select_byte(&m, o as usize)) {
        s.select(Some(sel));
    }
}

/// Runs `inv` in the worker, then goes to position `step`.
fn start(s: State, d: Dbg, inv: Invocation, step: usize) {
    let bytes = s.model.with_untracked(|m| m.bytes.clone());
    let (values, settings) = s.pv.link_state();
    let req = Request { values, settings, invocation: inv };
    let Ok(json) = serde_json::to_string(&req) else { return };
    d.note.set(Some("Running…".into()));
    d.session.set(None);
    wasm_bindgen_futures::spawn_local(async move {
        let t0 = now_ms();
        let answer = crate::worker_client::debug(&bytes, &json).await;
        let ms = now_ms() - t0;
        let parsed = answer.and_then(|j| {
            serde_json::from_str::<Result<Session, String>>(&j).map_err(|e| e.to_string()).and_then(|r| r)
        });
        match parsed {
            Ok(sess) => {
                d.note.set(Some(format!("{inv}: {} steps, run and recorded in {ms:.0} ms", sess.steps.len())));
                d.session.set(Some(Arc::new(sess)));
                go(s, d, step);
            }
            Err(e) => d.note.set(Some(e)),
        }
    });
}

fn thread_of(text: &str) -> Option<Invocation> {
    let (g, t) = text.split_once(':')?;
    let n = |s: &str| -> Option<[u32; 3]> {
        let v: Vec<u32> = s.split(',').map(|x| x.trim().parse().ok()).collect::<Option<_>>()?;
        Some([*v.first()?, *v.get(1)?, *v.get(2)?])
    };
    Some(Invocation::Thread { group: n(g)?, thread: n(t)? })
}

fn vertex_of(text: &str) -> Option<Invocation> {
    text.trim().parse().ok().map(Invocation::Vertex)
}

#[component]
pub fn DebugPanel() -> impl IntoView {
    let s = st();
    let pv = s.pv;
    let d = Dbg {
        session: RwSignal::new(None),
        pos: RwSignal::new(0),
        radix: RwSignal::new(Radix::Float),
        note: RwSignal::new(None),
        thread: RwSignal::new("0,0,0:0,0,0".into()),
        vertex: RwSignal::new("0".into()),
    };
    // A link's debugger state: its invocation runs once, at its step.
    if let Some(v) = pv.debug_restore.get_untracked() {
        pv.debug_restore.set(None);
        let inv = v.invocation;
        match inv {
            Invocation::Pixel { x, y } => pv.debug_pick.set(Some((x, y))),
            Invocation::Thread { group: g, thread: t } => {
                d.thread.set(format!("{},{},{}:{},{},{}", g[0], g[1], g[2], t[0], t[1], t[2]))
            }
            Invocation::Vertex(n) => d.vertex.set(n.to_string()),
        }
        start(s, d, inv, v.step as usize);
    }
    let stage = Memo::new(move |_| pv.prepared.get().map(|p| p.plan.stage));
    let regs = Memo::new(move |_| d.session.get().map(|x| x.registers_at(d.pos.get())));
    // The pixel's final value beside the GPU read-back of it.
    let compare = Memo::new(move |_| {
        let sess = d.session.get()?;
        let Invocation::Pixel { x, y } = sess.invocation else { return None };
        if d.pos.get() < sess.steps.len() {
            return None;
        }
        let p = pv.prepared.get()?;
        let data = pv.readbacks.get()?;
        let draw = p.plan.draw.as_ref()?;
        let want = pv.settings.with(|s| s.target);
        let shown = draw.targets.iter().position(|t| t.location == want).unwrap_or(0);
        let target = draw.targets.get(shown)?;
        let gpu = preview::texel(&p.plan, data.get(preview::target_readback(&p.plan, shown)?)?, x, y)?;
        let ours = *regs.get()?.outputs.get(target.location as usize)?;
        let float = target.format == "rgba32float";
        let same = (0..4).all(|c| {
            if float {
                reference::floats_agree(f32::from_bits(ours[c]), f32::from_bits(gpu[c]), &p.plan.tolerance)
            } else {
                ours[c] == gpu[c]
            }
        });
        let text =
            |w: [u32; 4]| w.iter().map(|&c| preview::component_text(target.format, c)).collect::<Vec<_>>().join(", ");
        Some((same, format!("o{}: interpreter ({}) GPU ({})", target.location, text(ours), text(gpu))))
    });
    view! {
        <div class="debug" data-testid="debug-panel">
            <h3>"Debug " <small>"one invocation on the interpreter, with the preview's inputs"</small></h3>
            {move || match stage.get() {
                Some(Stage::Pixel) => view! {
                    <p class="small" data-testid="debug-pick">{move || match pv.debug_pick.get() {
                        Some((x, y)) => format!("Pixel ({x}, {y}) — click the picture to pick another."),
                        None => "Click the picture to pick a pixel.".to_string(),
                    }}</p>
                    <button class="btn" data-testid="debug-start" disabled=move || pv.debug_pick.get().is_none()
                        on:click=move |_| if let Some((x, y)) = pv.debug_pick.get_untracked() { start(s, d, Invocation::Pixel { x, y }, 0) }>"Debug pixel"</button>
                }.into_any(),
                Some(Stage::Compute) => view! {
                    <label class="small">"Thread (group : thread) "
                        <input class="mono" data-testid="debug-thread" prop:value=move || d.thread.get()
                            on:change=move |ev| d.thread.set(event_target_value(&ev))/>
                    </label>
                    <button class="btn" data-testid="debug-start"
                        on:click=move |_| match thread_of(&d.thread.get_untracked()) {
                            Some(inv) => start(s, d, inv, 0),
                            None => d.note.set(Some("Write the thread as GX,GY,GZ:TX,TY,TZ".into())),
                        }>"Debug thread"</button>
                }.into_any(),
                Some(Stage::Vertex) => view! {
                    <label class="small">"Vertex of the mesh "
                        <input class="mono" type="number" min="0" data-testid="debug-vertex" prop:value=move || d.vertex.get()
                            on:change=move |ev| d.vertex.set(event_target_value(&ev))/>
                    </label>
                    <button class="btn" data-testid="debug-start"
                        on:click=move |_| match vertex_of(&d.vertex.get_untracked()) {
                            Some(inv) => start(s, d, inv, 0),
                            None => d.note.set(Some("Write the vertex as its index in the mesh's vertex buffer".into())),
                        }>"Debug vertex"</button>
                }.into_any(),
                _ => view! { <p class="small">"The debugger replays pixel, vertex and compute shaders."</p> }.into_any(),
            }}
            <p class="small" data-testid="debug-note">{move || d.note.get()}</p>
            {move || d.session.get().map(|sess| {
                let len = sess.steps.len();
                let sess2 = sess.clone();
                let (error, truncated) = (sess.error.clone(), sess.truncated);
                view! {
                    <div class="debug-bar" role="group" aria-label="Stepping">
                        <button class="btn small" data-testid="debug-back" title="Step back"
                            on:click=move |_| go(s, d, d.pos.get_untracked().saturating_sub(1))>"◀ Step"</button>
                        <button class="btn small" data-testid="debug-forward" title="Step forward"
                            on:click=move |_| go(s, d, d.pos.get_untracked() + 1)>"Step ▶"</button>
                        <button class="btn small" data-testid="debug-break-here" title="Toggle a breakpoint at the instruction selected in the listing (or click a line's gutter)"
                            on:click=move |_| {
                                let sel = s.sel.get_untracked().map(|x| x.start);
                                // The instruction that holds the selected byte: the last step offset at or before it.
                                let bp = sel.and_then(|b| sess2.steps.iter().map(|x| x.offset).filter(|&o| o <= b).max());
                                if let Some(bp) = bp {
                                    s.breakpoints.update(|v| debugger::toggle_breakpoint(v, bp));
                                }
                            }>"Break here"</button>
                        <button class="btn small" data-testid="debug-continue" title="Run to the next breakpoint"
                            on:click=move |_| {
                                let Some(x) = d.session.get_untracked() else { return };
                                let n = s.breakpoints.with_untracked(|b| x.next_stop(d.pos.get_untracked(), b));
                                go(s, d, n);
                            }>"Run to breakpoint"</button>
                        <button class="btn small" data-testid="debug-end" title="Run to the end"
                            on:click=move |_| go(s, d, len)>"Run to end"</button>
                        <select data-testid="debug-radix" on:change=move |ev| d.radix.set(match event_target_value(&ev).as_str() {
                            "int" => Radix::Int, "hex" => Radix::Hex, _ => Radix::Float })>
                            <option value="float">"float"</option><option value="int">"int"</option><option value="hex">"hex"</option>
                        </select>
                    </div>
                    <p class="mono small" data-testid="debug-position">{move || {
                        let n = d.pos.get();
                        let next = sess.steps.get(n).map_or("the end".to_string(), |x| format!("{:#06x}", x.offset));
                        format!("step {n} of {len}, next: {next}")
                    }}</p>
                    <p class="mono small" data-testid="debug-breakpoint">{move || s.breakpoints.with(|b| {
                        let at: Vec<String> = b.iter().map(|o| format!("{o:#06x}")).collect();
                        match at.len() {
                            0 => String::new(),
                            1 => format!("breakpoint at {}", at[0]),
                            _ => format!("breakpoints at {}", at.join(", ")),
                        }
                    })}</p>
                    {error.map(|e| view! { <p class="terror small" data-testid="debug-error">{e}</p> })}
                    {truncated.then(|| view! { <p class="terror small">"The record stops early: the run is longer than the debugger keeps."</p> })}
                }
            })}
            {move || compare.get().map(|(same, text)| view! {
                <p class=if same { "valid mono small" } else { "terror mono small" } data-testid="debug-compare" data-same=same.to_string()>
                    {if same { "✓ equals the GPU: " } else { "✗ differs from the GPU: " }}{text}
                </p>
            })}
            {move || regs.get().map(|r| {
                let written = d.session.with(|x| x.as_ref().map(|x| x.last_writes(d.pos.get()).to_vec()).unwrap_or_default());
                let radix = d.radix.get();
                let stored = d.session.with(|x| x.as_ref().map(|x| x.last_stores(d.pos.get()).to_vec()).unwrap_or_default());
                view! {
                    {(!stored.is_empty()).then(|| view! {
                        <div class="mono small debug-stores changed" data-testid="debug-stores">
                            <p>"Memory the last instruction stored:"</p>
                            {stored.iter().map(|w| view! { <p data-testid="debug-store">{w.text()}</p> }).collect_view()}
                        </div>
                    })}
                    <table class="mono small debug-regs" data-testid="debug-registers">
                        {debugger::rows(&r, &written).into_iter().map(|(name, v, mask)| view! {
                            <tr data-reg=name.clone()>
                                <th>{name.clone()}</th>
                                {(0..4).map(|c| {
                                    let changed = (mask >> c) & 1 == 1;
                                    view! { <td class:changed=changed>{debugger::component_text(v[c], radix)}</td> }
                                }).collect_view()}
                            </tr>
                        }).collect_view()}
                    </table>
                }
            })}
        </div>
    }
}
