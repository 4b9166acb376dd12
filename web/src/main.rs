//! DXBC Explorer, the web app: a hex view aligned with tokens and their
//! bitfields, an inspector, fxc's listing linked to the bytes, reflection
//! tables, a guided tour and permalinks. The logic lives in plain modules
//! (model, selection, inspect, input, syntax, tour, translation); the
//! components here only hold signals and draw.

mod preview_pane;
mod worker_client;

// The plain logic lives in the library (shared with the worker binary and
// tested natively); imported at the root so `crate::model` etc. name it.
use dxbc_web::{gallery, input, inspect, model, preview, selection, syntax, tour, translation};

use leptos::prelude::*;
use model::Model;
use selection::{Key, Selection, ROW_BYTES};
use std::sync::Arc;
use wasm_bindgen::JsCast;

const ROW_H: f64 = 20.0;
const POOL: usize = 48;
const PANE_MAP: u32 = 1;
const PANE_REFLECTION: u32 = 2;
const PANE_TRANSLATION: u32 = 4;
const PANE_PREVIEW: u32 = dxbc::permalink::panes::PREVIEW;

/// A translation and the model it was made from (the cache key).
type Cached = Option<(Arc<Model>, Arc<translation::Outcome>)>;

#[derive(Clone, Copy)]
struct State {
    model: RwSignal<Arc<Model>>,
    /// Hovered byte.
    hover: RwSignal<Option<usize>>,
    sel: RwSignal<Option<Selection>>,
    panes: RwSignal<u32>,
    tour: RwSignal<Option<usize>>,
    status: RwSignal<String>,
    /// A refusal to show prominently (a bad link, a file too large).
    notice: RwSignal<Option<String>>,
    /// The last translation (None while one runs or before the pane opens).
    tr: RwSignal<Cached>,
    /// The translation pane's tab.
    tab: RwSignal<translation::Target>,
    hex_ref: NodeRef<leptos::html::Div>,
    dis_ref: NodeRef<leptos::html::Div>,
    /// The live preview's values, settings and results.
    pv: preview_pane::PreviewSignals,
}

fn st() -> State {
    expect_context::<State>()
}

impl State {
    fn load(&self, bytes: Vec<u8>, status: String) {
        let m = Model::new(bytes);
        let stop = m.stop_offset();
        let first_sel =
            stop.and_then(|o| selection::select_byte(&m, o.min(m.bytes.len().saturating_sub(1)))).or_else(|| {
                let pl = m.program_line?;
                selection::select_line(&m, pl + 1)
            });
        self.model.set(Arc::new(m));
        self.hover.set(None);
        self.sel.set(first_sel);
        self.status.set(status);
        self.notice.set(None);
    }

    fn apply_view(&self, v: &dxbc::permalink::ViewState) {
        let m = self.model.get_untracked();
        self.panes.set(v.panes);
        self.tour.set(v.tour_step.map(|s| (s as usize).min(tour::STEPS.len() - 1)));
        self.sel.set(v.selection.and_then(|(o, l)| selection::restore(&m, o, l, v.field_lo)));
        if v.preview_values.is_some() || v.preview_settings.is_some() {
            self.pv.pending.set(Some((v.preview_values.clone(), v.preview_settings.clone())));
        }
    }

    /// Opens tour step `k` and selects its bytes (on the tour's example
    /// when the current file lacks them).
    fn tour_to(&self, k: usize) {
        let k = k.min(tour::STEPS.len() - 1);
        let step = &tour::STEPS[k];
        let m = self.model.get_untracked();
        let sel = match (step.target)(&m) {
            Some(s) => Some(s),
            None => {
                let ex = &gallery::EXAMPLES[0];
                self.load((ex.build)(), format!("Example: {} (the tour's shader).", ex.name));
                (step.target)(&self.model.get_untracked())
            }
        };
        self.tour.set(Some(k));
        self.sel.set(sel);
    }

    fn link(&self) -> String {
        let m = self.model.get();
        let s = self.sel.get();
        let (preview_values, preview_settings) =
            if self.panes.get() & PANE_PREVIEW != 0 { self.pv.link_state() } else { (None, None) };
        dxbc::permalink::encode(&dxbc::permalink::Permalink {
            shader: m.bytes.clone(),
            view: dxbc::permalink::ViewState {
                selection: s.map(|s| (s.start, s.len)),
                field_lo: s.and_then(|s| s.field),
                panes: self.panes.get(),
                tour_step: self.tour.get().map(|t| t as u32),
                preview_values,
                preview_settings,
            },
        })
    }

    fn load_text(&self, text: &str) {
        match input::detect_text(text) {
            Ok(d) => self.load_detected(d),
            Err(e) => self.refuse(format!("Could not read the pasted text: {e}.")),
        }
    }

    /// Opens the permalink in the address bar; a bad one leaves the page as
    /// it is and says why.
    fn load_link(&self, hash: &str) {
        match input::detect_text(hash) {
            Ok(d) => self.load_detected(d),
            Err(e) => self.refuse(format!(
                "This link could not be opened: {e}. It may have been cut short or altered; showing {} instead.",
                if self.model.get_untracked().bytes.is_empty() { "nothing" } else { "the current shader" }
            )),
        }
    }

    fn refuse(&self, why: String) {
        self.status.set(why.clone());
        self.notice.set(Some(why));
    }

    fn load_detected(&self, d: input::Detected) {
        let msg = format!("Read {} bytes from {}.", d.bytes.len(), d.kind.label());
        self.load(d.bytes, msg);
        if let Some(v) = d.view {
            self.apply_view(&v);
        }
    }
}

fn fmt_thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Scrolls `el` so that row `row` is visible (only when it is not).
fn ensure_visible(el: &web_sys::HtmlElement, row: usize) {
    let top = el.scroll_top() as f64;
    let h = el.client_height() as f64;
    let y = row as f64 * ROW_H;
    if y < top || y + ROW_H > top + h {
        el.set_scroll_top((y - h / 3.0).max(0.0) as i32);
    }
}

fn data_attr(ev: &web_sys::Event, name: &str) -> Option<usize> {
    let t = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let el = t.closest(&format!("[{name}]")).ok()??;
    el.get_attribute(name)?.parse().ok()
}

#[component]
fn App() -> impl IntoView {
    let first = &gallery::EXAMPLES[0];
    let state = State {
        model: RwSignal::new(Arc::new(Model::new((first.build)()))),
        hover: RwSignal::new(None),
        sel: RwSignal::new(None),
        panes: RwSignal::new(PANE_MAP | PANE_REFLECTION),
        tour: RwSignal::new(None),
        status: RwSignal::new(format!("Example: {}.", first.name)),
        notice: RwSignal::new(None),
        tr: RwSignal::new(None),
        tab: RwSignal::new(translation::Target::Wgsl),
        hex_ref: NodeRef::new(),
        dis_ref: NodeRef::new(),
        pv: preview_pane::PreviewSignals::new(),
    };
    provide_context(state);
    preview_pane::install(state);
    // Open on the example, or on the permalink in the address.
    let from_hash = move || {
        let hash = window().location().hash().unwrap_or_default();
        if hash.starts_with("#v1/") {
            state.load_link(&hash);
        } else if hash.len() > 1 {
            state.refuse(format!(
                "The address ends in a fragment that is not a DXBC Explorer link ({} characters; links start with #v1/).",
                hash.len()
            ));
        }
    };
    from_hash();
    if state.sel.get_untracked().is_none() {
        let m = state.model.get_untracked();
        if let Some(pl) = m.program_line {
            state.sel.set(selection::select_line(&m, pl + 1));
        }
    }
    let _ = window_event_listener(leptos::ev::hashchange, move |_| from_hash());
    // Files dropped anywhere on the page are opened.
    let _ = window_event_listener(leptos::ev::dragover, |ev| ev.prevent_default());
    let _ = window_event_listener(leptos::ev::drop, move |ev| {
        ev.prevent_default();
        if let Some(f) = ev.data_transfer().and_then(|d| d.files()).and_then(|l| l.get(0)) {
            read_file(state, f);
        }
    });
    // A new selection ends the hover (the inspector keeps showing the last
    // hovered token while the pointer travels to it).
    Effect::new(move |_| {
        state.sel.track();
        state.hover.set(None);
    });
    // Keep both views scrolled to the selection.
    Effect::new(move |_| {
        let s = state.sel.get();
        let m = state.model.get();
        if let Some(s) = s {
            if let Some(el) = state.hex_ref.get() {
                ensure_visible(&el, s.start as usize / ROW_BYTES);
            }
            if let (Some(el), Some(line)) = (state.dis_ref.get(), selection::line_of(&m, &s)) {
                ensure_visible(&el, line);
            }
        }
    });
    // Translate lazily: only while the pane is open, once per file.
    Effect::new(move |_| {
        let open = state.panes.get() & PANE_TRANSLATION != 0;
        let m = state.model.get();
        if open && !state.tr.with_untracked(|c| c.as_ref().is_some_and(|(k, _)| Arc::ptr_eq(k, &m))) {
            state.tr.set(None);
            wasm_bindgen_futures::spawn_local(translate_later(state, m));
        }
    });
    request_animation_frame(|| {
        if let Some(p) = window().performance() {
            let _ = p.mark("dxbc-ready");
        }
    });
    view! {
        <Header/>
        <ErrorBanner/>
        <TourPanel/>
        <main class="grid">
            <section class="pane hexpane">
                <h2>"Bytes " <small>"dwords, little-endian: bit 31 on the left"</small></h2>
                <HexView/>
            </section>
            <section class="pane inspane">
                <h2>"Inspector"</h2>
                <Inspector/>
            </section>
            <section class="pane dispane">
                <h2>"Disassembly " <small>"identical to fxc /Fc"</small></h2>
                <Disassembly/>
            </section>
        </main>
        <Show when=move || state.panes.get() & PANE_PREVIEW != 0>
            <preview_pane::PreviewPane/>
        </Show>
        <Show when=move || state.panes.get() & PANE_TRANSLATION != 0>
            <TranslationPane/>
        </Show>
        <Show when=move || state.panes.get() & PANE_MAP != 0>
            <ContainerMap/>
        </Show>
        <Show when=move || state.panes.get() & PANE_REFLECTION != 0>
            <Reflection/>
        </Show>
        <footer>"DXBC Explorer — everything runs in your browser; links carry the shader in the URL fragment, which is never sent to a server."</footer>
    }
}

#[component]
fn Header() -> impl IntoView {
    let s = st();
    let profile =
        move || s.model.get().shader.as_ref().and_then(|sh| sh.profile()).unwrap_or_else(|| "no program".into());
    let checksum = move || {
        let m = s.model.get();
        match &m.shader {
            None => ("badge bad", "not a container".to_string()),
            Some(sh) if sh.checksum_ok() => ("badge ok", "checksum valid".to_string()),
            Some(sh) => (
                "badge bad",
                format!(
                    "checksum INVALID (expected {})",
                    sh.computed_checksum().iter().map(|w| format!("{w:08x}")).collect::<String>()
                ),
            ),
        }
    };
    let on_file = move |ev: web_sys::Event| {
        let Some(inp) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        if let Some(f) = inp.files().and_then(|l| l.get(0)) {
            read_file(s, f);
        }
    };
    let on_example = move |ev: web_sys::Event| {
        if let Some(e) = gallery::by_id(&event_target_value(&ev)) {
            s.tour.set(None);
            s.load((e.build)(), format!("Example: {} — {}", e.name, e.about));
        }
    };
    let link = Memo::new(move |_| s.link());
    let copied = RwSignal::new(false);
    let copy = move |_| {
        let l = link.get();
        let w = window();
        let url = format!(
            "{}{}{}",
            w.location().origin().unwrap_or_default(),
            w.location().pathname().unwrap_or_default(),
            l
        );
        let _ = w.history().and_then(|h| h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&l)));
        let _ = w.navigator().clipboard().write_text(&url);
        copied.set(true);
    };
    let paste = RwSignal::new(String::new());
    view! {
        <header class="top">
            <h1>"DXBC Explorer"</h1>
            <span class="profile" data-testid="profile">{profile}</span>
            <span class=move || checksum().0 data-testid="checksum">{move || checksum().1}</span>
            <label class="btn">"Open file…"
                <input type="file" data-testid="file" accept=".cso,.dxbc,.o,.fxo,.bin,.h,.txt" on:change=on_file/>
            </label>
            <select data-testid="examples" on:change=on_example aria-label="Examples">
                <option value="" selected>"Examples…"</option>
                {gallery::EXAMPLES.iter().map(|e| view! { <option value=e.id>{format!("{} — {}", e.profile, e.name)}</option> }).collect_view()}
            </select>
            <button class="btn" data-testid="tour-start" on:click=move |_| s.tour_to(0)>"Take the tour"</button>
            <span class="link" >
                <button class="btn" data-testid="copy-link" on:click=copy>{move || if copied.get() { "Copied ✓" } else { "Copy link" }}</button>
                <input readonly=true data-testid="permalink" class="linktext" prop:value=move || link.get() on:focus=move |ev| {
                    if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) { i.select(); }
                }/>
                <span class=move || { if link.get().len() > 8000 { "len warn" } else { "len" } } title="Chat tools and link shorteners often cut links beyond about 8,000 characters">
                    {move || format!("{} chars", fmt_thousands(link.get().len()))}
                </span>
            </span>
            <label class="toggle"><input type="checkbox" prop:checked=move || s.panes.get() & PANE_MAP != 0 on:change=move |_| s.panes.update(|p| *p ^= PANE_MAP)/>"Chunks"</label>
            <label class="toggle"><input type="checkbox" prop:checked=move || s.panes.get() & PANE_REFLECTION != 0 on:change=move |_| s.panes.update(|p| *p ^= PANE_REFLECTION)/>"Reflection"</label>
            <label class="toggle"><input type="checkbox" data-testid="translation-toggle" prop:checked=move || s.panes.get() & PANE_TRANSLATION != 0 on:change=move |_| s.panes.update(|p| *p ^= PANE_TRANSLATION)/>"Translation"</label>
            <label class="toggle"><input type="checkbox" data-testid="preview-toggle" prop:checked=move || s.panes.get() & PANE_PREVIEW != 0 on:change=move |_| s.panes.update(|p| *p ^= PANE_PREVIEW)/>"Preview"</label>
        </header>
        <div class="inputbar">
            <textarea data-testid="paste" placeholder="Paste hex, base64, a C array / fxc /Fh header, or a #v1/ link — or drop a .cso/.dxbc file anywhere" rows="2"
                prop:value=move || paste.get()
                on:input=move |ev| paste.set(event_target_value(&ev))></textarea>
            <button class="btn" data-testid="decode" on:click=move |_| { s.tour.set(None); s.load_text(&paste.get_untracked()); }>"Decode"</button>
            <span class="status" data-testid="status">{move || s.status.get()}</span>
        </div>
        {move || s.notice.get().map(|n| view! {
            <div class="error" data-testid="notice" role="alert">{n}
                <button class="btn" on:click=move |_| s.notice.set(None)>"Dismiss"</button></div>
        })}
    }
}

fn read_file(s: State, f: web_sys::File) {
    let name = f.name();
    if f.size() > input::MAX_INPUT_BYTES as f64 {
        s.refuse(format!(
            "{name} is {} bytes ({:.1} MiB); the explorer opens files up to {} MiB. Nothing was read.",
            fmt_thousands(f.size() as usize),
            f.size() / (1u64 << 20) as f64,
            input::MAX_INPUT_BYTES >> 20
        ));
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(f.array_buffer()).await {
            Ok(buf) => {
                let bytes = js_sys::Uint8Array::new(&buf).to_vec();
                match input::detect_file(&bytes) {
                    Ok(d) => {
                        let kind = d.kind;
                        let n = d.bytes.len();
                        s.tour.set(None);
                        s.load_detected(d);
                        s.status.set(format!("Opened {name}: {n} bytes ({}).", kind.label()));
                    }
                    Err(e) => s.refuse(format!("{name}: {e}")),
                }
            }
            Err(_) => s.status.set(format!("Could not read {name}.")),
        }
    });
}

/// One line per decoding error: its kind, chunk, message and offset (a
/// button that selects the bytes), then what is still shown.
#[component]
fn ErrorBanner() -> impl IntoView {
    let s = st();
    view! {
        <Show when=move || !s.model.get().faults.is_empty()>
            <div class="error" data-testid="error" role="alert">
                {move || {
                    let m = s.model.get();
                    let summary = match &m.shader {
                        Some(sh) => format!(
                            "{} decoding error{}. Every chunk that decoded is shown ({} chunks, {} instructions); undecoded bytes are marked red.",
                            m.faults.len(),
                            if m.faults.len() == 1 { "" } else { "s" },
                            sh.container.chunks.len(),
                            m.n_instructions
                        ),
                        None => "The container header could not be read.".to_string(),
                    };
                    let rows = m.faults.iter().map(|f| {
                        let at = f.offset;
                        view! {
                            <li data-testid="fault">
                                <strong>{f.kind}</strong>
                                {f.chunk.as_ref().map(|c| format!(" in {c}"))}
                                {format!(": {} ", f.message)}
                                <button class="offlink" title="Select these bytes" on:click=move |_| {
                                    let m = s.model.get_untracked();
                                    s.sel.set(selection::select_byte(&m, at.min(m.bytes.len().saturating_sub(1))));
                                }>{format!("(at offset {at:#x})")}</button>
                            </li>
                        }
                    }).collect_view();
                    let first = m.faults[0].offset;
                    view! {
                        <strong>{format!("Decoding stopped at offset {first:#x}.")}</strong>" "
                        <p class="small">{summary}</p><ul class="faults">{rows}</ul>
                    }
                }}
            </div>
        </Show>
    }
}

#[component]
fn HexView() -> impl IntoView {
    let s = st();
    let top = RwSignal::new(0usize);
    let rows = move || s.model.with(|m| m.bytes.len().div_ceil(ROW_BYTES));
    let on_scroll = move |_| {
        if let Some(el) = s.hex_ref.get_untracked() {
            top.set((el.scroll_top() as f64 / ROW_H) as usize);
        }
    };
    let on_over = move |ev: web_sys::MouseEvent| {
        let b = data_attr(&ev, "data-b");
        if s.hover.get_untracked() != b {
            s.hover.set(b);
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(b) = data_attr(&ev, "data-b") {
            let m = s.model.get_untracked();
            s.sel.set(selection::select_byte(&m, b));
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let key = match ev.key().as_str() {
            "ArrowLeft" => Key::Left,
            "ArrowRight" => Key::Right,
            "ArrowUp" => Key::Up,
            "ArrowDown" => Key::Down,
            "PageUp" => Key::PageUp,
            "PageDown" => Key::PageDown,
            "Home" => Key::Home,
            "End" => Key::End,
            "Tab" if !ev.shift_key() => Key::NextField,
            _ => return,
        };
        ev.prevent_default();
        let m = s.model.get_untracked();
        let page = s.hex_ref.get_untracked().map_or(20, |el| (el.client_height() as f64 / ROW_H) as usize);
        s.sel.set(selection::step(&m, s.sel.get_untracked(), key, page.max(1)));
    };
    view! {
        <div class="hex" data-testid="hex-view" tabindex="0" node_ref=s.hex_ref
            on:scroll=on_scroll on:mouseover=on_over
            on:click=on_click on:keydown=on_key>
            <div class="spacer" style:height=move || format!("{}px", rows() as f64 * ROW_H)>
                <div class="rows" style:transform=move || format!("translateY({}px)", top.get() as f64 * ROW_H)>
                    {move || {
                        let m = s.model.get();
                        let first = top.get().min(rows().saturating_sub(1));
                        let last = (first + POOL).min(rows());
                        (first..last).map(|r| hex_row(&m, r)).collect_view()
                    }}
                </div>
            </div>
        </div>
    }
}

fn hex_row(m: &Arc<Model>, r: usize) -> impl IntoView {
    let s = st();
    let base = r * ROW_BYTES;
    let stop = m.stop_offset();
    let mut cells = Vec::with_capacity(ROW_BYTES);
    for w in 0..4 {
        let dw = base + w * 4;
        for k in (0..4).rev() {
            let b = dw + k;
            if b >= m.bytes.len() {
                cells.push(view! { <span class="b pad">"  "</span> }.into_any());
                continue;
            }
            let i = m.span_at(b);
            let mut class = String::from("b ");
            if let Some(i) = i {
                class.push_str(model::span_class(m, i));
                if i % 2 == 1 {
                    class.push_str(" alt");
                }
                if let Some(f) = m.field_at_byte(b) {
                    let idx = m.fields(i).iter().position(|x| x.lo == f).unwrap_or(0);
                    class.push_str([" f0", " f1", " f2", " f3"][idx % 4]);
                }
            }
            if stop == Some(b) {
                class.push_str(" stop");
            }
            if k == 0 {
                class.push_str(" dwend");
            }
            let mm = m.clone();
            let dynamic = move || {
                let mut c = class.clone();
                if let Some(sel) = s.sel.get() {
                    if sel.contains(b) {
                        c.push_str(" sel");
                    }
                }
                if let Some(h) = s.hover.get() {
                    let hs = mm.span_at(h);
                    if hs.is_some() && hs == i {
                        c.push_str(" hov");
                        if mm.field_at_byte(h).is_some() && mm.field_at_byte(h) == mm.field_at_byte(b) {
                            c.push_str(" hovf");
                        }
                    }
                }
                c
            };
            cells.push(view! { <span class=dynamic data-b=b>{format!("{:02x}", m.bytes[b])}</span> }.into_any());
        }
    }
    let ascii: String = m.bytes[base..(base + ROW_BYTES).min(m.bytes.len())]
        .iter()
        .map(|&c| if c.is_ascii_graphic() { c as char } else { '·' })
        .collect();
    view! {
        <div class="hrow"><span class="off">{format!("{base:08x}")}</span><span class="cells">{cells}</span><span class="ascii">{ascii}</span></div>
    }
}

#[component]
fn Inspector() -> impl IntoView {
    let s = st();
    // The hovered byte wins over the selection.
    let target = Memo::new(move |_| {
        let m = s.model.get();
        if let Some(h) = s.hover.get() {
            return m.span_at(h).map(|i| (i, m.field_at_byte(h)));
        }
        s.sel.get().and_then(|sel| Some((sel.span?, sel.field)))
    });
    view! {
        <div class="inspector" data-testid="inspector">
            {move || {
                let m = s.model.get();
                let Some((i, field)) = target.get() else {
                    return view! { <p class="hint">"Hover a byte or click a line of the disassembly."</p> }.into_any();
                };
                let Some(r) = inspect::inspect(&m, i) else { return ().into_any() };
                let rib = inspect::ribbon(&r.fields);
                let value = r.value.map(|v| format!("{v:#010x}")).unwrap_or_default();
                let ribbon = (!r.fields.is_empty()).then(|| ribbon_view(&r, &rib, field, r.value.unwrap_or(0), i));
                let fields = r.fields.iter().map(|f| {
                    let lo = f.lo;
                    let active = field == Some(lo);
                    let bits = if f.lo == f.hi { format!("{}", f.lo) } else { format!("{}–{}", f.hi, f.lo) };
                    view! {
                        <tr class=if active { "frow active" } else { "frow" } data-field=f.name
                            on:click=move |_| { let m = s.model.get_untracked(); s.sel.set(selection::select_field(&m, i, lo)); }>
                            <td class="fname">{f.name}</td><td class="mono">{bits}</td><td class="mono">{f.value}</td>
                            <td><span class="meaning">{f.meaning.clone()}</span>" "<span class="vdoc">{f.value_doc}</span></td>
                            <td class="doc">{f.doc}</td>
                        </tr>
                    }
                }).collect_view();
                let tree = r.tree.iter().map(|t| {
                    let span = t.span;
                    let cls = format!("trow d{}{}", t.depth, if span == i { " active" } else { "" });
                    view! {
                        <div class=cls on:click=move |_| { let m = s.model.get_untracked(); s.sel.set(selection::select_span(&m, span)); }>
                            <span class="mono off">{format!("{:06x}", t.offset)}</span>
                            <span class="role">{t.role.clone()}</span>
                            <span class="mono">{t.text.clone()}</span>
                        </div>
                    }
                }).collect_view();
                view! {
                    <div class="ititle"><strong data-testid="inspector-title">{r.title.clone()}</strong>
                        <span class="mono">{format!(" @ {:#x}, {} bytes ", r.offset, r.len)}</span>
                        <span class="mono val">{value}</span></div>
                    <p class="about">{r.about.clone()}</p>
                    {r.leaf.clone().map(|l| view! {
                        <table class="fields leaf" data-testid="inspector-leaf"><tbody>
                            <tr><td class="fname">"path"</td><td class="mono" data-testid="inspector-path">{l.path}</td></tr>
                            <tr><td class="fname">"value"</td><td class="mono" data-testid="inspector-value">{l.value}</td></tr>
                            <tr><td class="fname">"meaning"</td><td data-testid="inspector-meaning"><span class="meaning">{l.meaning}</span></td></tr>
                        </tbody></table>
                    })}
                    {ribbon}
                    {(!r.fields.is_empty()).then(|| view! {
                        <table class="fields"><thead><tr><th>"field"</th><th>"bits"</th><th>"value"</th><th>"meaning"</th><th>"what it does"</th></tr></thead>
                        <tbody>{fields}</tbody></table>
                    })}
                    {r.instruction.clone().map(|(line, doc)| view! {
                        <div class="ins"><code>{line}</code><p>{doc}</p></div>
                    })}
                    {(!r.tree.is_empty()).then(|| view! { <div class="tree">{tree}</div> })}
                }.into_any()
            }}
        </div>
    }
}

fn ribbon_view(
    r: &inspect::Inspection,
    rib: &[Option<usize>],
    active: Option<u8>,
    value: u32,
    span: usize,
) -> impl IntoView {
    let s = st();
    // Group consecutive bits with the same owner.
    let mut groups: Vec<(Option<usize>, u8, u8)> = Vec::new(); // owner, hi, lo
    for (k, o) in rib.iter().enumerate() {
        let bit = 31 - k as u8;
        match groups.last_mut() {
            Some(g) if g.0 == *o => g.2 = bit,
            _ => groups.push((*o, bit, bit)),
        }
    }
    let cells = groups
        .into_iter()
        .map(|(o, hi, lo)| {
            let bits: String = (lo..=hi).rev().map(|b| if value >> b & 1 == 1 { '1' } else { '0' }).collect();
            let width = (hi - lo + 1) as usize;
            let (name, cls, flo) = match o {
                Some(fi) => {
                    let f = &r.fields[fi];
                    let a = if active == Some(f.lo) { " active" } else { "" };
                    (f.name.to_string(), format!("rg f{}{}", fi % 4, a), Some(f.lo))
                }
                None => (String::new(), "rg none".to_string(), None),
            };
            let tip = name.clone();
            view! {
                <div class=cls style:flex=format!("{width} 1 0") title=tip
                    on:click=move |_| { if let Some(lo) = flo { let m = s.model.get_untracked(); s.sel.set(selection::select_field(&m, span, lo)); } }>
                    <div class="rbits">{bits}</div>
                    <div class="rname">{name}</div>
                    <div class="rpos">{if hi == lo { format!("{hi}") } else { format!("{hi}:{lo}") }}</div>
                </div>
            }
        })
        .collect_view();
    view! { <div class="ribbon" data-testid="ribbon">{cells}</div> }
}

#[component]
fn Disassembly() -> impl IntoView {
    let s = st();
    let top = RwSignal::new(0usize);
    let n = move || s.model.with(|m| m.lines.len());
    let hover_line = Memo::new(move |_| {
        let m = s.model.get();
        let h = s.hover.get()?;
        m.line_of_span(m.span_at(h)?)
    });
    let sel_line = Memo::new(move |_| {
        let m = s.model.get();
        selection::line_of(&m, &s.sel.get()?)
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(l) = data_attr(&ev, "data-line") {
            let m = s.model.get_untracked();
            if let Some(sel) = selection::select_line(&m, l) {
                s.sel.set(Some(sel));
            }
        }
    };
    view! {
        <div class="dis" data-testid="disassembly" node_ref=s.dis_ref on:click=on_click
            on:scroll=move |_| { if let Some(el) = s.dis_ref.get_untracked() { top.set((el.scroll_top() as f64 / ROW_H) as usize) } }>
            <div class="spacer" style:height=move || format!("{}px", n() as f64 * ROW_H)>
                <div class="rows" style:transform=move || format!("translateY({}px)", top.get() as f64 * ROW_H)>
                    {move || {
                        let m = s.model.get();
                        let first = top.get().min(n().saturating_sub(1));
                        let last = (first + POOL).min(n());
                        (first..last).map(|l| {
                            let linked = m.line_bytes(l).is_some();
                            let class = move || {
                                let mut c = String::from(if linked { "line linked" } else { "line" });
                                if hover_line.get() == Some(l) { c.push_str(" hl"); }
                                if sel_line.get() == Some(l) { c.push_str(" sel"); }
                                c
                            };
                            let pieces = syntax::highlight(&m.lines[l]).into_iter().map(|(c, t)| {
                                view! { <span class=c.css()>{t.to_string()}</span> }
                            }).collect_view();
                            view! { <div class=class data-line=l>{pieces}</div> }
                        }).collect_view()
                    }}
                </div>
            </div>
        </div>
    }
}

#[component]
fn ContainerMap() -> impl IntoView {
    let s = st();
    view! {
        <section class="pane wide" data-testid="chunks">
            <h2>"Container map"</h2>
            {move || {
                let m = s.model.get();
                let Some(sh) = &m.shader else { return view! { <p>"No chunk table: the header could not be read."</p> }.into_any() };
                let rows = sh.container.chunks.iter().map(|c| {
                    let off = c.offset as u32;
                    view! {
                        <tr class="click" on:click=move |_| { let m = s.model.get_untracked(); if let Some(i) = m.span_starting(off) { s.sel.set(selection::select_span(&m, i)); } }>
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

fn mask_text(m: u8) -> String {
    "xyzw".chars().enumerate().map(|(i, c)| if m >> i & 1 == 1 { c } else { ' ' }).collect()
}

#[component]
fn Reflection() -> impl IntoView {
    let s = st();
    view! {
        <section class="pane wide" data-testid="reflection">
            <h2>"Reflection"</h2>
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

/// Lets the browser draw and handle input before the next slice of work.
async fn yield_now() {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

/// Translates `m` in the translation worker; drops the answer when another
/// file was opened meanwhile.
async fn translate_later(s: State, m: Arc<Model>) {
    use translation::{Failure, Outcome};
    let current = || Arc::ptr_eq(&s.model.get_untracked(), &m);
    yield_now().await;
    if !current() {
        return;
    }
    let outcome = if m.shader.is_none() {
        Outcome::Failed(Failure::new("not translated", "the file is not a readable container".into(), m.stop_offset()))
    } else {
        match worker_client::request(worker_client::Kind::Translate, &m.bytes).await {
            Ok(json) => Outcome::from_json(&json),
            Err(e) => Outcome::Failed(Failure::new(
                "not translated",
                format!("the translation worker did not run: {e}"),
                None,
            )),
        }
    };
    if current() {
        s.tr.set(Some((m.clone(), Arc::new(outcome))));
    }
}

#[component]
fn TranslationPane() -> impl IntoView {
    let s = st();
    view! {
        <section class="pane wide" data-testid="translation">
            <h2>"Translation " <small>"DXBC → naga IR, validated, then naga's WGSL, GLSL, MSL and HLSL writers — click a line of WGSL to select its instruction's bytes"</small></h2>
            {move || match s.tr.get() {
                None => view! { <p class="small" data-testid="translation-busy">"Translating…"</p> }.into_any(),
                Some((_, o)) => match &*o {
                    translation::Outcome::Failed(f) => failure_view(f.clone()).into_any(),
                    translation::Outcome::Ok(t) => {
                        let valid = format!(
                            "naga validation passed: {} shader, {} expressions in dxbc_main.",
                            t.stage, t.expressions
                        );
                        let rows = t.bindings.iter().map(|b| view! {
                            <tr><td class="mono">{b.register.clone()}</td><td class="mono">{format!("@group({}) @binding({})", b.group, b.binding)}</td><td>{b.kind.clone()}</td></tr>
                        }).collect_view();
                        let bindings = if t.bindings.is_empty() {
                            view! { <p class="small">"No resources: nothing to bind."</p> }.into_any()
                        } else {
                            view! {
                                <table class="tbl" data-testid="binding-map"><thead><tr><th>"Register"</th><th>"WebGPU"</th><th>"Bind"</th></tr></thead><tbody>{rows}</tbody></table>
                                <p class="small">"Default scheme: constant buffers group 0, SRVs group 1, samplers group 2, UAVs group 3; binding = register."</p>
                            }.into_any()
                        };
                        view! {
                            <p class="valid" data-testid="translation-validation">"✓ " {valid}</p>
                            <div class="tcols">
                                <div class="tcode">
                                    <div class="tabs" role="tablist">
                                        {translation::TARGETS.iter().map(|&k| view! {
                                            <button role="tab" class=move || if s.tab.get() == k { "tab on" } else { "tab" }
                                                data-testid=format!("tab-{}", k.label().to_ascii_lowercase())
                                                aria-selected=move || (s.tab.get() == k).to_string()
                                                on:click=move |_| s.tab.set(k)>{k.label()}</button>
                                        }).collect_view()}
                                    </div>
                                    <CodeView t=t.clone()/>
                                </div>
                                <div class="tbind"><h3>"Binding map"</h3>{bindings}</div>
                            </div>
                        }.into_any()
                    }
                },
            }}
        </section>
    }
}

fn failure_view(f: translation::Failure) -> impl IntoView {
    let s = st();
    let why = f.why.clone();
    let link = f.offset.map(|off| {
        view! {
            <button class="offlink" data-testid="translation-offset" title="Select these bytes"
                on:click=move |_| { let m = s.model.get_untracked(); s.sel.set(selection::select_instruction_at(&m, off)); }>
                {format!("at offset {off:#x}")}
            </button>
        }
    });
    view! {
        <div class="terror" data-testid="translation-error">
            <strong>{format!("Not translated — {}: ", f.kind)}</strong>
            <span data-testid="translation-message">{f.message.clone()}</span>" "{link}
            {why.map(|w| view! { <p class="small">{format!("Why: {w}.")}</p> })}
        </div>
    }
}

#[component]
fn CodeView(t: Arc<translation::Translated>) -> impl IntoView {
    let s = st();
    let top = RwSignal::new(0usize);
    let node = NodeRef::<leptos::html::Div>::new();
    let tab = s.tab;
    let t2 = t.clone();
    let lines = Memo::new(move |_| match &t2.outputs[tab.get().index()] {
        Ok(l) => Arc::new(l.clone()),
        Err(e) => Arc::new(vec![format!("// this backend failed: {e}")]),
    });
    let spans = {
        let t = t.clone();
        move || if tab.get() == translation::Target::Wgsl { t.wgsl_spans.clone() } else { Vec::new() }
    };
    let spans = Memo::new(move |_| Arc::new(spans()));
    // A new tab starts at the top.
    Effect::new(move |_| {
        tab.track();
        if let Some(el) = node.get_untracked() {
            el.set_scroll_top(0);
        }
        top.set(0);
    });
    // Show the WGSL of the selected instruction.
    Effect::new(move |_| {
        let Some(sel) = s.sel.get() else { return };
        let sp = spans.get();
        if let (Some(el), Some(k)) =
            (node.get(), sp.iter().position(|x| x.is_some_and(|(a, l)| sel.start >= a && sel.start < a + l)))
        {
            ensure_visible(&el, k);
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(k) = data_attr(&ev, "data-wl") {
            if let Some(Some((start, len))) = spans.get_untracked().get(k).copied() {
                let m = s.model.get_untracked();
                s.sel.set(selection::select_range(&m, start, len));
            }
        }
    };
    let n = move || lines.with(|l| l.len());
    view! {
        <div class="dis code" data-testid="translation-code" node_ref=node on:click=on_click
            on:scroll=move |_| { if let Some(el) = node.get_untracked() { top.set((el.scroll_top() as f64 / ROW_H) as usize) } }>
            <div class="spacer" style:height=move || format!("{}px", n() as f64 * ROW_H)>
                <div class="rows" style:transform=move || format!("translateY({}px)", top.get() as f64 * ROW_H)>
                    {move || {
                        let l = lines.get();
                        let sp = spans.get();
                        let first = top.get().min(l.len().saturating_sub(1));
                        let last = (first + POOL).min(l.len());
                        (first..last).map(|k| {
                            let span = sp.get(k).copied().flatten();
                            let class = move || {
                                let mut c = String::from(if span.is_some() { "line linked" } else { "line" });
                                if let (Some((a, len)), Some(sel)) = (span, s.sel.get()) {
                                    if sel.start >= a && sel.start < a + len { c.push_str(" sel"); }
                                }
                                c
                            };
                            let title = span.map(|(a, len)| format!("from the instruction at {a:#x}, {len} bytes"));
                            view! { <div class=class data-wl=k title=title data-span=span.map(|(a, len)| format!("{a}+{len}"))>{l[k].clone()}</div> }
                        }).collect_view()
                    }}
                </div>
            </div>
        </div>
    }
}

fn input_type(t: u32) -> &'static str {
    use dxbc::spec::ShaderInputType as T;
    match T::from_u32(t) {
        Some(T::Cbuffer) => "cbuffer",
        Some(T::Tbuffer) => "tbuffer",
        Some(T::Texture) => "texture",
        Some(T::Sampler) => "sampler",
        Some(T::UavRwtyped) => "RW typed (UAV)",
        Some(T::Structured) => "structured",
        Some(T::UavRwstructured) => "RW structured",
        Some(T::Byteaddress) => "byte address",
        Some(T::UavRwbyteaddress) => "RW byte address",
        Some(T::UavAppendStructured) => "append structured",
        Some(T::UavConsumeStructured) => "consume structured",
        Some(T::UavRwstructuredWithCounter) => "RW structured + counter",
        _ => "unknown",
    }
}

#[component]
fn TourPanel() -> impl IntoView {
    let s = st();
    view! {
        <Show when=move || s.tour.get().is_some()>
            <div class="tour" data-testid="tour">
                {move || {
                    let k = s.tour.get().unwrap_or(0);
                    let step = &tour::STEPS[k];
                    let n = tour::STEPS.len();
                    view! {
                        <div class="tourhead"><strong>{format!("Tour {}/{}: {}", k + 1, n, step.title)}</strong>
                            <span class="tourbtns">
                                <button class="btn" disabled=k == 0 on:click=move |_| s.tour_to(k.saturating_sub(1))>"← Back"</button>
                                <button class="btn" data-testid="tour-next" disabled=k + 1 == n on:click=move |_| s.tour_to(k + 1)>"Next →"</button>
                                <button class="btn" on:click=move |_| s.tour.set(None)>"Close"</button>
                            </span>
                        </div>
                        <p>{step.text}</p>
                    }
                }}
            </div>
        </Show>
    }
}

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
