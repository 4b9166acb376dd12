//! The HLSL source a `/Zi` shader embeds, beside its listing: file tabs,
//! line numbers, highlighting, virtualised rows. A click on a line selects
//! its first instruction and marks all of them in the listing and the
//! bytes; the selected or hovered instruction lights its line. The mapping
//! is `source_map`'s; this file only draws it.

use super::copy_button::CopyButton;
use crate::dom::{data_attr, LOOKAHEAD, ROW_H};
use crate::model::Model;
use crate::selection::Selection;
use crate::source_map::{Loc, Marks, SourceMap};
use crate::viewport::Viewport;
use crate::{hlsl_syntax, selection, st};
use leptos::prelude::*;
use std::sync::Arc;

/// The source pane's part of the app state: the map of the current file and
/// what it derives from the selection and the hover.
#[derive(Clone, Copy)]
pub struct SourceState {
    /// The current file's sources and line tables (None without any).
    pub map: Memo<Option<Arc<SourceMap>>>,
    /// The source line clicked last.
    pub picked: RwSignal<Option<Loc>>,
    /// The instruction under the pointer in the listing.
    pub hover_ins: RwSignal<Option<usize>>,
    /// The line the selection is about.
    pub focus: Memo<Option<Loc>>,
    /// The line of the hovered instruction (listing or bytes).
    pub hovered: Memo<Option<Loc>>,
    /// The focused line's instructions and bytes, for the listing and the hex view.
    pub marks: Memo<Arc<Marks>>,
}

impl SourceState {
    pub fn new(model: RwSignal<Arc<Model>>, sel: RwSignal<Option<Selection>>, hover: RwSignal<Option<usize>>) -> Self {
        let map = Memo::new_with_compare(
            move |_| model.with(|m| m.shader.as_ref().and_then(SourceMap::new).map(Arc::new)),
            |a, b| !matches!((a, b), (Some(None), Some(None))),
        );
        let picked = RwSignal::new(None);
        let hover_ins = RwSignal::new(None);
        let focus = Memo::new(move |_| {
            let map = map.get()?;
            map.focus(picked.get(), sel.get().map(|s| s.start as usize))
        });
        let hovered = Memo::new(move |_| {
            let map = map.get()?;
            match hover_ins.get() {
                Some(k) => map.loc_of_instruction(k),
                None => map.loc_at_byte(hover.get()?),
            }
        });
        let marks = Memo::new(move |_| {
            Arc::new(match (map.get(), focus.get()) {
                (Some(map), Some(loc)) => Marks::of(&map, loc),
                _ => Marks::default(),
            })
        });
        SourceState { map, picked, hover_ins, focus, hovered, marks }
    }
}

#[component]
pub fn SourcePane() -> impl IntoView {
    let s = st();
    let src = s.src;
    // The file on show: the one of the focused line, unless a tab was
    // chosen since that line was focused.
    let chosen = RwSignal::new((0u32, None::<Loc>));
    let shown = Memo::new(move |_| {
        let (tab, at) = chosen.get();
        match src.focus.get() {
            Some(f) if Some(f) != at => f.file,
            _ => tab,
        }
    });
    view! {
        {move || src.map.get().map(|map| {
            let n_files = map.files.len();
            let tabs = (n_files > 1).then(|| {
                map.files.iter().enumerate().map(|(i, f)| {
                    let i = i as u32;
                    view! {
                        <button role="tab" class="tab" class:on=move || shown.get() == i data-testid="source-tab"
                            aria-selected=move || (shown.get() == i).to_string() title=f.name.clone()
                            on:click=move |_| chosen.set((i, src.focus.get_untracked()))>{short_name(&f.name)}</button>
                    }
                }).collect_view()
            });
            let copy_map = map.clone();
            let label_map = map.clone();
            let name_map = map.clone();
            view! {
                <section class="srcpane" data-testid="source-pane" aria-label="HLSL source">
                    <h2 title="The HLSL source fxc embedded with /Zi (the SPDB chunk): click a line to select its instructions">
                        "Source " <small data-testid="source-loc">{move || {
                            let at = src.hovered.get().or(src.focus.get());
                            at.map(|l| label_map.label(l)).unwrap_or_else(|| "click a line to select its instructions".into())
                        }}</small>
                    </h2>
                    <div class="tabs" role="tablist">
                        {tabs}
                        <span class="small srcname" data-testid="source-file">
                            {move || name_map.files.get(shown.get() as usize).map(|f| f.name.clone())}
                        </span>
                        <CopyButton testid="copy-source" title="Copy the whole text of this file"
                            text=Callback::new(move |_| copy_map.files.get(shown.get_untracked() as usize).map(|f| f.text.clone()))/>
                    </div>
                    {move || {
                        let file = shown.get();
                        view! { <SourceLines map=map.clone() file=file/> }
                    }}
                </section>
            }
        })}
    }
}

/// The last component of a path (tabs are narrow; the title has it whole).
fn short_name(name: &str) -> String {
    name.rsplit(['\\', '/']).next().unwrap_or(name).to_string()
}

/// The lines of one file, virtualised.
#[component]
fn SourceLines(map: Arc<SourceMap>, file: u32) -> impl IntoView {
    let s = st();
    let src = s.src;
    let node = NodeRef::<leptos::html::Div>::new();
    let vp = Viewport::new();
    vp.watch(node);
    let top = vp.top;
    let Some(f) = map.files.get(file as usize) else { return ().into_any() };
    let n = f.line_count();
    let states = Arc::new(hlsl_syntax::comment_states((0..n).map(|k| f.line(k))));
    // Bring the focused line into view when the selection moves to it.
    Effect::new(move |_| {
        vp.track_size();
        if let (Some(l), Some(el)) = (src.focus.get().filter(|l| l.file == file), node.get()) {
            vp.ensure_visible(&el, l.line.saturating_sub(1) as usize, n);
        }
    });
    let click_map = map.clone();
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(line) = data_attr(&ev, "data-line") else { return };
        let loc = Loc { file, line: line as u32 };
        let Some(&(start, len)) = click_map.ranges_at(loc).first() else { return };
        let m = s.model.get_untracked();
        src.picked.set(Some(loc));
        s.select(selection::select_range(&m, start, len));
    };
    view! {
        <div class="dis code srclines" data-testid="source-code" node_ref=node tabindex="0" on:click=on_click
            on:scroll=move |_| { if let Some(el) = node.get_untracked() { vp.scrolled(&el) } }>
            <div class="spacer" style:height=move || format!("{}px", n as f64 * ROW_H)>
                <div class="rows" style:transform=move || format!("translateY({}px)", top.get() as f64 * ROW_H)>
                    <For each=move || {
                        let first = top.get().min(n.saturating_sub(1));
                        first..(first + vp.drawn_rows(LOOKAHEAD)).min(n)
                    } key=|k| *k let:k>
                        {
                            let f = &map.files[file as usize];
                            let loc = Loc { file, line: k as u32 + 1 };
                            let linked = map.has_instructions(loc);
                            let class = move || {
                                let mut c = String::from(if linked { "line linked" } else { "line" });
                                if src.focus.get() == Some(loc) { c.push_str(" sel"); }
                                if src.hovered.get() == Some(loc) { c.push_str(" hl"); }
                                c
                            };
                            let title = linked.then(|| format!("{} instruction(s): click to select", map.instructions_at(loc).len()));
                            let pieces = hlsl_syntax::highlight(f.line(k), states[k]).0.into_iter()
                                .map(|(c, t)| view! { <span class=c.css()>{t.to_string()}</span> }).collect_view();
                            view! {
                                <div class=class data-testid="source-line" data-line={k + 1} title=title>
                                    <span class="ln" aria-hidden="true">{format!("{:>4} ", k + 1)}</span>{pieces}
                                </div>
                            }
                        }
                    </For>
                </div>
            </div>
        </div>
    }
    .into_any()
}
