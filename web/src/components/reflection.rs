//! RDEF and signature tables.

use crate::st;
use crate::text::{input_type, mask_text};
use leptos::prelude::*;

#[component]
pub fn Reflection() -> impl IntoView {
    let s = st();
    view! {
        <section class="panel" data-testid="reflection">
            {move || {
                let m = s.model.get();
                let Some(sh) = &m.shader else { return ().into_any() };
                let cbs = sh.rdef.as_ref().map(|r| r.constant_buffers.iter().map(|cb| {
                    let vars = cb.variables.iter().map(|v| view! {
                        <tr><td class="mono">{v.ty.name.clone().unwrap_or_else(|| v.ty.base_type_name().to_string())}</td><td class="mono">{v.name.clone()}</td>
                        <td class="num">{v.start_offset}</td><td class="num">{v.size}</td><td>{if v.used() { "used" } else { "unused" }}</td></tr>
                    }).collect_view();
                    view! {
                        <h3>{format!("cbuffer {} ({} bytes)", cb.name, cb.size)}</h3>
                        <table class="tbl"><thead><tr><th>"Type"</th><th>"Member"</th><th>"Offset"</th><th>"Size"</th><th></th></tr></thead><tbody>{vars}</tbody></table>
                    }
                }).collect_view());
                let binds = sh.rdef.as_ref().filter(|r| !r.bindings.is_empty()).map(|r| {
                    let rows = r.bindings.iter().map(|b| view! {
                        <tr><td class="mono">{b.name.clone()}</td><td>{input_type(b.input_type)}</td><td class="num">{b.bind_point}</td><td class="num">{b.bind_count}</td>
                        <td class="num">{b.space.map(|x| x.to_string()).unwrap_or_default()}</td></tr>
                    }).collect_view();
                    view! {
                        <h3>"Resource bindings"</h3>
                        <table class="tbl"><thead><tr><th>"Name"</th><th>"Type"</th><th>"Register"</th><th>"Count"</th><th>"Space"</th></tr></thead><tbody>{rows}</tbody></table>
                    }
                });
                let sig = |title: &'static str, sg: Option<&dxbc::chunks::signature::Signature>| sg.map(|sg| {
                    let rows = sg.elements.iter().map(|e| view! {
                        <tr><td class="mono">{e.name.clone()}</td><td class="num">{e.semantic_index}</td><td class="mono">{mask_text(e.mask)}</td>
                        <td class="num">{if e.register == u32::MAX { "N/A".to_string() } else { e.register.to_string() }}</td>
                        <td>{e.system_value_name()}</td><td>{e.component_type_name()}</td><td class="mono">{mask_text(e.rw_mask)}</td></tr>
                    }).collect_view();
                    view! {
                        <h3>{format!("{title} signature ({})", dxbc::container::fourcc_text(&sg.fourcc))}</h3>
                        <table class="tbl"><thead><tr><th>"Semantic"</th><th>"Index"</th><th>"Mask"</th><th>"Register"</th><th>"System value"</th><th>"Format"</th><th>"Read / never-written"</th></tr></thead><tbody>{rows}</tbody></table>
                    }
                });
                let creator = sh.rdef.as_ref().map(|r| view! { <p class="small">{format!("Creator: {}", r.creator)}</p> });
                let empty = (sh.rdef.is_none() && sh.input_signature.is_none() && sh.output_signature.is_none())
                    .then(|| view! { <p class="small">"This file has no RDEF or signature chunks."</p> });
                view! {
                    <div class="refl">
                        {empty}{creator}{cbs}{binds}
                        {sig("Input", sh.input_signature.as_ref())}
                        {sig("Output", sh.output_signature.as_ref())}
                        {sig("Patch-constant", sh.patch_constant_signature.as_ref())}
                    </div>
                }.into_any()
            }}
        </section>
    }
}
