import { describe, expect, it } from 'vitest';
import { type KeyPress, keyName } from '../../src/chat/ui/key-names.ts';

const press = (key: string, code: string, modifiers: Partial<KeyPress> = {}): KeyPress => ({ key, code, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...modifiers });

describe('key names, as upstream’s shortcuts name them', () => {
  it('names a letter by its upper case, with Shift when held, so Caps Lock changes nothing', () => {
    expect(keyName(press('a', 'KeyA'), false)).toBe('A');
    expect(keyName(press('A', 'KeyA'), false)).toBe('A');
    expect(keyName(press('A', 'KeyA', { shiftKey: true }), false)).toBe('Shift+A');
  });

  it('names a symbol typed with Shift by itself, and other keys with their modifiers in front', () => {
    expect(keyName(press('*', 'Digit8', { shiftKey: true }), false)).toBe('*');
    expect(keyName(press('@', 'Digit2', { shiftKey: true }), false)).toBe('@');
    expect(keyName(press('?', 'Slash', { shiftKey: true }), false)).toBe('?');
    expect(keyName(press('ArrowDown', 'ArrowDown', { shiftKey: true }), false)).toBe('Shift+ArrowDown');
    expect(keyName(press(' ', 'Space'), false)).toBe('Space');
    expect(keyName(press(' ', 'Space', { shiftKey: true }), false)).toBe('Shift+Space');
    expect(keyName(press('L', 'KeyL', { ctrlKey: true, shiftKey: true }), false)).toBe('Ctrl+Shift+L');
    expect(keyName(press('p', 'KeyP', { altKey: true }), false)).toBe('Alt+P');
  });

  it('names a letter of another layout by its place on QWERTY', () => {
    expect(keyName(press('ф', 'KeyA'), false)).toBe('A');
    expect(keyName(press('Ф', 'KeyA', { shiftKey: true }), false)).toBe('Shift+A');
    expect(keyName(press('π', 'KeyP', { altKey: true }), true)).toBe('Alt+P');
  });

  it('takes Cmd for Ctrl on a Mac, and leaves Ctrl there (but Ctrl+[) and Windows-key presses elsewhere to the system', () => {
    expect(keyName(press('s', 'KeyS', { metaKey: true }), true)).toBe('Ctrl+S');
    expect(keyName(press('s', 'KeyS', { ctrlKey: true }), true)).toBeNull();
    expect(keyName(press('[', 'BracketLeft', { ctrlKey: true }), true)).toBe('Ctrl+[');
    expect(keyName(press('s', 'KeyS', { ctrlKey: true }), false)).toBe('Ctrl+S');
    expect(keyName(press('s', 'KeyS', { metaKey: true }), false)).toBeNull();
  });

  it('has no name for keys no shortcut uses', () => {
    expect(keyName(press('Shift', 'ShiftLeft', { shiftKey: true }), false)).toBeNull();
    expect(keyName(press('F5', 'F5'), false)).toBeNull();
    expect(keyName(press('Dead', 'Quote'), false)).toBeNull();
  });
});
