/** Small differences from marked's HTML, each to match what upstream produces. */
import type { RendererObject } from 'marked';
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
  // Upstream keeps a code span's inner spaces, which CommonMark would trim.
  codespan: ({ raw }) => `<code>${escapeCode(raw.replace(/^`+|`+$/g, ''))}</code>`,
  // Task lists are not Zulip syntax: `[ ]` stays as typed.
  checkbox: ({ raw }) => escapeText(raw),
  // The HTML tokenizers are disabled; should any HTML token still appear, it is shown, never run.
  html: ({ text }) => escapeText(text),
};
