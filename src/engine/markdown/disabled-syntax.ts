/**
 * Markdown that Zulip leaves out on purpose. Declining a token (returning undefined) makes marked
 * read that source as plain text; returning false hands over to marked's own tokenizer.
 */
import { Tokenizer, type TokenizerObject } from 'marked';

export const disabledSyntax: TokenizerObject = {
  // Raw HTML is never passed through: `<b>` is text, escaped on output.
  html: () => undefined,
  tag: () => undefined,
  // `<https://…>` is not Zulip syntax; the URL inside still autolinks as a bare URL.
  autolink: () => undefined,
  // Setext headings, reference links and backslash escapes are disabled upstream.
  lheading: () => undefined,
  def: () => undefined,
  reflink: () => undefined,
  escape: () => undefined,
  // Only `*` emphasizes: `_foo_` and `__foo__` stay as typed (snake_case names survive); and, as
  // upstream's patterns, emphasis never spans a line end: `**a` then `b**` stays as typed.
  emStrong(src, maskedSrc, prevChar) {
    if (src.startsWith('_')) return undefined;
    const token = Tokenizer.prototype.emStrong.call(this, src, maskedSrc, prevChar);
    return token && token.raw.includes('\n') ? undefined : token;
  },
  // Only `~~` strikes through, not GFM's single `~`.
  del: (src) => (src.startsWith('~~') ? false : undefined),
};
