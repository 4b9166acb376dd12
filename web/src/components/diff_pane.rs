//! The diff view: the current file against the unedited original or a
//! second file, side by side and aligned by instruction, with each changed
//! instruction's fields and bytes, the chunks that differ and the counts.
//! A row's click selects its instruction in the current file (the listing,
//! bytes and inspector follow); the hex view marks the changed bytes.

use super::diff_source::DiffSource;
use crate::diff_view::{self, Row, RowStatus, MAX_ROWS};
use crate::dom::data_attr;
use crate::{selection, st};
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn DiffPane() -> impl IntoView {
    let s = st();
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(off) = data_attr(&ev, "data-b") else { return };
        let m = s.model.get_untracked();
        if let Some(sel) = selection::select_instruction_at(&m, off) {
            s.select(Some(sel));
        }
    };
    view! {
        <div class="diffpane" data-testid="diff">
            <DiffSource/>
            {move || match s.diff.get() {
                None => view! { <p class="hint">"Choose what to compare with."</p> }.into_any(),
                Some(d) => body(d).into_any(),
            }}
            <div class="drows" on:click=on_click>
                {move || s.diff.get().map(rows)}
            </div>
        </div>
    }
}

fn body(d: Arc<diff_view::DiffView>) -> impl IntoView {
    let c = d.counts;
    let mut notes: Vec<String> = d.chunks.iter().map(|x| x.text()).collect();
    if d.checksum_changed {
        notes.push("checksum differs".into());
    }
    if d.header_changed {
        notes.push("container header differs".into());
    }
    view! {
        <p class="dsummary" data-testid="diff-summary" data-changed=c.changed data-removed=c.removed
            data-added=c.added data-same=c.same data-chunks=c.chunks>
            {if d.identical() { "Identical. ".to_string() } else { String::new() }}{d.summary()}
        </p>
        {d.no_program.map(|w| view! { <p class="hint">{format!("No instruction alignment: {w}.")}</p> })}
        <ul class="dchunks" data-testid="diff-chunks">
            {notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
        </ul>
    }
}

fn rows(d: Arc<diff_view::DiffView>) -> impl IntoView {
    let more = d.rows.len().saturating_sub(MAX_ROWS);
    let shown: Vec<Row> = d.rows.iter().take(MAX_ROWS).cloned().collect();
    view! {
        {shown.into_iter().map(row_view).collect_view()}
        {(more > 0).then(|| view! { <p class="hint">{format!("{more} more rows not shown.")}</p> })}
    }
}

fn cell(x: &Option<diff_view::Ins>, class: &'static str) -> impl IntoView {
    view! {
        <span class=class>{x.as_ref().map(|i| view! {
            <span class="doff">{format!("{:#06x}", i.offset)}</span>" "{i.text.clone()}
        })}</span>
    }
}

fn row_view(r: Row) -> impl IntoView {
    let s = st();
    let b_range = r.b.as_ref().map(|i| (i.offset, i.len));
    let selected = move || {
        let (Some((o, l)), Some(sel)) = (b_range, s.sel.get()) else { return false };
        sel.start >= o && sel.start < o + l
    };
    let detail = (r.status == RowStatus::Changed).then(|| {
        let changes = r.shown.clone();
        let hex = |v: Vec<(u8, bool)>| {
            v.into_iter().map(|(x, ch)| view! { <span class:dbyte=ch>{format!("{x:02x}")}</span>" " }).collect_view()
        };
        view! {
            <div class="ddetail">
                <span class="dfields" data-testid="diff-fields">{r.fields.join(", ")}</span>
                {changes.into_iter().map(|(at, was, now)| view! {
                    <span class="dbytes" data-at=at>{format!("@{at:#x} ")}{hex(was)}"→ "{hex(now)}</span>
                }).collect_view()}
            </div>
        }
    });
    let bytes = r.b_bytes.iter().map(|x| format!("{}+{}", x.start, x.len())).collect::<Vec<_>>().join(" ");
    let title = match r.status {
        RowStatus::Folded => format!("{} unchanged instructions", r.folded),
        _ => String::new(),
    };
    view! {
        <div class=format!("drow {}", r.status.id()) class:sel=selected data-testid="diff-row" data-status=r.status.id()
            data-b=r.b.as_ref().map(|i| i.offset) data-a-off=r.a.as_ref().map(|i| i.offset)
            data-bytes=(!bytes.is_empty()).then_some(bytes) title=title
            aria-selected=move || selected().to_string()>
            <span class="dsign">{r.status.sign()}</span>
            {if r.status == RowStatus::Folded {
                view! { <span class="dfold">{format!("⋯ {} unchanged", r.folded)}</span> }.into_any()
            } else {
                view! { {cell(&r.a, "dcell da")}{cell(&r.b, "dcell db")} }.into_any()
            }}
            {detail}
        </div>
    }
}
