//! DXBC Explorer, the web app: a hex view aligned with tokens and their
//! bitfields, an inspector, fxc's listing linked to the bytes, reflection
//! tables, a guided tour and permalinks. The logic lives in plain modules
//! (model, selection, inspect, input, syntax, tour, translation, layout,
//! text); the views are in `components/`, one per file. This file holds
//! the app's state, its shell and the mount.

mod carve_pane;
mod components;
mod dom;
mod preview_pane;
mod viewport;
mod worker_client;

// The plain logic lives in the library (shared with the worker binary and
// tested natively); imported at the root so `crate::model` etc. name it.
use dxbc_web::{
    byte_look, carved, debugger, def_use, diff_view, gallery, history, hlsl_syntax, input, inspect, layout,
    listing_edit, model, preview, row_window, search, selection, source_map, syntax, text, tour, translation,
};

use components::translation_pane::{ensure_translation, Cached};
use diff_view::{CompareWith, DiffView};
use history::History;
use layout::{Fold, Needs, Side, Splits, Theme, PANE_DIFF, PANE_MAP, PANE_PREVIEW, PANE_REFLECTION};
use leptos::prelude::*;
use model::Model;
use selection::Selection;
use std::sync::Arc;

/// Link payloads up to this size are measured on the page (a fifth of the
/// 158 KB shader's 7–9 ms, at most), larger ones in the worker, which
/// loads for them if nothing loaded it before.
const LINK_ON_PAGE_BYTES: usize = 32 * 1024;

#[derive(Clone, Copy)]
struct State {
    model: RwSignal<Arc<Model>>,
    /// Hovered byte.
    hover: RwSignal<Option<usize>>,
    sel: RwSignal<Option<Selection>>,
    panes: RwSignal<u32>,
    tour: RwSignal<Option<usize>>,
    /// What the tour replaced with its example: the user's file, selection
    /// and status, and the example it loaded (restored when the tour ends
    /// while that example is still open).
    tour_saved: RwSignal<Option<TourSaved>>,
    status: RwSignal<String>,
    /// A refusal to show prominently (a bad link, a file too large).
    notice: RwSignal<Option<String>>,
    /// The last translation, made lazily while the pane is open (None
    /// while one runs or before the pane opens).
    tr: RwSignal<Cached>,
    /// The translation pane's tab.
    tab: RwSignal<translation::Target>,
    hex_ref: NodeRef<leptos::html::Div>,
    dis_ref: NodeRef<leptos::html::Div>,
    /// The live preview's values, settings and results.
    pv: preview_pane::PreviewSignals,
    /// The side pane's tab the user chose last.
    side: RwSignal<Option<Side>>,
    /// The narrow layout's tab the user chose last.
    fold: RwSignal<Fold>,
    /// The workspace's proportions.
    splits: RwSignal<Splits>,
    /// What the bytes column needs to show a whole row, and the listing
    /// its widest line, as shares of the workspace's columns (measured;
    /// infinite until they are).
    needs: RwSignal<Needs>,
    /// The user's theme (None: follow the system).
    theme: RwSignal<Option<Theme>>,
    /// Whether the system prefers dark colours.
    system_dark: RwSignal<bool>,
    /// The edits made to the opened file, to undo and redo.
    history: RwSignal<History>,
    /// Why the last edit was refused (cleared by the next edit or selection).
    edit_error: RwSignal<Option<String>>,
    /// The opened file's name (an example's id; None for pasted or linked
    /// bytes), which downloads are named after.
    name: RwSignal<Option<String>>,
    /// The search box's text.
    query: RwSignal<String>,
    /// The length of the link to the open file, measured after each change
    /// of file ([`State::measure_link_later`]).
    link_len: RwSignal<usize>,
    /// The latest measurement asked for (older ones are skipped).
    link_len_ticket: StoredValue<u64>,
    /// The size of the largest file an edit was rehearsed on
    /// ([`State::rehearse_edit_later`]).
    rehearsed: StoredValue<usize>,
    /// Its matches in the current file (derived: query × model).
    hits: Memo<Arc<search::Hits>>,
    /// What the diff view compares the current file with.
    compare: RwSignal<CompareWith>,
    /// The diff of the compared file and the current one; made only while
    /// the diff view is open (None otherwise).
    diff: Memo<Option<Arc<DiffView>>>,
    /// The listing pane shows the text editor instead of the listing.
    editing: RwSignal<bool>,
    /// How many listing texts are with the assembler (in the worker).
    assembling: RwSignal<u32>,
    /// The editor's text is with the assembler.
    draft_in_flight: StoredValue<bool>,
    /// The editor's text, kept until it is applied or discarded (None:
    /// nothing typed that the listing does not show).
    draft: RwSignal<Option<String>>,
    /// Bumped when the draft is replaced from outside the textarea (the
    /// textarea's value is written then, never while the user types).
    draft_reset: RwSignal<u64>,
    /// Why the draft gives no bytes (its line is marked).
    draft_error: RwSignal<Option<listing_edit::Refusal>>,
    /// The pending re-assembly after a pause in typing.
    draft_timer: StoredValue<Option<leptos::prelude::TimeoutHandle>>,
    /// The listing line open in the quick line editor.
    line_edit: RwSignal<Option<usize>>,
    /// Why the quick line edit was refused.
    line_error: RwSignal<Option<listing_edit::Refusal>>,
    /// The register clicked in the listing (def-use highlighting).
    du_reg: RwSignal<Option<String>>,
    /// The debugger's breakpoints: offsets of instructions' opcode tokens,
    /// sorted (toggled in the listing's gutter; "run" stops at the next).
    breakpoints: RwSignal<Vec<u32>>,
    /// Its sites in the current file (derived: register × model).
    du: Memo<Option<Arc<def_use::Highlight>>>,
    /// The embedded HLSL source and its links to the instructions.
    src: components::source_pane::SourceState,
    /// The file carved into a list of shaders, and the one open.
    carve: carve_pane::CarveSignals,
}

/// How a listing text sent to the assembler fared.
enum Assembled {
    /// Its bytes are shown (or it stands for the bytes already shown).
    Accepted,
    /// It gives no bytes: why.
    Refused(listing_edit::Refusal),
    /// The file changed while it was assembled; nothing was shown.
    Stale,
}

/// The user's view the tour put aside.
#[derive(Clone)]
struct TourSaved {
    model: Arc<Model>,
    sel: Option<Selection>,
    status: String,
    name: Option<String>,
    history: History,
    example: Arc<Model>,
}

fn st() -> State {
    expect_context::<State>()
}

impl State {
    /// The workspace's proportions as shown (tracked): the bytes column no
    /// wider than its rows, the listing no wider than its lines
    /// ([`Splits::fitted`]).
    fn splits_shown(&self) -> Splits {
        self.splits.get().fitted(self.needs_shown())
    }

    /// What the columns need (tracked). The listing is not fitted while
    /// the whole-text editor is open (lines grow as they are typed) or
    /// the embedded source shares its column.
    fn needs_shown(&self) -> Needs {
        let mut n = self.needs.get();
        if self.editing.get() || self.src.map.with(Option::is_some) {
            n.listing = f64::INFINITY;
        }
        n
    }

    /// Selects `sel`; a new selection ends the hover (the inspector keeps
    /// showing the last hovered token while the pointer travels to it).
    fn select(&self, sel: Option<Selection>) {
        self.sel.set(sel);
        self.hover.set(None);
        self.edit_error.set(None);
    }

    /// Applies an edit to the current bytes. Accepted, the page shows the
    /// new bytes (bytes, listing, translation and preview follow the
    /// model) with the selection kept on the same bytes, and the edit can
    /// be undone; refused, the inspector says why and nothing changes.
    /// Says whether it was accepted.
    fn edit(&self, what: &str, f: impl FnOnce(&Model) -> Result<dxbc::edit::Edited, dxbc::edit::EditError>) -> bool {
        let m = self.model.get_untracked();
        match f(&m) {
            Ok(e) => {
                self.history.update(|h| h.edited(m.bytes.clone()));
                self.show_edited(Model::edited(e, &m));
                self.status.set(format!("Edited {what}; the checksum is re-signed."));
                self.follow_draft();
                true
            }
            Err(e) => {
                self.edit_error.set(Some(inspect::refusal(&e)));
                false
            }
        }
    }

    /// Shows `m`: the one way the open file changes, so that the link's
    /// length follows it.
    fn set_model(&self, m: Arc<Model>) {
        self.model.set(m);
        self.measure_link_later();
    }

    /// Measures the link after the frame that shows the file: deflating a
    /// large shader takes longer than a frame, and the meter can wait. A
    /// task queued from an animation frame callback runs after that
    /// frame's paint; only the latest request measures. The first
    /// measurement also waits for the secondary wasm, which holds the
    /// deflater ([`dom::when_secondary_ready`]). A large file's link is
    /// deflated in the worker: on the page it held the main thread for
    /// 7–9 ms after each edit of the 158 KB shader, and a key pressed then
    /// waited for it.
    fn measure_link_later(&self) {
        let ticket = self.link_len_ticket.get_value() + 1;
        self.link_len_ticket.set_value(ticket);
        let s = *self;
        let current = move || s.link_len_ticket.get_value() == ticket;
        dom::when_secondary_ready(move || {
            dom::after_paint(move || {
                if !current() {
                    return;
                }
                let payload = untrack(|| s.link_payload());
                if payload.len() <= LINK_ON_PAGE_BYTES {
                    s.link_len.set(dxbc::permalink::encode_payload(&payload).len());
                    return;
                }
                leptos::task::spawn_local(async move {
                    // Without a worker, on the page after all.
                    let n = match worker_client::link_length(&payload).await {
                        Ok(n) => n,
                        Err(_) => dxbc::permalink::encode_payload(&payload).len(),
                    };
                    if current() {
                        s.link_len.set(n);
                    }
                });
            })
        });
    }

    /// Undoes the last edit, if any.
    fn undo(&self) {
        let m = self.model.get_untracked();
        if let Some(b) = self.history.try_update(|h| h.undo(m.bytes.clone())).flatten() {
            self.show_edited(Model::revised(b, &m));
            self.status.set("Undid the last edit.".into());
            self.follow_draft();
        }
    }

    /// Redoes the last undone edit, if any.
    fn redo(&self) {
        let m = self.model.get_untracked();
        if let Some(b) = self.history.try_update(|h| h.redo(m.bytes.clone())).flatten() {
            self.show_edited(Model::revised(b, &m));
            self.status.set("Redid the edit.".into());
            self.follow_draft();
        }
    }

    /// After an undo or redo: an editor text that was applied follows the
    /// bytes (what it made is in the history); one that was not is kept
    /// as typed, with its error.
    fn follow_draft(&self) {
        if self.draft_error.with_untracked(Option::is_some) {
            self.status.update(|t| t.push_str(" The editor keeps your unapplied text."));
        } else if self.editing.get_untracked() {
            let text = self.model.with_untracked(|m| listing_edit::listing_text(m));
            self.draft.set(Some(text));
            self.draft_reset.update(|n| *n += 1);
        }
    }

    /// Assembles edited listing text (in the worker, where the assembler
    /// lives) and shows its bytes as one edit; refused, nothing changes.
    /// `done` hears how it went. An answer for a file that changed
    /// meanwhile (another file, an undo) is not shown.
    fn apply_listing(&self, text: String, done: impl FnOnce(Assembled) + 'static) {
        let m = self.model.get_untracked();
        // Text that reads as the listing shown needs no assembler (leaving the editor after an applied edit).
        if listing_edit::listing_text(&m) == text {
            done(Assembled::Accepted);
            return;
        }
        let s = *self;
        self.assembling.update(|n| *n += 1);
        leptos::task::spawn_local(async move {
            let answer = worker_client::assemble(&m.bytes, &text).await;
            s.assembling.update(|n| *n = n.saturating_sub(1));
            if !Arc::ptr_eq(&m, &s.model.get_untracked()) {
                done(Assembled::Stale);
                return;
            }
            let outcome = answer.map_err(listing_edit::Refusal::Unavailable).and_then(|j| listing_edit::from_json(&j));
            match outcome {
                Ok(listing_edit::Outcome::Edited { bytes, how }) => {
                    s.history.update(|h| h.edited(m.bytes.clone()));
                    s.show_edited(Model::new(bytes));
                    s.status.set(match how {
                        listing_edit::How::Program { first, count } => format!(
                            "Assembled listing line{} {}{}; the other instructions and chunks are as they were, the checksum is re-signed.",
                            if count == 1 { "" } else { "s" },
                            first + 1,
                            if count > 1 { format!("–{}", first + count) } else { String::new() }
                        ),
                        listing_edit::How::Whole => {
                            "Assembled the whole listing into a new container; the checksum is re-signed.".into()
                        }
                    });
                    done(Assembled::Accepted);
                }
                Ok(listing_edit::Outcome::Unchanged) => done(Assembled::Accepted),
                Err(r) => done(Assembled::Refused(r)),
            }
        });
    }

    /// Assembles the editor's text now (after a pause, or when leaving
    /// the editor). One text at a time is with the assembler, so each is
    /// assembled against the bytes the one before it made. Once the editor
    /// is closed, an accepted text is dropped; a refused one is kept, to
    /// resume or discard.
    fn flush_draft(&self) {
        if let Some(h) = self.draft_timer.get_value() {
            h.clear();
            self.draft_timer.set_value(None);
        }
        if self.draft_in_flight.get_value() {
            // The answer in flight looks at the draft again.
            return;
        }
        let Some(text) = self.draft.get_untracked() else { return };
        self.draft_in_flight.set_value(true);
        let s = *self;
        self.apply_listing(text.clone(), move |r| {
            s.draft_in_flight.set_value(false);
            if s.draft.with_untracked(|d| d.as_deref() != Some(text.as_str())) {
                // Typed on (or discarded) meanwhile: the newer text is assembled against the new bytes.
                s.flush_draft();
                return;
            }
            match r {
                Assembled::Accepted => {
                    if !s.editing.get_untracked() {
                        s.draft.set(None);
                    }
                    s.draft_error.set(None);
                }
                Assembled::Refused(e) => s.draft_error.set(Some(e)),
                // The file changed under the text: it stays as typed, to apply again.
                Assembled::Stale => {}
            }
        });
    }

    /// Re-assembles the editor's text once typing pauses.
    fn schedule_draft(&self) {
        if let Some(h) = self.draft_timer.get_value() {
            h.clear();
        }
        let s = *self;
        let h = set_timeout_with_handle(move || s.flush_draft(), std::time::Duration::from_millis(350)).ok();
        self.draft_timer.set_value(h);
    }

    /// Opens or closes the listing editor. Leaving applies what is
    /// pending; text that does not assemble is kept (to resume or discard).
    fn toggle_editor(&self) {
        if self.editing.get_untracked() {
            self.editing.set(false);
            self.flush_draft();
        } else {
            if self.draft.with_untracked(Option::is_none) {
                let text = self.model.with_untracked(|m| listing_edit::listing_text(m));
                self.draft.set(Some(text));
            }
            self.draft_reset.update(|n| *n += 1);
            self.line_edit.set(None);
            self.editing.set(true);
        }
    }

    /// Drops the editor's unapplied text.
    fn discard_draft(&self) {
        if let Some(h) = self.draft_timer.get_value() {
            h.clear();
            self.draft_timer.set_value(None);
        }
        self.draft.set(None);
        self.draft_error.set(None);
        self.editing.set(false);
    }

    /// What a download of the current bytes as `ext` is called.
    fn download_name(&self, ext: &str) -> String {
        let edited = self.model.with_untracked(|m| self.history.with_untracked(|h| h.is_edited(&m.bytes)));
        text::download_name(self.name.get_untracked().as_deref(), edited, ext)
    }

    /// Shows edited bytes of the same file: unlike [`State::load`], the
    /// selection stays where it was and the history is kept.
    fn show_edited(&self, m: Model) {
        let sel = self.sel.get_untracked();
        let m = Arc::new(m);
        let sel = sel.and_then(|s| selection::restore(&m, s.start, s.len, s.field));
        dom::clear_address_after_paint();
        self.set_model(m);
        self.sel.set(sel);
        self.hover.set(None);
        self.edit_error.set(None);
        ensure_translation(*self);
    }

    fn load(&self, bytes: Vec<u8>, status: String) {
        // A link in the address bar would bring back the old file on reload.
        dom::clear_address();
        // Another file: the editor closes; text it could not apply is kept.
        if self.editing.get_untracked() {
            self.toggle_editor();
        }
        self.line_edit.set(None);
        self.du_reg.set(None);
        self.breakpoints.set(Vec::new());
        self.carve.forget();
        self.history.set(History::opened(&bytes));
        self.name.set(None);
        let m = Model::new(bytes);
        let stop = m.stop_offset();
        let first_sel =
            stop.and_then(|o| selection::select_byte(&m, o.min(m.bytes.len().saturating_sub(1)))).or_else(|| {
                let pl = m.program_line?;
                selection::select_line(&m, pl + 1)
            });
        self.set_model(Arc::new(m));
        self.select(first_sel);
        self.status.set(status);
        self.notice.set(None);
        ensure_translation(*self);
        self.rehearse_edit_later();
    }

    /// Rehearses a field edit of the file just opened once the page is
    /// idle ([`model::rehearse_edit`]), so that its first real edit runs
    /// compiled code, unless a file at least as large had one: how much of
    /// the code V8 optimises depends on how long it ran. The edit code lives
    /// in the secondary wasm, hence the wait for it.
    fn rehearse_edit_later(&self) {
        let s = *self;
        dom::when_secondary_ready(move || {
            // About 15 ms of the main thread for the 158 KB shader: only in
            // a long idle period.
            dom::when_idle(40.0, 10_000.0, move || {
                let m = s.model.get_untracked();
                if m.bytes.len() > s.rehearsed.get_value() && model::rehearse_edit(&m) {
                    s.rehearsed.set_value(m.bytes.len());
                }
            })
        });
    }

    fn apply_view(&self, v: &dxbc::permalink::ViewState) {
        let m = self.model.get_untracked();
        if let Some(other) = &v.compare {
            let name = "the link's first file".to_string();
            self.compare.set(CompareWith::File { name, bytes: Arc::new(other.clone()) });
        }
        // Before the panes open: the Debug panel takes it when it mounts.
        self.pv.debug_restore.set(v.debug);
        self.pv.debug_link.set(v.debug);
        self.panes.set(v.panes);
        ensure_translation(*self);
        self.tour.set(v.tour_step.map(|s| (s as usize).min(tour::STEPS.len() - 1)));
        self.select(v.selection.and_then(|(o, l)| selection::restore(&m, o, l, v.field_lo)));
        if v.preview_values.is_some() || v.preview_settings.is_some() {
            self.pv.pending.set(Some((v.preview_values.clone(), v.preview_settings.clone())));
        }
    }

    /// Opens tour step `k` and selects its bytes (on the tour's example
    /// when the current file lacks them).
    fn tour_to(&self, k: usize) {
        let k = k.min(tour::STEPS.len() - 1);
        let step = &tour::STEPS[k];
        let mut m = self.model.get_untracked();
        // A step about what only the user's file has (its SPDB) shows that
        // file again in place of the tour's example.
        if let Some(needs) = step.needs.filter(|f| !f(&m)) {
            if let Some(t) = self.tour_saved.get_untracked().filter(|t| Arc::ptr_eq(&m, &t.example) && needs(&t.model))
            {
                self.tour_saved.set(None);
                self.set_model(t.model.clone());
                self.status.set(t.status);
                self.name.set(t.name);
                self.history.set(t.history);
                ensure_translation(*self);
                m = t.model;
            }
        }
        let sel = match (step.target)(&m) {
            Some(s) => Some(s),
            None => {
                let ex = &gallery::EXAMPLES[0];
                let (sel, status) = (self.sel.get_untracked(), self.status.get_untracked());
                let (name, history) = (self.name.get_untracked(), self.history.get_untracked());
                self.load((ex.build)(), format!("Example: {} (the tour's shader).", ex.name));
                self.name.set(Some(ex.id.to_string()));
                let example = self.model.get_untracked();
                if self.tour_saved.with_untracked(Option::is_none) {
                    let example = example.clone();
                    self.tour_saved.set(Some(TourSaved { model: m, sel, status, name, history, example }));
                }
                (step.target)(&example)
            }
        };
        self.tour.set(Some(k));
        self.select(sel);
    }

    /// Closes the tour and brings back the file it replaced, unless the
    /// user opened another one meanwhile.
    fn end_tour(&self) {
        self.tour.set(None);
        let Some(t) = self.tour_saved.get_untracked() else { return };
        self.tour_saved.set(None);
        if Arc::ptr_eq(&self.model.get_untracked(), &t.example) {
            self.set_model(t.model);
            self.select(t.sel);
            self.status.set(t.status);
            self.name.set(t.name);
            self.history.set(t.history);
            ensure_translation(*self);
        }
    }

    /// Opens or closes a side pane; an opened one comes to the front.
    fn toggle_pane(&self, s: Side) {
        let open = self.panes.get_untracked() & s.bit() == 0;
        self.panes.update(|p| *p ^= s.bit());
        ensure_translation(*self);
        if open {
            self.side.set(Some(s));
            self.fold.set(Fold::Side(s));
        }
    }

    fn link(&self) -> String {
        dxbc::permalink::encode_payload(&self.link_payload())
    }

    /// The link's payload, before deflating (cheap: the bytes and the view).
    fn link_payload(&self) -> Vec<u8> {
        let m = self.model.get();
        let s = self.sel.get();
        let (preview_values, preview_settings) =
            if self.panes.get() & PANE_PREVIEW != 0 { self.pv.link_state() } else { (None, None) };
        dxbc::permalink::payload(&dxbc::permalink::Permalink {
            shader: m.bytes.clone(),
            view: dxbc::permalink::ViewState {
                selection: s.map(|s| (s.start, s.len)),
                field_lo: s.and_then(|s| s.field),
                panes: self.panes.get(),
                tour_step: self.tour.get().map(|t| t as u32),
                preview_values,
                preview_settings,
                compare: self.compared_bytes(),
                debug: if self.panes.get() & PANE_PREVIEW != 0 { self.pv.debug_link.get() } else { None },
            },
        })
    }

    /// The bytes the diff view compares with, while it is open (a link made
    /// then carries them).
    fn compared_bytes(&self) -> Option<Vec<u8>> {
        if self.panes.get() & PANE_DIFF == 0 {
            return None;
        }
        Some(match self.compare.get() {
            CompareWith::Original => self.history.with(|h| h.opened_bytes().to_vec()),
            CompareWith::File { bytes, .. } => bytes.to_vec(),
        })
    }

    fn load_text(&self, text: &str) {
        match input::detect_text(text) {
            // Pasted bytes that are not one container are carved, as a file's.
            Ok(d) if d.view.is_none() && !carved::opens_directly(&d.bytes) => carve_pane::carve(*self, d.bytes, None),
            Ok(d) => self.load_detected(d),
            Err(e) => self.refuse(format!("Could not read the pasted text: {e}.")),
        }
    }

    /// Opens the permalink in the address bar; a bad one leaves the page as
    /// it is and says why.
    fn load_link(&self, hash: &str) {
        match input::detect_link(hash) {
            Ok(d) => {
                self.load_detected(d);
                // Opened from the address bar: it stays there (load cleared it).
                dom::set_address(hash);
            }
            Err(e) => self.refuse(format!(
                "This link could not be opened: {e}. It may have been cut short or altered; showing {} instead.",
                if self.model.get_untracked().bytes.is_empty() { "nothing" } else { "the current shader" }
            )),
        }
    }

    fn refuse(&self, why: String) {
        self.status.set(why.clone());
        self.notice.set(Some(why));
    }

    fn load_detected(&self, d: input::Detected) {
        let msg = format!("Read {} bytes from {}.", d.bytes.len(), d.kind.label());
        self.load(d.bytes, msg);
        if let Some(v) = d.view {
            self.apply_view(&v);
        }
    }
}

#[component]
fn App() -> impl IntoView {
    let first = &gallery::EXAMPLES[0];
    let model = RwSignal::new(Arc::new(Model::new((first.build)())));
    let query = RwSignal::new(String::new());
    let panes = RwSignal::new(PANE_MAP | PANE_REFLECTION);
    let history = RwSignal::new(History::default());
    let compare = RwSignal::new(CompareWith::Original);
    // The diff's inputs are tracked only while the view is open, so a closed
    // view costs nothing on an edit or a selection.
    let compared = Memo::new(move |_| {
        if panes.get() & PANE_DIFF == 0 {
            return None;
        }
        Some(match compare.get() {
            CompareWith::Original => Arc::new(history.with(|h| h.opened_bytes().to_vec())),
            CompareWith::File { bytes, .. } => bytes,
        })
    });
    let compared_model = Memo::new_with_compare(
        move |_| compared.get().map(|b| Arc::new(Model::new(b.to_vec()))),
        |a, b| match (a, b) {
            (Some(Some(a)), Some(Some(b))) => !Arc::ptr_eq(a, b),
            (Some(None), Some(None)) => false,
            _ => true,
        },
    );
    let diff = Memo::new(move |_| {
        let other = compared_model.get()?;
        Some(Arc::new(DiffView::new(&other, &model.get())))
    });
    let du_reg = RwSignal::new(None::<String>);
    let (hover, sel) = (RwSignal::new(None), RwSignal::new(None));
    let state = State {
        model,
        hover,
        sel,
        panes,
        tour: RwSignal::new(None),
        tour_saved: RwSignal::new(None),
        status: RwSignal::new(format!("Example: {}.", first.name)),
        notice: RwSignal::new(None),
        tr: RwSignal::new(None),
        tab: RwSignal::new(translation::Target::Wgsl),
        hex_ref: NodeRef::new(),
        dis_ref: NodeRef::new(),
        pv: preview_pane::PreviewSignals::new(),
        side: RwSignal::new(None),
        fold: RwSignal::new(Fold::Listing),
        splits: RwSignal::new(dom::stored("dxbc-splits").and_then(|s| Splits::from_text(&s)).unwrap_or_default()),
        needs: RwSignal::new(Needs::NONE),
        theme: RwSignal::new(dom::stored("dxbc-theme").and_then(|s| Theme::parse(&s))),
        system_dark: RwSignal::new(components::theme_toggle::system_prefers_dark()),
        query,
        link_len: RwSignal::new(0),
        link_len_ticket: StoredValue::new(0),
        rehearsed: StoredValue::new(0),
        hits: Memo::new(move |_| Arc::new(search::Hits::find(&model.get(), &query.get()))),
        history,
        compare,
        diff,
        edit_error: RwSignal::new(None),
        name: RwSignal::new(Some(first.id.to_string())),
        editing: RwSignal::new(false),
        draft: RwSignal::new(None),
        draft_reset: RwSignal::new(0),
        draft_error: RwSignal::new(None),
        assembling: RwSignal::new(0),
        draft_in_flight: StoredValue::new(false),
        draft_timer: StoredValue::new(None),
        line_edit: RwSignal::new(None),
        line_error: RwSignal::new(None),
        du_reg,
        breakpoints: RwSignal::new(Vec::new()),
        du: Memo::new(move |_| {
            let r = du_reg.get()?;
            def_use::Highlight::find(&model.get(), &r).map(Arc::new)
        }),
        src: components::source_pane::SourceState::new(model, sel, hover),
        carve: carve_pane::CarveSignals::new(),
    };
    state.history.set(History::opened(&state.model.get_untracked().bytes));
    provide_context(state);
    preview_pane::install(state);
    components::theme_toggle::install(state);
    // Open on the example, or on the permalink in the address.
    let from_hash = move || {
        let hash = window().location().hash().unwrap_or_default();
        if hash.starts_with("#v1/") {
            state.load_link(&hash);
        } else if hash.len() > 1 {
            state.refuse(format!(
                "The address ends in a fragment that is not a DXBC Explorer link ({} characters; links start with #v1/).",
                hash.len()
            ));
        }
    };
    from_hash();
    state.measure_link_later();
    // The example, unless a link opened another file (which rehearsed).
    state.rehearse_edit_later();
    if state.sel.get_untracked().is_none() {
        let m = state.model.get_untracked();
        if let Some(pl) = m.program_line {
            state.select(selection::select_line(&m, pl + 1));
        }
    }
    let _ = window_event_listener(leptos::ev::hashchange, move |_| from_hash());
    // Escape ends the tour (and brings back the user's file), or clears
    // the def-use highlight.
    let _ = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.key() == "Escape" && state.tour.get_untracked().is_some() {
            state.end_tour();
        } else if ev.key() == "Escape" && state.du_reg.with_untracked(Option::is_some) {
            state.du_reg.set(None);
        }
    });
    // Ctrl+Z undoes an edit, Ctrl+Shift+Z (or Ctrl+Y) redoes it; inside a
    // text field they stay the field's own.
    let _ = window_event_listener(leptos::ev::keydown, move |ev| {
        if !(ev.ctrl_key() || ev.meta_key()) || dom::in_text_field(&ev) {
            return;
        }
        match ev.key().as_str() {
            "z" | "Z" if ev.shift_key() => state.redo(),
            "z" | "Z" => state.undo(),
            "y" | "Y" => state.redo(),
            _ => return,
        }
        ev.prevent_default();
    });
    // Files dropped anywhere on the page are opened.
    let _ = window_event_listener(leptos::ev::dragover, |ev| ev.prevent_default());
    let _ = window_event_listener(leptos::ev::drop, move |ev| {
        ev.prevent_default();
        if let Some(f) = ev.data_transfer().and_then(|d| d.files()).and_then(|l| l.get(0)) {
            components::header::read_file(state, f);
        }
    });
    request_animation_frame(|| {
        if let Some(p) = window().performance() {
            let _ = p.mark("dxbc-ready");
        }
    });
    view! {
        <div class="app">
            <components::header::Header/>
            <components::error_banner::ErrorBanner/>
            <components::carve_list::CarveList/>
            <components::tour_panel::TourPanel/>
            <components::workspace::Workspace/>
        </div>
    }
}

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
