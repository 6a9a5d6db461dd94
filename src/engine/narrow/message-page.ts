import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { UserRow } from '../storage/rows.ts';
import { type Candidate, candidateMatches, isMutedForViewer } from './narrow-match.ts';
import { type Batch, chooseDriver, type Direction, type Driver, driverOfTerms, firstBatch, walkCandidates } from './narrow-plan.ts';
import { loadNarrowScope, type NarrowScope } from './narrow-scope.ts';
import type { NarrowTerm } from './narrow-terms.ts';

/** The anchor upstream reports for `newest`, and for `first_unread` with nothing unread. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

export interface MessageWindow {
  anchor: number | 'newest' | 'oldest' | 'first_unread';
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

export interface MessagePage {
  /** Matching message ids, ascending. */
  ids: number[];
  /** The rows read while walking, by id, so the page need not read them again. */
  found: ReadonlyMap<number, Candidate>;
  /** The resolved anchor. */
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

/**
 * The ids of up to `numBefore` matching messages before the anchor, the anchor itself (if it
 * matches and is included) and up to `numAfter` after it, with upstream's found_* flags.
 * Each side walks the narrow's driving index from the anchor outwards and stops when full.
 */
export const findMessageIds = async (
  db: RealmDatabase,
  directory: RealmDirectory,
  viewer: UserRow,
  terms: readonly NarrowTerm[],
  window: MessageWindow,
): Promise<MessagePage> => {
  // With a fixed anchor and an index the terms choose alone, the first batch before the anchor
  // is read together with the narrow's scope: one round trip instead of two.
  const known = window.anchor === 'first_unread' ? null : { anchor: fixedAnchor(window.anchor), driver: driverOfTerms(terms, viewer) };
  const prefetch =
    known?.driver && window.numBefore > 0 && known.anchor !== 0
      ? firstBatch(db, terms, known.driver, 'descending', known.anchor, batchSizeFor(window.numBefore))
      : undefined;
  const [scope, first] = await Promise.all([loadNarrowScope(db, directory, viewer, terms), prefetch]);
  const driver = known?.driver ?? chooseDriver(scope);
  const found = new Map<number, Candidate>();
  const anchor = known ? known.anchor : await firstUnreadId(scope);
  const anchoredLeft = anchor === 0;
  const anchoredRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const before =
    window.numBefore > 0 && !anchoredLeft ? await collect(scope, driver, 'descending', anchor, window.numBefore, found, undefined, first) : [];
  const foundAnchor = window.includeAnchor && !anchoredRight && (await matchingIds(scope, [anchor], found)).length === 1;
  const after =
    window.numAfter > 0 && !anchoredRight ? await collect(scope, driver, 'ascending', anchor, window.numAfter, found) : [];
  return {
    ids: [...before.reverse(), ...(foundAnchor ? [anchor] : []), ...after],
    found,
    anchor,
    foundAnchor,
    foundOldest: anchoredLeft || before.length < window.numBefore,
    foundNewest: anchoredRight || after.length < window.numAfter,
  };
};

/**
 * Which of `messageIds` exist, are visible to the viewer and match the narrow (ascending).
 * `receivedOnly` limits them to messages the viewer received, as matches_narrow does.
 */
export const filterMessageIds = async (
  db: RealmDatabase,
  directory: RealmDirectory,
  viewer: UserRow,
  terms: readonly NarrowTerm[],
  messageIds: readonly number[],
  options: { receivedOnly?: boolean } = {},
): Promise<number[]> => {
  const scope = await loadNarrowScope(db, directory, viewer, terms);
  if (options.receivedOnly) scope.includeHistory = false;
  return matchingIds(scope, [...new Set(messageIds)].sort((a, b) => a - b));
};

/** `newest` and `oldest` as ids; other anchors clamped to [0, LARGER_THAN_MAX_MESSAGE_ID]. */
function fixedAnchor(anchor: number | 'newest' | 'oldest'): number {
  if (anchor === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === 'oldest') return 0;
  return Math.min(Math.max(anchor, 0), LARGER_THAN_MAX_MESSAGE_ID);
}

/** The oldest unread matching message outside muted channels and topics, read from the sparse unread index. */
const firstUnreadId = async (scope: NarrowScope): Promise<number> => {
  const unread: Driver = { kind: 'user-messages', index: '[user_id+unread+message_id]', prefix: [scope.viewer.id, 1] };
  const [first] = await collect(scope, unread, 'ascending', -1, 1, new Map(), (c) => !isMutedForViewer(scope, c.row));
  return first ?? LARGER_THAN_MAX_MESSAGE_ID;
};

/**
 * Up to `count` matching ids walking from `from` (exclusive) in `direction`, nearest first;
 * the matching rows are kept in `found`. The first batch is exactly `count` rows, which is the
 * whole walk when every row of the driving index matches (a topic, a conversation); `first` is
 * that batch when it was read already.
 */
const collect = async (
  scope: NarrowScope,
  driver: Driver,
  direction: Direction,
  from: number,
  count: number,
  found: Map<number, Candidate>,
  extra: (candidate: Candidate) => boolean = () => true,
  first?: Batch,
): Promise<number[]> => {
  const ids: number[] = [];
  const visit = (batch: Candidate[]) => {
    for (const candidate of batch) {
      if (!candidateMatches(scope, candidate) || !extra(candidate)) continue;
      ids.push(candidate.row.id);
      found.set(candidate.row.id, candidate);
      if (ids.length === count) return false;
    }
    return true;
  };
  await walkCandidates(scope, driver, direction, from, batchSizeFor(count), visit, first);
  return ids;
};

/** A walk's first batch: the rows it needs when every one matches, at most 1000. */
const batchSizeFor = (count: number): number => Math.min(count, 1000);

/** The matching ids among `ids` (ascending); their rows are kept in `found` when given. */
const matchingIds = async (scope: NarrowScope, ids: number[], found?: Map<number, Candidate>): Promise<number[]> => {
  const matched: number[] = [];
  await walkCandidates(scope, { kind: 'ids', ids }, 'ascending', -1, 1000, (batch) => {
    for (const candidate of batch) {
      if (!candidateMatches(scope, candidate)) continue;
      matched.push(candidate.row.id);
      found?.set(candidate.row.id, candidate);
    }
    return true;
  });
  return matched;
};
