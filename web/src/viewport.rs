//! The geometry of a virtualised view (hex, listing, generated code), kept
//! from its own scroll and resize events.
//!
//! Why: reading `scrollTop` or `clientHeight` right after the page changed
//! the DOM makes the browser lay the whole page out on the spot, and a
//! selection change used to do that once per linked view before the frame
//! laid it out again. With the numbers remembered, bringing a row into view
//! reads nothing; the only layout is the frame's own.
//!
//! A text view draws some rows below those that fit (its lookahead), so a
//! short scroll finds them drawn. After a jump they are drawn a task after
//! the frame that shows the new place: rows nobody sees cost that frame
//! nothing (a listing jump rewrites every row it draws, and the lookahead
//! was a third of them).

use crate::dom::ROW_H;
use crate::layout;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Rows beyond those that fit that a view always draws: a partly visible
/// row at each end.
pub const EDGE_ROWS: usize = 2;

/// One view's scroll position and height, and the first row it draws.
#[derive(Clone, Copy)]
pub struct Viewport {
    /// First row drawn (follows the scroll position).
    pub top: RwSignal<usize>,
    /// Scroll position in px, as last seen or set.
    scroll: StoredValue<f64>,
    /// Visible height in px (0 while the view is not laid out).
    height: RwSignal<f64>,
    /// Whether the lookahead is drawn: false from a jump until a task
    /// after the frame that shows it.
    settled: RwSignal<bool>,
    /// Whether the next scroll event is the one a jump of ours caused.
    own_scroll: StoredValue<bool>,
}

impl Viewport {
    /// A viewport that starts at the top; [`Viewport::watch`] attaches it
    /// to its element.
    pub fn new() -> Viewport {
        Viewport {
            top: RwSignal::new(0),
            scroll: StoredValue::new(0.0),
            height: RwSignal::new(0.0),
            settled: RwSignal::new(true),
            own_scroll: StoredValue::new(false),
        }
    }

    /// Follows the element's size for as long as the calling owner lives
    /// (a ResizeObserver; its first report comes before the first paint).
    pub fn watch(self, node: NodeRef<leptos::html::Div>) {
        Effect::new(move |done: Option<bool>| {
            if done == Some(true) {
                return true;
            }
            let Some(el) = node.get() else { return false };
            let height = self.height;
            let cb = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                if let Some(e) = entries.get(0).dyn_ref::<web_sys::ResizeObserverEntry>() {
                    let h = e.content_rect().height();
                    if height.get_untracked() != h {
                        height.set(h);
                    }
                }
            });
            let Ok(ro) = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()) else { return true };
            ro.observe(&el);
            let keep = SendWrapper::new((ro, cb));
            on_cleanup(move || keep.0.disconnect());
            true
        });
    }

    /// Records a scroll of `el` (its `scroll` event). The event that
    /// follows a jump of ours reads nothing: it comes in the frame's
    /// rendering step, before its layout, and `scrollTop` would lay the
    /// page out on the spot (0.4–2.5 ms a view on the 158 KB shader).
    pub fn scrolled(&self, el: &web_sys::Element) {
        if self.own_scroll.get_value() {
            self.own_scroll.set_value(false);
            return;
        }
        self.read_scroll(el);
    }

    fn read_scroll(&self, el: &web_sys::Element) {
        let y = el.scroll_top() as f64;
        self.scroll.set_value(y);
        let row = (y / ROW_H) as usize;
        if self.top.get_untracked() != row {
            self.top.set(row);
        }
    }

    /// Scrolls `el` (a view of `rows` rows) so that `row` is visible, when
    /// it is not and the view is laid out. The rows that fit follow at once,
    /// in the same frame; the lookahead after it.
    pub fn ensure_visible(&self, el: &web_sys::Element, row: usize, rows: usize) {
        let (top, h) = (self.scroll.get_value(), self.height.get_untracked());
        if let Some(y) = layout::scroll_to_row(top, h, row, ROW_H) {
            // Where the browser will clamp it, so that the remembered
            // position is the real one.
            let y = y.min((rows as f64 * ROW_H - h).max(0.0)).round();
            self.scroll.set_value(y);
            el.set_scroll_top(y as i32);
            self.own_scroll.set_value(true);
            self.top.set((y / ROW_H) as usize);
            if self.settled.get_untracked() {
                self.settled.set(false);
                // After the frame that shows the jump: the lookahead, and
                // the position read back, now cheaply. A clamp, or a wheel
                // turn in the same frame, would have moved it from the one
                // remembered.
                let (vp, el) = (*self, el.clone());
                crate::dom::read_after_paint(move || {
                    // Read before anything is redrawn (the views' effects run
                    // after this task), so that reading lays nothing out.
                    if vp.settled.try_get_untracked().is_some() {
                        vp.own_scroll.set_value(false);
                        vp.read_scroll(&el);
                        vp.settled.set(true);
                    }
                });
            }
        }
    }

    /// Makes the calling effect rerun when the view's size changes (a view
    /// laid out for the first time can then scroll to its selection).
    pub fn track_size(&self) {
        self.height.track();
    }

    /// Whole rows that fit in the view (at least 1).
    pub fn page_rows(&self) -> usize {
        ((self.height.get_untracked() / ROW_H) as usize).max(1)
    }

    /// Rows to draw so the view is always full: those that fit, partly or
    /// wholly, plus `margin` (tracked: follows the view's size).
    pub fn fitting_rows(&self, margin: usize) -> usize {
        (self.height.get() / ROW_H).ceil() as usize + margin
    }

    /// Rows a text view draws: those that fit, plus `lookahead` rows below
    /// them once the view has settled after a jump (tracked).
    pub fn drawn_rows(&self, lookahead: usize) -> usize {
        self.fitting_rows(if self.settled.get() { lookahead } else { EDGE_ROWS })
    }
}
