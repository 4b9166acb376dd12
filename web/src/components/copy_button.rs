//! A Copy button: copies the whole text it is given (not the rows a
//! virtualised view happens to draw) and says "Copied ✓" for two seconds.

use crate::dom;
use leptos::prelude::*;
use std::time::Duration;

/// How long the button says "Copied ✓".
pub const COPIED_FOR: Duration = Duration::from_secs(2);

/// Flags `copied` for [`COPIED_FOR`] (the flag may be gone by then: the
/// view that owned it was replaced).
pub fn flash(copied: RwSignal<bool>) {
    copied.set(true);
    set_timeout(
        move || {
            let _ = copied.try_set(false);
        },
        COPIED_FOR,
    );
}

/// `text` is asked on click; None copies nothing.
#[component]
pub fn CopyButton(
    testid: &'static str,
    #[prop(default = "Copy")] label: &'static str,
    #[prop(default = "")] title: &'static str,
    text: Callback<(), Option<String>>,
) -> impl IntoView {
    let copied = RwSignal::new(false);
    let click = move |_| {
        if let Some(t) = text.run(()) {
            dom::copy_text(&t);
            flash(copied);
        }
    };
    view! {
        <button class="btn small" data-testid=testid title=title on:click=click>
            {move || if copied.get() { "Copied ✓" } else { label }}
        </button>
    }
}
