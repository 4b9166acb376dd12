//! The workspace's layout as plain data: the resizable splits (fractions of
//! the window, clamped, remembered as text), the side pane's tabs, the
//! narrow-screen fold tabs and the colour theme. The components only hold
//! these in signals and draw them.

/// Panes a permalink can open (bits of `ViewState::panes`).
pub const PANE_MAP: u32 = 1;
pub const PANE_REFLECTION: u32 = 2;
pub const PANE_TRANSLATION: u32 = 4;
pub const PANE_PREVIEW: u32 = dxbc::permalink::panes::PREVIEW;
pub const PANE_DIFF: u32 = dxbc::permalink::panes::DIFF;

/// The smallest share of the width or height a split leaves to a pane.
pub const MIN_SHARE: f64 = 0.12;

/// The scroll position that brings row `row` into a pane `h` pixels high
/// scrolled to `top`, or None when it is already visible (or the pane is
/// not laid out). The row lands a third of the way down.
pub fn scroll_to_row(top: f64, h: f64, row: usize, row_h: f64) -> Option<f64> {
    if h <= 0.0 {
        return None;
    }
    let y = row as f64 * row_h;
    (y < top || y + row_h > top + h).then(|| (y - h / 3.0).max(0.0))
}

/// The row that slot `i` of `n` recycled row slots shows when the window
/// starts at row `top`: the one row of `top..top + n` equal to `i` modulo
/// `n`. Scrolling by k rows thus gives new rows to just k slots; the
/// others keep theirs (and their elements keep meaning the same bytes).
pub fn slot_row(top: usize, n: usize, i: usize) -> usize {
    if n == 0 {
        return top;
    }
    top + (i + n - top % n) % n
}

/// What the bytes' rows and the listing's widest line need, as shares of
/// the three columns' width (infinite: not known, or not to be fitted).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Needs {
    pub bytes: f64,
    pub listing: f64,
}

impl Needs {
    pub const NONE: Needs = Needs { bytes: f64::INFINITY, listing: f64::INFINITY };
}

/// One of the three drag handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handle {
    /// Between the bytes and the listing.
    BytesListing,
    /// Between the listing and the right column.
    ListingSide,
    /// Between the inspector and the tabbed pane below it.
    InspectorTabs,
}

/// The workspace's proportions: three columns (bytes, listing, right) and
/// the inspector's share of the right column's height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Splits {
    pub bytes: f64,
    pub listing: f64,
    pub inspector: f64,
}

impl Default for Splits {
    fn default() -> Self {
        Splits { bytes: 0.39, listing: 0.31, inspector: 0.45 }
    }
}

impl Splits {
    /// The right column's share of the width.
    pub fn side(&self) -> f64 {
        1.0 - self.bytes - self.listing
    }

    /// The split after dragging `h` to `at` (a fraction of the workspace's
    /// width, or of the right column's height for the inspector handle).
    pub fn drag(self, h: Handle, at: f64) -> Splits {
        let at = if at.is_finite() { at } else { return self };
        match h {
            Handle::BytesListing => {
                let pair = self.bytes + self.listing;
                let b = at.clamp(MIN_SHARE, pair - MIN_SHARE);
                Splits { bytes: b, listing: pair - b, ..self }
            }
            Handle::ListingSide => {
                let l = (at - self.bytes).clamp(MIN_SHARE, 1.0 - self.bytes - MIN_SHARE);
                Splits { listing: l, ..self }
            }
            Handle::InspectorTabs => Splits { inspector: at.clamp(MIN_SHARE, 1.0 - MIN_SHARE), ..self },
        }
    }

    /// The proportions as shown, given what the bytes and the listing
    /// need (`need`): neither column wider than its content, which would
    /// show only empty space beside it.
    ///  1. The bytes column no wider than its rows, its surplus given to
    ///     the listing; the listing's right edge does not move, so dragging
    ///     that handle reads the same from either form.
    ///  2. Then the listing no wider than its widest line, its surplus
    ///     given to the right column (the inspector, the translation, the
    ///     preview), whose content is usually the one cut.
    pub fn fitted(self, need: Needs) -> Splits {
        let mut f = self;
        if need.bytes.is_finite() && f.bytes > need.bytes {
            let bytes = need.bytes.max(MIN_SHARE).min(f.bytes);
            f = Splits { bytes, listing: f.listing + (f.bytes - bytes), ..f };
        }
        if need.listing.is_finite() && f.listing > need.listing {
            f.listing = need.listing.max(MIN_SHARE).min(f.listing);
        }
        f
    }

    /// The proportions that handle `h` moves from: those shown, in what
    /// the handle moves. The bytes handle moves from where it is shown;
    /// the listing's handle from its shown place, with the bytes' share
    /// kept (so a window made narrower later still gives the bytes what
    /// they need); the inspector's from the proportions kept.
    pub fn moved_from(self, h: Handle, need: Needs) -> Splits {
        match h {
            Handle::BytesListing => self.fitted(Needs { listing: f64::INFINITY, ..need }),
            Handle::ListingSide => {
                let shown = self.fitted(need);
                let edge = shown.position(Handle::ListingSide);
                if edge - self.bytes >= MIN_SHARE {
                    Splits { listing: edge - self.bytes, ..self }
                } else {
                    // A listing so narrow that, with the bytes' share kept,
                    // it could not be dragged left of where it is shown.
                    Splits { bytes: shown.bytes, listing: shown.listing, ..self }
                }
            }
            Handle::InspectorTabs => self,
        }
    }

    /// Where handle `h` is (the value `drag` takes).
    pub fn position(&self, h: Handle) -> f64 {
        match h {
            Handle::BytesListing => self.bytes,
            Handle::ListingSide => self.bytes + self.listing,
            Handle::InspectorTabs => self.inspector,
        }
    }

    /// The handle's position in whole percent (its aria-valuenow).
    pub fn percent(&self, h: Handle) -> u32 {
        (self.position(h) * 100.0).round() as u32
    }

    /// The split after a key on a focused handle: arrows move it by 2 %,
    /// Page keys by 10 %, Home and End to the ends. None for other keys.
    pub fn key(self, h: Handle, key: &str) -> Option<Splits> {
        let p = self.position(h);
        let to = match key {
            "ArrowLeft" | "ArrowUp" => p - 0.02,
            "ArrowRight" | "ArrowDown" => p + 0.02,
            "PageUp" => p - 0.1,
            "PageDown" => p + 0.1,
            "Home" => 0.0,
            "End" => 1.0,
            _ => return None,
        };
        Some(self.drag(h, to))
    }

    /// `bytes,listing,inspector` for localStorage.
    pub fn to_text(self) -> String {
        format!("{:.4},{:.4},{:.4}", self.bytes, self.listing, self.inspector)
    }

    /// Reads `to_text`'s form back; anything else (or proportions that do
    /// not fit) gives None.
    pub fn from_text(s: &str) -> Option<Splits> {
        let v: Vec<f64> = s.split(',').map(|x| x.trim().parse().ok()).collect::<Option<_>>()?;
        let [bytes, listing, inspector] = v[..] else { return None };
        let ok = |x: f64| x.is_finite() && (MIN_SHARE - 1e-6..=1.0 - MIN_SHARE + 1e-6).contains(&x);
        let sp = Splits { bytes, listing, inspector };
        (ok(bytes) && ok(listing) && ok(inspector) && sp.side() >= MIN_SHARE - 1e-6).then_some(sp)
    }
}

/// A tab of the side pane (each is a pane bit of the permalink).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Translation,
    Preview,
    Diff,
    Reflection,
    Map,
}

impl Side {
    /// In tab order.
    pub const ALL: [Side; 5] = [Side::Translation, Side::Preview, Side::Diff, Side::Reflection, Side::Map];

    pub fn bit(self) -> u32 {
        match self {
            Side::Map => PANE_MAP,
            Side::Reflection => PANE_REFLECTION,
            Side::Translation => PANE_TRANSLATION,
            Side::Preview => PANE_PREVIEW,
            Side::Diff => PANE_DIFF,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Side::Map => "Container map",
            Side::Reflection => "Reflection",
            Side::Translation => "Translation",
            Side::Preview => "Preview",
            Side::Diff => "Diff",
        }
    }

    /// The `data-testid` suffix of its tab button.
    pub fn id(self) -> &'static str {
        match self {
            Side::Map => "chunks",
            Side::Reflection => "reflection",
            Side::Translation => "translation",
            Side::Preview => "preview",
            Side::Diff => "diff",
        }
    }
}

/// The side pane's tabs for the open panes, in tab order.
pub fn side_tabs(panes: u32) -> Vec<Side> {
    Side::ALL.into_iter().filter(|s| panes & s.bit() != 0).collect()
}

/// The side tab on show: the one last chosen while it is open, else the
/// first open one (the workbench panes, translation and preview, first).
pub fn shown_side(panes: u32, chosen: Option<Side>) -> Option<Side> {
    chosen.filter(|s| panes & s.bit() != 0).or_else(|| side_tabs(panes).first().copied())
}

/// A tab of the narrow layout, where one pane shows at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    Bytes,
    Listing,
    Inspector,
    Side(Side),
}

impl Fold {
    pub fn label(self) -> &'static str {
        match self {
            Fold::Bytes => "Bytes",
            Fold::Listing => "Listing",
            Fold::Inspector => "Inspector",
            Fold::Side(s) => s.label(),
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            Fold::Bytes => "bytes",
            Fold::Listing => "listing",
            Fold::Inspector => "inspector",
            Fold::Side(s) => s.id(),
        }
    }
}

/// The narrow layout's tabs for the open panes.
pub fn fold_tabs(panes: u32) -> Vec<Fold> {
    let mut v = vec![Fold::Bytes, Fold::Listing, Fold::Inspector];
    v.extend(side_tabs(panes).into_iter().map(Fold::Side));
    v
}

/// The fold tab on show: the chosen one while its pane is open, else Listing.
pub fn shown_fold(panes: u32, chosen: Fold) -> Fold {
    match chosen {
        Fold::Side(s) if panes & s.bit() == 0 => Fold::Listing,
        f => f,
    }
}

/// The colour theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    /// The remembered choice (`light` / `dark`); anything else is no choice.
    pub fn parse(s: &str) -> Option<Theme> {
        match s {
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The theme in use: the user's choice, else the system's preference.
    pub fn effective(chosen: Option<Theme>, system_dark: bool) -> Theme {
        chosen.unwrap_or(if system_dark { Theme::Dark } else { Theme::Light })
    }

    pub fn other(self) -> Theme {
        match self {
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Light,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrolls_only_when_the_row_is_hidden() {
        assert_eq!(scroll_to_row(0.0, 400.0, 5, 20.0), None);
        assert_eq!(scroll_to_row(0.0, 400.0, 19, 20.0), None);
        let t = scroll_to_row(0.0, 300.0, 100, 20.0).unwrap();
        assert_eq!(t, 2000.0 - 100.0);
        assert_eq!(scroll_to_row(500.0, 300.0, 0, 20.0), Some(0.0));
        // A pane that is not laid out (a hidden tab) is left alone.
        assert_eq!(scroll_to_row(0.0, 0.0, 100, 20.0), None);
    }

    #[test]
    fn slots_cover_the_window_and_a_scroll_moves_few() {
        for n in [1, 7, 40] {
            for top in [0, 3, 39, 40, 1234] {
                let mut rows: Vec<usize> = (0..n).map(|i| slot_row(top, n, i)).collect();
                rows.sort();
                assert_eq!(rows, (top..top + n).collect::<Vec<_>>());
                for k in [1, 2, n / 2, n + 5] {
                    let moved = (0..n).filter(|&i| slot_row(top, n, i) != slot_row(top + k, n, i)).count();
                    assert_eq!(moved, k.min(n), "n {n} top {top} scroll {k}");
                }
            }
        }
    }

    #[test]
    fn drags_keep_every_pane_visible() {
        let s = Splits::default();
        let d = s.drag(Handle::BytesListing, 0.0);
        assert_eq!(d.bytes, MIN_SHARE);
        assert!((d.bytes + d.listing - (s.bytes + s.listing)).abs() < 1e-9, "the right column keeps its width");
        let d = s.drag(Handle::BytesListing, 1.0);
        assert!((d.listing - MIN_SHARE).abs() < 1e-9);
        let d = s.drag(Handle::ListingSide, 1.0);
        assert!((d.side() - MIN_SHARE).abs() < 1e-9);
        assert_eq!(d.bytes, s.bytes);
        let d = s.drag(Handle::ListingSide, 0.0);
        assert!((d.listing - MIN_SHARE).abs() < 1e-9);
        assert_eq!(s.drag(Handle::InspectorTabs, 2.0).inspector, 1.0 - MIN_SHARE);
        assert_eq!(s.drag(Handle::InspectorTabs, f64::NAN), s);
    }

    fn bytes_need(bytes: f64) -> Needs {
        Needs { bytes, ..Needs::NONE }
    }

    #[test]
    fn a_bytes_column_wider_than_its_rows_gives_the_rest_to_the_listing() {
        let s = Splits::default();
        assert_eq!(s.fitted(bytes_need(0.5)), s, "the rows need more than the column has");
        assert_eq!(s.fitted(bytes_need(f64::NAN)), s);
        assert_eq!(s.fitted(Needs::NONE), s);
        let f = s.fitted(bytes_need(0.25));
        assert!((f.bytes - 0.25).abs() < 1e-9);
        assert!((f.listing - (s.listing + s.bytes - 0.25)).abs() < 1e-9);
        assert!((f.side() - s.side()).abs() < 1e-9, "the right column keeps its width");
        assert_eq!(f.inspector, s.inspector);
        assert!((f.position(Handle::ListingSide) - s.position(Handle::ListingSide)).abs() < 1e-9);
        // Never narrower than a pane may be dragged.
        assert_eq!(s.fitted(bytes_need(0.01)).bytes, MIN_SHARE);
    }

    #[test]
    fn a_listing_wider_than_its_lines_gives_the_rest_to_the_right_column() {
        let s = Splits::default();
        // The bytes' surplus first goes to the listing, which is then cut
        // to its widest line: the right column gets both surpluses.
        let f = s.fitted(Needs { bytes: 0.25, listing: 0.3 });
        assert!((f.bytes - 0.25).abs() < 1e-9);
        assert!((f.listing - 0.3).abs() < 1e-9);
        assert!((f.side() - (1.0 - 0.55)).abs() < 1e-9);
        // Lines wider than the column: nothing moves.
        assert_eq!(s.fitted(Needs { listing: 0.9, ..Needs::NONE }), s);
        assert_eq!(s.fitted(Needs { listing: 0.01, ..Needs::NONE }).listing, MIN_SHARE);
        assert_eq!(s.fitted(Needs { listing: f64::NAN, ..Needs::NONE }), s);
    }

    #[test]
    fn handles_move_from_where_they_are_shown() {
        let s = Splits::default();
        let need = Needs { bytes: 0.25, listing: 0.3 };
        // The listing's handle: from its shown place, the bytes' share kept.
        let b = s.moved_from(Handle::ListingSide, need);
        assert_eq!(b.bytes, s.bytes);
        assert!((b.position(Handle::ListingSide) - s.fitted(need).position(Handle::ListingSide)).abs() < 1e-9);
        // A key then moves the shown handle at once.
        let k = b.key(Handle::ListingSide, "ArrowLeft").unwrap();
        assert!((k.fitted(need).position(Handle::ListingSide) - (0.55 - 0.02)).abs() < 1e-9);
        // Dragged right past the widest line, it stops there.
        let d = b.drag(Handle::ListingSide, 0.8);
        assert!((d.fitted(need).position(Handle::ListingSide) - 0.55).abs() < 1e-9);
        // A listing narrower than the bytes' surplus: the handle still moves left.
        let tiny = Needs { bytes: 0.25, listing: 0.13 };
        let t = s.moved_from(Handle::ListingSide, tiny);
        let k = t.key(Handle::ListingSide, "ArrowLeft").unwrap();
        assert!(k.fitted(tiny).position(Handle::ListingSide) < s.fitted(tiny).position(Handle::ListingSide) - 0.005);
        // The bytes handle: from where the bytes are shown.
        assert!((s.moved_from(Handle::BytesListing, need).bytes - 0.25).abs() < 1e-9);
        assert_eq!(s.moved_from(Handle::InspectorTabs, need), s);
    }

    #[test]
    fn keys_move_handles() {
        let s = Splits::default();
        let r = s.key(Handle::BytesListing, "ArrowRight").unwrap();
        assert!((r.bytes - (s.bytes + 0.02)).abs() < 1e-9);
        assert_eq!(s.key(Handle::InspectorTabs, "Home").unwrap().inspector, MIN_SHARE);
        assert_eq!(s.key(Handle::BytesListing, "x"), None);
        assert_eq!(s.percent(Handle::BytesListing), 39);
        assert_eq!(s.percent(Handle::ListingSide), 70);
    }

    #[test]
    fn splits_round_trip_as_text() {
        let s = Splits::default().drag(Handle::BytesListing, 0.3);
        let back = Splits::from_text(&s.to_text()).unwrap();
        assert!((back.bytes - s.bytes).abs() < 1e-4 && (back.listing - s.listing).abs() < 1e-4);
        for bad in ["", "1,2", "0.5,0.5,0.5", "0.9,0.05,0.5", "a,b,c", "0.3,0.3,0.5,0.1", "NaN,0.3,0.5"] {
            assert_eq!(Splits::from_text(bad), None, "{bad}");
        }
    }

    #[test]
    fn side_tabs_follow_the_open_panes() {
        assert_eq!(side_tabs(PANE_MAP | PANE_REFLECTION), vec![Side::Reflection, Side::Map]);
        assert_eq!(shown_side(PANE_MAP | PANE_REFLECTION, None), Some(Side::Reflection));
        assert_eq!(shown_side(PANE_MAP | PANE_PREVIEW, None), Some(Side::Preview));
        assert_eq!(shown_side(PANE_MAP | PANE_PREVIEW, Some(Side::Map)), Some(Side::Map));
        assert_eq!(shown_side(PANE_MAP, Some(Side::Translation)), Some(Side::Map));
        assert_eq!(shown_side(0, Some(Side::Map)), None);
        // The diff sits after the workbench panes, before the tables.
        assert_eq!(side_tabs(PANE_MAP | PANE_DIFF | PANE_TRANSLATION), vec![Side::Translation, Side::Diff, Side::Map]);
    }

    #[test]
    fn fold_tabs_list_the_open_panes() {
        let t = fold_tabs(PANE_TRANSLATION);
        assert_eq!(t, vec![Fold::Bytes, Fold::Listing, Fold::Inspector, Fold::Side(Side::Translation)]);
        assert_eq!(shown_fold(0, Fold::Side(Side::Translation)), Fold::Listing);
        assert_eq!(shown_fold(PANE_TRANSLATION, Fold::Side(Side::Translation)), Fold::Side(Side::Translation));
        assert_eq!(shown_fold(0, Fold::Bytes), Fold::Bytes);
    }

    #[test]
    fn themes() {
        assert_eq!(Theme::effective(None, true), Theme::Dark);
        assert_eq!(Theme::effective(None, false), Theme::Light);
        assert_eq!(Theme::effective(Some(Theme::Light), true), Theme::Light);
        assert_eq!(Theme::parse("dark"), Some(Theme::Dark));
        assert_eq!(Theme::parse("auto"), None);
        assert_eq!(Theme::parse(Theme::Dark.other().name()), Some(Theme::Light));
    }
}
