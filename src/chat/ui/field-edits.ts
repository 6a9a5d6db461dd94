import { toggleMarker, wrapLink } from './format-selection.ts';
import { pressName } from './key-names.ts';

type TextField = HTMLInputElement | HTMLTextAreaElement;

/**
 * Changes to the message box made as typing makes them, through the browser's insertText command
 * (deprecated, yet the one way to reach a field's undo history): Ctrl+Z takes each back, and its
 * input event updates the composer as a keystroke does.
 */

/**
 * Upstream's Ctrl+B and Ctrl+I in a message's text (the compose box, the message editor): bold
 * or italic around the selection, or off again; Ctrl+Shift+L, a link. True when the key was one of them.
 */
export function formatKey(event: KeyboardEvent, field: HTMLTextAreaElement): boolean {
  const name = pressName(event);
  if (name !== 'Ctrl+B' && name !== 'Ctrl+I' && name !== 'Ctrl+Shift+L') return false;
  event.preventDefault();
  const selected = { text: field.value, start: field.selectionStart, end: field.selectionEnd };
  const next = name === 'Ctrl+Shift+L' ? wrapLink(selected) : toggleMarker(selected, name === 'Ctrl+B' ? '**' : '*');
  replaceUndoably(field, next.text);
  field.setSelectionRange(next.start, next.end);
  return true;
}

/** Replaces the field's text with `text`: only the changed part, so the rest keeps its history. */
export function replaceUndoably(field: TextField, text: string): void {
  const old = field.value;
  let start = 0;
  while (start < old.length && start < text.length && old[start] === text[start]) start += 1;
  let end = 0;
  while (end < old.length - start && end < text.length - start && old[old.length - 1 - end] === text[text.length - 1 - end]) end += 1;
  field.setSelectionRange(start, old.length - end);
  typeOver(field, text.slice(start, text.length - end));
}

/** Puts `text` where the caret is (over the selection), the caret after it, the field focused. */
export function insertAtCaret(field: TextField, text: string): void {
  field.focus();
  typeOver(field, text);
}

/** The selection replaced by `inserted`; insertText with nothing deletes, so delete says so. */
function typeOver(field: TextField, inserted: string): void {
  if (document.execCommand(inserted ? 'insertText' : 'delete', false, inserted)) return;
  field.setRangeText(inserted, field.selectionStart ?? field.value.length, field.selectionEnd ?? field.value.length, 'end');
  field.dispatchEvent(new Event('input', { bubbles: true }));
}
