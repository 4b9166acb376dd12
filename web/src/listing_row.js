// Writes one listing row in a single call from wasm: its classes, its
// line number, its selection, its highlighted pieces and its breakpoint
// gutter.
//
// Why: a jump of the listing rewrites every row, and building each piece
// through the view layer crossed from wasm into JS four or five times a
// piece (element, class, attribute, text, insertion), each string decoded
// on its own. Here a row crosses once, and the row element itself is kept
// (the listing recycles its rows), and so are its child nodes, paired by
// position: a jump then changes texts and a few classes instead of
// replacing every node, which the browser would style and attach afresh
// (a far search step replaced 1,100-1,400 nodes and restyled 580-610
// elements; now 250-350 and 375-420). Text is set as text, never parsed
// as HTML: the line holds names from the shader.
//
// row: the row's <div>. line: its line number. cls: its classes.
// selected: whether it is the selected line. gutter: whether it carries a
// breakpoint gutter. text: the line. pieces: four numbers a piece
// (syntax.rs, packed_pieces): its class (0 for plain text, else 1 + its
// index in classes), its start and end in text, and its index when it is
// a register (data-p, read back by a click), else 0xffffffff. classes:
// the class names, separated by spaces.
export function fill_listing_row(row, line, cls, selected, gutter, text, pieces, classes) {
  const names = classes.split(' ');
  // The gutter, when there is one, is the row's last child.
  let g = row.lastChild;
  if (!(g && g.nodeType === 1 && g.className === 'gutter')) g = null;
  // The children alternate text node, span, text node, ... (a text node may
  // be empty), so that the nodes of any two lines pair up by position.
  const after = (n) => (n.nextSibling === g ? null : n.nextSibling);
  let node = row.firstChild === g ? null : row.firstChild;
  // Puts `fresh` where `node` is (a node of another kind: not ours to pair
  // up), or at the end.
  const place = (fresh) => {
    if (!node) return row.insertBefore(fresh, g);
    const next = after(node);
    row.replaceChild(fresh, node);
    node = next;
  };
  const putText = (piece) => {
    if (node && node.nodeType === 3) {
      if (node.nodeValue !== piece) node.nodeValue = piece;
      node = after(node);
    } else {
      place(document.createTextNode(piece));
    }
  };
  const putSpan = (piece, name, p) => {
    if (!(node && node.nodeType === 1)) {
      const span = document.createElement('span');
      span.className = name;
      if (p !== null) span.setAttribute('data-p', p);
      span.__p = p;
      span.textContent = piece;
      return place(span);
    }
    if (node.className !== name) node.className = name;
    if (node.__p !== p) {
      if (p === null) node.removeAttribute('data-p');
      else node.setAttribute('data-p', p);
      node.__p = p;
    }
    const t = node.firstChild;
    if (t && !t.nextSibling && t.nodeType === 3) {
      if (t.nodeValue !== piece) t.nodeValue = piece;
    } else {
      node.textContent = piece;
    }
    node = after(node);
  };
  let plain = '';
  for (let i = 0; i < pieces.length; i += 4) {
    const piece = text.slice(pieces[i + 1], pieces[i + 2]);
    if (pieces[i] === 0) {
      plain += piece;
      continue;
    }
    putText(plain);
    plain = '';
    putSpan(piece, names[pieces[i] - 1], pieces[i + 3] !== 0xffffffff ? String(pieces[i + 3]) : null);
  }
  if (plain !== '') putText(plain);
  // What the old line had beyond the new one's pieces.
  while (node) {
    const next = after(node);
    node.remove();
    node = next;
  }
  if (gutter) {
    if (!g) {
      g = document.createElement('span');
      g.className = 'gutter';
      g.setAttribute('data-testid', 'gutter');
      g.title = 'Toggle a breakpoint';
      row.appendChild(g);
    }
    const at = String(line);
    if (g.getAttribute('data-gutter') !== at) g.setAttribute('data-gutter', at);
  } else if (g) {
    g.remove();
  }
  if (row.className !== cls) row.className = cls;
  row.setAttribute('data-line', String(line));
  row.setAttribute('aria-selected', selected ? 'true' : 'false');
}
