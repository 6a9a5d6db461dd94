import { finishRealmExport, requestRealmExport } from '../actions/realm-exports.ts';
import { callerAction, defineEndpoint } from '../http/endpoint.ts';
import { intValue, json, VAR } from '../http/param-types.ts';
import { exportRealm } from '../realm-archive/realm-archive.ts';
import { USER_SETTING_DEFAULTS } from '../settings/user-settings.ts';
import { newPathId } from '../storage/upload-paths.ts';
import { realmExportsToWire } from '../wire/realm-export-wire.ts';

/**
 * Data exports: the realm archive (every table, as the console's export makes it) stored
 * through the upload store and listed as upstream lists exports. The archive is the whole realm
 * whatever `export_type` asks for: it is this server's one export format.
 */
export const realmExportEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/export/realm',
    auth: 'admin',
    params: {},
    async read(scope) {
      return { exports: realmExportsToWire(await scope.db.realm_exports.toArray()) };
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/export/realm',
    auth: 'admin',
    params: {
      export_type: json(intValue().refine((v): v is 1 | 2 => v === 1 || v === 2, { error: `Invalid ${VAR}` })).default(1),
    },
    async handler(ctx, params) {
      const id = await callerAction(ctx, (scope) => requestRealmExport(scope, params.export_type as 1 | 2));
      let path: string | null = null;
      try {
        const archive = new TextEncoder().encode(JSON.stringify(await exportRealm(ctx.engine)));
        const made = newPathId(ctx.realm.id, `offline-realm-export-${id}.json`);
        await ctx.engine.uploads.put(made, archive);
        path = made;
      } catch (error) {
        // The export is recorded as failed, as upstream's worker records one.
        console.error('offline-realm: realm export failed', error);
      }
      try {
        await callerAction(ctx, (scope) => finishRealmExport(scope, id, path));
      } catch (error) {
        if (path !== null) await ctx.engine.uploads.delete(path);
        throw error;
      }
      return { id };
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/export/realm/consents',
    auth: 'admin',
    params: {},
    async read(scope) {
      const users = [...scope.directory.users.values()].filter((u) => u.is_active && !u.is_bot).sort((a, b) => a.id - b.id);
      const consented = (settings: Record<string, unknown>) => (settings.allow_private_data_export ?? USER_SETTING_DEFAULTS.allow_private_data_export) === true;
      return { export_consents: users.map((u) => ({ user_id: u.id, consented: consented(u.settings) })) };
    },
  }),
];
