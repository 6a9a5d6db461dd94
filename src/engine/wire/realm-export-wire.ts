import type { RealmExportRow } from '../storage/rows.ts';
import { uploadUrl } from '../storage/upload-paths.ts';

/** Upstream's export object (get_realm_exports_serialized), in id order. */
export function realmExportsToWire(rows: readonly RealmExportRow[]): Record<string, unknown>[] {
  return [...rows]
    .sort((a, b) => a.id - b.id)
    .map((row) => ({
      id: row.id,
      acting_user_id: row.acting_user_id,
      export_time: row.export_time,
      deleted_timestamp: null,
      failed_timestamp: row.failed_timestamp,
      export_url: row.status === 'succeeded' && row.path_id !== null ? uploadUrl(row.path_id) : null,
      pending: row.status === 'pending',
      export_type: row.export_type,
    }));
}
