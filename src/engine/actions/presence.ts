/**
 * Presence, as upstream models it: per user the last time a client reported them active and the
 * last time any client was connected (idle), plus a realm-wide update sequence so that clients
 * can poll for changes only. A user coming (back) online is announced at once with a `presence`
 * event; everything else is learnt by polling.
 */
import { badRequest } from '../errors/api-error.ts';
import { apiEmail } from '../permissions/email-visibility.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { nextId, type RealmDatabase } from '../storage/database.ts';
import type { PresenceRow, UserRow } from '../storage/rows.ts';
import type { ActionScope, CallerScope, ReadScope } from '../services/action-scope.ts';
import { userByKey } from './users.ts';
import {
  type LegacyClientPresence,
  legacyPresence,
  type ModernPresence,
  modernPresence,
  type PresenceQuery,
  type RealmPresence,
  realmPresence,
  sharesPresence,
} from '../wire/presence-wire.ts';

/** Upstream's server settings (seconds). */
const UPDATE_MIN_FREQ_SECS = 55;
const PING_INTERVAL_SECS = 60;
const OFFLINE_THRESHOLD_SECS = 140;
/** Within this much of the last connection, a legacy event still says "active". */
const LEGACY_EVENT_ACTIVITY_OFFSET_SECS = 70;

/**
 * POST /users/me/presence: records the caller's report, then answers the realm's presence as
 * `query` asks (with the report's own change), or nothing for a ping only (`query` null).
 */
export async function reportPresence(
  scope: CallerScope,
  { status, query }: { status: string; query: PresenceQuery | null },
): Promise<RealmPresence | null> {
  await updatePresence(scope, scope.directory, scope.caller, status);
  return query && realmPresence(scope.db, scope.directory, scope.caller, scope.now, query);
}

/**
 * Records a status report, as upstream: a first report creates the row (an idle one with an
 * activity time just old enough to read as idle); later reports move each timestamp only when
 * it is older than the minimum update interval. The realm hears of a first report, or of an
 * active report after a gap long enough that clients may have shown the user as offline.
 * An invisible user's reports are accepted but not recorded, as upstream.
 */
async function updatePresence(scope: ActionScope, directory: RealmDirectory, actor: UserRow, status: string): Promise<void> {
  if (status !== 'active' && status !== 'idle') throw badRequest(`Invalid status: ${status}`);
  if (!sharesPresence(actor)) return;
  const now = scope.now;
  const current = await scope.db.presence.get(actor.id);
  let row: PresenceRow;
  let announce: boolean;
  if (!current) {
    const activeTimestamp = status === 'active' ? now : now - LEGACY_EVENT_ACTIVITY_OFFSET_SECS - 1;
    row = { user_id: actor.id, active_timestamp: activeTimestamp, idle_timestamp: now, last_update_id: 0 };
    announce = true;
  } else {
    const sinceActive = now - current.active_timestamp;
    announce = status === 'active' && sinceActive > OFFLINE_THRESHOLD_SECS - PING_INTERVAL_SECS - 10;
    row = { ...current };
    if (now - current.idle_timestamp > UPDATE_MIN_FREQ_SECS) row.idle_timestamp = now;
    if (status === 'active' && sinceActive > UPDATE_MIN_FREQ_SECS) {
      row.active_timestamp = now;
      row.idle_timestamp = Math.max(row.idle_timestamp, now);
    }
    if (row.active_timestamp === current.active_timestamp && row.idle_timestamp === current.idle_timestamp) return;
  }
  const saved = await savePresence(scope.db, row);
  if (announce) notifyPresence(scope, directory, actor, saved);
}

/**
 * Records a user's presence learnt from elsewhere (a sync hub's `presence` event): each timestamp
 * moves only forward, so a late event never undoes a newer report. Returns whether it changed.
 * Run inside a transaction on `presence` and `counters`.
 */
export async function mergePresence(db: RealmDatabase, userId: number, presence: ModernPresence): Promise<boolean> {
  const current = await db.presence.get(userId);
  const activeTimestamp = Math.max(current?.active_timestamp ?? 0, presence.active_timestamp);
  const idleTimestamp = Math.max(current?.idle_timestamp ?? 0, presence.idle_timestamp);
  if (current && activeTimestamp === current.active_timestamp && idleTimestamp === current.idle_timestamp) return false;
  await savePresence(db, { user_id: userId, active_timestamp: activeTimestamp, idle_timestamp: idleTimestamp });
  return true;
}

/** Stores a presence row under the realm's next update id, so clients polling with `last_update_id` see it. */
async function savePresence(db: RealmDatabase, row: Omit<PresenceRow, 'last_update_id'>): Promise<PresenceRow> {
  const saved = { ...row, last_update_id: await nextId(db, 'presence_update') };
  await db.presence.put(saved);
  return saved;
}

/**
 * One canonical event carrying both formats; the queue's finalizer keeps the one it reads
 * (`presences` for `simplified_presence_events`, else the legacy fields, `email` unless slim).
 */
function notifyPresence(scope: ActionScope, directory: RealmDirectory, actor: UserRow, row: PresenceRow): void {
  const activeForEvent = row.active_timestamp + LEGACY_EVENT_ACTIVITY_OFFSET_SECS >= row.idle_timestamp;
  const website: LegacyClientPresence = {
    client: 'website',
    status: activeForEvent ? 'active' : 'idle',
    timestamp: activeForEvent ? row.active_timestamp : row.idle_timestamp,
    pushable: false,
  };
  const audience = [...directory.users.values()].filter((u) => u.is_active && !u.is_system_bot);
  scope.notify({
    event: {
      type: 'presence',
      user_id: actor.id,
      server_timestamp: scope.now,
      presence: { website },
      presences: { [String(actor.id)]: modernPresence(row) },
    },
    users: audience.map((u) => u.id),
    perUser: new Map(audience.map((viewer) => [viewer.id, { email: apiEmail(directory.realm, viewer, actor) }])),
  });
}

/**
 * GET /users/{user_id}/presence: one active human user's presence, by id or API email (a real
 * email only where the caller may see it). An invisible user's data is hidden from others as
 * if there were none. The legacy form shows only status and time, and calls a stale aggregate
 * offline.
 */
export async function userPresence(scope: ReadScope, userKey: string): Promise<unknown> {
  const { caller, now } = scope;
  const target = userByKey(scope.directory, caller, userKey);
  if (!target || !target.is_active || target.is_system_bot) throw badRequest('No such user');
  const row = await scope.db.presence.get(target.id);
  if (target.bot_type !== null) throw badRequest('Presence is not supported for bot users.');
  const visible = target.id === caller.id || sharesPresence(target);
  if (!row || !visible) throw badRequest(`No presence data for ${userKey}`);
  const { website, aggregated } = legacyPresence(row, now);
  return {
    website: { status: website.status, timestamp: website.timestamp },
    aggregated: {
      status: now - aggregated.timestamp > OFFLINE_THRESHOLD_SECS ? 'offline' : aggregated.status,
      timestamp: aggregated.timestamp,
    },
  };
}
