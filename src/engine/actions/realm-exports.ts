/**
 * Data exports (administrators): each is the realm archive, made at once instead of by a
 * queue worker. The route records the request, makes the archive and stores it outside any
 * transaction, then records the outcome; each change sends every human administrator the whole
 * list (`realm_export`), as upstream's notify_realm_export.
 */
import { badRequest } from '../errors/api-error.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { nextId } from '../storage/database.ts';
import { ROLE_ADMIN, type UserRow } from '../storage/rows.ts';
import { realmExportsToWire } from '../wire/realm-export-wire.ts';

/** Upstream's limit: five exports a week. */
const EXPORT_LIMIT = 5;
const EXPORT_LIMIT_WINDOW_SECONDS = 7 * 24 * 60 * 60;

export async function requestRealmExport(scope: CallerScope, exportType: 1 | 2): Promise<number> {
  const recent = await scope.db.realm_exports.filter((row) => row.export_time >= scope.now - EXPORT_LIMIT_WINDOW_SECONDS).count();
  if (recent >= EXPORT_LIMIT) throw badRequest('Exceeded rate limit.');
  const id = await nextId(scope.db, 'realm_export');
  await scope.db.realm_exports.add({
    id,
    acting_user_id: scope.caller.id,
    export_type: exportType,
    export_time: scope.now,
    status: 'pending',
    path_id: null,
    failed_timestamp: null,
  });
  await notifyExports(scope);
  return id;
}

/** The archive is stored at `pathId` (or could not be made: null). */
export async function finishRealmExport(scope: CallerScope, id: number, pathId: string | null): Promise<void> {
  await scope.db.realm_exports.update(
    id,
    pathId === null ? { status: 'failed', failed_timestamp: scope.now } : { status: 'succeeded', path_id: pathId },
  );
  await notifyExports(scope);
}

export const isHumanAdmin = (user: UserRow): boolean => user.is_active && !user.is_bot && user.role <= ROLE_ADMIN;

async function notifyExports(scope: CallerScope): Promise<void> {
  const exports = realmExportsToWire(await scope.db.realm_exports.toArray());
  const admins = [...scope.directory.users.values()].filter(isHumanAdmin).map((u) => u.id);
  scope.notify({ event: { type: 'realm_export', exports }, users: admins });
}
