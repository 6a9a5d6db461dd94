import { describe, expect, it } from 'vitest';
import { listLines, toggleMarker, wrapBlock, wrapCode, wrapLink } from '../../src/chat/ui/format-selection.ts';

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

  it('bold and italic together come off one at a time', () => {
    expect(shown(toggleMarker(selected('***[both]***'), '*'))).toBe('**[both]**');
    expect(shown(toggleMarker(selected('***[both]***'), '**'))).toBe('*[both]*');
    expect(shown(toggleMarker(selected('*[it]*'), '**'))).toBe('***[it]***');
  });

  it('does not read half of a bold marker as italic', () => {
    expect(shown(toggleMarker(selected('**[bold]**'), '*'))).toBe('***[bold]***');
    expect(shown(toggleMarker(selected('[**bold**]'), '*'))).toBe('*[**bold**]*');
  });

  it('puts the caret between two markers when nothing is selected', () => {
    expect(shown(toggleMarker(selected('say []'), '**'))).toBe('say **[]**');
  });
});

describe('the Format menu', () => {
  it('strikes through with ~~, and takes it off again', () => {
    expect(shown(toggleMarker(selected('an [old] plan'), '~~'))).toBe('an ~~[old]~~ plan');
    expect(shown(toggleMarker(selected('an ~~[old]~~ plan'), '~~'))).toBe('an [old] plan');
  });

  it('makes the selection a link’s text with url selected to type over, or text when nothing is selected', () => {
    expect(shown(wrapLink(selected('see [the docs] now')))).toBe('see [the docs]([url]) now');
    expect(shown(wrapLink(selected('see []')))).toBe('see [text]([url])');
  });

  it('puts a block around the selected lines, its fences on lines of their own', () => {
    expect(shown(wrapBlock(selected('He said [go] today'), '```quote'))).toBe('He said \n```quote\n[go]\n```\n today');
    expect(shown(wrapBlock(selected('[line one\nline two]'), '```spoiler Header'))).toBe('```spoiler Header\n[line one\nline two]\n```');
  });

  it('code: inline for part of a line, a code block for several lines', () => {
    expect(shown(wrapCode(selected('run [npm test] first')))).toBe('run `[npm test]` first');
    expect(shown(wrapCode(selected('[a\nb]')))).toBe('```\n[a\nb]\n```');
  });

  it('lists every line the selection touches, whole', () => {
    expect(shown(listLines(selected('intro\nfi[rst\nsec]ond\nend'), false))).toBe('intro\n[- first\n- second]\nend');
    expect(shown(listLines(selected('[one\ntwo]'), true))).toBe('[1. one\n2. two]');
  });
});
