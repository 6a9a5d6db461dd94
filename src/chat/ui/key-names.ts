/**
 * Keys as upstream's web app names them (`hotkey.ts`): letters by their upper case ("A", and
 * "Shift+A" with Shift, so Caps Lock changes nothing), modifiers in front ("Ctrl+S", "Alt+P"),
 * symbols that need Shift on many layouts by themselves ("*", "@", "?"). On other layouts (a
 * Cyrillic "ф") a letter is named by the key's place, as on QWERTY, so every shortcut can be typed.
 */
export interface KeyPress {
  key: string;
  code: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** Named keys a shortcut may use; any other non-printable key is no shortcut. */
const NAMED_KEYS = new Set(['ArrowDown', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'Backspace', 'Delete', 'End', 'Enter', 'Escape', 'Home', 'PageDown', 'PageUp', 'Tab']);

/** Symbols whose key already says whether Shift was held (on many layouts it is needed to type them). */
const SHIFTED_SYMBOLS = new Set(['*', '+', '=', '-', '/', ':', '<', '>', '?', '@', '.', '[']);

/** A key's QWERTY character by its place, for layouts whose character is no printable ASCII. */
function qwertyCharacter(code: string, shift: boolean): string | undefined {
  const letter = /^Key([A-Z])$/.exec(code);
  if (letter) return shift ? letter[1] : letter[1].toLowerCase();
  const symbols: Record<string, [string, string]> = {
    BracketLeft: ['[', '{'],
    Equal: ['=', '+'],
    Minus: ['-', '_'],
    Period: ['.', '>'],
    Comma: [',', '<'],
    Slash: ['/', '?'],
    Semicolon: [';', ':'],
    Digit2: ['2', '@'],
    Digit8: ['8', '*'],
    Space: [' ', ' '],
  };
  return symbols[code]?.[shift ? 1 : 0];
}

/**
 * The press's name (`"Shift+P"`, `"Ctrl+K"`, `"*"`, `"ArrowLeft"`), or null for a key no shortcut
 * uses. On a Mac, Cmd stands for Ctrl (a Ctrl press there is the system's, except Ctrl+[).
 */
export function keyName(press: KeyPress, mac: boolean): string | null {
  let key = press.key;
  const printable = key.length === 1 && key >= ' ' && key <= '~';
  if (!printable && !NAMED_KEYS.has(key)) {
    const qwerty = qwertyCharacter(press.code, press.shiftKey);
    if (qwerty === undefined) return null;
    key = qwerty;
  }
  if (mac ? press.ctrlKey && key !== '[' : press.metaKey) return null;
  if (/^[a-z]$/.test(key)) key = key.toUpperCase();
  let name = key === ' ' ? 'Space' : key;
  if (press.shiftKey && !SHIFTED_SYMBOLS.has(key)) name = `Shift+${name}`;
  if (press.altKey) name = `Alt+${name}`;
  if (press.ctrlKey || (mac && press.metaKey)) name = `Ctrl+${name}`;
  return name;
}

/** Whether Cmd is the shortcut modifier here, as on a Mac (and an iPad with a keyboard). */
const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad|iPod/.test(navigator.userAgent);

/** The name of a key pressed in this browser ({@link keyName} with this platform's modifier). */
export function pressName(event: KeyPress): string | null {
  return keyName(event, MAC);
}
