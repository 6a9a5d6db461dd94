import { useSignal } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import type { RefObject } from 'preact';
import { replaceUndoably } from '../field-edits.ts';

/** One offered completion: what the list shows and the text that replaces the typed part. */
export interface Suggestion {
  key: string;
  label: string;
  detail?: string;
  /** Shown before the label, as upstream's emoji suggestions show their emoji: a character or an image. */
  glyph?: { text: string } | { image: string };
  /** The field's whole new text and caret once this suggestion is taken. */
  apply(): { text: string; caret: number };
}

/** What a field suggests for its current text and caret; empty when nothing fits. */
export type SuggestionSource<S extends Suggestion = Suggestion> = (text: string, caret: number) => S[];

interface Options {
  /** How many suggestions are shown at most (the list scrolls). */
  maxShown?: number;
  /**
   * Whether the first suggestion is chosen as the list opens for `text` (else none is, and Enter
   * and Tab do what they do without a list, as upstream's search box with nothing typed).
   */
  chooseFirst?(text: string): boolean;
}

let nextListId = 1;

/**
 * Suggestions under a text field, the field keeping its textbox role (as upstream's typeaheads
 * do): ArrowUp/ArrowDown choose, Enter or Tab take, Escape closes; a click takes too.
 * `onTake` receives the new text and the suggestion taken.
 */
export function useTypeahead<S extends Suggestion>(
  field: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  source: SuggestionSource<S>,
  onTake: (text: string, taken: S) => void,
  { maxShown = 8, chooseFirst = () => true }: Options = {},
) {
  const suggestions = useSignal<S[]>([]);
  /** The chosen suggestion's index; -1 while none is. */
  const active = useSignal(0);
  const listId = useMemo(() => `typeahead-${nextListId++}`, []);
  // A list longer than its box scrolls: the chosen one is kept in sight.
  useEffect(() => {
    if (active.value >= 0) document.getElementById(`${listId}-${active.value}`)?.scrollIntoView({ block: 'nearest' });
  }, [active.value, suggestions.value]);

  function refresh(): void {
    const element = field.current;
    if (!element || document.activeElement !== element) {
      suggestions.value = [];
      return;
    }
    suggestions.value = source(element.value, element.selectionStart ?? element.value.length).slice(0, maxShown);
    active.value = chooseFirst(element.value) ? 0 : -1;
  }

  /**
   * In the field at once, the caret after it: keys typed right after Enter go where the person
   * sees the caret (a caret set a frame later sent them back before the suggestion, on a busy
   * machine), and Ctrl+Z takes the suggestion back as typing.
   */
  function take(suggestion: S): void {
    const { text, caret } = suggestion.apply();
    suggestions.value = [];
    const element = field.current;
    if (element) {
      element.focus();
      // Unchanged text is left alone: replacing nothing would delete the character before the caret.
      if (element.value !== text) replaceUndoably(element, text);
      element.setSelectionRange(caret, caret);
    }
    onTake(text, suggestion);
  }

  /** Handles the key when the list is open; says whether it did. */
  function onKeyDown(event: KeyboardEvent): boolean {
    const list = suggestions.value;
    if (list.length === 0) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      // From none chosen, ArrowDown chooses the first and ArrowUp the last.
      const from = active.value >= 0 ? active.value : event.key === 'ArrowDown' ? list.length - 1 : 0;
      active.value = (from + (event.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length;
      return true;
    }
    const chosen = list[active.value];
    if (chosen && ((event.key === 'Enter' && !event.ctrlKey && !event.metaKey) || event.key === 'Tab')) {
      event.preventDefault();
      take(chosen);
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
    'aria-activedescendant': open && active.value >= 0 ? `${listId}-${active.value}` : undefined,
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
          <span class="typeahead-label">
            {suggestion.glyph && <Glyph glyph={suggestion.glyph} />}
            {suggestion.label}
          </span>
          {suggestion.detail && <span class="typeahead-detail">{suggestion.detail}</span>}
        </li>
      ))}
    </ul>
  ) : null;

  function close(): void {
    suggestions.value = [];
  }

  return { refresh, close, onKeyDown, fieldProps, list };
}

/** Decoration only: the label names the suggestion. */
function Glyph({ glyph }: { glyph: NonNullable<Suggestion['glyph']> }) {
  return (
    <span class="typeahead-glyph" aria-hidden="true">
      {'image' in glyph ? <img class="emoji-image" src={glyph.image} alt="" /> : glyph.text}
    </span>
  );
}
