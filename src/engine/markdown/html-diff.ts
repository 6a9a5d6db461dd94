/**
 * The HTML diff shown in a message's edit history (upstream's `content_html_diff`): the new
 * rendering, word by word, with inserted words wrapped in `highlight_text_inserted` and the words
 * that were removed put back in place inside `highlight_text_deleted`, all inside one `<div>`.
 * Only text is compared (and emoji images); markup comes from the new version.
 */
import { diffArrays } from 'diff';

interface Piece {
  html: string;
  /** The comparison key of a word (or an `<img>`, which reads as one); absent for other markup. */
  word?: string;
  /** Whitespace that followed the word. */
  space: string;
}

const MARKUP_OR_TEXT = /<[^>]*>|[^<]+/g;
const WORD = /(\S+)(\s*)/g;

function piecesOf(html: string): Piece[] {
  const pieces: Piece[] = [];
  for (const [chunk] of html.matchAll(MARKUP_OR_TEXT)) {
    if (chunk.startsWith('<')) {
      pieces.push(/^<img\b/i.test(chunk) ? { html: chunk, word: chunk, space: '' } : { html: chunk, space: '' });
      continue;
    }
    const leading = /^\s*/.exec(chunk)![0];
    if (leading) pieces.push({ html: leading, space: '' });
    for (const [, word, space] of chunk.matchAll(WORD)) pieces.push({ html: word, word, space });
  }
  return pieces;
}

function deletedSpan(words: Piece[]): string {
  const text = words.map((piece, index) => piece.html + (index < words.length - 1 ? piece.space || ' ' : '')).join('');
  return `<span class="highlight_text_deleted">${text}</span>${words.at(-1)!.space}`;
}

export function htmlDiff(oldHtml: string, newHtml: string): string {
  const oldWords = piecesOf(oldHtml).filter((piece) => piece.word !== undefined);
  const newPieces = piecesOf(newHtml);
  const newWords = newPieces.filter((piece) => piece.word !== undefined);

  const inserted = new Set<Piece>();
  // Removed words, keyed by the index of the new word they follow (-1: before the first word).
  const deletedAfter = new Map<number, Piece[]>();
  let newIndex = 0;
  let oldIndex = 0;
  let pending: Piece[] = [];
  const placePending = (): void => {
    if (pending.length === 0) return;
    deletedAfter.set(newIndex - 1, [...(deletedAfter.get(newIndex - 1) ?? []), ...pending]);
    pending = [];
  };
  const changes = diffArrays(
    oldWords.map((piece) => piece.word!),
    newWords.map((piece) => piece.word!),
  );
  for (const change of changes) {
    const count = change.value.length;
    if (change.removed) {
      pending.push(...oldWords.slice(oldIndex, oldIndex + count));
      oldIndex += count;
    } else if (change.added) {
      // A replacement shows the new words first, then the old ones (as upstream's lxml diff does).
      for (const piece of newWords.slice(newIndex, newIndex + count)) inserted.add(piece);
      newIndex += count;
    } else {
      placePending();
      oldIndex += count;
      newIndex += count;
    }
  }
  placePending();

  // Words removed before the first remaining word go just before it, inside its paragraph.
  const deletedFirst = deletedAfter.get(-1);
  let html = '';
  let wordIndex = -1;
  let spanOpen = false;
  newPieces.forEach((piece, index) => {
    if (piece.word === undefined) {
      html += piece.html;
      return;
    }
    wordIndex++;
    if (wordIndex === 0 && deletedFirst) html += deletedSpan(deletedFirst);
    const isInserted = inserted.has(piece);
    if (isInserted && !spanOpen) html += '<span class="highlight_text_inserted">';
    spanOpen ||= isInserted;
    html += piece.html;
    const next = newPieces[index + 1];
    const deleted = deletedAfter.get(wordIndex);
    // An inserted run stays in one span across the spaces of one text run.
    if (spanOpen && !(next && inserted.has(next) && !deleted)) {
      html += '</span>';
      spanOpen = false;
    }
    html += piece.space;
    if (deleted) html += (piece.space ? '' : ' ') + deletedSpan(deleted);
  });
  if (newWords.length === 0 && deletedFirst) html += deletedSpan(deletedFirst);
  return `<div>${html}</div>`;
}
