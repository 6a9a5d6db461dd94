/** A text field's text with its selection. */
export interface Selected {
  text: string;
  start: number;
  end: number;
}

/**
 * Upstream's Ctrl+B and Ctrl+I in the message box: the selection wrapped in `**` or `*`, or
 * unwrapped when it already is (markers inside the selection or just around it); with nothing
 * selected, the two markers with the caret between them. The selection stays on the same words.
 */
export function toggleMarker({ text, start, end }: Selected, marker: '**' | '*'): Selected {
  const length = marker.length;
  const selected = text.slice(start, end);
  const isMarker = (at: number): boolean =>
    text.slice(at, at + length) === marker &&
    // A lone `*` is not half of a `**`.
    (length === 2 || (text[at - 1] !== '*' && text[at + 1] !== '*'));
  if (selected.length >= 2 * length && selected.startsWith(marker) && selected.endsWith(marker) && (length === 2 || !selected.startsWith('**'))) {
    const inner = selected.slice(length, -length);
    return { text: text.slice(0, start) + inner + text.slice(end), start, end: start + inner.length };
  }
  if (start >= length && isMarker(start - length) && isMarker(end)) {
    return { text: text.slice(0, start - length) + selected + text.slice(end + length), start: start - length, end: end - length };
  }
  return { text: `${text.slice(0, start)}${marker}${selected}${marker}${text.slice(end)}`, start: start + length, end: end + length };
}
