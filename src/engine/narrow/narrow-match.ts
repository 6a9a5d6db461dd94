import { RESOLVED_TOPIC_PREFIX } from '../validation/message-limits.ts';
import { dmParticipants } from '../storage/recipients.ts';
import { FLAG_BITS, type MessageRow, type UserMessageRow } from '../storage/rows.ts';
import { topicPolicyKey } from '../directory/cached-reads.ts';
import type { NarrowScope } from './narrow-scope.ts';
import { matchesSearch } from './search-query.ts';
import type { IsOperand, NarrowTerm } from './narrow-terms.ts';

/** A message under consideration, with the viewer's flags row when they received it. */
export interface Candidate {
  row: MessageRow;
  userMessage: UserMessageRow | undefined;
  /** Known only when the narrow has a `has:reaction` term. */
  hasReaction: boolean;
}

const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

const ANY_MENTION =
  FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.group_mentioned;

/** Whether the viewer may see the candidate under this narrow and it satisfies every term. */
export function candidateMatches(scope: NarrowScope, candidate: Candidate): boolean {
  const { row, userMessage } = candidate;
  if (!userMessage && !(scope.includeHistory && row.type === 'stream')) return false;
  return scope.terms.every((term) => termMatches(scope, term, candidate) !== term.negated);
}

function termMatches(scope: NarrowScope, term: NarrowTerm, candidate: Candidate): boolean {
  const { row } = candidate;
  switch (term.kind) {
    case 'channel':
      return row.stream_id === term.channelId;
    case 'channels-public':
      return row.type === 'stream' && !scope.directory.channels.get(row.stream_id!)?.invite_only;
    case 'topic':
      return row.type === 'stream' && row.topic_key === term.topicKey;
    case 'dm':
      return term.dmKey !== null && row.dm_key === term.dmKey;
    case 'dm-including':
      return row.type === 'private' && (term.userId === scope.viewer.id || dmParticipants(row.dm_key!).includes(term.userId));
    case 'group-pm-with': {
      if (row.type !== 'private') return false;
      const participants = dmParticipants(row.dm_key!);
      return participants.length > 2 && participants.includes(term.userId) && participants.includes(scope.viewer.id);
    }
    case 'sender':
      return row.sender_id === term.userId;
    case 'id':
      return row.id === term.messageId;
    case 'is':
      return isMatches(scope, term.flag, candidate);
    case 'has':
      if (term.property === 'reaction') return candidate.hasReaction;
      return row[`has_${term.property}`];
    case 'in-home':
      return !isMutedForViewer(scope, row);
    case 'search':
      return matchesSearch(term.query, row.words, row.content, row.topic);
  }
}

function isMatches(scope: NarrowScope, flag: IsOperand, { row, userMessage }: Candidate): boolean {
  const bits = userMessage?.flags ?? FLAG_BITS.read;
  switch (flag) {
    case 'dm':
      return row.type === 'private';
    case 'starred':
      return (bits & FLAG_BITS.starred) !== 0;
    case 'unread':
      return (bits & FLAG_BITS.read) === 0;
    case 'mentioned':
      return (bits & ANY_MENTION) !== 0;
    case 'alerted':
      return (bits & FLAG_BITS.has_alert_word) !== 0;
    case 'resolved':
      return row.type === 'stream' && row.topic.startsWith(RESOLVED_TOPIC_PREFIX);
    case 'followed':
      return row.type === 'stream' && scope.topicPolicies.get(topicPolicyKey(row.stream_id!, row.topic_key!)) === FOLLOWED;
  }
}

/**
 * `in:home` and the first-unread anchor leave out muted topics, and muted channels (unless
 * the topic is unmuted or followed) — channel muting only when the narrow spans channels.
 */
export function isMutedForViewer(scope: NarrowScope, row: MessageRow): boolean {
  if (row.type !== 'stream') return false;
  const policy = scope.topicPolicies.get(topicPolicyKey(row.stream_id!, row.topic_key!));
  if (policy === MUTED) return true;
  if (scope.terms.some((term) => term.kind === 'channel' && !term.negated)) return false;
  const channelMuted = scope.subscriptions.get(row.stream_id!)?.is_muted === true;
  return channelMuted && policy !== UNMUTED && policy !== FOLLOWED;
}

/** Whether matching needs to know which messages have reactions. */
export const needsReactions = (terms: readonly NarrowTerm[]): boolean =>
  terms.some((term) => term.kind === 'has' && term.property === 'reaction');
