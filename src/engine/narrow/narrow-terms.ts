/**
 * A parsed narrow: every operand already resolved against the realm (channel and user ids,
 * DM conversation keys, lower-cased topics), so matching a message needs no lookups.
 * `near` and `in:all` filter nothing and are dropped while parsing.
 */
export type NarrowTerm = { negated: boolean } & (
  | { kind: 'channel'; channelId: number }
  | { kind: 'channels-public' }
  | { kind: 'topic'; topicKey: string }
  /** The exact conversation; `dmKey` null when the operand names nobody (matches nothing). */
  | { kind: 'dm'; dmKey: string | null }
  | { kind: 'dm-including'; userId: number }
  | { kind: 'group-pm-with'; userId: number }
  | { kind: 'sender'; userId: number }
  | { kind: 'id'; messageId: number }
  | { kind: 'is'; flag: IsOperand }
  | { kind: 'has'; property: HasOperand }
  | { kind: 'in-home' }
  | { kind: 'search'; query: SearchQuery }
);

export type IsOperand = 'dm' | 'starred' | 'unread' | 'mentioned' | 'alerted' | 'resolved' | 'followed';
export type HasOperand = 'link' | 'image' | 'attachment' | 'reaction';

export interface SearchQuery {
  /** Lower-cased words that must all be among the message's indexed words. */
  words: string[];
  /** Lower-cased quoted phrases that must each occur in the content or the topic. */
  phrases: string[];
}

export type TermOf<K extends NarrowTerm['kind']> = Extract<NarrowTerm, { kind: K }>;

export function termsOf<K extends NarrowTerm['kind']>(terms: readonly NarrowTerm[], kind: K): TermOf<K>[] {
  return terms.filter((term): term is TermOf<K> => term.kind === kind);
}

export function positiveTerm<K extends NarrowTerm['kind']>(terms: readonly NarrowTerm[], kind: K): TermOf<K> | undefined {
  return termsOf(terms, kind).find((term) => !term.negated);
}
