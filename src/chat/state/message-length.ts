/**
 * A message's length as the server counts it: characters (code points), so an emoji is one,
 * where a string's `length` counts two UTF-16 units.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _char of text) count++;
  return count;
}

/** Upstream shows the characters left once this few remain. */
export const SHOW_REMAINING_WITHIN = 900;

/** Upstream's words for a message over the realm's limit. */
export const messageTooLong = (max: number): string => `Message length shouldn't be greater than ${max} characters.`;

/** Characters left before `max` (negative: over it), or null while far from it. */
export function charactersLeft(text: string, max: number): number | null {
  // A character is at most two units: a text this short in units is far from the limit.
  if (text.length <= max - SHOW_REMAINING_WITHIN) return null;
  const left = max - characterCount(text);
  return left <= SHOW_REMAINING_WITHIN ? left : null;
}
