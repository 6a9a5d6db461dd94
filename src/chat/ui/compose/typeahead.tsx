import { useSignal } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import type { RefObject } from 'preact';
import { replaceUndoably } from '../field-edits.ts';

/** One offered completion: what the list shows and the text that replaces the typed part. */
export interface Suggestion {
  key: string;
  label: string;
  detail?: string;
  /** The field's whole new text and caret once this suggestion is taken. */
  apply(): { text: string; caret: number };
}

/** What a field suggests for its current text and caret; empty when nothing fits. */
export type SuggestionSource = (text: string, caret: number) => Suggestion[];

const MAX_SHOWN = 8;
let nextListId = 1;

/**
 * Suggestions under a text field, the field keeping its textbox role (as upstream's typeaheads
 * do): ArrowUp/ArrowDown choose, Enter or Tab take, Escape closes; a click takes too.
 * `onTake` receives the new text and caret.
 */
export function useTypeahead(
  field: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  source: SuggestionSource,
  onTake: (text: string) => void,
) {
  const suggestions = useSignal<Suggestion[]>([]);
  const active = useSignal(0);
  const listId = useMemo(() => `typeahead-${nextListId++}`, []);

  function refresh(): void {
    const element = field.current;
    if (!element || document.activeElement !== element) {
      suggestions.value = [];
      return;
    }
    suggestions.value = source(element.value, element.selectionStart ?? element.value.length).slice(0, MAX_SHOWN);
    active.value = 0;
  }

  /**
   * In the field at once, the caret after it: keys typed right after Enter go where the person
   * sees the caret (a caret set a frame later sent them back before the suggestion, on a busy
   * machine), and Ctrl+Z takes the suggestion back as typing.
   */
  function take(suggestion: Suggestion): void {
    const { text, caret } = suggestion.apply();
    suggestions.value = [];
    const element = field.current;
    if (element) {
      element.focus();
      replaceUndoably(element, text);
      element.setSelectionRange(caret, caret);
    }
    onTake(text);
  }

  /** Handles the key when the list is open; says whether it did. */
  function onKeyDown(event: KeyboardEvent): boolean {
    const list = suggestions.value;
    if (list.length === 0) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      active.value = (active.value + (event.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length;
      return true;
    }
    if ((event.key === 'Enter' && !event.ctrlKey && !event.metaKey) || event.key === 'Tab') {
      event.preventDefault();
      take(list[active.value] ?? list[0]);
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      suggestions.value = [];
      return true;
    }
    return false;
  }

  const open = suggestions.value.length > 0;
  const fieldProps = {
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? listId : undefined,
    'aria-activedescendant': open ? `${listId}-${active.value}` : undefined,
    // Late enough for a click on an option to land first; a list reopened since (the field
    // focused again) stays open.
    onBlur: () =>
      setTimeout(() => {
        if (document.activeElement !== field.current) suggestions.value = [];
      }, 150),
  };

  const list = open ? (
    <ul class="typeahead" id={listId} role="listbox">
      {suggestions.value.map((suggestion, index) => (
        <li
          key={suggestion.key}
          id={`${listId}-${index}`}
          role="option"
          aria-selected={index === active.value}
          onMouseDown={(event) => {
            event.preventDefault();
            take(suggestion);
          }}
        >
          <span class="typeahead-label">{suggestion.label}</span>
          {suggestion.detail && <span class="typeahead-detail">{suggestion.detail}</span>}
        </li>
      ))}
    </ul>
  ) : null;

  return { refresh, onKeyDown, fieldProps, list };
}
