import { decodeHashComponent, encodeHashComponent } from './hash-encoding.ts';
import type { Narrow, NarrowTerm } from './narrow.ts';

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
      return `${narrow.topic === undefined ? channel : `${channel}/topic/${encodeHashComponent(narrow.topic)}`}${near}`;
    }
    case 'dm':
      return `#narrow/dm/${dmSlug(narrow.userIds, names)}${near}`;
    case 'starred':
    case 'mentioned':
      return `#narrow/is/${narrow.kind}${near}`;
    case 'search':
      return `#narrow/search/${encodeHashComponent(narrow.query)}${near}`;
    case 'terms':
      return `#narrow/${narrow.terms.map((term) => `${term.negated ? '-' : ''}${term.operator}/${termSlug(term, names)}`).join('/')}${near}`;
  }
}

/** A term's operand as upstream's links spell it: ids with their names, other text encoded. */
function termSlug(term: NarrowTerm, names: SlugSource): string {
  const operand = term.operand;
  if (Array.isArray(operand)) return dmSlug(operand, names);
  if (typeof operand === 'string') return encodeHashComponent(operand);
  if (term.operator === 'channel') return channelSlug(operand, names);
  if (term.operator === 'sender' || term.operator === 'dm-including') return dmSlug([operand], names);
  return String(operand);
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

/** Upstream's older operator names, as its old links still write them. */
const OPERATOR_ALIASES: Record<string, string> = { stream: 'channel', subject: 'topic', 'pm-with': 'dm', 'group-pm-with': 'dm-including' };
const IS_OPERANDS = new Set(['starred', 'mentioned', 'dm', 'private', 'unread', 'resolved', 'followed', 'alerted', 'muted']);
const HAS_OPERANDS = new Set(['link', 'image', 'attachment', 'reaction']);

/** One `operator/operand` pair of a hash as a narrow term (ids as numbers), or null when it is not one upstream's links write. */
function hashTerm(rawOperator: string, rawOperand: string): NarrowTerm | null {
  const negated = rawOperator.startsWith('-');
  const bare = negated ? rawOperator.slice(1) : rawOperator;
  const operator = OPERATOR_ALIASES[bare] ?? bare;
  const text = decodeHashComponent(rawOperand);
  const term = (operand: NarrowTerm['operand']): NarrowTerm => (negated ? { operator, operand, negated } : { operator, operand });
  switch (operator) {
    case 'channel':
    case 'id': {
      const id = slugId(rawOperand);
      return id === undefined ? null : term(id);
    }
    case 'sender':
    case 'dm-including': {
      // `9-Marcus-Reed`, or an email in links from before user ids.
      const id = /^\d+(-|$)/.test(text) ? slugId(rawOperand) : undefined;
      return id !== undefined ? term(id) : text.includes('@') ? term(text) : null;
    }
    case 'dm': {
      const ids = (/^[\d,]+/.exec(rawOperand)?.[0] ?? '').split(',').filter(Boolean).map(Number);
      return ids.length > 0 ? term([...new Set(ids)].sort((a, b) => a - b)) : null;
    }
    case 'topic':
    case 'search':
      return term(text);
    case 'is':
      return IS_OPERANDS.has(text) ? term(text) : null;
    case 'has':
      return HAS_OPERANDS.has(text) ? term(text) : null;
    case 'in':
      return text === 'home' || text === 'all' ? term(text) : null;
    default:
      return null;
  }
}

/** The narrow of the contract's forms when the terms are one of them; any other combination stays terms. */
function simplest(terms: NarrowTerm[]): Narrow {
  const [first, second] = terms;
  const plain = terms.every((term) => !term.negated);
  if (plain && first?.operator === 'channel' && terms.length <= 2 && (second === undefined || second.operator === 'topic')) {
    return { kind: 'channel', channelId: first.operand as number, topic: second?.operand as string | undefined };
  }
  if (plain && terms.length === 1 && first.operator === 'dm') return { kind: 'dm', userIds: first.operand as number[] };
  if (plain && terms.length === 1 && first.operator === 'is' && (first.operand === 'starred' || first.operand === 'mentioned')) return { kind: first.operand };
  if (plain && terms.length === 1 && first.operator === 'search') return { kind: 'search', query: first.operand as string };
  return { kind: 'terms', terms };
}

/**
 * Reads a hash of upstream's format (`#narrow/channel/...`, `#narrow/stream/...` too, any
 * combination of its operators, `#inbox`, `#recent`); anything else, or no hash, is the
 * combined feed. `/near/{id}` (or `/with/{id}`) is where to open.
 */
export function parseNarrowHash(hash: string): ParsedHash {
  const bare = hash.replace(/^#/, '');
  if (bare === 'inbox') return { narrow: { kind: 'all' }, view: 'inbox' };
  // `#recent_topics` is upstream's name for it before Zulip 7; its links still work there.
  if (bare === 'recent' || bare === 'recent_topics') return { narrow: { kind: 'all' }, view: 'recent' };
  // A trailing `/` is dropped, unless it ends an empty operand: `topic/` is the empty topic's.
  const split = bare.split('/');
  const parts = split.length % 2 === 0 && split.at(-1) === '' ? split.slice(0, -1) : split;
  if (parts[0] !== 'narrow' || parts.length < 3 || parts.length % 2 === 0) return { narrow: { kind: 'all' } };
  const terms: NarrowTerm[] = [];
  let nearMessageId: number | undefined;
  for (let i = 1; i + 1 < parts.length; i += 2) {
    if (parts[i] === 'near' || parts[i] === 'with') {
      nearMessageId = /^\d+$/.test(parts[i + 1]) ? Number(parts[i + 1]) : undefined;
      continue;
    }
    const term = hashTerm(parts[i], parts[i + 1]);
    if (!term) return { narrow: { kind: 'all' } };
    terms.push(term);
  }
  if (terms.length === 0) return { narrow: { kind: 'all' } };
  const narrow = simplest(terms);
  // Starred, Mentions and a search open at their newest, as before: no message to open at.
  return narrow.kind === 'starred' || narrow.kind === 'mentioned' || narrow.kind === 'search' ? { narrow } : { narrow, nearMessageId };
}
