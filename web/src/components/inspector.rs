//! The inspector: the hovered or selected token, its bit ribbon, fields,
//! instruction documentation and operand tree. What is selected is
//! editable (the playground): a token's fields (a picker for named values, a
//! number box, decimal or 0x…, applied on Enter, for the others), an
//! immediate or index as a whole, and a leaf field outside the program
//! through its path.

use crate::{inspect, selection, st, State};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn Inspector() -> impl IntoView {
    let s = st();
    // The hovered byte wins over the selection; only the selection's
    // fields are editable.
    let target = Memo::new(move |_| {
        let m = s.model.get();
        if let Some(h) = s.hover.get() {
            return m.span_at(h).map(|i| (i, m.field_at_byte(h), false));
        }
        s.sel.get().and_then(|sel| Some((sel.span?, sel.field, true)))
    });
    // The token shown, and apart from it the field marked in it: moving
    // between the fields of one token (the bytes of one token, the rows of
    // its table) marks another row and ribbon cell, and draws nothing anew.
    let token = Memo::new(move |_| target.get().map(|(i, _, editable)| (i, editable)));
    let field = Memo::new(move |_| target.get().and_then(|t| t.1));
    view! {
        <div class="inspector" data-testid="inspector">
            {move || {
                let m = s.model.get();
                let Some((i, editable)) = token.get() else {
                    return view! { <p class="hint">"Hover a byte or click a line of the disassembly."</p> }.into_any();
                };
                let Some(r) = inspect::inspect(&m, i) else { return ().into_any() };
                let rib = inspect::ribbon(&r.fields);
                let value = r.value.map(|v| format!("{v:#010x}")).unwrap_or_default();
                let ribbon = (!r.fields.is_empty()).then(|| ribbon_view(&r, &rib, field, r.value.unwrap_or(0), i));
                let fields = r.fields.iter().map(|f| {
                    let lo = f.lo;
                    let bits = if f.lo == f.hi { format!("{}", f.lo) } else { format!("{}–{}", f.hi, f.lo) };
                    let value = if editable { field_editor(s, r.offset, f).into_any() } else { f.value.into_any() };
                    view! {
                        <tr class=move || String::from(if field.get() == Some(lo) { "frow active" } else { "frow" }) data-field=f.name
                            on:click=move |_| { let m = s.model.get_untracked(); s.select(selection::select_field(&m, i, lo)); }>
                            <td class="fname">{name_with_breaks(f.name)}</td><td class="mono">{bits}</td><td class="mono">{value}</td>
                            <td><span class="meaning">{f.meaning.clone()}</span>" "<span class="vdoc">{f.value_doc}</span>
                                <span class="doc inline">{f.doc}</span></td>
                            <td class="doc">{f.doc}</td>
                        </tr>
                    }
                }).collect_view();
                let tree = r.tree.iter().map(|t| {
                    let span = t.span;
                    let cls = format!("trow d{}{}", t.depth, if span == i { " active" } else { "" });
                    view! {
                        <div class=cls on:click=move |_| { let m = s.model.get_untracked(); s.select(selection::select_span(&m, span)); }>
                            <span class="mono off">{format!("{:06x}", t.offset)}</span>
                            <span class="role">{t.role.clone()}</span>
                            <span class="mono">{t.text.clone()}</span>
                        </div>
                    }
                }).collect_view();
                view! {
                    <div class="ititle"><strong data-testid="inspector-title">{r.title.clone()}</strong>
                        <span class="mono">{format!(" @ {:#x}, {} bytes ", r.offset, r.len)}</span>
                        <span class="mono val">{value}</span></div>
                    <p class="about">{r.about.clone()}</p>
                    {r.leaf.clone().map(|l| {
                        let edit = (editable && l.editor.is_some()).then(|| leaf_editor(s, l.path.clone(), l.editor.clone().unwrap_or_default()));
                        view! {
                        <table class="fields leaf" data-testid="inspector-leaf"><tbody>
                            <tr><td class="fname">"path"</td><td class="mono" data-testid="inspector-path">{l.path}</td></tr>
                            <tr><td class="fname">"value"</td><td class="mono" data-testid="inspector-value">{l.value}</td></tr>
                            {edit}
                            <tr><td class="fname">"meaning"</td><td data-testid="inspector-meaning"><span class="meaning">{l.meaning}</span></td></tr>
                        </tbody></table>
                    }})}
                    {ribbon}
                    {(!editable && (!r.fields.is_empty() || r.whole_value || r.leaf.as_ref().is_some_and(|l| l.editor.is_some()))).then(|| view! {
                        <p class="hint" data-testid="edit-hint">"Hovered: click it to select it and edit it here."</p>
                    })}
                    {move || s.edit_error.get().map(|e| view! { <p class="edit-error" data-testid="edit-error" role="alert">{e}</p> })}
                    {(editable && r.whole_value).then(|| view! {
                        <table class="fields"><tbody><tr><td class="fname">"value"</td>
                            <td class="mono">{whole_editor(s, r.offset, r.value.unwrap_or(0))}</td></tr></tbody></table>
                    })}
                    {(!r.fields.is_empty()).then(|| view! {
                        <table class="fields"><thead><tr><th>"field"</th><th>"bits"</th><th>"value"</th><th>"meaning"</th><th class="doc">"what it does"</th></tr></thead>
                        <tbody>{fields}</tbody></table>
                    })}
                    {r.instruction.clone().map(|(line, doc)| view! {
                        <div class="ins"><code>{line}</code><p>{doc}</p></div>
                    })}
                    {(!r.tree.is_empty()).then(|| view! { <div class="tree">{tree}</div> })}
                }.into_any()
            }}
        </div>
    }
}

/// The editor of field `f` of the token at `offset`: a picker of its named
/// values (applied on change), or a number box (applied on Enter). Clicks
/// stay in it (the row's click would select the field and redraw it).
fn field_editor(s: State, offset: u32, f: &inspect::FieldRow) -> impl IntoView {
    let name = f.name;
    let id = inspect::field_testid(name);
    let apply = move |value: String| {
        s.edit(&format!("{name} of the token at {offset:#x}"), |m| m.set_field(offset as usize, name, &value))
    };
    match f.choices {
        Some(c) => {
            let cur = f.value;
            let picker = NodeRef::<leptos::html::Select>::new();
            // A long menu shows only the current value in the frame that
            // shows the token; the rest follow right after it. Nobody
            // opens a menu within a frame.
            let all = c.options(cur);
            let set = option_set(&all);
            let (now, later) = inspect::options_now_and_later(all, cur);
            // Always: the view may reuse a picker that an earlier token's
            // options were added to.
            crate::dom::after_paint(move || {
                if let Some(el) = picker.try_get_untracked().flatten() {
                    add_options(&el, cur, &later, set);
                }
            });
            // As wide as the value shown (the font is monospaced; 2.3em is
            // the menu's arrow, padding and border), whatever the options.
            let shown = now.iter().find(|o| o.0 == cur).map_or(0, |o| o.1.chars().count());
            let width = format!("calc({shown}ch + 2.3em)");
            let opts = now
                .into_iter()
                .map(|(v, label)| view! { <option value=v.to_string() selected=v == cur>{label}</option> })
                .collect_view();
            view! {
                <select class="fedit" data-testid=id aria-label=name node_ref=picker style:width=width on:click=|ev: web_sys::MouseEvent| ev.stop_propagation()
                    on:change=move |ev| {
                        // A refused value is not shown as if it were the token's.
                        if !apply(event_target_value(&ev)) {
                            if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()) {
                                el.set_value(&cur.to_string());
                            }
                        }
                    }>{opts}</select>
            }
            .into_any()
        }
        None => number_box(id, name.to_string(), f.value.to_string(), move |v| {
            apply(v);
        })
        .into_any(),
    }
}

/// An identity of a picker's whole option list (values and labels): an
/// FNV-1a hash (a few bytes of code in the first view, unlike SipHash).
fn option_set(all: &[inspect::PickerOption]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (v, label) in all {
        for b in v.to_le_bytes().iter().chain(label.as_bytes()).chain([&0xff]) {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Adds `options` (sorted by value, without `cur`) around the picker's one
/// option, the current value `cur`, keeping the value order; `set` is the
/// identity of the whole list. The view does not know the options added
/// here, and when it reuses this picker for another token it keeps them
/// (each selection once added the two hundred opcodes again). So a picker
/// that holds the same list, for another current value, only trades the
/// new current value's option for the old one's; any other is refilled.
fn add_options(picker: &web_sys::HtmlSelectElement, cur: u32, options: &[inspect::PickerOption], set: u64) {
    let set_text = set.to_string();
    let later = |o: &web_sys::Element| o.has_attribute("data-later");
    let value = |o: &web_sys::Element| o.get_attribute("value").and_then(|v| v.parse::<u32>().ok());
    let children = || {
        let mut v = Vec::new();
        let mut next = picker.first_element_child();
        while let Some(o) = next {
            next = o.next_element_sibling();
            v.push(o);
        }
        v
    };
    let kids = children();
    let mut shown = kids.iter().filter(|o| !later(o));
    let kept = picker.get_attribute("data-later-set").as_deref() == Some(&set_text)
        && kids.iter().any(&later)
        && matches!((shown.next(), shown.next()), (Some(o), None) if value(o) == Some(cur));
    let doc = document();
    let make = |v: u32, label: &str| {
        let o = doc.create_element("option").ok()?;
        let _ = o.set_attribute("data-later", "");
        let _ = o.set_attribute("value", &v.to_string());
        o.set_text_content(Some(label));
        Some(o)
    };
    let old = picker.get_attribute("data-later-cur").and_then(|v| v.parse::<u32>().ok());
    if let (true, Some(old)) = (kept, old) {
        if old != cur {
            let Some(now) = kids.iter().find(|o| !later(o)) else { return };
            // The old value's option back where the shown one was (its place).
            if let Some(o) = options.iter().find(|o| o.0 == old).and_then(|(v, l)| make(*v, l)) {
                let _ = picker.insert_before(&o, Some(now));
            }
            if let Some(dup) = kids.iter().find(|o| later(o) && value(o) == Some(cur)) {
                dup.remove();
            }
            // The shown option to the new value's place.
            let after = children().into_iter().find(|o| later(o) && value(o).is_some_and(|v| v > cur));
            let _ = picker.insert_before(now, after.as_ref().map(|e| e.as_ref()));
            let _ = picker.set_attribute("data-later-cur", &cur.to_string());
        }
        return;
    }
    for o in kids.iter().filter(|o| later(o)) {
        o.remove();
    }
    let shown = picker.first_element_child();
    for (v, label) in options {
        let Some(o) = make(*v, label) else { return };
        let before = if *v < cur { shown.as_ref() } else { None };
        let _ = picker.insert_before(&o, before.map(|e| e.as_ref()));
    }
    if options.is_empty() {
        let _ = picker.remove_attribute("data-later-set");
    } else {
        let _ = picker.set_attribute("data-later-set", &set_text);
        let _ = picker.set_attribute("data-later-cur", &cur.to_string());
    }
}

/// A number box that applies on Enter; clicks stay in it.
fn number_box(testid: String, label: String, value: String, apply: impl Fn(String) + 'static) -> impl IntoView {
    view! {
        <input class="fedit mono" type="text" inputmode="numeric" size="6" data-testid=testid aria-label=label
            title="A number (decimal or 0x…); Enter applies it" value=value
            on:click=|ev: web_sys::MouseEvent| ev.stop_propagation()
            on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Enter" { apply(event_target_value(&ev)) }/>
    }
}

/// The editor of a token that is a number as a whole (field `value`).
fn whole_editor(s: State, offset: u32, value: u32) -> impl IntoView {
    number_box("field-value".into(), "value".into(), format!("{value:#x}"), move |v| {
        s.edit(&format!("the value at {offset:#x}"), |m| m.set_field(offset as usize, "value", &v));
    })
}

/// The editor of a leaf field outside the program (`dxbc::edit::set_path`):
/// a number, or a string no longer than the one it replaces.
fn leaf_editor(s: State, path: String, value: String) -> impl IntoView {
    view! {
        <tr><td class="fname">"edit"</td><td>
            <input class="fedit mono leafedit" type="text" data-testid="leaf-edit" aria-label=format!("new value of {path}")
                title="A number (decimal or 0x…) or, for a name, text no longer than it; Enter applies it" value=value
                on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Enter" {
                    let v = event_target_value(&ev);
                    s.edit(&format!("`{path}`"), |m| dxbc::edit::set_path(&m.bytes, &path, &v));
                }/>
        </td></tr>
    }
}

fn ribbon_view(
    r: &inspect::Inspection,
    rib: &[Option<usize>],
    active: Memo<Option<u8>>,
    value: u32,
    span: usize,
) -> impl IntoView {
    let s = st();
    // Group consecutive bits with the same owner.
    let mut groups: Vec<(Option<usize>, u8, u8)> = Vec::new(); // owner, hi, lo
    for (k, o) in rib.iter().enumerate() {
        let bit = 31 - k as u8;
        match groups.last_mut() {
            Some(g) if g.0 == *o => g.2 = bit,
            _ => groups.push((*o, bit, bit)),
        }
    }
    let cells = groups
        .into_iter()
        .map(|(o, hi, lo)| {
            let bits: String = (lo..=hi).rev().map(|b| if value >> b & 1 == 1 { '1' } else { '0' }).collect();
            let width = (hi - lo + 1) as usize;
            let (name, cls, flo) = match o {
                Some(fi) => {
                    let f = &r.fields[fi];
                    // Too narrow for a name: the table below names it (a name
                    // cut to "e…" said nothing); the tooltip keeps it.
                    let n = if width < 4 { " narrow" } else { "" };
                    (f.name.to_string(), format!("rg f{}{}", fi % 4, n), Some(f.lo))
                }
                None => (String::new(), "rg none".to_string(), None),
            };
            let tip = name.clone();
            view! {
                <div class=move || if flo.is_some() && active.get() == flo { format!("{cls} active") } else { cls.clone() }
                    style:flex=format!("{width} 1 0") title=tip
                    on:click=move |_| { if let Some(lo) = flo { let m = s.model.get_untracked(); s.select(selection::select_field(&m, span, lo)); } }>
                    <div class="rbits">{bits}</div>
                    <div class="rname">{name}</div>
                    <div class="rpos">{if hi == lo { format!("{hi}") } else { format!("{hi}:{lo}") }}</div>
                </div>
            }
        })
        .collect_view();
    view! { <div class="ribbon" data-testid="ribbon">{cells}</div> }
}

/// A field name with `<wbr>` where [`crate::text::word_parts`] cuts it.
fn name_with_breaks(name: &str) -> impl IntoView {
    crate::text::word_parts(name)
        .into_iter()
        .enumerate()
        .map(|(i, part)| view! { {(i > 0).then(|| view! { <wbr/> })} {part.to_string()} })
        .collect_view()
}
