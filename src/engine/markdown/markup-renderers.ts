/** Small differences from marked's HTML, each to match what upstream produces. */
import type { RendererObject, Tokens } from 'marked';
import { escapeCode, escapeText } from './html-escape.ts';
import { currentRender } from './render-state.ts';

export const markupRenderers: RendererObject = {
  // Tracks quoting, which silences mentions.
  blockquote({ tokens }) {
    const state = currentRender();
    state.quoteDepth++;
    const body = this.parser.parse(tokens);
    state.quoteDepth--;
    return `<blockquote>\n${body}</blockquote>\n`;
  },
  br: () => '<br>\n',
  // `***both***`: upstream puts the emphasis inside the strong.
  em({ tokens }) {
    const [only] = tokens;
    if (tokens.length === 1 && only.type === 'strong') return `<strong><em>${this.parser.parseInline(only.tokens ?? [])}</em></strong>`;
    return `<em>${this.parser.parseInline(tokens)}</em>`;
  },
  // A loose list item's paragraphs start on their own line.
  listitem(item) {
    const body = this.parser.parse(item.tokens);
    return item.loose ? `<li>\n${body}</li>\n` : `<li>${body}</li>\n`;
  },
  // Python-Markdown's table layout: every row on its own line, alignment as a style.
  table(token) {
    const cell = (content: Tokens.TableCell, tag: 'th' | 'td'): string => {
      const align = content.align ? ` style="text-align: ${content.align};"` : '';
      return `<${tag}${align}>${this.parser.parseInline(content.tokens)}</${tag}>\n`;
    };
    const header = `<tr>\n${token.header.map((content) => cell(content, 'th')).join('')}</tr>\n`;
    const rows = token.rows.map((row) => `<tr>\n${row.map((content) => cell(content, 'td')).join('')}</tr>\n`).join('');
    return `<table>\n<thead>\n${header}</thead>\n<tbody>\n${rows}</tbody>\n</table>\n`;
  },
  // Upstream keeps a code span's inner spaces, which CommonMark would trim.
  codespan: ({ raw }) => `<code>${escapeCode(raw.replace(/^`+|`+$/g, ''))}</code>`,
  // Task lists are not Zulip syntax: `[ ]` stays as typed.
  checkbox: ({ raw }) => escapeText(raw),
  // The HTML tokenizers are disabled; should any HTML token still appear, it is shown, never run.
  html: ({ text }) => escapeText(text),
};
