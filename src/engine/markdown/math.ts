/**
 * TeX: inline `$$…$$` and ```math blocks, laid out by KaTeX as upstream's server does (its
 * HTML, with the MathML and the TeX source in an annotation for clients and screen readers).
 * TeX KaTeX cannot read is shown as it was written, in a `tex-error` span, as upstream. Math is
 * never read as Markdown, so `$$a*b*c$$` keeps its asterisks.
 */
import katex from 'katex';
import type { TokenizerAndRendererExtension } from 'marked';
import { escapeAttribute, escapeCode } from './html-escape.ts';

// As upstream: no newline inside, a body that does not start with `_` or `$`, and `\$` allowed.
const INLINE_MATH = /^\$\$([^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)/;
const INLINE_MATH_ANYWHERE = /(?<!\$)\$\$[^\n_$](?:\\\$|[^$\n])*\$\$(?!\$)/g;

/**
 * Bounds on what a message's TeX may ask of a reader's page: macro expansions (KaTeX's own
 * default, stated) and explicit sizes such as `\rule{1000em}{1em}`, clamped to 50em.
 * `trust: false` leaves `\href`, `\url` and `\htmlClass` unrendered; `strict: 'ignore'` keeps
 * non-LaTeX input (Unicode in math mode) rendering without a console warning per message.
 */
const KATEX_OPTIONS = { throwOnError: true, trust: false, strict: 'ignore', maxExpand: 1000, maxSize: 50, output: 'htmlAndMathml' } as const;

/** KaTeX's HTML for `tex`, or null when it is not TeX KaTeX can read. */
function renderTex(tex: string, displayMode: boolean): string | null {
  try {
    return katex.renderToString(tex, { ...KATEX_OPTIONS, displayMode });
  } catch {
    return null;
  }
}

/** A ```math block: each paragraph of it is one display formula, as upstream (whose error text escapes quotes too, unlike inline math's). */
export function displayMathHtml(body: string): string {
  return body
    .split('\n\n')
    .map((paragraph) => renderTex(paragraph, true) ?? `<span class="tex-error">${escapeAttribute(paragraph).replace(/'/g, '&#x27;')}</span>`)
    .join('\n\n');
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
  renderer: (token) => {
    const tex = token.tex as string;
    return renderTex(tex, false) ?? `<span class="tex-error">${escapeCode(`$$${tex}$$`)}</span>`;
  },
};

/** Hides math from marked's emphasis matching, which scans ahead for closing `*` and `~`. */
export function maskInlineMath(src: string): string {
  return src.replace(INLINE_MATH_ANYWHERE, (math) => 'a'.repeat(math.length));
}
