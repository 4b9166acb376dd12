//! Editors for the constant-buffer values the shader reads.

use crate::preview;
use crate::preview_pane::PreviewSignals;
use crate::st;
use leptos::prelude::*;
use preview_model::camera::Camera;
use preview_model::controls::{matrix_preset, ControlKind, MatrixConvention, MatrixPreset};
use preview_model::{Control, Value};
use wasm_bindgen::JsCast;

pub(crate) fn set_value(pv: PreviewSignals, id: String, v: Value) {
    pv.values.update(|vals| {
        vals.insert(id, v);
    });
}

pub(crate) fn control_view(pv: PreviewSignals, c: Control) -> AnyView {
    let id = c.id.clone();
    let value = {
        let id = id.clone();
        let dflt = c.default.clone();
        move || pv.values.with(|v| v.get(&id).cloned().unwrap_or_else(|| dflt.clone()))
    };
    let label = c.label.clone();
    let unused = if c.used { "" } else { " (unused)" };
    let testid = format!("control-{}", c.id);
    let widget = match c.kind.clone() {
        ControlKind::Slider { min, max, step } => {
            let (id2, v2, v4) = (id.clone(), value.clone(), value.clone());
            view! {
                <input type="range" data-testid=testid.clone() min=min.to_string() max=max.to_string() step=step.to_string()
                    prop:value=move || match v4() { Value::Floats(x) => x.first().copied().unwrap_or(0.0).to_string(), _ => String::new() }
                    on:input=move |ev| { if let Some(v) = preview::set_component(&v2(), 0, &event_target_value(&ev)) { set_value(pv, id2.clone(), v); } }/>
                <span class="mono small">{move || match value() { Value::Floats(x) => format!("{:.3}", x.first().copied().unwrap_or(0.0)), _ => String::new() }}</span>
            }
            .into_any()
        }
        ControlKind::Color { alpha } => {
            let (id2, v2) = (id.clone(), value.clone());
            let (id3, v3, v5) = (id.clone(), value.clone(), value.clone());
            view! {
                <input type="color" data-testid=testid.clone() prop:value=move || preview::hex_colour(&value())
                    on:input=move |ev| { if let Some(v) = preview::from_hex_colour(&v2(), &event_target_value(&ev)) { set_value(pv, id2.clone(), v); } }/>
                {alpha.then(|| view! {
                    <input type="range" min="0" max="1" step="0.01" title="alpha"
                        prop:value=move || match v5() { Value::Floats(x) => x.get(3).copied().unwrap_or(1.0).to_string(), _ => String::new() }
                        on:input=move |ev| { if let Some(v) = preview::set_component(&v3(), 3, &event_target_value(&ev)) { set_value(pv, id3.clone(), v); } }/>
                })}
            }
            .into_any()
        }
        ControlKind::Checkbox { components } => (0..components as usize)
            .map(|k| {
                let (id2, v2) = (id.clone(), value.clone());
                let v3 = value.clone();
                view! {
                    <input type="checkbox" data-testid=format!("{testid}-{k}")
                        prop:checked=move || matches!(v3(), Value::Bools(x) if x.get(k).copied().unwrap_or(false))
                        on:change=move |ev| {
                            let on = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).is_some_and(|i| i.checked());
                            if let Some(v) = preview::set_component(&v2(), k, if on { "true" } else { "false" }) { set_value(pv, id2.clone(), v); }
                        }/>
                }
            })
            .collect_view()
            .into_any(),
        ControlKind::Matrix { rows, columns, presets } => {
            let cells = (0..rows as usize * columns as usize)
                .map(|k| number_field(pv, id.clone(), value.clone(), k, format!("{testid}-{k}"), "any"))
                .collect_view();
            let preset_buttons = presets
                .into_iter()
                .map(|pr| {
                    let id2 = id.clone();
                    let name = match pr {
                        MatrixPreset::Identity => "identity",
                        MatrixPreset::LookAt => "look-at",
                        MatrixPreset::Perspective => "perspective",
                        MatrixPreset::ViewProjection => "view × projection",
                    };
                    view! {
                        <button class="btn small" on:click=move |_| {
                            set_value(pv, id2.clone(), Value::Floats(matrix_preset(pr, MatrixConvention::RowVector, rows, columns)));
                        }>{name}</button>
                    }
                })
                .collect_view();
            view! {
                <div class="matrix" style:grid-template-columns=format!("repeat({columns}, 5.5em)")>{cells}</div>
                <div>{preset_buttons}</div>
            }
            .into_any()
        }
        // A vector's fields stay on one line together: a narrow pane moves
        // them under the label rather than splitting them.
        ControlKind::Vector { components, step, .. } => {
            let fields = (0..components as usize)
                .map(|k| number_field(pv, id.clone(), value.clone(), k, format!("{testid}-{k}"), &step.to_string()))
                .collect_view();
            view! { <span class="vec">{fields}</span> }.into_any()
        }
        ControlKind::Integer { components, .. } => {
            let fields = (0..components as usize)
                .map(|k| number_field(pv, id.clone(), value.clone(), k, format!("{testid}-{k}"), "1"))
                .collect_view();
            view! { <span class="vec">{fields}</span> }.into_any()
        }
    };
    view! { <div class="ctl"><span class="clabel mono">{label}{unused}</span>" "{widget}</div> }.into_any()
}

pub(crate) fn number_field(
    pv: PreviewSignals,
    id: String,
    value: impl Fn() -> Value + Clone + Send + Sync + 'static,
    k: usize,
    testid: String,
    step: &str,
) -> impl IntoView {
    let v2 = value.clone();
    view! {
        <input type="number" class="num" step=step.to_string() data-testid=testid
            prop:value=move || match value() {
                Value::Floats(x) => x.get(k).map(|f| f.to_string()).unwrap_or_default(),
                Value::Ints(x) => x.get(k).map(|f| f.to_string()).unwrap_or_default(),
                Value::Uints(x) => x.get(k).map(|f| f.to_string()).unwrap_or_default(),
                Value::Bools(x) => x.get(k).map(|f| f.to_string()).unwrap_or_default(),
            }
            on:input=move |ev| { if let Some(v) = preview::set_component(&v2(), k, &event_target_value(&ev)) { set_value(pv, id.clone(), v); } }/>
    }
}

#[component]
pub fn ConstantControls() -> impl IntoView {
    let pv = st().pv;
    move || {
        let p = pv.prepared.get()?;
        let groups: Vec<_> = p
            .model
            .cbuffers
            .iter()
            .filter(|cb| !cb.controls.is_empty())
            .map(|cb| {
                let reg = cb.register.map_or(String::new(), |r| format!(" (b{r})"));
                let controls = cb.controls.iter().cloned().map(|c| control_view(pv, c)).collect_view();
                // Without reflection the buffer is its declared registers, as raw float4s.
                let raw = cb.raw.then(|| {
                    view! { <small data-testid="preview-raw-note">" — no reflection: raw float4 registers, as declared"</small> }
                });
                view! { <fieldset class="cbuf" data-testid=format!("preview-cbuffer-{}", cb.id)><legend class="mono">{format!("{}{reg}", cb.name)}{raw}</legend>{controls}</fieldset> }
            })
            .collect();
        let reset = move |_| {
            if let Some(p) = pv.prepared.get_untracked() {
                pv.camera.set(Camera::default());
                pv.values.set(p.model.defaults());
            }
        };
        Some(view! {
            <div data-testid="preview-controls">
                <h3>"Constants " <button class="btn small" data-testid="preview-reset" on:click=reset>"Defaults"</button></h3>
                {if groups.is_empty() { view! { <p class="small">"No constant buffers: nothing to set."</p> }.into_any() } else { groups.into_any() }}
            </div>
        })
    }
}
