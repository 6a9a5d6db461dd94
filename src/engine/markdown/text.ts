/**
 * Plain runs of message text: realm linkifiers turn their matches into links, unicode emoji are
 * wrapped, everything else is escaped. Text inside a link is only escaped.
 */
import type { RendererObject } from 'marked';
import { renderTextWithEmoji } from './emoji.ts';
import { escapeAttribute, escapeText } from './html-escape.ts';
import { linkifierMatches } from './linkifiers.ts';
import { linkHref } from './links.ts';
import { currentRender } from './render-state.ts';

function renderPlainText(text: string): string {
  const state = currentRender();
  if (state.linkDepth > 0) return escapeText(text);
  let html = '';
  let position = 0;
  for (const match of linkifierMatches(text, state.linkifiers)) {
    const href = linkHref(match.url);
    if (href === null) continue;
    html += renderTextWithEmoji(text.slice(position, match.start));
    html += `<a href="${escapeAttribute(href)}">${escapeText(match.text)}</a>`;
    position = match.end;
  }
  return html + renderTextWithEmoji(text.slice(position));
}

export const textRenderer: RendererObject = {
  text(token) {
    if ('tokens' in token && token.tokens) return this.parser.parseInline(token.tokens);
    return renderPlainText(token.text);
  },
};
