//! The stage's settings: mesh, vertex view, camera and group size.

use crate::preview;
use crate::st;
use leptos::prelude::*;
use preview_model::mesh::MeshKind;
use preview_model::settings::VertexView;
use preview_model::Stage;

#[component]
pub fn StageControls() -> impl IntoView {
    let pv = st().pv;
    move || {
        let p = pv.prepared.get()?;
        Some(match p.plan.stage {
            Stage::Pixel => {
                let choices = preview::target_choices(&p);
                (choices.len() > 1).then(|| view! {
                    <label class="ctl">"Output shown "
                        <select data-testid="preview-target" on:change=move |ev| {
                            if let Ok(l) = event_target_value(&ev).parse::<u32>() { pv.settings.update(|s| s.target = l); }
                        }>
                            {choices.into_iter().map(|(i, label)| {
                                let loc = p.plan.draw.as_ref().map_or(0, |d| d.targets[i].location);
                                view! { <option value=loc.to_string() selected=move || pv.settings.with(|s| s.target == loc)>{label}</option> }
                            }).collect_view()}
                        </select></label>
                }).into_any()
            }
            Stage::Vertex | Stage::Geometry => {
                let outs = p.vertex_outputs.clone();
                // What runs around a lone geometry shader, said plainly.
                let gs_note = (p.plan.stage == Stage::Geometry).then(|| view! {
                    <p class="small" data-testid="preview-gs-note">
                        "Geometry shader through compute: a built-in pass-through vertex shader feeds it the mesh (each input takes the mesh attribute its semantic names; SV_Position and POSITION the object-space position), it runs once per primitive and instance, and its output is drawn with a built-in pixel shader that shows the chosen output as colour."
                    </p>
                });
                view! {
                    {gs_note}
                    <label class="ctl">"Mesh "
                        <select data-testid="preview-mesh" on:change=move |ev| {
                            let m = match event_target_value(&ev).as_str() { "plane" => MeshKind::Plane, "cube" => MeshKind::Cube, _ => MeshKind::Sphere { segments: 32 } };
                            pv.settings.update(|s| s.mesh = m);
                        }>
                            {[("sphere", "Sphere"), ("cube", "Cube"), ("plane", "Plane")].into_iter().map(|(v, l)| {
                                let on = move || pv.settings.with(|s| matches!((s.mesh, v), (MeshKind::Plane, "plane") | (MeshKind::Cube, "cube") | (MeshKind::Sphere { .. }, "sphere")));
                                view! { <option value=v selected=on>{l}</option> }
                            }).collect_view()}
                        </select></label>
                    <label class="ctl">"Show "
                        <select data-testid="preview-vertex-view" on:change=move |ev| {
                            let v = event_target_value(&ev);
                            pv.settings.update(|s| match v.parse::<u32>() {
                                Ok(l) => { s.view = VertexView::Colour; s.target = l; }
                                Err(_) => s.view = VertexView::Wireframe,
                            });
                        }>
                            {outs.into_iter().map(|(l, scalar, n)| view! {
                                <option value=l.to_string() selected=move || pv.settings.with(|s| s.view == VertexView::Colour && s.target == l)>
                                    {format!("o{l} as colour ({scalar} × {n})")}</option>
                            }).collect_view()}
                            <option value="wire" selected=move || pv.settings.with(|s| s.view == VertexView::Wireframe)>"Wireframe"</option>
                        </select></label>
                }.into_any()
            }
            // What runs around a lone domain shader, said plainly.
            Stage::Domain => view! {
                <p class="small" data-testid="preview-ds-note">
                    {format!("Domain shader over one patch: its control points are the plane's corners (a 3 × 3 or 4 × 4 grid over the plane for 9 or 16 points), each input taking the attribute its semantic names; every tessellation factor is {} with fractional_odd partitioning; the D3D11 tessellator runs as compute, and the domain shader draws its points with a built-in pixel shader that shows its first output after the position as colour.", preview_model::plan::DOMAIN_TESS_FACTOR)}
                </p>
            }
            .into_any(),
            // What runs around a lone hull shader, said plainly.
            Stage::Hull => view! {
                <p class="small" data-testid="preview-hs-note">
                    "Hull shader through compute over one patch: a built-in pass-through vertex shader gives it its input control points (the plane's corners, each input taking the attribute its semantic names), its control-point and patch-constant phases run as compute, the D3D11 tessellator (also compute) turns its factors into domain points, and a built-in domain shader draws them at their (u, v) in a square (a triangle for tri domains), each primitive coloured by the (u, v, w) of its first point."
                </p>
            }
            .into_any(),
            _ => {
                let wg = p.model.dispatch.as_ref().map_or([1, 1, 1], |d| d.workgroup_size);
                let dispatch = p.plan.dispatch;
                view! {
                    <div class="ctl" data-testid="preview-groups">{format!("Groups of {}×{}×{} threads; dispatch ", wg[0], wg[1], wg[2])}
                        <span class="vec">{(0..3).map(|k| view! {
                            <input type="number" min="1" step="1" class="num" data-testid=format!("preview-groups-{k}")
                                prop:value=move || dispatch.map_or(1, |(_, g)| g[k]).to_string()
                                on:change=move |ev| {
                                    if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                                        let now = pv.prepared.get_untracked().and_then(|p| p.plan.dispatch).map_or([1, 1, 1], |(_, g)| g);
                                        pv.settings.update(|s| { s.groups = now; s.groups[k] = n.max(1); });
                                    }
                                }/>
                        }).collect_view()}</span>
                    </div>
                }.into_any()
            }
        })
    }
}
