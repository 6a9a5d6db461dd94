/**
 * Domains typed without a scheme ("see zulip.com/help"), linked as upstream's server links them:
 * dot-separated labels ending in a top-level domain, an optional path whose parentheses pair up,
 * set apart before by the text's start, a space or one of `'"(,:<`, and after by nothing but
 * closing punctuation before a space or the end. marked links `http(s)://` and `www.` URLs and
 * email addresses itself.
 */
import type { TokenizerAndRendererExtension } from 'marked';
import tldList from 'tlds/index.json' with { type: 'json' };
import { escapeAttribute, escapeText } from './html-escape.ts';
import { linkHref } from './links.ts';
import { LINK_MAY_FOLLOW, rememberedStart, syntaxMayStartAfter } from './syntax-boundary.ts';

/** Upstream leaves out a few top-level domains that are common file extensions ("readme.md"). */
const NOT_LINKED = new Set(['java', 'md', 'mov', 'py', 'zip']);
const TLDS: ReadonlySet<string> = new Set(tldList.filter((tld) => !NOT_LINKED.has(tld)));

/** A dot with a word character before it and a letter after: where a domain may be. */
const CANDIDATE = /[\w-]\.[a-z]/gi;
const LABELS = /^(?:[\w-]+\.)+[\w-]+/;
const DOMAIN_RUN = /^[\w.-]+/;
const CANDIDATE_IN_RUN = /[\w-]\.[a-z]/i;
/** Closing punctuation: what may come between a link and the space or end after it. */
const CLOSING = /[!:;?),.'">]/;
/** Path characters: anything but spaces, quotes and parentheses (which are counted apart). */
const PATH_CHAR = /[^\s()"]/;
const DOMAIN_CHAR = /[\w.-]/;
/** Upstream pairs parentheses in a path six deep at most. */
const MAX_PAREN_DEPTH = 6;

/**
 * Where marked should stop its text for this extension: the start of the first run of domain
 * characters that holds a candidate dot and is set apart before (the text's start or a `LINK_MAY_FOLLOW`
 * character). Runs joined to the word before are passed over whole, so a long one is one text.
 */
function candidateStart(src: string): number {
  let from = 0;
  for (;;) {
    CANDIDATE.lastIndex = from;
    const found = CANDIDATE.exec(src);
    if (!found) return -1;
    let start = found.index;
    while (start > from && DOMAIN_CHAR.test(src.charAt(start - 1))) start--;
    if (start === 0 || LINK_MAY_FOLLOW.test(src.charAt(start - 1))) return start;
    let end = found.index + 2;
    while (end < src.length && DOMAIN_CHAR.test(src.charAt(end))) end++;
    from = end;
  }
}

/** The first index from `from` that is no closing punctuation. */
function closingRunEnd(src: string, from: number): number {
  let index = from;
  while (index < src.length && CLOSING.test(src.charAt(index))) index++;
  return index;
}

/** Whether only closing punctuation comes between `from` and a space or the text's end. */
export function endsThere(src: string, from: number): boolean {
  const after = closingRunEnd(src, from);
  return after === src.length || /\s/.test(src.charAt(after));
}

/**
 * Where a link of `domain` ends in `src` (which starts with it), as upstream's pattern ends it:
 * with the shortest path whose parentheses pair up and after which only closing punctuation
 * comes before a space or the end; else the domain alone, if only that follows it; else -1.
 * One pass, which stops where the answer is known: each run of closing punctuation is read once.
 */
export function linkEnd(src: string, domain: number): number {
  if (src.charAt(domain) !== '/') return endsThere(src, domain) ? domain : -1;
  let depth = 0;
  // No link ends before here: a character that is neither closing punctuation nor a space lies ahead of every index before it.
  let noEndBefore = domain + 1;
  for (let index = domain + 1; ; index++) {
    if (depth === 0 && index >= noEndBefore) {
      const after = closingRunEnd(src, index);
      if (after === src.length || /\s/.test(src.charAt(after))) return index;
      noEndBefore = after + 1;
    }
    if (index >= src.length) return -1;
    const char = src.charAt(index);
    if (char === '(') {
      if (++depth > MAX_PAREN_DEPTH) return -1;
    } else if (char === ')') {
      if (depth === 0) return -1;
      depth--;
    } else if (!PATH_CHAR.test(char)) return -1;
  }
}

/** The domain link at `src`'s start: its text, or undefined. */
function domainLinkAt(src: string): string | undefined {
  const labels = LABELS.exec(src)?.[0];
  if (!labels || /^www\./i.test(labels)) return undefined;
  const parts = labels.split('.');
  // The longest run of labels that ends in a top-level domain and makes a link; `end` is where its last label ends.
  let end = labels.length;
  for (let count = parts.length; count >= 2; count--) {
    if (count < parts.length) end -= parts[count]!.length + 1;
    if (!TLDS.has(parts[count - 1]!.toLowerCase())) continue;
    const linked = linkEnd(src, end);
    if (linked >= 0) return src.slice(0, linked);
  }
  return undefined;
}

const candidates = rememberedStart(candidateStart);

export const bareDomainExtension: TokenizerAndRendererExtension = {
  name: 'bareDomain',
  level: 'inline',
  start: candidates.start,
  tokenizer(src, tokens) {
    candidates.seen(src, tokens);
    if (this.lexer.state.inLink) return undefined;
    const run = DOMAIN_RUN.exec(src)?.[0];
    // `www.` and email addresses are marked's to link.
    if (!run || !CANDIDATE_IN_RUN.test(run) || /^www\./i.test(run) || src.charAt(run.length) === '@') return undefined;
    const text = syntaxMayStartAfter(tokens, LINK_MAY_FOLLOW) ? domainLinkAt(src) : undefined;
    const href = text === undefined ? null : linkHref(`http://${text}`);
    // No domain link starts inside a run of domain characters: the run is text, read once
    // (declined character by character, a long one would be read again at each).
    if (text === undefined || href === null) return { type: 'text', raw: run, text: run, escaped: false };
    return { type: 'bareDomain', raw: text, text, href };
  },
  renderer: (token) => `<a href="${escapeAttribute(token.href as string)}">${escapeText(token.text as string)}</a>`,
};
