/**
 * Upstream refuses names holding control, surrogate or unassigned characters, and reports the
 * 1-based position of the first one.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Cn}]/u;

export function firstUnprintablePosition(text: string): number | null {
  let position = 0;
  for (const character of text) {
    position++;
    if (UNPRINTABLE.test(character)) return position;
  }
  return null;
}
