/** What the message list shows: the combined feed or one narrow of the runtime contract. */
export type Narrow =
  | { kind: 'all' }
  | { kind: 'channel'; channelId: number; topic?: string }
  | { kind: 'dm'; userIds: number[] }
  | { kind: 'starred' }
  | { kind: 'mentioned' }
  | { kind: 'search'; query: string }
  /** Any other combination of upstream's operators, as its URLs write them (`#narrow/sender/9-…/has/link`): ids, not names. */
  | { kind: 'terms'; terms: NarrowTerm[] };

export const ALL_MESSAGES: Narrow = { kind: 'all' };

/** One conversation: a topic (`topic` given), or a DM's people besides me. */
export type ConversationNarrow = Extract<Narrow, { kind: 'channel' } | { kind: 'dm' }>;

/** Upstream's direct message feed (`#narrow/is/dm`): every DM conversation. */
export const DM_FEED: Narrow = { kind: 'terms', terms: [{ operator: 'is', operand: 'dm' }] };

/** Upstream's Reactions view: my messages that others reacted to (`#narrow/has/reaction/sender/me`, with my id). */
export function reactionsNarrow(me: number): Narrow {
  return {
    kind: 'terms',
    terms: [
      { operator: 'has', operand: 'reaction' },
      { operator: 'sender', operand: me },
    ],
  };
}

/**
 * Whether a message shown in this view is marked read. Upstream's web app marks read only in views
 * of whole conversations (the feed, a channel, a topic, a DM, the DM feed): a message found by a
 * search, a sender or in Starred or Mentions stays unread, to be read in its place.
 */
export function marksReadWhenShown(narrow: Narrow): boolean {
  if (narrow.kind === 'terms') {
    const [only] = narrow.terms;
    return narrow.terms.length === 1 && !only.negated && ((only.operator === 'is' && (only.operand === 'dm' || only.operand === 'private')) || only.operator === 'in');
  }
  return narrow.kind === 'all' || narrow.kind === 'channel' || narrow.kind === 'dm';
}

/**
 * Whether a view of `narrow` shows the messages of a conversation (a topic, or a DM's people
 * besides me), when that can be told without the server: undefined for a search, Mentions and
 * other terms. Starred shows none: a message just sent is not starred.
 */
export function conversationInNarrow(conversation: ConversationNarrow, narrow: Narrow): boolean | undefined {
  switch (narrow.kind) {
    case 'all':
      return true;
    case 'channel':
      return (
        conversation.kind === 'channel' &&
        conversation.channelId === narrow.channelId &&
        (narrow.topic === undefined || conversation.topic?.toLowerCase() === narrow.topic.toLowerCase())
      );
    case 'dm':
      return conversation.kind === 'dm' && sortedIds(conversation.userIds) === sortedIds(narrow.userIds);
    case 'starred':
      return false;
    case 'terms':
      return sameNarrow(narrow, DM_FEED) ? conversation.kind === 'dm' : undefined;
    case 'mentioned':
    case 'search':
      return undefined;
  }
}

/** A set of user ids as one comparable key: ascending, comma-separated. */
/** Whether `narrow` is one channel's topic named `topic` (topics match whatever their case, as the server matches them). */
export function showsTopic(narrow: Narrow, channelId: number, topic: string): boolean {
  return narrow.kind === 'channel' && narrow.channelId === channelId && narrow.topic?.toLowerCase() === topic.toLowerCase();
}

export const sortedIds = (ids: readonly number[]): string => [...ids].sort((a, b) => a - b).join(',');

/** One `{operator, operand, negated}` term of the API's `narrow` parameter. */
export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated?: boolean;
}

/** The DM narrow's participants besides me; a conversation with oneself is just me. */
export function dmParticipants(userIds: readonly number[], me: number): number[] {
  const others = [...new Set(userIds)].filter((id) => id !== me).sort((a, b) => a - b);
  return others.length > 0 ? others : [me];
}

/** A stable string for a narrow: the key of its cached message list. */
export function narrowKey(narrow: Narrow): string {
  switch (narrow.kind) {
    case 'channel':
      return narrow.topic === undefined ? `channel:${narrow.channelId}` : `topic:${narrow.channelId}:${narrow.topic.toLowerCase()}`;
    case 'dm':
      return `dm:${narrow.userIds.join(',')}`;
    case 'search':
      return `search:${narrow.query.trim()}`;
    case 'terms':
      return `terms:${JSON.stringify(narrow.terms)}`;
    default:
      return narrow.kind;
  }
}

export function sameNarrow(a: Narrow, b: Narrow): boolean {
  return narrowKey(a) === narrowKey(b);
}

const SEARCH_OPERATORS = new Set(['channel', 'stream', 'topic', 'sender', 'is', 'has', 'dm', 'dm-including', 'id', 'near', 'in']);

/**
 * The search box's syntax as upstream's web app reads it: `operator:operand` pairs (operand
 * quoted when it has spaces; `-` negates) for the known operators, every other word free text.
 */
export function parseSearch(query: string): NarrowTerm[] {
  const terms: NarrowTerm[] = [];
  const words: string[] = [];
  for (const match of query.matchAll(/(-?)([a-z-]+):("([^"]*)"|\S+)|(\S+)/g)) {
    const [, minus, operator, rawOperand, quoted, word] = match;
    if (operator && SEARCH_OPERATORS.has(operator)) {
      const operand = quoted ?? rawOperand ?? '';
      const name = operator === 'stream' ? 'channel' : operator;
      terms.push({ operator: name, operand, negated: minus === '-' });
    } else {
      words.push(word ?? match[0]);
    }
  }
  if (words.length > 0) terms.push({ operator: 'search', operand: words.join(' ') });
  return terms;
}

/** The API's `narrow` parameter for a narrow. */
export function narrowTerms(narrow: Narrow): NarrowTerm[] {
  switch (narrow.kind) {
    case 'all':
      return [];
    case 'channel':
      return narrow.topic === undefined
        ? [{ operator: 'channel', operand: narrow.channelId }]
        : [
            { operator: 'channel', operand: narrow.channelId },
            { operator: 'topic', operand: narrow.topic },
          ];
    case 'dm':
      return [{ operator: 'dm', operand: narrow.userIds }];
    case 'starred':
      return [{ operator: 'is', operand: 'starred' }];
    case 'mentioned':
      return [{ operator: 'is', operand: 'mentioned' }];
    case 'search':
      return parseSearch(narrow.query);
    case 'terms':
      return narrow.terms;
  }
}

/** What the search syntax needs for ids: a channel's name, a person's email. */
export interface TermNames {
  channelName(id: number): string | undefined;
  userEmail(id: number): string | undefined;
}

/** A terms narrow in the search box's syntax (`sender:EMAIL has:link`), names for ids where known. */
export function termsQuery(terms: readonly NarrowTerm[], names: TermNames): string {
  const quoted = (text: string): string => (/\s/.test(text) ? `"${text}"` : text);
  const nameOf = (operator: string, operand: NarrowTerm['operand']): string => {
    if (Array.isArray(operand)) return operand.map((id) => names.userEmail(id) ?? id).join(',');
    if (typeof operand === 'string') return quoted(operand);
    const name = operator === 'channel' ? names.channelName(operand) : operator === 'sender' || operator === 'dm-including' ? names.userEmail(operand) : undefined;
    return quoted(name ?? String(operand));
  };
  return terms
    .map((term) => (term.operator === 'search' ? String(term.operand) : `${term.negated ? '-' : ''}${term.operator}:${nameOf(term.operator, term.operand)}`))
    .join(' ');
}
