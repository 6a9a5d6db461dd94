import { useSignal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useId, useLayoutEffect, useRef } from 'preact/hooks';
import { ApiFailure } from '../../api/api-client.ts';
import type { SavedSnippet } from '../../api/wire-types.ts';
import { useChat } from '../chat-context.ts';
import { insertAtCaret } from '../field-edits.ts';
import { moveAmongChoices, usePopupDismiss } from '../popup-dismiss.ts';

function failureText(error: unknown): string {
  return error instanceof ApiFailure || error instanceof Error ? error.message : String(error);
}

/**
 * My saved snippets (`saved_snippets`, kept current by events) under a `Snippets` button:
 * choosing one puts its text at the message's caret; the message so far can be saved as a new
 * one under a title; each can be deleted. Arrow keys move between the choices, Esc closes.
 */
export function SnippetMenu({ textarea }: { textarea: RefObject<HTMLTextAreaElement | null> }) {
  const { session, composer } = useChat();
  const open = useSignal(false);
  const naming = useSignal(false);
  const title = useSignal('');
  const error = useSignal<string | null>(null);
  const saved = useSignal<string | null>(null);
  const saving = useSignal(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const titleField = useRef<HTMLInputElement>(null);
  const panelId = useId();
  const snippets = [...session.realm.savedSnippets.value].sort((a, b) => a.title.localeCompare(b.title));

  // A press outside or Escape closes it, the focus back on its button.
  usePopupDismiss(open, wrapper, toggle);

  /** Opened fresh: no title being typed, no message from the last time. */
  function openMenu(): void {
    naming.value = false;
    title.value = '';
    error.value = null;
    saved.value = null;
    open.value = true;
  }

  // Opening moves focus into the list, with the redraw (a key pressed before an after-paint
  // effect ran would go to the toggle and close the list again).
  useLayoutEffect(() => {
    if (open.value) wrapper.current?.querySelector<HTMLElement>('.compose-popover button')?.focus();
  }, [open.value]);

  // The title field takes the focus while it is shown, and gives it back to its opener after,
  // with the redraw too: an after-paint effect left a gap in which Esc went to the page.
  useLayoutEffect(() => {
    if (naming.value) titleField.current?.focus();
    else wrapper.current?.querySelector<HTMLElement>('.snippet-save-start')?.focus();
  }, [naming.value]);

  function insert(snippet: SavedSnippet): void {
    open.value = false;
    const element = textarea.current;
    if (element) insertAtCaret(element, snippet.content);
    else composer.insert(snippet.content);
  }

  async function save(): Promise<void> {
    saving.value = true;
    error.value = null;
    saved.value = null;
    try {
      await session.api.post('/saved_snippets', { title: title.value, content: composer.content.value });
      // The list stays open: the new snippet showing up in it is the confirmation.
      saved.value = `Saved “${title.value.trim()}”.`;
      title.value = '';
      naming.value = false;
    } catch (failure) {
      error.value = failureText(failure);
    } finally {
      saving.value = false;
    }
  }

  async function remove(snippet: SavedSnippet): Promise<void> {
    error.value = null;
    saved.value = null;
    // Its buttons go when the event comes back, which may be before the answer: the focus moves
    // first to one that stays, so it is never left on a removed button (Escape would find no menu).
    (wrapper.current?.querySelector<HTMLElement>('.snippet-save-start') ?? titleField.current)?.focus();
    try {
      await session.api.delete(`/saved_snippets/${snippet.id}`);
    } catch (failure) {
      error.value = failureText(failure);
    }
  }

  const onKeyDown = (event: KeyboardEvent) =>
    moveAmongChoices(event, [...(wrapper.current?.querySelectorAll<HTMLButtonElement>('.compose-popover button:not(:disabled)') ?? [])]);

  return (
    <div class="compose-tool-holder" ref={wrapper} onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        class="compose-tool"
        aria-expanded={open.value}
        aria-controls={open.value ? panelId : undefined}
        onClick={() => (open.value ? (open.value = false) : openMenu())}
      >
        Snippets
      </button>
      {open.value && (
        <div id={panelId} class="compose-popover snippet-menu" role="group" aria-label="Saved snippets">
          {snippets.length === 0 ? (
            <p class="hint">No saved snippets yet.</p>
          ) : (
            <ul class="snippet-list">
              {snippets.map((snippet) => (
                <li key={snippet.id}>
                  <button type="button" class="snippet-insert" title={snippet.content} onClick={() => insert(snippet)}>
                    {snippet.title}
                  </button>
                  <button type="button" class="icon-button danger" aria-label={`Delete snippet ${snippet.title}`} title="Delete" onClick={() => void remove(snippet)}>
                    ✕
                  </button>
                </li>
              ))}
            </ul>
          )}
          {naming.value ? (
            <div class="snippet-save">
              <label>
                Snippet title
                <input
                  ref={titleField}
                  value={title.value}
                  onInput={(event) => (title.value = event.currentTarget.value)}
                  onKeyDown={(event) => {
                    // Enter saves the snippet; left alone it would submit (send) the message.
                    if (event.key !== 'Enter') return;
                    event.preventDefault();
                    void save();
                  }}
                />
              </label>
              <div class="form-buttons">
                <button type="button" class="primary" disabled={saving.value} onClick={() => void save()}>
                  Save
                </button>
                <button type="button" onClick={() => (naming.value = false)}>
                  Cancel
                </button>
              </div>
            </div>
          ) : (
            <button
              type="button"
              class="snippet-save-start"
              onClick={() => {
                saved.value = null;
                naming.value = true;
              }}
            >
              Save as snippet
            </button>
          )}
          {saved.value && (
            <p class="hint" role="status">
              {saved.value}
            </p>
          )}
          {error.value && (
            <p class="form-error" role="alert">
              {error.value}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
