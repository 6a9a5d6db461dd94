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

/** A marked `start` function that remembers its answer, and what its extension's tokenizer tells it. */
export interface RememberedStart {
  start: (src: string) => number | undefined;
  /** Called first thing by the extension's tokenizer, with the text and token list it was given. */
  seen: (src: string, tokens: Token[]) => void;
}

/**
 * A marked `start` function that remembers its last answer. marked asks every inline extension
 * where its syntax may start in the rest of the text each time it cuts a piece of text, so a
 * search over the whole rest would make a long text quadratic.
 *
 * marked lexes each run of inline text in one loop with a token list of its own, taking pieces
 * off the front: within one loop every rest is a suffix of the one before. In an iteration that
 * asks `start`, marked first offered the same rest to the extension's tokenizer, which reports
 * it (`seen`), so the rest `start` gets (one character shorter) names its loop by that token
 * list (a loop nested in it, say for the text inside `*…*`, keeps an answer of its own). An
 * answer found in the same loop still holds when it lies ahead (or was "nowhere"): the
 * only start it could miss is the rest's first character, where marked tries every extension
 * anyway. Knowing the loop costs nothing, where comparing texts would cost their length.
 */
export function rememberedStart(find: (src: string) => number): RememberedStart {
  let lastSeen: { length: number; tokens: Token[] } | null = null;
  // Per loop (its token list; a nested loop keeps its own), the answer counted from the text's end (-1: nowhere).
  const answers = new WeakMap<Token[], number>();
  return {
    seen: (src, tokens) => {
      lastSeen = { length: src.length, tokens };
    },
    start: (src) => {
      const loop = lastSeen?.length === src.length + 1 ? lastSeen.tokens : null;
      const fromEnd = loop === null ? undefined : answers.get(loop);
      if (fromEnd !== undefined && fromEnd <= src.length) return fromEnd < 0 ? undefined : src.length - fromEnd;
      const found = find(src);
      if (loop !== null) answers.set(loop, found < 0 ? -1 : src.length - found);
      return found < 0 ? undefined : found;
    },
  };
}
