/** Where mention and channel-link syntax may begin: upstream wants it set apart from the word before. */
import type { Token } from 'marked';

/**
 * Upstream reads `@…`/`#…` syntax only at the start of text or after one of a few characters
 * (`allowedBefore`), so "email@**x**" is no mention.
 */
export function syntaxMayStartAfter(tokens: Token[], allowedBefore: RegExp): boolean {
  const previous = tokens.at(-1)?.raw.at(-1);
  return previous === undefined || allowedBefore.test(previous);
}
