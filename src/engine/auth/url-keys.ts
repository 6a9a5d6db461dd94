/**
 * Secret keys carried in URLs, as upstream's confirmation links carry them: 24 characters of
 * lowercase base32 from 15 random bytes (120 bits), so a link cannot be guessed from anything
 * public. Invitation mails carry one (accepting needs it), and so do avatar URLs (an `<img>`
 * cannot send credentials).
 */
const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const KEY_BYTES = 15;

export function generateUrlKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  let bits = 0;
  let value = 0;
  let key = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      key += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return key;
}

/** Compares without an early exit, so the time taken does not tell how much of a key matched. */
export function sameKey(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) difference |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
  return difference === 0;
}
