//! The translation pane: naga's validation, the generated code in tabs
//! and the binding map; the translation runs lazily, in the worker.

use super::code_view::CodeView;
use super::copy_button::CopyButton;
use crate::dom::yield_now;
use crate::layout::PANE_TRANSLATION;
use crate::model::Model;
use crate::translation::{self, Failure, FailureKind, Outcome};
use crate::worker_client;
use crate::{selection, st, State};
use leptos::prelude::*;
use std::sync::Arc;

/// A translation and the model it was made from (the cache key).
pub type Cached = Option<(Arc<Model>, Arc<Outcome>)>;

/// Starts translating the current file when the pane is open and the last
/// translation is of another file (called by the handlers that open a file
/// or the pane, never by an effect). Once per file.
pub fn ensure_translation(s: State) {
    let open = s.panes.get_untracked() & PANE_TRANSLATION != 0;
    let m = s.model.get_untracked();
    if open && !s.tr.with_untracked(|c| c.as_ref().is_some_and(|(k, _)| Arc::ptr_eq(k, &m))) {
        s.tr.set(None);
        wasm_bindgen_futures::spawn_local(translate_later(s, m));
    }
}

/// Translates `m` in the translation worker (the page's wasm has no
/// translator); drops the answer when another file was opened meanwhile.
async fn translate_later(s: State, m: Arc<Model>) {
    let current = || Arc::ptr_eq(&s.model.get_untracked(), &m);
    yield_now().await;
    if !current() {
        return;
    }
    let outcome = if m.shader.is_none() {
        Outcome::Failed(Failure::new(
            FailureKind::NotTranslated,
            "the file is not a readable container".into(),
            m.stop_offset(),
        ))
    } else {
        match worker_client::request(worker_client::Kind::Translate, &m.bytes).await {
            Ok(json) => Outcome::from_json(&json),
            Err(e) => Outcome::Failed(Failure::new(
                FailureKind::NotTranslated,
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
pub fn TranslationPane() -> impl IntoView {
    let s = st();
    view! {
        <section class="panel" data-testid="translation">
            <h2 title="DXBC → naga IR, validated, then naga's WGSL, GLSL, MSL and HLSL writers — click a line of WGSL to select its instruction's bytes">
                "Translation " <small>"DXBC → naga → WGSL, GLSL, MSL, HLSL: click a WGSL line to select its bytes"</small></h2>
            {move || match s.tr.get() {
                None => view! { <p class="small" data-testid="translation-busy">"Translating…"</p> }.into_any(),
                Some((_, o)) => match &*o {
                    translation::Outcome::Failed(f) => failure_view(f.clone()).into_any(),
                    translation::Outcome::Ok(t) => {
                        let valid = format!(
                            "naga validation passed: {} shader, {} expressions in the body.",
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
                        // A stage WebGPU lacks runs as compute passes: say what each does.
                        let passes = (!t.passes.is_empty()).then(|| view! {
                            <div class="small" data-testid="translation-passes">
                                {t.passes.iter().map(|l| view! { <div class="mono">{l.clone()}</div> }).collect_view()}
                            </div>
                        });
                        view! {
                            <p class="valid" data-testid="translation-validation">"✓ " {valid}</p>
                            {passes}
                            <div class="tcols">
                                <div class="tcode">
                                    <div class="tabs" role="tablist">
                                        {translation::TARGETS.iter().map(|&k| view! {
                                            <button role="tab" class=move || if s.tab.get() == k { "tab on" } else { "tab" }
                                                data-testid=format!("tab-{}", k.label().to_ascii_lowercase())
                                                aria-selected=move || (s.tab.get() == k).to_string()
                                                on:click=move |_| s.tab.set(k)>{k.label()}</button>
                                        }).collect_view()}
                                        <CopyButton testid="copy-translation" title="Copy the whole text of this tab"
                                            text={let t = t.clone(); Callback::new(move |_| t.text(s.tab.get_untracked()))}/>
                                    </div>
                                    {let t = t.clone(); move || {
                                        // A new tab starts a new view (scrolled to the top).
                                        let target = s.tab.get();
                                        view! { <CodeView t=t.clone() target=target/> }
                                    }}
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

pub fn failure_view(f: translation::Failure) -> impl IntoView {
    let s = st();
    let limitation = f.kind.limitation();
    let why = f.why();
    let heading = match f.target {
        Some(t) => format!("Not written for {} — {}: ", t.label(), f.kind.label()),
        None => format!("Not translated — {}: ", f.kind.label()),
    };
    let link = f.offset.map(|off| {
        view! {
            <button class="offlink" data-testid="translation-offset" title="Select these bytes"
                on:click=move |_| { let m = s.model.get_untracked(); s.select(selection::select_instruction_at(&m, off)); }>
                {format!("at offset {off:#x}")}
            </button>
        }
    });
    view! {
        <div class="terror" data-testid="translation-error">
            <strong>{heading}</strong>
            <span data-testid="translation-message">{f.message.clone()}</span>" "{link}
            {limitation.map(|l| view! {
                <p class="small" data-testid="translation-why">
                    {format!("Why: {}. ", why.unwrap_or(l.why()))}<code data-testid="translation-limitation">{l.name()}</code>
                </p>
            })}
        </div>
    }
}
