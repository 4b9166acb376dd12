//! The container's chunk table.

use crate::text::fmt_thousands;
use crate::{selection, st};
use leptos::prelude::*;

#[component]
pub fn ContainerMap() -> impl IntoView {
    let s = st();
    view! {
        <section class="panel" data-testid="chunks">
            {move || {
                let m = s.model.get();
                let Some(sh) = &m.shader else { return view! { <p>"No chunk table: the header could not be read."</p> }.into_any() };
                let rows = sh.container.chunks.iter().map(|c| {
                    let off = c.offset as u32;
                    view! {
                        <tr class="click" on:click=move |_| { let m = s.model.get_untracked(); if let Some(i) = m.span_starting(off) { s.select(selection::select_span(&m, i)); } }>
                            <td class="mono">{c.fourcc()}</td><td class="mono">{format!("{:#06x}", c.offset)}</td>
                            <td class="num">{fmt_thousands(c.size)}</td><td>{dxbc::container::chunk_kind_description(&c.tag)}</td>
                        </tr>
                    }
                }).collect_view();
                view! {
                    <table class="tbl"><thead><tr><th>"FourCC"</th><th>"Offset"</th><th>"Size (bytes)"</th><th>"What it is"</th></tr></thead>
                    <tbody>{rows}</tbody></table>
                    <p class="small">{format!("{} bytes, {} chunks.", fmt_thousands(m.bytes.len()), sh.container.chunks.len())}</p>
                }.into_any()
            }}
        </section>
    }
}
