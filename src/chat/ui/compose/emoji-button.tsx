import { useSignal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Dialog } from '../dialog.tsx';
import { EmojiPicker } from '../emoji-picker.tsx';
import { insertAtCaret } from '../field-edits.ts';

/**
 * Upstream's Add emoji under the message box, named Insert emoji here (Settings' Add emoji adds
 * a custom one to the realm): the emoji picker (as for a reaction), and the one chosen goes in
 * at the caret as `:name:`, with a space on each side where it would touch a word.
 */
export function EmojiButton({ textarea }: { textarea: RefObject<HTMLTextAreaElement | null> }) {
  const open = useSignal(false);
  const picked = useRef<string | null>(null);
  // Once the dialog has closed: while it is open (modal) the message box cannot take the focus.
  useEffect(() => {
    const field = textarea.current;
    const name = picked.current;
    if (open.value || !field || name === null) return;
    picked.current = null;
    const before = field.value.slice(0, field.selectionStart);
    const after = field.value.slice(field.selectionEnd);
    insertAtCaret(field, `${before === '' || /\s$/.test(before) ? '' : ' '}:${name}:${/^\s/.test(after) ? '' : ' '}`);
  }, [open.value]);
  return (
    <>
      <button type="button" class="compose-tool" aria-label="Insert emoji" title="Insert emoji" onClick={() => (open.value = true)}>
        ☺
      </button>
      {open.value && (
        <Dialog title="Insert emoji" onClose={() => (open.value = false)}>
          <EmojiPicker
            onPick={(emoji) => {
              picked.current = emoji.name;
              open.value = false;
            }}
          />
        </Dialog>
      )}
    </>
  );
}
