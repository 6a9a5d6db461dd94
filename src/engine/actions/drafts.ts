/**
 * A user's drafts, synced between their clients while `enable_drafts_synchronization` is on.
 * Each change is announced to the owner's queues only (`drafts` add/update/remove).
 */
import { ApiError, badRequest } from '../errors/api-error.ts';
import { canReadChannel } from '../permissions/channel-access.ts';
import { MAX_TOPIC_LENGTH, normalizeContent, TOPIC_TRUNCATED_SUFFIX, truncateChars } from '../validation/message-limits.ts';
import { USER_SETTING_DEFAULTS } from '../settings/user-settings.ts';
import { resolveTarget } from './send-message.ts';
import { nextId, type RealmDatabase } from '../storage/database.ts';
import type { DraftRow, UserRow } from '../storage/rows.ts';
import type { CallerScope, ReadScope } from '../services/action-scope.ts';
import { draftToWire } from '../wire/draft-wire.ts';

/** A draft as a client sends it (already type-checked). */
export interface DraftInput {
  type: DraftRow['type'];
  to: number[];
  topic: string;
  content: string;
  timestamp?: number;
}

const doesNotExist = () => new ApiError('Draft does not exist', { status: 404 });

/** Every drafts endpoint refuses a user who turned synchronization off, as upstream. */
export function checkDraftsSynchronized(scope: ReadScope): void {
  const enabled = scope.caller.settings.enable_drafts_synchronization ?? USER_SETTING_DEFAULTS.enable_drafts_synchronization;
  if (!enabled) throw badRequest('User has disabled synchronizing drafts.');
}

/** Creates the drafts in the order given, all or none, and answers their ids. */
export async function createDrafts(scope: CallerScope, drafts: DraftInput[]): Promise<number[]> {
  checkDraftsSynchronized(scope);
  const fields = [];
  for (const draft of drafts) fields.push(await checkedDraft(scope, draft));
  const rows: DraftRow[] = [];
  for (const draft of fields) rows.push({ id: await nextId(scope.db, 'draft'), user_id: scope.caller.id, ...draft });
  await scope.db.drafts.bulkAdd(rows);
  scope.notify({ event: { type: 'drafts', op: 'add', drafts: rows.map(draftToWire) }, users: [scope.caller.id] });
  return rows.map((row) => row.id);
}

/** Replaces a draft with the one given (upstream's PATCH replaces the whole draft). */
export async function editDraft(scope: CallerScope, id: number, draft: DraftInput): Promise<void> {
  checkDraftsSynchronized(scope);
  await ownDraft(scope.db, scope.caller, id);
  const updated: DraftRow = { id, user_id: scope.caller.id, ...(await checkedDraft(scope, draft)) };
  await scope.db.drafts.put(updated);
  scope.notify({ event: { type: 'drafts', op: 'update', draft: draftToWire(updated) }, users: [scope.caller.id] });
}

export async function deleteDraft(scope: CallerScope, id: number): Promise<void> {
  checkDraftsSynchronized(scope);
  await ownDraft(scope.db, scope.caller, id);
  await scope.db.drafts.delete(id);
  scope.notify({ event: { type: 'drafts', op: 'remove', draft_id: id }, users: [scope.caller.id] });
}

/** Turning synchronization off deletes the stored drafts without events: clients keep their copies. */
export async function forgetDrafts(db: RealmDatabase, userId: number): Promise<void> {
  await db.drafts.where('user_id').equals(userId).delete();
}

/** Someone else's draft is as unknown as a missing one. */
async function ownDraft(db: RealmDatabase, actor: UserRow, id: number): Promise<DraftRow> {
  const row = await db.drafts.get(id);
  if (!row || row.user_id !== actor.id) throw doesNotExist();
  return row;
}

/**
 * Upstream's checks, in its order: the content as a message's, the timestamp (default now,
 * microseconds), then the recipient. A channel draft names exactly one channel the user can
 * read and keeps its topic as typed (cut past the limit); a direct draft names existing,
 * active users; an unaddressed draft, or a direct one with nobody in `to`, keeps no recipient.
 */
async function checkedDraft(scope: CallerScope, draft: DraftInput): Promise<Omit<DraftRow, 'id' | 'user_id'>> {
  const content = normalizeContent(draft.content);
  const timestamp = Math.round((draft.timestamp ?? scope.now) * 1e6) / 1e6;
  if (timestamp < 0) throw badRequest('Timestamp must not be negative.');
  const base = { content, last_edit_time: timestamp };
  if (draft.type === 'stream') {
    const topic = truncateChars(draft.topic, MAX_TOPIC_LENGTH, TOPIC_TRUNCATED_SUFFIX);
    if (topic.includes('\0')) throw badRequest('Topic must not contain null bytes');
    if (draft.to.length !== 1) throw badRequest('Must specify exactly 1 channel ID for channel messages');
    await checkChannelAccess(scope, draft.to[0]);
    return { ...base, type: 'stream', to: [draft.to[0]], topic };
  }
  if (draft.type === 'private' && draft.to.length > 0) {
    const target = await resolveTarget(scope.db, scope.directory, scope.caller, { kind: 'direct', users: draft.to.map((id) => ({ id })) });
    const others = target.recipients.filter((id) => id !== scope.caller.id).sort((a, b) => a - b);
    return { ...base, type: 'private', to: others.length > 0 ? others : [scope.caller.id], topic: '' };
  }
  return { ...base, type: '', to: [], topic: '' };
}

async function checkChannelAccess(scope: CallerScope, channelId: number): Promise<void> {
  const channel = scope.directory.channels.get(channelId);
  const subscribed = (await scope.db.subscriptions.get([scope.caller.id, channelId]))?.active === 1;
  if (!channel || channel.is_archived || !canReadChannel(scope.caller, channel, subscribed)) throw badRequest('Invalid channel ID');
}
