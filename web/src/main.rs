//! DXBC Explorer, the web app. For now it decodes the example shader the
//! project assembles itself and shows its chunks and fxc-identical listing.

mod view_model;

use leptos::prelude::*;
use view_model::ShaderSummary;

#[component]
fn App() -> impl IntoView {
    let bytes = dxbc::examples::tint_pixel_shader();
    let summary = ShaderSummary::from_bytes(&bytes);
    let chunks = summary.chunks.clone();
    view! {
        <header class="top">
            <h1>"DXBC Explorer"</h1>
            <span class="profile" data-testid="profile">{summary.profile.clone()}</span>
            <span class="checksum" data-testid="checksum">{summary.checksum.clone()}</span>
        </header>
        <main>
            <section class="chunks" data-testid="chunks">
                <h2>"Chunks"</h2>
                <table>
                    <thead><tr><th>"FourCC"</th><th>"Offset"</th><th>"Size"</th><th>"What it is"</th></tr></thead>
                    <tbody>
                        {chunks.into_iter().map(|c| view! {
                            <tr><td class="mono">{c.fourcc}</td><td class="mono">{c.offset}</td><td>{c.size}</td><td>{c.description}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </section>
            <section class="listing">
                <h2>"Disassembly"</h2>
                <pre data-testid="disassembly">{summary.listing.clone()}</pre>
            </section>
        </main>
    }
}

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
