//! The values a compute shader wrote to its buffers.

use crate::preview;
use crate::st;
use leptos::prelude::*;

/// The buffers of the shown read-backs (`preview_pane::shown_readbacks`),
/// under a line saying so when the CPU interpreter computed them.
#[component]
pub fn BufferTables() -> impl IntoView {
    let s = st();
    let pv = s.pv;
    move || {
        let p = pv.prepared.get()?;
        let (data, from_cpu) = crate::preview_pane::shown_readbacks(s, &p)?;
        let source = from_cpu.then(|| {
            view! { <p class="small" data-testid="preview-buffer-source">"Computed on the CPU interpreter (no WebGPU here)."</p> }
        });
        let tables: Vec<_> = p
            .plan
            .readbacks
            .iter()
            .zip(data.iter())
            .filter_map(|(r, d)| {
                let (title, t) = preview::buffer_table(&p, r, d, 64)?;
                let head = t.columns.iter().map(|(n, _)| view! { <th class="mono">{n.clone()}</th> }).collect_view();
                let rows = t
                    .rows
                    .iter()
                    .enumerate()
                    .map(|(i, row)| view! { <tr><td class="mono">{i}</td>{row.iter().map(|c| view! { <td class="mono">{c.clone()}</td> }).collect_view()}</tr> })
                    .collect_view();
                let more = (t.total_rows > t.rows.len()).then(|| format!("first {} of {} rows", t.rows.len(), t.total_rows));
                Some(view! {
                    <div class="ptable">
                        <h3>{title}" "<small>{more}</small></h3>
                        <table class="tbl" data-testid="preview-buffer"><thead><tr><th>"#"</th>{head}</tr></thead><tbody>{rows}</tbody></table>
                    </div>
                })
            })
            .collect();
        (!tables.is_empty()).then(|| view! { <div class="ptables">{source}{tables}</div> })
    }
}
