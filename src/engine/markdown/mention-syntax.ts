/** Where mention and channel-link syntax may begin, shared by the extensions that parse them. */
import type { Token } from 'marked';

/**
 * Upstream reads `@…`/`#…` syntax only at the start of text or after one of a few characters
 * (`allowedBefore`), so "email@**x**" is no mention.
 */
export function syntaxMayStartAfter(tokens: Token[], allowedBefore: RegExp): boolean {
  const previous = tokens.at(-1)?.raw.at(-1);
  return previous === undefined || allowedBefore.test(previous);
}
