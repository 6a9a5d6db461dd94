/**
 * Quote markers with nothing after them, read as upstream's server (Python-Markdown) reads them:
 * a quote that holds nothing shows its last `>` as text (`>` alone is the paragraph ">", `>>>`
 * two quotes around one), and a line right under empty quote lines joins the quote
 * (`>\n>\ntext` is one quote of "text"). marked would render an empty, invisible quote.
 */
import type { Token, Tokens } from 'marked';

/** `inTightItem`: the tokens of a tight list item, whose text is not a paragraph of its own. */
export function fillEmptyQuotes(tokens: Token[], inTightItem = false): Token[] {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'list') {
      const list = token as Tokens.List;
      for (const item of list.items) fillEmptyQuotes(item.tokens, !list.loose);
    }
    // A ```quote fence is a quote too, but an empty one stays one.
    if (token.type !== 'blockquote' || !token.raw.trimStart().startsWith('>')) continue;
    const quote = token as Tokens.Blockquote;
    fillEmptyQuotes(quote.tokens);
    if (!quote.tokens.every((inner) => inner.type === 'space')) continue;
    const next = tokens[i + 1];
    if (next?.type === 'paragraph') {
      // No blank line between them: marked would have put a space token there.
      quote.tokens = [next];
      tokens.splice(i + 1, 1);
    } else {
      const marker: Tokens.Text = { type: 'text', raw: '>', text: '>', escaped: false };
      tokens[i] = inTightItem
        ? ({ type: 'text', raw: quote.raw, text: '>', tokens: [marker] } satisfies Tokens.Text)
        : ({ type: 'paragraph', raw: quote.raw, text: '>', tokens: [marker] } satisfies Tokens.Paragraph);
    }
  }
  return tokens;
}
