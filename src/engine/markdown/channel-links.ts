/**
 * Channel, topic and message links: `#**channel**`, `#**channel>topic**`, `#**channel>topic@123**`,
 * with upstream's classes and `/#narrow/…` hrefs. Unknown channels are left as typed.
 */
import type { TokenizerAndRendererExtension } from 'marked';
import { escapeAttribute, escapeText } from './html-escape.ts';
import { LINK_MAY_FOLLOW, syntaxMayStartAfter } from './syntax-boundary.ts';
import { currentRender } from './render-state.ts';

const MESSAGE_LINK = /^#\*\*([^*>]+)>([^*]*)@(\d+)\*\*/;
const TOPIC_LINK = /^#\*\*([^*>]+)>([^*]*)\*\*/;
const CHANNEL_LINK = /^#\*\*([^*]+)\*\*/;
const LINK_ANYWHERE = /#\*\*/;
/** What upstream shows for the empty topic name. */
const EMPTY_TOPIC_NAME = 'general chat';

/**
 * Upstream's URL-hash encoding: percent-encode everything but `A-Za-z0-9_-~`, then `%` becomes
 * `.`. A lone surrogate (a name or topic stored before cuts counted code points, or decoded
 * from JSON) is encoded as U+FFFD, as the browser's URL parser does, instead of throwing.
 */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text.replace(/\p{Cs}/gu, '\uFFFD'))
    .replace(/[!'()*.]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%/g, '.');
}

/** `/#narrow/channel/<id>-<slug>`, the slug being the name with spaces as dashes. */
function channelNarrowPath(id: number, name: string): string {
  return `/#narrow/channel/${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;
}

function topicText(channel: string, topic: string): string {
  const shownTopic = topic === '' ? `<em>${EMPTY_TOPIC_NAME}</em>` : escapeText(topic);
  return `#${escapeText(channel)} &gt; ${shownTopic}`;
}

function renderChannelSyntax(src: string): { raw: string; html: string } | undefined {
  const realm = currentRender().realm;
  const message = MESSAGE_LINK.exec(src);
  if (message) {
    const channel = realm.channelByName(message[1]);
    if (!channel) return undefined;
    const href = `${channelNarrowPath(channel.id, channel.name)}/topic/${encodeHashComponent(message[2])}/near/${message[3]}`;
    return {
      raw: message[0],
      html: `<a class="message-link" href="${escapeAttribute(href)}">${topicText(channel.name, message[2])} @ 💬</a>`,
    };
  }
  const topic = TOPIC_LINK.exec(src);
  if (topic) {
    const channel = realm.channelByName(topic[1]);
    if (!channel) return undefined;
    const href = `${channelNarrowPath(channel.id, channel.name)}/topic/${encodeHashComponent(topic[2])}`;
    return {
      raw: topic[0],
      html: `<a class="stream-topic" data-stream-id="${channel.id}" href="${escapeAttribute(href)}">${topicText(channel.name, topic[2])}</a>`,
    };
  }
  const plain = CHANNEL_LINK.exec(src);
  const channel = plain && realm.channelByName(plain[1]);
  if (!plain || !channel) return undefined;
  return {
    raw: plain[0],
    html: `<a class="stream" data-stream-id="${channel.id}" href="${escapeAttribute(channelNarrowPath(channel.id, channel.name))}">#${escapeText(channel.name)}</a>`,
  };
}

export const channelLinkExtension: TokenizerAndRendererExtension = {
  name: 'channelLink',
  level: 'inline',
  start: (src) => src.search(LINK_ANYWHERE),
  tokenizer(src, tokens) {
    if (this.lexer.state.inLink || !src.startsWith('#**') || !syntaxMayStartAfter(tokens, LINK_MAY_FOLLOW)) return undefined;
    const rendered = renderChannelSyntax(src);
    return rendered && { type: 'channelLink', ...rendered };
  },
  renderer: (token) => token.html as string,
};
