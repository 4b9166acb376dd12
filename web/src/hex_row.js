// Writes one row slot of the hex view in a single call from wasm.
//
// Why: a jump rewrites every visible row, and doing it cell by cell from
// wasm crossed into JS several times per byte, each crossing decoding a
// string. Here the row crosses once; every write is skipped when the value
// is already there, so the browser restyles only what changed.
//
// row: <div class="hrow"> holding <span class="off">, <span class="cells">
// (the run of digits, <span class="run">, then one empty <span class="b">
// per byte over it) and <span class="ascii">. text: the row's strings in
// one (one decoding from wasm instead of six), separated by tabs: the
// offset, the ASCII column, the run, the run's background-image (its
// colours), the cells' classes joined by "\n", and two digits per cell.
// own_text: bit j set when cell j draws its digits itself; offsets: the
// byte each cell shows, or 0xffffffff for padding past the end of the
// file; selected: bit j set when cell j is selected.
export function fill_hex_row(row, y, text, own_text, offsets, selected) {
  const [offset, ascii, run, background, classes, digits] = text.split('\t');
  // Styles written are remembered on the element, not read back: reading
  // serialises the property (a long gradient list for the run) every time.
  if (row.__y !== y) {
    row.style.transform = `translateY(${y}px)`;
    row.__y = y;
  }
  row.hidden = false;
  const [off, cells, asciiEl] = row.children;
  setText(off, offset);
  setText(asciiEl, ascii);
  const runEl = cells.firstElementChild;
  setText(runEl, run);
  if (runEl.__bg !== background) {
    runEl.style.backgroundImage = background;
    runEl.__bg = background;
  }
  const cls = classes.split('\n');
  let el = runEl.nextElementSibling;
  for (let j = 0; el; j++, el = el.nextElementSibling) {
    if (el.className !== cls[j]) el.className = cls[j];
    const d = digits.substr(2 * j, 2);
    setText(el, (own_text >> j) & 1 ? d : '');
    // The cell's attributes, written only when its byte or its selection
    // changed (remembered on the element: reading them back costs more).
    const b = offsets[j];
    const sel = (selected >> j) & 1;
    if (el.__b === b && el.__sel === sel && el.__d === d) continue;
    if (b === 0xffffffff) {
      el.removeAttribute('data-b');
      el.removeAttribute('role');
      el.removeAttribute('aria-selected');
      el.removeAttribute('aria-label');
    } else {
      if (el.__b !== b) el.setAttribute('data-b', String(b));
      if (el.__b === undefined || el.__b === 0xffffffff) el.setAttribute('role', 'option');
      if (el.__sel !== sel || el.__b === undefined || el.__b === 0xffffffff) el.setAttribute('aria-selected', sel ? 'true' : 'false');
      if (el.__d !== d) el.setAttribute('aria-label', d);
    }
    el.__b = b;
    el.__sel = sel;
    el.__d = d;
  }
}

/** Forgets what a cell's attributes were (they were changed from elsewhere). */
export function forget_hex_cell(el) {
  el.__b = undefined;
  el.__sel = undefined;
  el.__d = undefined;
}

function setText(el, s) {
  const t = el.firstChild;
  if (t && t.nodeType === 3) {
    if (t.nodeValue !== s) t.nodeValue = s;
  } else if (s !== '' || t) {
    el.textContent = s;
  }
}
