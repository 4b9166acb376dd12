//! A warning when the shown picture (the GPU's, or the CPU interpreter's
//! without WebGPU) is all NaN, infinite or black.

use crate::preview;
use crate::st;
use leptos::prelude::*;

/// A warning when the shown picture is all NaN, infinite or black.
#[component]
pub fn BlankWarning() -> impl IntoView {
    let s = st();
    let pv = s.pv;
    let picture = Memo::new(move |_| {
        let p = pv.prepared.get()?;
        let (data, _) = crate::preview_pane::shown_readbacks(s, &p)?;
        preview::shown_picture(&p, &data, pv.settings.with(|s| s.target))
    });
    move || {
        picture
            .get()
            .and_then(|pic| pic.warning())
            .map(|w| view! { <p class="terror small" data-testid="preview-warning">{w}</p> })
    }
}
