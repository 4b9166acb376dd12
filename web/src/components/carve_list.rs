//! The shaders carved out of a file: a progress bar with Cancel while the
//! worker carves, then one row per container (offset, size, program, name,
//! checksum); a click opens it. While one is open the list folds to a
//! banner naming it, with a way back to the list.

use crate::carve_pane::{self, CarvedFile};
use crate::carved::Row;
use crate::st;
use dxbc::carve::Checksum;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn CarveList() -> impl IntoView {
    let s = st();
    let c = s.carve;
    let progress = move || {
        c.progress.get().map(|(at, of)| {
            let share = crate::carved::progress(at as usize, of as usize);
            view! {
                <div class="carve" role="status">
                    "Carving: " <progress data-testid="carve-progress" max="1" value=share></progress>
                    {format!(" {:.0}% ", share * 100.0)}
                    <button class="btn" data-testid="carve-cancel" on:click=move |_| {
                        c.cancel();
                        s.status.set("Carving was cancelled.".into());
                    }>"Cancel"</button>
                </div>
            }
        })
    };
    let list = move || {
        let f = c.file.get()?;
        let head = match c.open.get() {
            Some(i) => {
                let row = f.listing.rows.get(i)?;
                let banner = crate::carved::banner(i, f.listing.total, row.offset, &f.name);
                view! {
                    <strong data-testid="carve-banner">{banner}</strong>
                    <small>" Hex offsets are the file's; the inspector's count from the shader's start. "</small>
                    <button class="btn" data-testid="carve-back" on:click=move |_| c.shown.update(|v| *v = !*v)>
                        {move || if c.shown.get() { "Hide the list" } else { "Back to the list" }}
                    </button>
                }
                .into_any()
            }
            None => view! { <strong>{f.listing.summary(&f.name)}</strong> }.into_any(),
        };
        Some(view! {
            <div class="carve">
                {head}
                <button class="btn" data-testid="carve-close" title="Forget the carved file" on:click=move |_| c.forget()>"Close"</button>
                <Show when=move || c.shown.get()>
                    <Rows file=f.clone()/>
                </Show>
            </div>
        })
    };
    view! { {progress} {list} }
}

/// The table of found containers.
#[component]
fn Rows(file: Arc<CarvedFile>) -> impl IntoView {
    let s = st();
    let c = s.carve;
    let rows = file.listing.rows.iter().enumerate().map(|(i, r)| row_view(s, c, i, r)).collect_view();
    view! {
        <div class="carvescroll">
            <table class="carvelist" data-testid="carve-list">
                <thead><tr><th>"#"</th><th>"offset"</th><th>"size"</th><th>"program"</th><th>"name"</th><th>"checksum"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

fn row_view(s: crate::State, c: carve_pane::CarveSignals, i: usize, r: &Row) -> impl IntoView {
    let badge = match r.checksum {
        Checksum::Valid => "badge ok",
        Checksum::Invalid => "badge bad",
        Checksum::Unsigned | Checksum::Unchecked => "badge",
    };
    let nested = r.parent.is_some();
    view! {
        <tr data-testid="carve-row" class:on=move || c.open.get() == Some(i) class:nested=nested
            aria-current=move || (c.open.get() == Some(i)).then_some("true")
            on:click=move |_| carve_pane::open_row(s, i)>
            <td>{i + 1}</td>
            <td><button class="offlink" data-testid="carve-offset" title="Open this shader">{r.offset_text()}</button></td>
            <td class="num">{r.size_text()}</td>
            <td>{r.program_text()}</td>
            <td>{r.name.clone().unwrap_or_default()}</td>
            <td><span class=badge>{r.checksum_text()}</span></td>
        </tr>
    }
}
