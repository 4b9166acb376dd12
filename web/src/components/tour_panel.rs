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
                    // The steps are those of the user's file (not of the example standing in).
                    let user = s.tour_saved.with(|t| t.as_ref().map(|t| t.model.clone())).unwrap_or_else(|| s.model.get());
                    let (at, n) = tour::position(k, &user);
                    let (prev, next) = (tour::prev(k, &user), tour::next(k, &user));
                    view! {
                        <div class="tourhead"><strong>{format!("Tour {at}/{n}: {}", step.title)}</strong>
                            <span class="tourbtns">
                                <button class="btn" disabled=prev.is_none() on:click=move |_| s.tour_to(prev.unwrap_or(0))>"← Back"</button>
                                <button class="btn" data-testid="tour-next" disabled=next.is_none() on:click=move |_| s.tour_to(next.unwrap_or(k))>"Next →"</button>
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
