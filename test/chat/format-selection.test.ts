import { describe, expect, it } from 'vitest';
import { toggleMarker } from '../../src/chat/ui/compose/format-selection.ts';

/** `[` and `]` mark the selection in these texts. */
function selected(marked: string) {
  const start = marked.indexOf('[');
  const end = marked.indexOf(']') - 1;
  return { text: marked.replace('[', '').replace(']', ''), start, end };
}
const shown = ({ text, start, end }: { text: string; start: number; end: number }) => `${text.slice(0, start)}[${text.slice(start, end)}]${text.slice(end)}`;

describe('Ctrl+B and Ctrl+I in the message box', () => {
  it('wraps the selection, keeping the same words selected', () => {
    expect(shown(toggleMarker(selected('make [this] bold'), '**'))).toBe('make **[this]** bold');
    expect(shown(toggleMarker(selected('make [this] italic'), '*'))).toBe('make *[this]* italic');
  });

  it('unwraps a selection already wrapped, whether the markers are selected or around it', () => {
    expect(shown(toggleMarker(selected('make **[this]** plain'), '**'))).toBe('make [this] plain');
    expect(shown(toggleMarker(selected('make [**this**] plain'), '**'))).toBe('make [this] plain');
    expect(shown(toggleMarker(selected('make *[this]* plain'), '*'))).toBe('make [this] plain');
  });

  it('does not read half of a bold marker as italic', () => {
    expect(shown(toggleMarker(selected('**[bold]**'), '*'))).toBe('***[bold]***');
    expect(shown(toggleMarker(selected('[**bold**]'), '*'))).toBe('*[**bold**]*');
  });

  it('puts the caret between two markers when nothing is selected', () => {
    expect(shown(toggleMarker(selected('say []'), '**'))).toBe('say **[]**');
  });
});
