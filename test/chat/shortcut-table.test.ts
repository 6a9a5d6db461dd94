import { describe, expect, it } from 'vitest';
import { SHORTCUT_HELP, SHORTCUT_KEYS } from '../../src/chat/ui/frame/shortcut-table.ts';

/** A bound key as the help dialog writes it: `Shift+A` is Shift + A, a letter alone small (`J` is j), arrows as arrows. */
function shown(name: string): string {
  const shownKey: Record<string, string> = { ArrowDown: '↓', ArrowUp: '↑', ArrowLeft: '←', Escape: 'Esc', PageUp: 'PgUp', PageDown: 'PgDn' };
  if (/^[A-Z]$/.test(name)) return name.toLowerCase();
  return name
    .split(/\+(?=.)/)
    .map((part) => shownKey[part] ?? part)
    .join(' + ');
}

describe('the Keyboard shortcuts dialog', () => {
  it('lists every key the app answers', () => {
    const listed = new Set(SHORTCUT_HELP.flatMap((section) => section.shortcuts.flatMap((shortcut) => shortcut.keys.map((keys) => keys.join(' + ')))));
    const missing = Object.keys(SHORTCUT_KEYS).filter((name) => !listed.has(shown(name)) && name !== 'Shift+Space');
    expect(missing).toEqual([]);
  });
});
