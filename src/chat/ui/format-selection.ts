/** A text field's text with its selection. */
export interface Selected {
  text: string;
  start: number;
  end: number;
}

/**
 * Upstream's Ctrl+B and Ctrl+I in the message box (and Format's Strikethrough): the selection
 * wrapped in `**`, `*` or `~~`, or unwrapped when it already is (markers inside the selection or
 * just around it); with nothing selected, the two markers with the caret between them. The
 * selection stays on the same words.
 */
export function toggleMarker({ text, start, end }: Selected, marker: '**' | '*' | '~~'): Selected {
  const length = marker.length;
  const selected = text.slice(start, end);
  if (selected.length >= 2 * length && selected.startsWith(marker) && selected.endsWith(marker) && (length === 2 || !selected.startsWith('**'))) {
    const inner = selected.slice(length, -length);
    return { text: text.slice(0, start) + inner + text.slice(end), start, end: start + inner.length };
  }
  if (wrappedIn(text, start, end, marker)) {
    return { text: text.slice(0, start - length) + selected + text.slice(end + length), start: start - length, end: end - length };
  }
  return { text: `${text.slice(0, start)}${marker}${selected}${marker}${text.slice(end)}`, start: start + length, end: end + length };
}

/**
 * Whether the marker sits just around the selection, by the runs of its character on each side:
 * `**` or `~~` where both runs have two or more; `*` where both are odd (`*a*`, and `***a***`,
 * bold and italic), never half of a bold's `**`.
 */
function wrappedIn(text: string, start: number, end: number, marker: string): boolean {
  const character = marker[0];
  let before = 0;
  while (text[start - 1 - before] === character) before += 1;
  let after = 0;
  while (text[end + after] === character) after += 1;
  return marker === '*' ? before % 2 === 1 && after % 2 === 1 : before >= marker.length && after >= marker.length;
}

/** The selection as a link's text, `url` selected to be typed over (upstream's Link button). */
export function wrapLink({ text, start, end }: Selected): Selected {
  const label = text.slice(start, end) || 'text';
  const link = `[${label}](url)`;
  const urlAt = start + label.length + 3;
  return { text: text.slice(0, start) + link + text.slice(end), start: urlAt, end: urlAt + 3 };
}

/**
 * The selected lines inside a fenced block (```quote, ```spoiler Header, ```math, or code), on
 * lines of their own; the selection stays on the same text.
 */
export function wrapBlock({ text, start, end }: Selected, opening: string): Selected {
  const before = text.slice(0, start);
  const head = `${before === '' || before.endsWith('\n') ? '' : '\n'}${opening}\n`;
  const after = text.slice(end);
  const tail = `\n\`\`\`${after === '' || after.startsWith('\n') ? '' : '\n'}`;
  return { text: before + head + text.slice(start, end) + tail + after, start: start + head.length, end: end + head.length };
}

/** Inline code for a selection within one line; a code block for several. */
export function wrapCode(selected: Selected): Selected {
  const inner = selected.text.slice(selected.start, selected.end);
  if (inner.includes('\n')) return wrapBlock(selected, '```');
  const { text, start, end } = selected;
  return { text: `${text.slice(0, start)}\`${inner}\`${text.slice(end)}`, start: start + 1, end: end + 1 };
}

/** Each line the selection touches as a list item: `- ` bullets, or `1. ` numbers. */
export function listLines({ text, start, end }: Selected, numbered: boolean): Selected {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const nextBreak = text.indexOf('\n', end);
  const lineEnd = nextBreak === -1 ? text.length : nextBreak;
  const lines = text.slice(lineStart, lineEnd).split('\n').map((line, i) => `${numbered ? `${i + 1}. ` : '- '}${line}`);
  const block = lines.join('\n');
  return { text: text.slice(0, lineStart) + block + text.slice(lineEnd), start: lineStart, end: lineStart + block.length };
}
