import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { Notice } from '../../engine/events/event-types.ts';
import type { RefusedMessage } from '../../engine/storage/rows.ts';

/** `data-sync`'s values (runtime contract 4): N changes not yet acknowledged by the hub. */
export type SyncStatus = 'online' | 'offline' | `pending:${number}`;

/** The path of the replica's own extension of the API (docs/SYNC.md): its sync status. */
export const SYNC_STATUS_PATH = '/offline_realm/sync';
/** The event a replica's local queues get when its sync status changes. */
export const SYNC_EVENT_TYPE = 'offline_realm_sync';
/** `GET /offline_realm/sync` lists at most this many refusals, newest first. */
const MAX_REFUSALS_LISTED = 50;

export interface RefusalView {
  mutation_id: number;
  method: string;
  path: string;
  msg: string;
  code: string;
  /** A refused send's text and recipient, as sent. */
  message?: RefusedMessage;
}

/** What `GET /api/v1/offline_realm/sync` answers (with `hub_url`), and what its event carries. */
export interface SyncReport {
  status: SyncStatus;
  pending: number;
  /** Provisional ids of the sends the hub has not acknowledged yet. */
  pending_message_ids: number[];
  last_error: string | null;
  refusals: RefusalView[];
  refusals_count: number;
}

/** The replica's sync state as of its last round (`reachable`, `lastError`) and its outbox now. */
export async function readSyncReport(db: RealmDatabase, reachable: boolean, lastError: Error | null): Promise<SyncReport> {
  const [outbox, refusals] = await db.transaction('r', [db.sync_outbox, db.sync_refusals], () =>
    Promise.all([db.sync_outbox.toArray(), db.sync_refusals.toArray()]),
  );
  const pendingRows = outbox.filter((row) => row.state === 'pending');
  const pending = pendingRows.length;
  const newestFirst = refusals.sort((a, b) => b.mutation_id - a.mutation_id);
  return {
    status: !reachable ? 'offline' : pending > 0 ? `pending:${pending}` : 'online',
    pending,
    pending_message_ids: pendingRows.flatMap((row) => (row.provisional_id === undefined ? [] : [row.provisional_id])),
    last_error: lastError?.message ?? null,
    refusals: newestFirst.slice(0, MAX_REFUSALS_LISTED).map(({ mutation_id, method, path, msg, code, message }) => ({ mutation_id, method, path, msg, code, ...(message ? { message } : {}) })),
    refusals_count: refusals.length,
  };
}

/** The `offline_realm_sync` event's fields: a change to any of them is announced. */
export function syncEvent(report: SyncReport): Record<string, unknown> & { type: string } {
  const { status, pending, pending_message_ids, last_error, refusals_count } = report;
  return { type: SYNC_EVENT_TYPE, status, pending, pending_message_ids, last_error, refusals_count };
}

/** The event for the replica's user's queues (those whose `event_types` allow it). */
export function syncNotice(userId: number, report: SyncReport): Notice {
  return { event: syncEvent(report), users: [userId] };
}
