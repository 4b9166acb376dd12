//! Opening any file: the page's side of carving (`carved` holds the
//! logic, the worker does the carving, `components::carve_list` draws the
//! list). A file that is not one container is sent to the worker; the
//! list it answers with replaces nothing until a row is clicked, which
//! opens that shader's bytes as a file of their own (listing, inspector,
//! translation, links: all of one shader), while the hex view numbers its
//! rows by their offsets in the carved file.

use crate::carved::{self, Listing};
use crate::{worker_client, State};
use leptos::prelude::*;
use std::sync::Arc;

/// A carved file and what was found in it.
pub struct CarvedFile {
    /// Its name.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The containers found.
    pub listing: Listing,
}

/// The carve's state.
#[derive(Clone, Copy)]
pub struct CarveSignals {
    /// The carved file (None: the open file was not carved).
    pub file: RwSignal<Option<Arc<CarvedFile>>>,
    /// The row open in the explorer.
    pub open: RwSignal<Option<usize>>,
    /// Whether the list is unfolded (it folds to a banner when a row opens).
    pub shown: RwSignal<bool>,
    /// The carve running in the worker: (bytes looked at, file length).
    pub progress: RwSignal<Option<(f64, f64)>>,
    /// Where the open shader sits in the carved file (derived): the hex
    /// view shows it there, among the file's bytes.
    pub around: Memo<Option<carved::Surroundings>>,
    /// Counts carves, so that the answer of a replaced one is dropped.
    run: StoredValue<u64>,
}

impl CarveSignals {
    pub fn new() -> CarveSignals {
        let file = RwSignal::new(None::<Arc<CarvedFile>>);
        let open = RwSignal::new(None::<usize>);
        CarveSignals {
            file,
            open,
            shown: RwSignal::new(false),
            progress: RwSignal::new(None),
            around: Memo::new(move |_| {
                let i = open.get()?;
                file.with(|f| {
                    let f = f.as_ref()?;
                    let r = f.listing.rows.get(i)?;
                    Some(carved::Surroundings::new(r.offset, r.size, f.bytes.len()))
                })
            }),
            run: StoredValue::new(0),
        }
    }

    /// Forgets the carved file and stops a carve in progress (another
    /// file is opened).
    pub fn forget(&self) {
        if self.progress.get_untracked().is_some() {
            self.cancel();
        }
        self.file.set(None);
        self.open.set(None);
    }

    /// Stops the carve in progress; the page stays as it was.
    pub fn cancel(&self) {
        self.run.update_value(|n| *n += 1);
        worker_client::cancel_carve();
        self.progress.set(None);
    }
}

/// Carves `bytes` read from `name` (None: pasted) in the worker and lists
/// what it finds; for files that [`carved::opens_directly`] refuses.
pub fn carve(s: State, bytes: Vec<u8>, name: Option<String>) {
    let c = s.carve;
    c.forget();
    c.run.update_value(|n| *n += 1);
    let run = c.run.get_value();
    let name = name.unwrap_or_else(|| "the pasted bytes".into());
    let len = bytes.len() as f64;
    c.progress.set(Some((0.0, len)));
    s.status.set(format!("Carving {name}: looking for DXBC containers…"));
    wasm_bindgen_futures::spawn_local(async move {
        let on_progress = move |at: f64, of: f64| {
            if c.run.get_value() == run {
                c.progress.set(Some((at, of)));
            }
        };
        let answer = worker_client::carve(&bytes, on_progress).await;
        if c.run.get_value() != run {
            return; // cancelled or replaced: its answer is not wanted
        }
        c.progress.set(None);
        match answer {
            Ok(None) => s.status.set(format!("Carving {name} was cancelled.")),
            Err(e) => s.refuse(format!("{name} could not be carved: {e}.")),
            Ok(Some(json)) => match serde_json::from_str::<Listing>(&json) {
                Err(e) => s.refuse(format!("{name} could not be carved: the worker's answer did not read ({e}).")),
                // The only magic was the file's own container, or there was
                // none that holds: opened as it is, as any other file.
                Ok(l) if l.is_whole_file(bytes.len()) || l.rows.is_empty() => {
                    let none = l.rows.is_empty();
                    s.load(bytes, String::new());
                    s.name.set(Some(name.clone()));
                    s.status.set(if none {
                        format!("No DXBC container found in {name}; showing its bytes.")
                    } else {
                        format!("Opened {name}.")
                    });
                }
                Ok(listing) => {
                    s.status.set(listing.summary(&name));
                    c.file.set(Some(Arc::new(CarvedFile { name, bytes, listing })));
                    c.open.set(None);
                    c.shown.set(true);
                }
            },
        }
    });
}

/// Opens row `i` of the carved file in the explorer.
pub fn open_row(s: State, i: usize) {
    let c = s.carve;
    let Some(f) = c.file.get_untracked() else { return };
    let Some(row) = f.listing.rows.get(i) else { return };
    let bytes = f.bytes[row.offset..row.offset + row.size].to_vec();
    let banner = carved::banner(i, f.listing.total, row.offset, &f.name);
    // Loading forgets the carve (any other file does); this one keeps it.
    s.load(bytes, String::new());
    c.file.set(Some(f.clone()));
    c.open.set(Some(i));
    c.shown.set(false);
    s.name.set(Some(carved::shader_file_name(&f.name, row.offset)));
    s.status.set(format!("Opened {banner}."));
}
