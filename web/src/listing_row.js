// Writes one listing row in a single call from wasm: its classes, its
// line number, its selection, its highlighted pieces and its breakpoint
// gutter.
//
// Why: a jump of the listing rewrites every row, and building each piece
// through the view layer crossed from wasm into JS four or five times a
// piece (element, class, attribute, text, insertion), each string decoded
// on its own. Here a row crosses once, and the row element itself is kept
// (the listing recycles its rows). Text is set as text, never parsed as
// HTML: the line holds names from the shader.
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
  const parts = [];
  for (let i = 0; i < pieces.length; i += 4) {
    const piece = text.slice(pieces[i + 1], pieces[i + 2]);
    if (pieces[i] === 0) {
      parts.push(piece);
      continue;
    }
    const span = document.createElement('span');
    span.className = names[pieces[i] - 1];
    if (pieces[i + 3] !== 0xffffffff) span.setAttribute('data-p', String(pieces[i + 3]));
    span.textContent = piece;
    parts.push(span);
  }
  if (gutter) {
    const g = document.createElement('span');
    g.className = 'gutter';
    g.setAttribute('data-gutter', String(line));
    g.setAttribute('data-testid', 'gutter');
    g.title = 'Toggle a breakpoint';
    parts.push(g);
  }
  if (row.className !== cls) row.className = cls;
  row.setAttribute('data-line', String(line));
  row.setAttribute('aria-selected', selected ? 'true' : 'false');
  row.replaceChildren(...parts);
}
