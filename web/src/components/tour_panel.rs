//! The guided tour's panel.

use crate::{st, tour};
use leptos::prelude::*;

#[component]
pub fn TourPanel() -> impl IntoView {
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
                                <button class="btn" data-testid="tour-close" title="Close the tour (Escape); your file comes back" on:click=move |_| s.end_tour()>"Close"</button>
                            </span>
                        </div>
                        <p>{step.text}</p>
                    }
                }}
            </div>
        </Show>
    }
}
