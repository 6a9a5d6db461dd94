/**
 * The bounds upstream's server sets on a `http(s)://` link, which marked's own URL syntax does
 * not: set apart before by the text's start, a space or one of `'"(,:<`, and after by nothing
 * but closing punctuation before a space or the end (so `src=http://x.com/a.js<b>` and
 * `"http://x.com"<b>` link nothing). Where upstream would link, marked links as it does; where it
 * would not, the scheme is read as text and nothing after it makes a link.
 */
import type { TokenizerExtension } from 'marked';
import { BEFORE, linkEnd } from './bare-domains.ts';
import { syntaxMayStartAfter } from './syntax-boundary.ts';

const SCHEME = /https?:\/\//i;
/** The scheme and the host part of upstream's pattern. */
const SCHEME_AND_HOST = /^(https?):\/\/[\w.:@-]+/i;

export const urlBoundsExtension: TokenizerExtension = {
  name: 'urlBounds',
  level: 'inline',
  start: (src) => src.search(SCHEME),
  tokenizer(src, tokens) {
    if (this.lexer.state.inLink) return undefined;
    const host = SCHEME_AND_HOST.exec(src);
    if (!host) return undefined;
    if (syntaxMayStartAfter(tokens, BEFORE) && linkEnd(src, host[0].length) >= 0) return undefined;
    const scheme = host[1]!;
    return { type: 'text', raw: scheme, text: scheme, escaped: false };
  },
};
