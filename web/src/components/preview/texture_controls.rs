//! A pattern or a picture for each texture the shader declares.

use crate::preview_pane::use_image;
use crate::st;
use leptos::prelude::*;
use preview_model::plan::Resource;
use preview_model::textures::Pattern;
use wasm_bindgen::JsCast;

#[component]
pub fn TextureControls() -> impl IntoView {
    let pv = st().pv;
    move || {
        let p = pv.prepared.get()?;
        let rows: Vec<_> = p
            .plan
            .entries
            .iter()
            .filter(|e| matches!(e.resource, Resource::Texture { .. }))
            .filter_map(|e| {
                let reg: u32 = e.register.get(1..)?.split(',').next()?.parse().ok()?;
                let label = if e.name.is_empty() { e.register.clone() } else { format!("{} ({})", e.name, e.register) };
                let current = pv.settings.with_untracked(|s| s.pattern(reg));
                let default = p.model.textures.iter().find(|t| t.register == reg).and_then(|t| match t.source {
                    preview_model::textures::TextureSource::Pattern(pp) => Some(pp),
                    _ => None,
                });
                // What the plan generates when the settings hold no pattern.
                let natural = default.unwrap_or(Pattern::Checker);
                let shown = current.unwrap_or(natural);
                let user = pv.settings.with_untracked(|s| s.image(reg).map(|i| format!("{}×{}", i.width, i.height)));
                Some(view! {
                    <div class="ctl" title="Drop a picture here to use it"
                        on:dragover=move |ev: web_sys::DragEvent| { ev.prevent_default(); ev.stop_propagation(); }
                        on:drop=move |ev: web_sys::DragEvent| {
                            // Not a shader: keep the page-wide drop handler out of it.
                            ev.prevent_default();
                            ev.stop_propagation();
                            if let Some(f) = ev.data_transfer().and_then(|d| d.files()).and_then(|l| l.get(0)) { use_image(pv, reg, f); }
                        }>
                        <span class="clabel mono">{label}</span>
                        <select data-testid=format!("preview-texture-t{reg}") on:change=move |ev| {
                            // The model's own choice is no override: the settings (and so
                            // links and reference fingerprints) stay as if never touched.
                            let p = Pattern::from_name(&event_target_value(&ev)).filter(|&pp| pp != natural);
                            pv.settings.update(|s| { s.set_image(reg, None); s.set_pattern(reg, p); });
                        }>
                            {user.clone().map(|u| view! { <option value="" selected=true>{format!("your picture ({u})")}</option> })}
                            {Pattern::ALL.into_iter().map(|pp| view! { <option value=pp.name() selected=user.is_none() && pp == shown>{pp.name()}</option> }).collect_view()}
                        </select>
                        <label class="btn small">"Picture…"
                            <input type="file" accept="image/*" data-testid=format!("preview-image-t{reg}") on:change=move |ev| {
                                let f = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).and_then(|i| i.files()).and_then(|l| l.get(0));
                                if let Some(f) = f { use_image(pv, reg, f); }
                            }/>
                        </label>
                    </div>
                })
            })
            .collect();
        (!rows.is_empty()).then(|| view! {
            <h3>"Textures " <small>"— a pattern, or drop a picture on the row"</small></h3>{rows}
            {move || pv.texture_note.get().map(|n| view! { <p class="terror small" data-testid="preview-texture-note">{n}</p> })}
        })
    }
}
