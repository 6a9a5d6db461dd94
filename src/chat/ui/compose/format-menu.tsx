import { useSignal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { listLines, type Selected, toggleMarker, wrapBlock, wrapCode, wrapLink } from '../format-selection.ts';
import { moveAmongChoices, usePopupDismiss } from '../popup-dismiss.ts';
import { replaceUndoably } from '../field-edits.ts';

/** Upstream's formatting buttons, each applied to the message box's selection. */
const FORMATS: readonly { label: string; apply(selected: Selected): Selected }[] = [
  { label: 'Bold', apply: (selected) => toggleMarker(selected, '**') },
  { label: 'Italic', apply: (selected) => toggleMarker(selected, '*') },
  { label: 'Strikethrough', apply: (selected) => toggleMarker(selected, '~~') },
  { label: 'Link', apply: wrapLink },
  { label: 'Code', apply: wrapCode },
  { label: 'Quote', apply: (selected) => wrapBlock(selected, '```quote') },
  { label: 'Spoiler', apply: (selected) => wrapBlock(selected, '```spoiler Header') },
  { label: 'Math', apply: (selected) => wrapBlock(selected, '```math') },
  { label: 'Bulleted list', apply: (selected) => listLines(selected, false) },
  { label: 'Numbered list', apply: (selected) => listLines(selected, true) },
];

/**
 * A Format button under the message box: Markdown around the selection (or at the caret), as
 * upstream's formatting buttons write it; the change is undoable, the focus back in the box.
 * Arrow keys move between the choices; Esc or a press outside closes.
 */
export function FormatMenu({ textarea }: { textarea: RefObject<HTMLTextAreaElement | null> }) {
  const open = useSignal(false);
  const holder = useRef<HTMLDivElement>(null);
  usePopupDismiss(open, holder);
  // Opened, the first choice takes the focus.
  useLayoutEffect(() => {
    if (open.value) holder.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open.value]);

  function format(apply: (selected: Selected) => Selected): void {
    open.value = false;
    const field = textarea.current;
    if (!field) return;
    const next = apply({ text: field.value, start: field.selectionStart, end: field.selectionEnd });
    field.focus();
    replaceUndoably(field, next.text);
    field.setSelectionRange(next.start, next.end);
  }

  const onKeyDown = (event: KeyboardEvent) => moveAmongChoices(event, [...(holder.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]);

  return (
    <div class="compose-tool-holder" ref={holder} onKeyDown={onKeyDown}>
      <button type="button" class="compose-tool" aria-haspopup="menu" aria-expanded={open.value} onClick={() => (open.value = !open.value)}>
        Format
      </button>
      {open.value && (
        <div class="compose-popover format-menu" role="menu" aria-label="Format">
          {FORMATS.map(({ label, apply }) => (
            <button key={label} type="button" role="menuitem" onClick={() => format(apply)}>
              {label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
