//! The top bar: profile, checksum, file and example pickers, the tour,
//! the edit bar (undo, redo, the edited badge, the .dxbc download), the
//! permalink with its length meter, pane toggles and the paste box.

use super::copy_button::flash;
use super::edit_bar::EditBar;
use super::search_box::SearchBox;
use super::theme_toggle::ThemeToggle;
use crate::layout::Side;
use crate::text::fmt_thousands;
use crate::{gallery, input, st, State};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn Header() -> impl IntoView {
    let s = st();
    let profile =
        move || s.model.get().shader.as_ref().and_then(|sh| sh.profile()).unwrap_or_else(|| "no program".into());
    // A memo: the badge's class and text both read it, and checking the
    // checksum hashes the whole file (milliseconds on a large shader,
    // once per file or edit, not once per reader).
    let checksum = Memo::new(move |_| {
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
    });
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
            s.name.set(Some(e.id.to_string()));
        }
    };
    // Deflating a large shader takes tens of milliseconds, so the link is
    // not rebuilt on every selection change: the field shows the link made
    // when it was last focused or copied, and the length meter follows the
    // file (the view's records add a few characters).
    let link = RwSignal::new(String::new());
    // Measured after the frame that shows a new file or an edit, not in
    // it (deflating a large shader takes longer than a frame).
    let link_len = move || s.link_len.get();
    let copied = RwSignal::new(false);
    let copy = move |_| {
        let l = s.link();
        link.set(l.clone());
        let w = window();
        let url = format!(
            "{}{}{}",
            w.location().origin().unwrap_or_default(),
            w.location().pathname().unwrap_or_default(),
            l
        );
        let _ = w.history().and_then(|h| h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&l)));
        let _ = w.navigator().clipboard().write_text(&url);
        flash(copied);
    };
    let paste = RwSignal::new(String::new());
    view! {
        <header class="top">
            <h1>"DXBC Explorer"</h1>
            <span class="profile" data-testid="profile">{profile}</span>
            <span class=move || checksum.get().0 data-testid="checksum">{move || checksum.get().1}</span>
            <EditBar/>
            <label class="btn">"Open file…"
                <input type="file" data-testid="file" accept=".cso,.dxbc,.o,.fxo,.bin,.h,.txt" on:change=on_file/>
            </label>
            <select data-testid="examples" on:change=on_example aria-label="Examples">
                <option value="" selected>"Examples…"</option>
                {gallery::EXAMPLES.iter().map(|e| view! { <option value=e.id>{format!("{} — {}", e.profile, e.name)}</option> }).collect_view()}
            </select>
            <button class="btn" data-testid="tour-start" on:click=move |_| s.tour_to(0)>"Take the tour"</button>
            <span class="toggles" role="group" aria-label="Panes">
                {Side::ALL.iter().map(|&p| view! {
                    <label class="toggle"><input type="checkbox" data-testid=format!("{}-toggle", p.id())
                        prop:checked=move || s.panes.get() & p.bit() != 0 on:change=move |_| s.toggle_pane(p)/>{p.label()}</label>
                }).collect_view()}
            </span>
            <ThemeToggle/>
        </header>
        <div class="inputbar">
            <textarea data-testid="paste" placeholder="Paste hex, base64, a C array or a #v1/ link — or drop a file" title="Paste hex, base64, a C array / fxc /Fh header, or a #v1/ link — or drop a .cso/.dxbc file anywhere" rows="1"
                prop:value=move || paste.get()
                on:input=move |ev| paste.set(event_target_value(&ev))></textarea>
            <button class="btn" data-testid="decode" on:click=move |_| { s.tour.set(None); s.load_text(&paste.get_untracked()); }>"Decode"</button>
            <SearchBox/>
            <span class="status" data-testid="status">{move || s.status.get()}</span>
            <span class="link" >
                <button class="btn" data-testid="copy-link" on:click=copy title="Everything runs in your browser; links carry the shader in the URL fragment, which is never sent to a server.">{move || if copied.get() { "Copied ✓" } else { "Copy link" }}</button>
                <input readonly=true data-testid="permalink" class="linktext" placeholder="click for a link" prop:value=move || link.get() on:focus=move |ev| {
                    link.set(s.link());
                    if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) { i.select(); }
                }/>
                <span data-testid="link-length" class=move || { if link_len() > 8000 { "len warn" } else { "len" } } title="Chat tools and link shorteners often cut links beyond about 8,000 characters">
                    {move || format!("{} chars", fmt_thousands(link_len()))}
                </span>
            </span>
        </div>
        {move || s.notice.get().map(|n| view! {
            <div class="error" data-testid="notice" role="alert">{n}
                <button class="btn" on:click=move |_| s.notice.set(None)>"Dismiss"</button></div>
        })}
    }
}

pub fn read_file(s: State, f: web_sys::File) {
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
                    // Not one container (an archive, an effect, a dump): carved.
                    Ok(d) if d.view.is_none() && !crate::carved::opens_directly(&d.bytes) => {
                        s.tour.set(None);
                        crate::carve_pane::carve(s, d.bytes, Some(name));
                    }
                    Ok(d) => {
                        let kind = d.kind;
                        let n = d.bytes.len();
                        s.tour.set(None);
                        s.load_detected(d);
                        s.name.set(Some(name.clone()));
                        s.status.set(format!("Opened {name}: {n} bytes ({}).", kind.label()));
                    }
                    Err(e) => s.refuse(format!("{name}: {e}")),
                }
            }
            Err(_) => s.status.set(format!("Could not read {name}.")),
        }
    });
}
