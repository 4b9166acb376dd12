//! Small DOM helpers shared by the components: reading `data-*` attributes
//! from events, scrolling a virtualised list to a row, localStorage,
//! downloads and the clipboard, and yielding to the browser between slices
//! of work.

use leptos::prelude::window;
use wasm_bindgen::JsCast;

/// Height of one row of the virtualised views (hex, listing, code), in px.
pub const ROW_H: f64 = 20.0;
/// Text rows (listing, generated code) drawn below those that fit, so that
/// find-in-page, tests and a short scroll reach them without a re-render.
pub const LOOKAHEAD: usize = 24;

/// The number in attribute `name` of the event target or its closest
/// ancestor that has one.
pub fn data_attr(ev: &web_sys::Event, name: &str) -> Option<usize> {
    let t = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let el = t.closest(&format!("[{name}]")).ok()??;
    el.get_attribute(name)?.parse().ok()
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// A value remembered in localStorage (None when storage is off).
pub fn stored(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Remembers a value in localStorage (silently does nothing when storage is off).
pub fn store(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}

/// Runs `f` in an idle period of the browser with at least `min_ms` of it
/// left (`requestIdleCallback`: Chromium offers 50 ms once no frame is
/// due), so that work longer than a frame's spare time waits until the
/// page has settled. It asks again at each shorter idle period, and gives
/// `f` up after `give_up_ms` (a page that never settles, e.g. an animated
/// preview). Without `requestIdleCallback`, `f` runs after a timeout.
pub fn when_idle(min_ms: f64, give_up_ms: f64, f: impl FnOnce() + 'static) {
    let w = window();
    if !js_sys::Reflect::has(&w, &"requestIdleCallback".into()).unwrap_or(false) {
        let f = wasm_bindgen::closure::Closure::once_into_js(f);
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), 500);
        return;
    }
    let until = js_sys::Date::now() + give_up_ms;
    ask_idle(min_ms, until, Box::new(f));
}

fn ask_idle(min_ms: f64, until: f64, f: Box<dyn FnOnce()>) {
    let cb = wasm_bindgen::closure::Closure::once_into_js(move |d: web_sys::IdleDeadline| {
        if d.time_remaining() >= min_ms {
            f();
        } else if js_sys::Date::now() < until {
            ask_idle(min_ms, until, f);
        }
    });
    let _ = window().request_idle_callback(cb.unchecked_ref());
}

/// Lets the browser draw and handle input before the next slice of work.
pub async fn yield_now() {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

/// Whether the event happened in a text field or a picker, whose keys
/// (Ctrl+Z included) are its own.
pub fn in_text_field(ev: &web_sys::Event) -> bool {
    ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|e| {
        matches!(e.tag_name().to_ascii_lowercase().as_str(), "input" | "textarea" | "select")
            || e.closest("[contenteditable]").ok().flatten().is_some()
    })
}

/// Saves `data` as a file called `name`: a Blob, an object URL and a click
/// on an `<a download>` made for it (no inline script, which the page's CSP
/// forbids). The URL is revoked once the browser has taken the file.
pub fn download(name: &str, data: &[u8]) -> Result<(), String> {
    let js = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(data));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(js)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(js)?;
    let doc = window().document().ok_or("no document")?;
    let a = doc.create_element("a").map_err(js)?.dyn_into::<web_sys::HtmlAnchorElement>().map_err(|_| "no <a>")?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    leptos::prelude::set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(10),
    );
    Ok(())
}

/// Copies `text` to the clipboard (the browser may refuse silently).
pub fn copy_text(text: &str) {
    let _ = window().navigator().clipboard().write_text(text);
}

/// Work waiting for a frame's paint, in the order it came.
type Waiting = Vec<Box<dyn FnOnce()>>;

thread_local! {
    /// Work waiting for the paint of the next frame: reads of the layout,
    /// then everything else.
    static AFTER_PAINT: std::cell::RefCell<(Waiting, Waiting)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Runs `f` in a task after the next frame's paint: a frame's callbacks
/// run before its style, layout and paint, and a timeout set from one
/// runs after them. For work nobody sees in that frame.
pub fn after_paint(f: impl FnOnce() + 'static) {
    queue_after_paint(false, Box::new(f));
}

/// [`after_paint`] for a read of the layout (a scroll position): it runs
/// before the other work of that task, while the layout is still the one
/// just painted. Why: a jump of two views queued two position reads, each
/// in a task of its own, and the first view's redraw made the second read
/// lay the page out on the spot (about 1.5 ms on the 158 KB shader).
pub fn read_after_paint(f: impl FnOnce() + 'static) {
    queue_after_paint(true, Box::new(f));
}

/// Everything queued for one frame runs in one task: reads first, then
/// the rest. The views' effects run after the task, so nothing is
/// redrawn between the reads.
fn queue_after_paint(read: bool, f: Box<dyn FnOnce()>) {
    let first = AFTER_PAINT.with(|q| {
        let mut q = q.borrow_mut();
        let was_empty = q.0.is_empty() && q.1.is_empty();
        if read {
            q.0.push(f)
        } else {
            q.1.push(f)
        }
        was_empty
    });
    if first {
        leptos::prelude::request_animation_frame(|| {
            leptos::prelude::set_timeout(
                || {
                    // Taken before running: work queued while it runs waits
                    // for the next frame.
                    let (reads, rest) = AFTER_PAINT.with(|q| std::mem::take(&mut *q.borrow_mut()));
                    reads.into_iter().chain(rest).for_each(|f| f());
                },
                std::time::Duration::ZERO,
            )
        });
    }
}

thread_local! {
    /// Counts writes to the address bar, so a deferred clear can tell
    /// that a later write came first.
    static ADDRESS_WRITES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn address_written() -> u64 {
    ADDRESS_WRITES.with(|n| {
        n.set(n.get() + 1);
        n.get()
    })
}

/// [`clear_address`] after the frame's paint, unless the address is written
/// again before. Why: the first edit of a file opened from a link replaced
/// a 15 KB URL inside the frame that shows the edit (about 2.5 ms).
pub fn clear_address_after_paint() {
    let at = address_written();
    after_paint(move || {
        if ADDRESS_WRITES.with(|n| n.get()) == at {
            clear_address();
        }
    });
}

/// Removes the fragment from the address bar (without a history entry or a
/// hashchange): a stale link there would reopen the old file on reload.
pub fn clear_address() {
    address_written();
    let w = window();
    if w.location().hash().is_ok_and(|h| !h.is_empty()) {
        let path = w.location().pathname().unwrap_or_default();
        let _ = w.history().and_then(|h| h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path)));
    }
}

/// Puts `hash` (a `#v1/` link) in the address bar, replacing the entry.
pub fn set_address(hash: &str) {
    address_written();
    let _ = window().history().and_then(|h| h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash)));
}

/// The flag and event web/boot.js sets and fires once the UI's secondary
/// wasm (the functions the first view never runs, tools/wasm-split) is
/// compiled; builds that are not split are ready at once.
const SECONDARY_READY: &str = "dxbcSecondaryReady";
const SECONDARY_READY_EVENT: &str = "dxbc-secondary-ready";

/// Runs `f` once the secondary wasm is compiled. Work the first view can
/// wait for, and that only moved functions do (deflating the link to
/// measure it), waits for this: run earlier, it would fetch the secondary
/// synchronously, and the release build's profile would keep its
/// functions (and their data) in the first view.
pub fn when_secondary_ready(f: impl FnOnce() + 'static) {
    let w = window();
    let ready = js_sys::Reflect::get(&w, &SECONDARY_READY.into()).is_ok_and(|v| v.is_truthy());
    if ready {
        f();
        return;
    }
    // The event fires once, so each listener runs at most once.
    let f = wasm_bindgen::closure::Closure::once_into_js(f);
    let _ = w.add_event_listener_with_callback(SECONDARY_READY_EVENT, f.unchecked_ref());
}
