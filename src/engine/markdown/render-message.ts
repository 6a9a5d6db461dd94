/**
 * Zulip-flavoured Markdown: message content to the HTML upstream's server would store as
 * `rendered_content`, plus what the rendering found (mentions, wildcards, links) for message flags
 * and the has_* columns.
 */
import { escapeText } from './html-escape.ts';
import type { MarkdownRealm } from './markdown-realm.ts';
import { usableLinkifiers } from './linkifiers.ts';
import { zulipMarked } from './marked-instance.ts';
import { withRenderState, type RenderState } from './render-state.ts';
import { MAX_COLOURED_CODE } from './code-highlight.ts';

export interface RenderedMessage {
  html: string;
  /** Users mentioned by a non-silent direct mention. */
  mentionedUserIds: number[];
  /** Groups mentioned by a non-silent group mention. */
  mentionedGroupIds: number[];
  /** @**all** / @**everyone** / @**channel** / @**stream** */
  streamWildcard: boolean;
  /** @**topic** */
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  /** The path ids of the uploads the content links (upstream's potential_attachment_path_ids). */
  attachmentPathIds: string[];
  /** The content starts with "/me ". */
  isMeMessage: boolean;
}

/** What a message's sender chose that changes how it renders. */
export interface RenderOptions {
  /** The sender's `translate_emoticons`: `:)` and the like become emoji. */
  translateEmoticons?: boolean;
}

function freshState(realm: MarkdownRealm, options: RenderOptions): RenderState {
  return {
    realm,
    translateEmoticons: options.translateEmoticons === true,
    linkifiers: usableLinkifiers(realm.linkifiers),
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
    hasLink: false,
    hasImage: false,
    hasAttachment: false,
    attachmentPathIds: new Set(),
    inlineImages: null,
    quoteDepth: 0,
    linkDepth: 0,
    codeToColour: MAX_COLOURED_CODE,
  };
}

/**
 * marked parses nesting recursively, so thousands of nested `>` or `*` overflow the stack. Such a
 * message is shown as its plain text, mentioning no one, rather than failing the send.
 */
function renderAsPlainText(content: string): string {
  return `<p>${escapeText(content).replace(/\n/g, '<br>\n')}</p>`;
}

export function renderMessage(content: string, realm: MarkdownRealm, options: RenderOptions = {}): RenderedMessage {
  let state = freshState(realm, options);
  let html: string;
  try {
    html = withRenderState(state, () => zulipMarked.parse(content, { async: false }));
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    state = freshState(realm, options);
    html = renderAsPlainText(content);
  }
  return {
    // Upstream joins blocks with newlines but does not end with one.
    html: withoutTrailingNewlines(html),
    mentionedUserIds: [...state.mentionedUserIds],
    mentionedGroupIds: [...state.mentionedGroupIds],
    streamWildcard: state.streamWildcard,
    topicWildcard: state.topicWildcard,
    hasLink: state.hasLink,
    hasImage: state.hasImage,
    hasAttachment: state.hasAttachment,
    attachmentPathIds: [...state.attachmentPathIds],
    isMeMessage: content.startsWith('/me '),
  };
}

/** One pass from the end: `/\n+$/` backtracks over every run of newlines, quadratic in its length. */
function withoutTrailingNewlines(html: string): string {
  let end = html.length;
  while (end > 0 && html[end - 1] === '\n') end--;
  return html.slice(0, end);
}
