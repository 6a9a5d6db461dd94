/** Where mention and channel-link syntax may begin: upstream wants it set apart from the word before. */
import type { Token } from 'marked';

/** What may come just before a link or a channel link: upstream links nothing joined to the word before. */
export const LINK_MAY_FOLLOW = /[\s'"(,:<]/;

/**
 * Upstream reads `@…`/`#…` syntax only at the start of text or after one of a few characters
 * (`allowedBefore`), so "email@**x**" is no mention.
 */
export function syntaxMayStartAfter(tokens: Token[], allowedBefore: RegExp): boolean {
  const previous = tokens.at(-1)?.raw.at(-1);
  return previous === undefined || allowedBefore.test(previous);
}

/**
 * A marked `start` function that remembers its last answer. marked asks every inline extension
 * where its syntax may start in the rest of the text each time it cuts a piece of text, so a
 * search over the whole rest would make a long text quadratic. For a rest that is a suffix of
 * the text last searched, the answer found there still holds when it lies ahead (or was
 * "nowhere"): the only start it could miss is the rest's first character, where marked tries
 * every extension anyway.
 */
export function rememberedStart(find: (src: string) => number): (src: string) => number | undefined {
  let searched = '';
  let found = -1;
  return (src) => {
    const skipped = searched.length - src.length;
    if (!(skipped >= 0 && (found < 0 || found >= skipped) && searched.endsWith(src))) {
      searched = src;
      found = find(src);
      return found < 0 ? undefined : found;
    }
    return found < 0 ? undefined : found - skipped;
  };
}
