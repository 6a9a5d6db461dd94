/** Presence as clients read it: the modern and legacy shapes, who shares it, and the realm-wide listing. */
import { apiEmail } from '../permissions/email-visibility.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { PresenceRow, UserRow } from '../storage/rows.ts';

export type PresenceStatus = 'active' | 'idle';

/** Legacy poll answers say "active" only for activity this recent. */
const LEGACY_ACTIVE_WINDOW_SECS = 120;

const DEFAULT_HISTORY_LIMIT_DAYS = 14;

export interface ModernPresence {
  active_timestamp: number;
  idle_timestamp: number;
}

export interface LegacyClientPresence {
  client: 'website';
  status: PresenceStatus;
  timestamp: number;
  pushable?: false;
}

export interface PresenceQuery {
  /** Modern format (keyed by user id) instead of legacy (keyed by email). */
  slim: boolean;
  /** Only rows updated after this sequence number (when positive). */
  lastUpdateId?: number;
  historyLimitDays?: number;
}

/** Upstream's invisible mode: a user with `presence_enabled` off shares no presence data. */
export const sharesPresence = (user: UserRow): boolean => user.settings.presence_enabled !== false;

export const modernPresence = (row: PresenceRow): ModernPresence => ({
  active_timestamp: row.active_timestamp,
  idle_timestamp: row.idle_timestamp,
});

/** The legacy poll format: one "website" client and an `aggregated` copy without `pushable`. */
export function legacyPresence(row: PresenceRow, now: number): Record<'website' | 'aggregated', LegacyClientPresence> {
  const active = now - row.active_timestamp <= LEGACY_ACTIVE_WINDOW_SECS;
  const status: PresenceStatus = active ? 'active' : 'idle';
  const timestamp = active ? row.active_timestamp : row.idle_timestamp;
  return {
    aggregated: { client: 'website', status, timestamp },
    website: { client: 'website', status, timestamp, pushable: false },
  };
}

export interface RealmPresence {
  presences: Record<string, unknown>;
  presence_last_update_id: number;
}

/**
 * The realm's presence data as one viewer sees it: active human users sharing their presence
 * (the viewer always sees their own), recent ones (or, given a positive `lastUpdateId`, those
 * changed since), with the newest sequence number seen.
 */
export async function realmPresence(
  db: RealmDatabase,
  directory: RealmDirectory,
  viewer: UserRow,
  now: number,
  query: PresenceQuery,
): Promise<RealmPresence> {
  const since = query.lastUpdateId ?? -1;
  const oldest = now - (query.historyLimitDays ?? DEFAULT_HISTORY_LIMIT_DAYS) * 86400;
  const rows = (await db.presence.toArray()).filter((row) => {
    const user = directory.users.get(row.user_id);
    if (!user || !user.is_active || user.is_bot) return false;
    if (user.id !== viewer.id && !sharesPresence(user)) return false;
    return since > 0 ? row.last_update_id > since : row.idle_timestamp >= oldest;
  });
  const presences: Record<string, unknown> = {};
  for (const row of rows.sort((a, b) => a.user_id - b.user_id)) {
    if (query.slim) presences[String(row.user_id)] = modernPresence(row);
    else presences[apiEmail(directory.realm, viewer, directory.user(row.user_id))] = legacyPresence(row, now);
  }
  const presenceLastUpdateId = rows.reduce((max, row) => Math.max(max, row.last_update_id), since);
  return { presences, presence_last_update_id: presenceLastUpdateId };
}
