import type { RealmDatabase } from '../storage/database.ts';
import type { MessageRow, UserMessageRow, UserRow } from '../storage/rows.ts';
import { type Candidate, needsReactions } from './narrow-match.ts';
import type { NarrowScope } from './narrow-scope.ts';
import { type NarrowTerm, positiveTerm } from './narrow-terms.ts';

/** An index and the fixed leading parts of its keys; the last part is the message id. */
interface IndexRange {
  index: string;
  prefix: (number | string)[];
}

/**
 * The one index a narrow walks, in id order; every other term is checked per candidate.
 * - `messages`: a messages index whose leading parts are fixed (`prefix`) and whose last part
 *   is the message id; an empty index name walks the primary key. `flags` is the viewer's
 *   user_messages index over the same messages (their rows carry the message's place), read as
 *   a range beside it: the viewer's flags of a batch cost one request, not one per message.
 * - `user-messages`: one of the viewer's user_messages indexes (sparse flag indexes included).
 * - `words`: the messages carrying the rarest of these search words (`*words` index).
 * - `ids`: fixed message ids, ascending (an `id:` term, or `message_ids`); `empty`: no match.
 */
export type Driver =
  | ({ kind: 'messages'; flags: IndexRange } & IndexRange)
  | ({ kind: 'user-messages' } & IndexRange)
  | { kind: 'words'; words: string[] }
  | { kind: 'ids'; ids: number[] }
  | { kind: 'empty' };

const FLAG_INDEXES = {
  unread: '[user_id+unread+message_id]',
  starred: '[user_id+starred+message_id]',
  mentioned: '[user_id+mentioned+message_id]',
  alerted: '[user_id+alerted+message_id]',
} as const;
/** The viewer's rows by place: a topic or a direct conversation (channel 0), and a channel. */
const THREAD_INDEX = '[user_id+stream_id+thread_key+message_id]';
const CHANNEL_INDEX = '[user_id+stream_id+message_id]';
/** `stream_id` of a direct message's user_messages rows. */
const DIRECT = 0;

/**
 * Picks the most selective index the narrow allows: a single message, a conversation, a
 * channel, the viewer's small flag sets, the rarest search word, a sender, and otherwise
 * every message the viewer received (or every message, for history over public channels).
 */
export function chooseDriver(scope: NarrowScope): Driver {
  const { terms, viewer } = scope;
  const driver = driverOfTerms(terms, viewer);
  if (driver) return driver;
  if (scope.includeHistory) return { kind: 'messages', index: '', prefix: [], flags: { index: '[user_id+message_id]', prefix: [viewer.id] } };
  return { kind: 'user-messages', index: '[user_id+message_id]', prefix: [viewer.id] };
}

/**
 * The driver the narrow's terms choose by themselves, known before its scope is read; null
 * when it depends on the scope (whether channel history is included).
 */
export function driverOfTerms(terms: readonly NarrowTerm[], viewer: UserRow): Driver | null {
  const id = positiveTerm(terms, 'id');
  if (id) return { kind: 'ids', ids: [id.messageId] };
  const channel = positiveTerm(terms, 'channel');
  const topic = positiveTerm(terms, 'topic');
  const me = viewer.id;
  if (channel && topic) {
    const { channelId } = channel;
    const { topicKey } = topic;
    return { kind: 'messages', index: '[stream_id+topic_key+id]', prefix: [channelId, topicKey], flags: { index: THREAD_INDEX, prefix: [me, channelId, topicKey] } };
  }
  const dm = positiveTerm(terms, 'dm');
  if (dm) {
    if (dm.dmKey === null) return { kind: 'empty' };
    return { kind: 'messages', index: '[dm_key+id]', prefix: [dm.dmKey], flags: { index: THREAD_INDEX, prefix: [me, DIRECT, dm.dmKey] } };
  }
  if (channel) {
    return { kind: 'messages', index: '[stream_id+id]', prefix: [channel.channelId], flags: { index: CHANNEL_INDEX, prefix: [me, channel.channelId] } };
  }
  const flags = new Set(terms.flatMap((term) => (term.kind === 'is' && !term.negated ? [term.flag] : [])));
  for (const flag of ['starred', 'mentioned', 'alerted', 'unread'] as const) {
    if (flags.has(flag)) return { kind: 'user-messages', index: FLAG_INDEXES[flag], prefix: [me, 1] };
  }
  const search = positiveTerm(terms, 'search');
  if (search && search.query.words.length > 0) return { kind: 'words', words: search.query.words };
  const sender = positiveTerm(terms, 'sender');
  if (sender) {
    return { kind: 'messages', index: '[sender_id+id]', prefix: [sender.userId], flags: { index: '[user_id+sender_id+message_id]', prefix: [me, sender.userId] } };
  }
  if (flags.has('dm') || positiveTerm(terms, 'dm-including') || positiveTerm(terms, 'group-pm-with')) {
    return { kind: 'user-messages', index: CHANNEL_INDEX, prefix: [me, DIRECT] };
  }
  return null;
}

export type Direction = 'ascending' | 'descending';

const MAX_BATCH = 1000;

/** One batch of an index walk; `lastId` is where the next batch starts, null at the end. */
export interface Batch {
  candidates: Candidate[];
  lastId: number | null;
}

/**
 * The first batch of an index driver's walk, to be read before the narrow's scope and handed
 * to `walkCandidates` (both reads then share one round trip); undefined for other drivers.
 */
export const firstBatch = (
  db: RealmDatabase,
  terms: readonly NarrowTerm[],
  driver: Driver,
  direction: Direction,
  from: number,
  batchSize: number,
): Promise<Batch> | undefined =>
  driver.kind === 'messages' || driver.kind === 'user-messages' ? indexBatch(db, terms, driver, direction, from, batchSize) : undefined;

/**
 * Visits the driver's candidates strictly beyond `from` in `direction` (ascending: ids >
 * from; descending: ids < from), one batch at a time, until `visit` returns false or the
 * index ends. Each candidate carries the viewer's flags row (and, when a `has:reaction`
 * term needs it, whether it has reactions).
 *
 * The visitor is synchronous, so a batch is matched without further awaits.
 */
export const walkCandidates = async (
  scope: NarrowScope,
  driver: Driver,
  direction: Direction,
  from: number,
  batchSize: number,
  visit: (batch: Candidate[]) => boolean,
  first?: Batch,
): Promise<void> => {
  if (driver.kind === 'messages' || driver.kind === 'user-messages') {
    let bound = from;
    // Batches grow when rows are filtered out, so a sparse match needs few round trips.
    for (let size = batchSize, read = first; ; size = Math.min(size * 2, MAX_BATCH), read = undefined) {
      const { candidates, lastId } = read ?? (await indexBatch(scope.db, scope.terms, driver, direction, bound, size));
      if (candidates.length > 0 && !visit(candidates)) return;
      if (lastId === null) return;
      bound = lastId;
    }
  }
  const all = await driverIds(scope.db, driver);
  const beyond = direction === 'ascending' ? all.filter((id) => id > from) : all.filter((id) => id < from).reverse();
  for (let start = 0; start === 0 || start < beyond.length; start += batchSize) {
    const candidates = await withUserMessages(scope, beyond.slice(start, start + batchSize));
    if (!visit(candidates)) return;
  }
};

/** All ids of an id-list driver, ascending (read through Dexie even when fixed). */
const driverIds = async (db: RealmDatabase, driver: Extract<Driver, { kind: 'words' | 'ids' | 'empty' }>): Promise<number[]> => {
  if (driver.kind !== 'words') return db.messages.where(':id').anyOf(driver.kind === 'ids' ? driver.ids : []).primaryKeys();
  const counts = await Promise.all(driver.words.map((word) => db.messages.where('words').equals(word).count()));
  const rarest = driver.words[counts.indexOf(Math.min(...counts))];
  return db.messages.where('words').equals(rarest).primaryKeys();
};

/** One batch from an index walk. */
const indexBatch = async (
  db: RealmDatabase,
  terms: readonly NarrowTerm[],
  driver: Extract<Driver, { kind: 'messages' | 'user-messages' }>,
  direction: Direction,
  bound: number,
  limit: number,
): Promise<Batch> => {
  const [low, high] = direction === 'ascending' ? [bound, Infinity] : [-Infinity, bound];
  if (driver.kind === 'messages') {
    const range =
      driver.index === ''
        ? db.messages.where(':id').between(low, high, false, false)
        : db.messages.where(driver.index).between([...driver.prefix, low], [...driver.prefix, high], false, false);
    const { flags } = driver;
    const flagsRange = db.user_messages.where(flags.index).between([...flags.prefix, low], [...flags.prefix, high], false, false);
    // Both ranges at once, with the same limit: the viewer's rows of these messages are a subset
    // of the messages in the index, so the `limit` nearest rows include every row of the batch
    // (more only when the viewer lacks rows, as for channel history, and those are ignored).
    const [rows, viewerRows] = await Promise.all([
      (direction === 'ascending' ? range : range.reverse()).limit(limit).toArray(),
      (direction === 'ascending' ? flagsRange : flagsRange.reverse()).limit(limit).toArray(),
    ]);
    const byMessage = new Map(viewerRows.map((um) => [um.message_id, um]));
    const candidates = pair(rows, rows.map((row) => byMessage.get(row.id)));
    if (needsReactions(terms)) await markReactions(db, candidates);
    return { candidates, lastId: rows.length === limit ? rows[rows.length - 1].id : null };
  }
  const range = db.user_messages.where(driver.index).between([...driver.prefix, low], [...driver.prefix, high], false, false);
  const userMessages = await (direction === 'ascending' ? range : range.reverse()).limit(limit).toArray();
  const rows = await db.messages.bulkGet(userMessages.map((um) => um.message_id));
  const lastId = userMessages.length === limit ? userMessages[userMessages.length - 1].message_id : null;
  const candidates = pair(rows, userMessages);
  if (needsReactions(terms)) await markReactions(db, candidates);
  return { candidates, lastId };
};

/** Message rows for `ids` (in that order) with the viewer's flags rows; missing ids dropped. */
const withUserMessages = async (scope: NarrowScope, ids: number[]): Promise<Candidate[]> => {
  const { db, viewer } = scope;
  const rows = await db.messages.bulkGet(ids);
  const userMessages = await db.user_messages.bulkGet(ids.map((id): [number, number] => [viewer.id, id]));
  const candidates = pair(rows, userMessages);
  if (needsReactions(scope.terms)) await markReactions(db, candidates);
  return candidates;
};

/** Marks which candidates have reactions (only awaited when a `has:reaction` term needs it). */
const markReactions = async (db: RealmDatabase, candidates: Candidate[]): Promise<void> => {
  const reacted = new Set(await db.reactions.where('message_id').anyOf(candidates.map((c) => c.row.id)).keys());
  for (const candidate of candidates) candidate.hasReaction = reacted.has(candidate.row.id);
};

function pair(rows: (MessageRow | undefined)[], userMessages: (UserMessageRow | undefined)[]): Candidate[] {
  const candidates: Candidate[] = [];
  rows.forEach((row, index) => {
    if (row) candidates.push({ row, userMessage: userMessages[index], hasReaction: false });
  });
  return candidates;
}
