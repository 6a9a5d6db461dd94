/** HTML escaping in the flavours upstream's renderer produces. */

const AMPERSAND_NOT_ENTITY = /&(?!(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});)/g;

/** Message text: `<` and `>` escaped, an `&` that starts an entity left alone, quotes kept (as upstream). */
export function escapeText(text: string): string {
  return text.replace(AMPERSAND_NOT_ENTITY, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Inline code: every `&`, `<` and `>` escaped, so `&nbsp;` shows as typed. */
export function escapeCode(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A double-quoted attribute value. */
export function escapeAttribute(text: string): string {
  return escapeCode(text).replace(/"/g, '&quot;');
}

/** Code blocks: quotes escaped as Pygments escapes them. */
export function escapeCodeBlock(text: string): string {
  return escapeAttribute(text).replace(/'/g, '&#39;');
}
