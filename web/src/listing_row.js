// Writes a listing line's highlighted pieces into its row in one call
// from wasm.
//
// Why: a jump of the listing builds every row anew, and building each
// piece through the view layer crossed from wasm into JS four or five
// times a piece (element, class, attribute, text, insertion), each string
// decoded on its own. Here a row crosses once. Text is set as text, never
// parsed as HTML: the line holds names from the shader.
//
// row: the line's <div>. text: the line. pieces: four numbers a piece
// (syntax.rs, packed_pieces): its class (0 for plain text, else 1 + its
// index in classes), its start and end in text, and its index when it is
// a register (data-p, read back by a click), else 0xffffffff. classes:
// the class names, separated by spaces.
export function fill_listing_row(row, text, pieces, classes) {
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
  row.prepend(...parts);
}
