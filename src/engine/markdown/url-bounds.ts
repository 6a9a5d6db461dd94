/**
 * The bounds upstream's server sets on a `http(s)://` link or an email address, which marked's
 * own syntax does not: set apart before by the text's start, a space or one of `'"(,:<`, and
 * after by nothing but closing punctuation before a space or the end (so
 * `src=http://x.com/a.js<b>`, `"http://x.com"<b>` and `a@b.com/foo` link nothing; an address has
 * no path). Where upstream would link, marked links as it does; where it would not, the scheme
 * (or the address up to its `@`) is read as text and nothing after it makes a link.
 */
import type { TokenizerExtension } from 'marked';
import { endsThere, linkEnd } from './bare-domains.ts';
import { LINK_MAY_FOLLOW, syntaxMayStartAfter } from './syntax-boundary.ts';

/** The scheme and the host part of upstream's pattern. */
const SCHEME_AND_HOST = /^(https?):\/\/[\w.:@-]+/i;
/** Upstream's pattern of an address, with the part that is read as text where it links nothing. */
const ADDRESS = /^([\w.-]+@)[\w.-]+\.\w+/;

export const urlBoundsExtension: TokenizerExtension = {
  name: 'urlBounds',
  level: 'inline',
  // No start of its own: marked's text already stops before every `http(s)://` and address.
  tokenizer(src, tokens) {
    if (this.lexer.state.inLink) return undefined;
    const host = SCHEME_AND_HOST.exec(src);
    const address = host ? null : ADDRESS.exec(src);
    const match = host ?? address;
    if (!match) return undefined;
    const end = match[0].length;
    const linked = host ? linkEnd(src, end) >= 0 : endsThere(src, end);
    if (linked && syntaxMayStartAfter(tokens, LINK_MAY_FOLLOW)) return undefined;
    const text = match[1]!;
    return { type: 'text', raw: text, text, escaped: false };
  },
};
