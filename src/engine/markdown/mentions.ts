/**
 * User mentions (`@**Full Name**`, `@**Full Name|31**`, silent `@_**Name**`, the wildcards) and
 * group mentions (`@*group*`, silent `@_*group*`). Names resolve while lexing; whether a mention
 * notifies is settled while rendering, because only then is it known to sit inside a quote.
 */
import type { TokenizerAndRendererExtension, Tokens } from 'marked';
import { escapeText } from './html-escape.ts';
import type { MentionableUser } from './markdown-realm.ts';
import { currentRender } from './render-state.ts';
import { syntaxMayStartAfter } from './syntax-boundary.ts';

const USER_MENTION = /^@(_?)\*\*([^*]+)\*\*/;
const GROUP_MENTION = /^@(_?)\*([^*]+)\*/;
const MENTION_ANYWHERE = /@_?\*/;
const ALLOWED_BEFORE = /[\s'"({[/<]/;
const STREAM_WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);
const NAME_WITH_ID = /^(.+)?\|(\d+)$/;

type MentionTarget =
  | { kind: 'user'; user: MentionableUser }
  | { kind: 'stream-wildcard'; name: string }
  | { kind: 'topic-wildcard' };

interface UserMentionToken extends Tokens.Generic {
  type: 'userMention';
  silent: boolean;
  target: MentionTarget;
}

interface GroupMentionToken extends Tokens.Generic {
  type: 'groupMention';
  silent: boolean;
  group: { id: number; name: string };
}

/** `Name`, `Name|id` or `|id`; a name must match exactly one user, and `Name|id` must agree. */
function resolveTarget(text: string): MentionTarget | undefined {
  if (STREAM_WILDCARDS.has(text)) return { kind: 'stream-wildcard', name: text };
  if (text === 'topic') return { kind: 'topic-wildcard' };
  const realm = currentRender().realm;
  const withId = NAME_WITH_ID.exec(text);
  if (withId) {
    const user = realm.userById(Number(withId[2]));
    if (!user || (withId[1] !== undefined && user.full_name !== withId[1])) return undefined;
    return { kind: 'user', user };
  }
  const candidates = realm.usersByName(text);
  return candidates.length === 1 ? { kind: 'user', user: candidates[0] } : undefined;
}

function mentionSpan(classes: string, dataAttribute: string, name: string, silent: boolean): string {
  const text = escapeText(silent ? name : `@${name}`);
  return `<span class="${classes}${silent ? ' silent' : ''}"${dataAttribute}>${text}</span>`;
}

export const userMentionExtension: TokenizerAndRendererExtension = {
  name: 'userMention',
  level: 'inline',
  start: (src) => src.search(MENTION_ANYWHERE),
  tokenizer(src, tokens): UserMentionToken | undefined {
    if (this.lexer.state.inLink) return undefined;
    const match = USER_MENTION.exec(src);
    if (!match || !syntaxMayStartAfter(tokens, ALLOWED_BEFORE)) return undefined;
    const target = resolveTarget(match[2]);
    return target && { type: 'userMention', raw: match[0], silent: match[1] === '_', target };
  },
  renderer(generic) {
    const { silent: silentSyntax, target } = generic as UserMentionToken;
    const state = currentRender();
    // Quoting someone's mention must not notify them again.
    const silent = silentSyntax || state.quoteDepth > 0 || (target.kind === 'user' && !target.user.is_active);
    switch (target.kind) {
      case 'stream-wildcard':
        if (!silent) state.streamWildcard = true;
        return mentionSpan('user-mention channel-wildcard-mention', ' data-user-id="*"', target.name, silent);
      case 'topic-wildcard':
        if (!silent) state.topicWildcard = true;
        return mentionSpan('topic-mention', '', 'topic', silent);
      case 'user':
        if (!silent) state.mentionedUserIds.add(target.user.id);
        return mentionSpan('user-mention', ` data-user-id="${target.user.id}"`, target.user.full_name, silent);
    }
  },
};

export const groupMentionExtension: TokenizerAndRendererExtension = {
  name: 'groupMention',
  level: 'inline',
  start: (src) => src.search(MENTION_ANYWHERE),
  tokenizer(src, tokens): GroupMentionToken | undefined {
    if (this.lexer.state.inLink) return undefined;
    const match = GROUP_MENTION.exec(src);
    if (!match || !syntaxMayStartAfter(tokens, ALLOWED_BEFORE)) return undefined;
    const group = currentRender().realm.groupByName(match[2]);
    return group && { type: 'groupMention', raw: match[0], silent: match[1] === '_', group };
  },
  renderer(generic) {
    const { silent: silentSyntax, group } = generic as GroupMentionToken;
    const state = currentRender();
    const silent = silentSyntax || state.quoteDepth > 0;
    if (!silent) state.mentionedGroupIds.add(group.id);
    return mentionSpan('user-group-mention', ` data-user-group-id="${group.id}"`, group.name, silent);
  },
};
