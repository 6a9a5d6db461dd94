/**
 * Markdown that Zulip leaves out on purpose. Declining a token (returning undefined) makes marked
 * read that source as plain text; returning false hands over to marked's own tokenizer.
 */
import type { TokenizerObject } from 'marked';

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
  // Only `*` emphasizes: `_foo_` and `__foo__` stay as typed (snake_case names survive).
  emStrong: (src) => (src.startsWith('_') ? undefined : false),
  // Only `~~` strikes through, not GFM's single `~`.
  del: (src) => (src.startsWith('~~') ? false : undefined),
};
