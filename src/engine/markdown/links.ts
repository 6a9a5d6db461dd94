/**
 * Markdown links and bare-URL autolinks: only safe targets become links, links into the realm's own
 * narrows and uploads become relative, and each link feeds the message's has_link/has_image/
 * has_attachment flags.
 */
import { Tokenizer, type RendererObject, type TokenizerObject } from 'marked';
import { escapeAttribute, escapeCode } from './html-escape.ts';
import { currentRender, type RenderState } from './render-state.ts';
import { sanitizeUrl } from './sanitize-url.ts';

const IMAGE_PATH = /\.(?:png|jpe?g|gif|webp)$/i;

/** Upstream rewrites only links into narrows (`#…`) and uploads on its own host. */
function relativizeOwnLink(href: string, host: string): string {
  for (const scheme of ['https://', 'http://']) {
    const prefix = `${scheme}${host}/`;
    if (href.startsWith(`${prefix}#`) || href.startsWith(`${prefix}user_uploads/`)) return href.slice(prefix.length);
  }
  return href;
}

function noteLinkTarget(state: RenderState, href: string): void {
  state.hasLink = true;
  if (IMAGE_PATH.test(href.split(/[?#]/)[0])) state.hasImage = true;
  if (/^\/?user_uploads\//.test(href)) state.hasAttachment = true;
}

/** The safe, realm-relative href for a link target, noting it in the render's flags; null if refused. */
export function linkHref(target: string): string | null {
  const state = currentRender();
  const safe = sanitizeUrl(target);
  if (safe === null) return null;
  const href = relativizeOwnLink(safe, state.realm.host);
  noteLinkTarget(state, href);
  return href;
}

export const linkTokenizer: TokenizerObject = {
  // Images are not Zulip syntax (`![x](u)` reads as "!" and a link) and an unsafe target leaves
  // the whole `[text](target)` as text: declining the token makes marked read it as text.
  link(src) {
    const token = Tokenizer.prototype.link.call(this, src);
    if (!token || token.type === 'image' || sanitizeUrl(token.href) === null) return undefined;
    return token;
  },
  // A bare URL ends at `>`: in "<a@b.com>" the brackets stay text around the link, as upstream.
  url(src) {
    const token = Tokenizer.prototype.url.call(this, src);
    const bracket = token?.raw.indexOf('>') ?? -1;
    return bracket > 0 ? Tokenizer.prototype.url.call(this, src.slice(0, bracket)) : token;
  },
};

export const linkRenderer: RendererObject = {
  link(token) {
    const state = currentRender();
    const href = linkHref(token.href);
    state.linkDepth++;
    let text = token.autolink ? escapeCode(token.text) : this.parser.parseInline(token.tokens);
    state.linkDepth--;
    if (href === null) return text;
    if (text.trim() === '') text = escapeCode(href);
    const title = token.title ? ` title="${escapeAttribute(token.title)}"` : '';
    return `<a href="${escapeAttribute(href)}"${title}>${text}</a>`;
  },
};
