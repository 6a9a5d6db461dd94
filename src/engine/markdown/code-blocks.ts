/** Code blocks (fenced or indented) in upstream's codehilite markup, coloured when their language has a grammar here. */
import { Tokenizer, type RendererObject, type TokenizerObject } from 'marked';
import { highlightedCode } from './code-highlight.ts';
import { codeLanguageName } from './code-languages.ts';
import { currentRender } from './render-state.ts';
import { escapeAttribute, escapeCodeBlock } from './html-escape.ts';

/** As Pygments leaves it: no trailing whitespace on lines, no blank lines at either end, a final newline. */
function tidyCode(text: string): string {
  const lines = text.split('\n').map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return `${lines.join('\n')}\n`;
}

/**
 * A block that names no language may name it on its first line, as upstream's (Python-Markdown's
 * CodeHilite): `#!python`, `:::python`, or a script's `#!/usr/bin/env python`. The line stays,
 * and the block is coloured in that language without saying so (no `data-code-language`).
 */
const FIRST_LINE_LANGUAGE = /^(?:#!|:{2,})(?:(?:\/\w+)*[/ ])?([\w#.+-]+)/;

export const codeBlockRenderer: RendererObject = {
  code(token) {
    const render = currentRender();
    // As upstream's, the realm's default names the language of a fence that names none.
    const language = codeLanguageName(token.codeBlockStyle === 'indented' ? token.lang : token.lang || render.realm.defaultCodeBlockLanguage);
    const languageAttribute = language === undefined ? '' : ` data-code-language="${escapeAttribute(language)}"`;
    const code = tidyCode(token.text);
    const colourAs = language ?? codeLanguageName(FIRST_LINE_LANGUAGE.exec(code)?.[1]);
    const colour = colourAs !== undefined && code.length <= render.codeToColour ? highlightedCode(code, colourAs) : null;
    if (colour !== null) render.codeToColour -= code.length;
    const html = colour ?? escapeCodeBlock(code);
    return `<div class="codehilite"${languageAttribute}><pre><span></span><code>${html}</code></pre></div>\n`;
  },
};

/**
 * Upstream's fence line is the fence, then a language and a header without fence characters: a
 * line like "~~~~xx: yy~~~~" opens no code block there, and stays text here too.
 */
export const fenceTokenizer: TokenizerObject = {
  fences(src) {
    const token = Tokenizer.prototype.fences.call(this, src);
    if (!token) return token;
    const opening = token.raw.split('\n', 1)[0]!;
    return /[`~]/.test(opening.replace(/^ *(`+|~+)/, '')) ? undefined : token;
  },
};
