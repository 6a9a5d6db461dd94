/**
 * The one configured marked instance for Zulip-flavoured Markdown. Built once per process: per-call
 * data (the realm, what was mentioned) flows through render-state, not through re-configuration.
 */
import { Marked } from 'marked';
import { bareDomainExtension } from './bare-domains.ts';
import { channelLinkExtension } from './channel-links.ts';
import { codeBlockRenderer, fenceTokenizer } from './code-blocks.ts';
import { disabledSyntax } from './disabled-syntax.ts';
import { emojiNameExtension, emoticonExtension } from './emoji.ts';
import { fillEmptyQuotes } from './empty-quotes.ts';
import { fencedBlockExtension, mathBlockExtension, spoilerExtension } from './fenced-blocks.ts';
import { globalTimeExtension } from './global-times.ts';
import { linkRenderer, linkTokenizer } from './links.ts';
import { listTokenizer, nestListsByTwoSpaces } from './list-indent.ts';
import { markupRenderers } from './markup-renderers.ts';
import { inlineMathExtension, maskInlineMath } from './math.ts';
import { groupMentionExtension, userMentionExtension } from './mentions.ts';
import { textRenderer } from './text.ts';
import { urlBoundsExtension } from './url-bounds.ts';

export const zulipMarked = new Marked({
  gfm: true,
  // nl2br: a single newline is a line break.
  breaks: true,
  async: false,
  tokenizer: { ...disabledSyntax, ...linkTokenizer, ...listTokenizer, ...fenceTokenizer },
  renderer: { ...markupRenderers, ...codeBlockRenderer, ...linkRenderer, ...textRenderer },
  hooks: { emStrongMask: maskInlineMath, preprocess: nestListsByTwoSpaces, processAllTokens: (tokens) => fillEmptyQuotes(tokens) },
  // Inline extensions are tried in this order, before marked's own syntax.
  extensions: [
    fencedBlockExtension,
    mathBlockExtension,
    spoilerExtension,
    inlineMathExtension,
    globalTimeExtension,
    userMentionExtension,
    groupMentionExtension,
    channelLinkExtension,
    emojiNameExtension,
    emoticonExtension,
    bareDomainExtension,
    urlBoundsExtension,
  ],
});
