// Writes one row slot of the hex view in a single call from wasm.
//
// Why: a jump rewrites every visible row, and doing it cell by cell from
// wasm crossed into JS several times per byte, each crossing decoding a
// string. Here the row crosses once; every write is skipped when the value
// is already there, so the browser restyles only what changed.
//
// row: <div class="hrow"> holding <span class="off">, <span class="cells">
// (the run of digits, <span class="run">, then one <span class="b"> per
// byte over it) and <span class="ascii">. text: the row's strings in one
// (one decoding from wasm instead of six), separated by tabs: the offset,
// the ASCII column, the run, the run's colours (paint_hex_runs paints
// them), the cells' classes joined by "\n", and two digits per cell.
// own_text: bit j set when cell j draws its digits itself; offsets: the
// byte each cell shows, or 0xffffffff for padding past the end of the
// file; selected: bit j set when cell j is selected.
//
// A cell is drawn only when it shows something over the run: a mark, its
// own digits, where decoding stopped (a class besides "b"). The others are
// hidden and name no byte: sixteen boxes a row that the browser laid out,
// styled and painted on every jump cost about a quarter of a search step's
// frame. A drawn cell sits at its byte's place
// by its left margin (two characters a byte, one between dwords, counted
// from the last drawn cell). Which byte the pointer is over is worked out
// from the row (hex_byte_at), not from the cells.
export function fill_hex_row(row, y, text, own_text, offsets, selected) {
  const [offset, ascii, run, paint, classes, digits] = text.split('\t');
  // What was written is remembered on the element, not read back (reading
  // a style serialises it).
  if (row.__y !== y) {
    row.style.transform = `translateY(${y}px)`;
    row.__y = y;
  }
  row.hidden = false;
  // The bytes under the row's cells, for hex_byte_at (a copy: the array
  // passed is a view of wasm memory).
  row.__offsets = Uint32Array.from(offsets);
  const [off, cells, asciiEl] = row.children;
  setText(off, offset);
  setText(asciiEl, ascii);
  if (row.__paint !== paint) {
    row.__paint = paint;
    // The view's canvas is painted again (paint_hex_runs).
    row.parentElement.__dirty = true;
  }
  const runEl = cells.firstElementChild;
  setText(runEl, run);
  const cls = classes.split('\n');
  // Characters of the run before the next drawn cell's place.
  let end = 0;
  let el = runEl.nextElementSibling;
  for (let j = 0; el; j++, el = el.nextElementSibling) {
    const c = cls[j];
    const b = offsets[j];
    if (c === 'b') {
      if (!el.hidden) hideCell(el);
      continue;
    }
    if (el.hidden) el.hidden = false;
    if (el.className !== c) el.className = c;
    const x = (j >> 2) * 9 + (j & 3) * 2;
    const margin = x - end;
    if (el.__ml !== margin) {
      el.style.marginLeft = `${margin}ch`;
      el.__ml = margin;
    }
    end = x + 2;
    const d = digits.substr(2 * j, 2);
    setText(el, (own_text >> j) & 1 ? d : '');
    // The cell's attributes, written only when its byte or its selection
    // changed (remembered on the element: reading them back costs more).
    const sel = (selected >> j) & 1;
    if (el.__b === b && el.__sel === sel && el.__d === d) continue;
    if (b === 0xffffffff) {
      clearAttributes(el);
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

/** Hides a cell, and it names no byte (a query for a byte finds none). */
function hideCell(el) {
  el.hidden = true;
  el.className = 'b';
  clearAttributes(el);
  if (el.firstChild) el.textContent = '';
  el.__b = undefined;
  el.__sel = undefined;
  el.__d = undefined;
}

function clearAttributes(el) {
  el.removeAttribute('data-b');
  el.removeAttribute('role');
  el.removeAttribute('aria-selected');
  el.removeAttribute('aria-label');
}

/** Hides every cell of a slot past the end (it shows no row). */
export function hide_hex_row(row) {
  row.hidden = true;
  row.__offsets = undefined;
  const cells = row.children[1];
  for (let el = cells.firstElementChild.nextElementSibling; el; el = el.nextElementSibling) {
    if (!el.hidden) hideCell(el);
  }
}

/**
 * The byte under the pointer at client x `x` over `target` (an element of
 * the hex view): a drawn cell's, else the one whose digits the run has
 * there, found by the row's characters (every character of the font is one
 * width; a run is 35 of them: four dwords of eight digits, a space between
 * them). -1 between dwords, past a row's bytes and outside the rows.
 */
export function hex_byte_at(target, x) {
  const cell = target.closest?.('.b[data-b]');
  if (cell) return Number(cell.dataset.b);
  const row = target.closest?.('.hrow.slot');
  if (!row || !row.__offsets) return -1;
  const r = row.children[1].firstElementChild.getBoundingClientRect();
  const c = Math.floor(((x - r.left) / r.width) * 35);
  if (c < 0 || c >= 35 || c % 9 === 8) return -1;
  const b = row.__offsets[Math.floor(c / 9) * 4 + ((c % 9) >> 1)];
  return b === undefined || b === 0xffffffff ? -1 : b;
}

// The runs' colours. Why a canvas: as a background of three gradient
// layers per row they were a long style property that a jump made the
// browser parse, restyle and paint again for every row; here they are a
// few rectangles a row, painted as one image. One canvas for the view, not
// one a row: each canvas is a compositing layer, and forty of them cost
// more to layerize than the gradients did.
//
// A row's colours: three layers, bottom up, separated by "|": the span
// colours, the alternate span's shade, the field underlines (the lowest
// two pixels). A layer is "name,x0,x1" items, space-separated: the colour
// of custom property --name from character x0 to x1. The canvas is one
// pixel a character across and one a CSS pixel down; the style sheet
// scales it to the runs without smoothing.

/**
 * Paints the colours of the runs of the visible slots of `spacer` on
 * `canvas`: a band of `rows` rows of `rowH` px from `top` px (the slots'
 * rows), when a row's colours or the band changed, or `force` says slots
 * were hidden.
 */
export function paint_hex_runs(canvas, spacer, top, rows, rowH, force) {
  const height = rows * rowH;
  if (!spacer.__dirty && !force && canvas.__top === top && canvas.__h === height) return;
  spacer.__dirty = false;
  canvas.__spacer = spacer;
  canvas.__rowH = rowH;
  if (canvas.__top !== top) {
    canvas.style.transform = `translateY(${top}px)`;
    canvas.__top = top;
  }
  if (canvas.__h !== height) {
    // Resizing clears it.
    canvas.height = height;
    canvas.style.height = `${height}px`;
    canvas.__h = height;
  }
  const g = canvas.__g ?? (canvas.__g = canvas.getContext('2d'));
  if (!g) return;
  g.clearRect(0, 0, canvas.width, height);
  for (let row = spacer.firstElementChild; row; row = row.nextElementSibling) {
    if (row.hidden || row.__paint === undefined || row.__y === undefined) continue;
    const y = row.__y - top;
    if (y < 0 || y >= height) continue;
    paintRow(g, y, rowH, row.__paint);
  }
}

function paintRow(g, y0, rowH, paint) {
  const layers = paint.split('|');
  for (let k = 0; k < layers.length; k++) {
    if (layers[k] === '') continue;
    const [y, dy] = k === 2 ? [y0 + rowH - 2, 2] : [y0, rowH];
    for (const item of layers[k].split(' ')) {
      const [name, x0, x1] = item.split(',');
      g.fillStyle = colour(name);
      g.fillRect(+x0, y, x1 - x0, dy);
    }
  }
}

// Colours by custom property, as the root element's style resolves them
// now: worked out once, and again when the theme changes (the data-theme
// attribute, or the system's scheme), which repaints the views' canvases.
const colours = new Map();
let watching = false;
let scratch = null;

function colour(name) {
  let c = colours.get(name);
  if (c === undefined) {
    if (!watching) watchTheme();
    c = getComputedStyle(document.documentElement).getPropertyValue(`--${name}`).trim() || 'transparent';
    // A value the canvas cannot read would leave the last colour set.
    const probe = scratch ?? (scratch = document.createElement('canvas').getContext('2d'));
    probe.fillStyle = '#000001';
    probe.fillStyle = c;
    if (probe.fillStyle === '#000001') c = 'transparent';
    colours.set(name, c);
  }
  return c;
}

function watchTheme() {
  watching = true;
  const repaint = () => {
    colours.clear();
    for (const canvas of document.querySelectorAll('.hex canvas.paint')) {
      if (canvas.__spacer === undefined) continue;
      paint_hex_runs(canvas, canvas.__spacer, canvas.__top, canvas.__h / canvas.__rowH, canvas.__rowH, true);
    }
  };
  new MutationObserver(repaint).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', repaint);
}

function setText(el, s) {
  const t = el.firstChild;
  if (t && t.nodeType === 3) {
    if (t.nodeValue !== s) t.nodeValue = s;
  } else if (s !== '' || t) {
    el.textContent = s;
  }
}
