/**
 * What one renderMessage call collects while marked walks the message. marked's extensions are
 * configured once per process, so they reach the per-call realm and results through here;
 * rendering is synchronous, so exactly one render is ever in progress.
 */
import type { MarkdownRealm } from './markdown-realm.ts';
import type { CompiledLinkifier } from './linkifiers.ts';

export interface RenderState {
  realm: MarkdownRealm;
  linkifiers: CompiledLinkifier[];
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  /** Uploads the links name (path ids), for the send to claim. */
  attachmentPathIds: Set<string>;
  /** While a paragraph renders: its links to uploaded images, previewed after it; null elsewhere. */
  inlineImages: { href: string; title: string }[] | null;
  /** Above zero while rendering inside a `>` quote: mentions there are silent. */
  quoteDepth: number;
  /** Above zero while rendering a link's text: no links (linkifiers) or emoji inside links. */
  linkDepth: number;
  /** Whether `:)` and the other emoticons become emoji (the sender's `translate_emoticons`). */
  translateEmoticons: boolean;
  /** How many more characters of code blocks this message may colour (`code-highlight.ts`). */
  codeToColour: number;
}

let current: RenderState | undefined;

export function currentRender(): RenderState {
  if (!current) throw new Error('Markdown extensions ran outside renderMessage');
  return current;
}

export function withRenderState<T>(state: RenderState, render: () => T): T {
  current = state;
  try {
    return render();
  } finally {
    current = undefined;
  }
}
