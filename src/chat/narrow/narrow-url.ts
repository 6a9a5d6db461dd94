import { decodeHashComponent, encodeHashComponent } from './hash-encoding.ts';
import type { Narrow } from './narrow.ts';

/** Names the URL needs for slugs: looked up, never required (the id decides). */
export interface SlugSource {
  channelName(id: number): string | undefined;
  userName(id: number): string | undefined;
}

/** `{id}-{name with spaces as dashes}`, encoded: upstream's channel slug. */
function channelSlug(id: number, names: SlugSource): string {
  const name = names.channelName(id);
  return encodeHashComponent(name === undefined ? String(id) : `${id}-${name.replaceAll(' ', '-')}`);
}

/** `{ids}-{full name}` for one person, `{ids}-group` for several: upstream's DM slug. */
function dmSlug(userIds: number[], names: SlugSource): string {
  const name = userIds.length === 1 ? names.userName(userIds[0]) : 'group';
  const suffix = name === undefined ? '' : `-${name.replace(/[ "%/<>`\p{C}]+/gu, '-')}`;
  return `${userIds.join(',')}${encodeHashComponent(suffix)}`;
}

/** The hash of a narrow in upstream's format; the combined feed is no hash at all. */
export function narrowHash(narrow: Narrow, names: SlugSource, nearMessageId?: number): string {
  const near = nearMessageId === undefined ? '' : `/near/${nearMessageId}`;
  switch (narrow.kind) {
    case 'all':
      return '';
    case 'channel': {
      const channel = `#narrow/channel/${channelSlug(narrow.channelId, names)}`;
      return narrow.topic === undefined ? channel : `${channel}/topic/${encodeHashComponent(narrow.topic)}${near}`;
    }
    case 'dm':
      return `#narrow/dm/${dmSlug(narrow.userIds, names)}${near}`;
    case 'starred':
    case 'mentioned':
      return `#narrow/is/${narrow.kind}`;
    case 'search':
      return `#narrow/search/${encodeHashComponent(narrow.query)}`;
  }
}

/** Upstream's views that are not a list of messages: `#inbox`, `#recent`. */
export type ConversationsView = 'inbox' | 'recent';

export interface ParsedHash {
  narrow: Narrow;
  /** `/near/{id}`: the message to show and select. */
  nearMessageId?: number;
  /** Shown instead of the narrow's messages (whose narrow is then the combined feed's). */
  view?: ConversationsView;
}

/** The hash of one of upstream's conversation views. */
export function viewHash(view: ConversationsView): string {
  return `#${view}`;
}

/** The leading id of a slug (`5-engineering` -> 5, `5` -> 5); the id decides, the name is decoration. */
function slugId(slug: string): number | undefined {
  const match = /^(\d+)/.exec(decodeHashComponent(slug));
  return match ? Number(match[1]) : undefined;
}

/**
 * Reads a hash of upstream's format (`#narrow/channel/...`, `#narrow/stream/...` too, `#inbox`,
 * `#recent`); anything else, or no hash, is the combined feed.
 */
export function parseNarrowHash(hash: string): ParsedHash {
  const bare = hash.replace(/^#/, '');
  if (bare === 'inbox') return { narrow: { kind: 'all' }, view: 'inbox' };
  // `#recent_topics` is upstream's name for it before Zulip 7; its links still work there.
  if (bare === 'recent' || bare === 'recent_topics') return { narrow: { kind: 'all' }, view: 'recent' };
  const parts = bare.split('/');
  if (parts[0] !== 'narrow') return { narrow: { kind: 'all' } };
  const pairs = new Map<string, string>();
  for (let i = 1; i + 1 < parts.length; i += 2) pairs.set(parts[i], parts[i + 1]);
  const near = pairs.get('near') ?? pairs.get('with');
  const nearMessageId = near !== undefined && /^\d+$/.test(near) ? Number(near) : undefined;
  const channel = pairs.get('channel') ?? pairs.get('stream');
  if (channel !== undefined) {
    const channelId = slugId(channel);
    if (channelId !== undefined) {
      const topic = pairs.get('topic') ?? pairs.get('subject');
      return { narrow: { kind: 'channel', channelId, topic: topic === undefined ? undefined : decodeHashComponent(topic) }, nearMessageId };
    }
  }
  const dm = pairs.get('dm') ?? pairs.get('pm-with');
  if (dm !== undefined) {
    const ids = (/^[\d,]+/.exec(dm)?.[0] ?? '').split(',').filter(Boolean).map(Number);
    if (ids.length > 0) return { narrow: { kind: 'dm', userIds: [...new Set(ids)].sort((a, b) => a - b) }, nearMessageId };
  }
  const is = pairs.get('is');
  if (is === 'starred' || is === 'mentioned') return { narrow: { kind: is } };
  const search = pairs.get('search');
  if (search !== undefined) return { narrow: { kind: 'search', query: decodeHashComponent(search) } };
  return { narrow: { kind: 'all' } };
}
