/**
 * TeX: inline `$$…$$` and ```math blocks. There is no KaTeX here, so the TeX source is shipped in
 * KaTeX's outer shape: the source in the MathML annotation (where clients look for it) and as
 * visible text. Math is never read as Markdown, so `$$a*b*c$$` keeps its asterisks.
 */
import type { TokenizerAndRendererExtension } from 'marked';
import { escapeCode } from './html-escape.ts';

// As upstream: no newline inside, a body that does not start with `_` or `$`, and `\$` allowed.
const INLINE_MATH = /^\$\$([^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)/;
const INLINE_MATH_ANYWHERE = /(?<!\$)\$\$[^\n_$](?:\\\$|[^$\n])*\$\$(?!\$)/g;

export function katexHtml(tex: string, display: boolean): string {
  const mathAttributes = display ? ' display="block"' : '';
  const katex =
    `<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"${mathAttributes}>` +
    `<semantics><mrow><mtext>${escapeCode(tex)}</mtext></mrow><annotation encoding="application/x-tex">${escapeCode(tex)}</annotation></semantics></math></span>` +
    `<span class="katex-html" aria-hidden="true">${escapeCode(tex)}</span></span>`;
  return display ? `<span class="katex-display">${katex}</span>` : katex;
}

export const inlineMathExtension: TokenizerAndRendererExtension = {
  name: 'inlineMath',
  level: 'inline',
  start: (src) => src.indexOf('$$'),
  tokenizer(src, tokens) {
    if (tokens.at(-1)?.raw.endsWith('$')) return undefined;
    const match = INLINE_MATH.exec(src);
    return match ? { type: 'inlineMath', raw: match[0], tex: match[1] } : undefined;
  },
  renderer: (token) => katexHtml(token.tex as string, false),
};

/** Hides math from marked's emphasis matching, which scans ahead for closing `*` and `~`. */
export function maskInlineMath(src: string): string {
  return src.replace(INLINE_MATH_ANYWHERE, (math) => 'a'.repeat(math.length));
}
