/**
 * Markdown links and bare-URL autolinks: only safe targets become links, links into the realm's own
 * narrows and uploads become relative, and each link feeds the message's has_link/has_image/
 * has_attachment flags.
 */
import { Tokenizer, type RendererObject, type TokenizerObject } from 'marked';
import { escapeAttribute, escapeCode } from './html-escape.ts';
import { currentRender, type RenderState } from './render-state.ts';
import { sanitizeUrl } from './sanitize-url.ts';
import { pathIdFromUrlPath } from '../storage/upload-paths.ts';

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
  const upload = /^\/?user_uploads\/([^?#]*)/.exec(href);
  if (upload) {
    state.hasAttachment = true;
    const pathId = pathIdFromUrlPath(upload[1]);
    if (pathId !== null) state.attachmentPathIds.add(pathId);
  }
}

/**
 * A link to an uploaded image gets upstream's preview after its paragraph (the markup upstream
 * rendered before thumbnails: the original file as the `<img>` source).
 */
function noteInlineImage(state: RenderState, href: string, title: string): void {
  const upload = /^\/?user_uploads\/([^?#]*)/.exec(href);
  if (!state.inlineImages || !upload || !IMAGE_PATH.test(upload[1]) || pathIdFromUrlPath(upload[1]) === null) return;
  state.inlineImages.push({ href, title });
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
  paragraph(token) {
    const state = currentRender();
    const outer = state.inlineImages;
    state.inlineImages = [];
    const body = this.parser.parseInline(token.tokens);
    const previews = state.inlineImages.map(
      ({ href, title }) =>
        `<div class="message_inline_image"><a href="${escapeAttribute(href)}" title="${escapeAttribute(title)}"><img src="${escapeAttribute(href)}"></a></div>`,
    );
    state.inlineImages = outer;
    // Upstream drops the spaces that begin a paragraph ("  notcode" is no code block, and no spaces either).
    return `<p>${body.replace(/^ +/, '')}</p>\n${previews.join('')}`;
  },
  link(token) {
    const state = currentRender();
    const href = linkHref(token.href);
    state.linkDepth++;
    let text = token.autolink ? escapeCode(token.text) : this.parser.parseInline(token.tokens);
    state.linkDepth--;
    if (href === null) return text;
    if (text.trim() === '') text = escapeCode(href);
    noteInlineImage(state, href, token.text);
    const title = token.title ? ` title="${escapeAttribute(token.title)}"` : '';
    return `<a href="${escapeAttribute(href)}"${title}>${text}</a>`;
  },
};
