//! The exact output values under the pointer.

use super::compare_controls::live_reference;
use crate::preview;
use crate::st;
use leptos::prelude::*;
use preview_model::plan::Resource;
use preview_model::Stage;

#[component]
pub fn PixelReadout() -> impl IntoView {
    let s = st();
    let pv = s.pv;
    move || {
        let (p, data, (x, y)) = (pv.prepared.get()?, pv.readbacks.get()?, pv.hover.get()?);
        if p.plan.stage == Stage::Compute {
            // The picture is the first storage texture (layer 0), one channel.
            let (i, word) = preview::storage_texel(&p.plan, &data, x, y)?;
            let fmt = match &p.plan.entries[i].resource {
                Resource::StorageTexture { format, .. } => *format,
                _ => "",
            };
            let text = preview::storage_text(fmt, word);
            let native = live_reference(s)
                .and_then(|r| preview::storage_texel(&p.plan, &r.readbacks, x, y))
                .map(|(_, w)| format!("native: {}", preview::storage_text(fmt, w)));
            return Some(view! {
                <p class="mono" data-testid="preview-pixel">{format!("{} texel ({x}, {y}): {text}", p.plan.entries[i].register)}</p>
                {native.map(|n| view! { <p class="mono" data-testid="preview-pixel-native">{n}</p> })}
            }.into_any());
        }
        let draw = p.plan.draw.as_ref()?;
        let shown = if p.plan.stage == Stage::Pixel {
            let want = pv.settings.with(|s| s.target);
            draw.targets.iter().position(|t| t.location == want).unwrap_or(0)
        } else {
            0
        };
        let ri = preview::target_readback(&p.plan, shown)?;
        let fmt = draw.targets[shown].format;
        let words = preview::texel(&p.plan, data.get(ri)?, x, y)?;
        let text = |w: [u32; 4]| w.iter().map(|&c| preview::component_text(fmt, c)).collect::<Vec<_>>().join(", ");
        let native = live_reference(s).and_then(|r| {
            let d = r.readbacks.get(ri)?;
            preview::texel(&p.plan, d, x, y).map(|w| format!("native: ({})", text(w)))
        });
        Some(
            view! {
                <p class="mono" data-testid="preview-pixel">{format!("pixel ({x}, {y}): ({})", text(words))}</p>
                {native.map(|n| view! { <p class="mono" data-testid="preview-pixel-native">{n}</p> })}
            }
            .into_any(),
        )
    }
}
