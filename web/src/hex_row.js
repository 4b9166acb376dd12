// Writes one row slot of the hex view in a single call from wasm.
//
// Why: a jump rewrites every visible row, and doing it cell by cell from
// wasm crossed into JS four times per byte (class, offset, selection, text),
// each crossing decoding a string. Here the row crosses once; every write
// is skipped when the value is already there, so the browser restyles only
// what changed.
//
// row: <div class="hrow"> holding <span class="off">, <span class="cells">
// (one <span> per cell) and <span class="ascii">. classes: the cells'
// classes joined by "\n"; digits: two characters per cell; offsets: the
// byte each cell shows, or 0xffffffff for padding past the end of the file;
// selected: bit j set when cell j is selected.
export function fill_hex_row(row, y, offset, ascii, classes, digits, offsets, selected) {
  const transform = `translateY(${y}px)`;
  if (row.style.transform !== transform) row.style.transform = transform;
  row.hidden = false;
  const [off, cells, text] = row.children;
  setText(off, offset);
  setText(text, ascii);
  const cls = classes.split('\n');
  let el = cells.firstElementChild;
  for (let j = 0; el; j++, el = el.nextElementSibling) {
    if (el.className !== cls[j]) el.className = cls[j];
    setText(el, digits.substr(2 * j, 2));
    const b = offsets[j];
    if (b === 0xffffffff) {
      el.removeAttribute('data-b');
      el.removeAttribute('role');
      el.removeAttribute('aria-selected');
    } else {
      setAttr(el, 'data-b', String(b));
      setAttr(el, 'role', 'option');
      setAttr(el, 'aria-selected', (selected >> j) & 1 ? 'true' : 'false');
    }
  }
}

function setText(el, s) {
  const t = el.firstChild;
  if (t && t.nodeType === 3) {
    if (t.nodeValue !== s) t.nodeValue = s;
  } else {
    el.textContent = s;
  }
}

function setAttr(el, name, v) {
  if (el.getAttribute(name) !== v) el.setAttribute(name, v);
}
