import {
  legacyPresence,
  modernPresence,
  OFFLINE_THRESHOLD_SECS,
  realmPresence,
  sharesPresence,
  updatePresence,
} from '../actions/presence.ts';
import { readSnapshot, runAction } from '../actions/run-action.ts';
import { badRequest } from '../http/api-error.ts';
import { defineEndpoint, type RequestContext } from '../http/endpoint.ts';
import { bool, int, str } from '../http/param-types.ts';
import { canSeeRealEmail } from '../lib/email-visibility.ts';
import { RealmDirectory } from '../lib/realm-directory.ts';
import type { UserRow } from '../storage/rows.ts';

/** Upstream reports this as a float of seconds. */
const serverTimestamp = (ctx: RequestContext): number => ctx.engine.clock.now() / 1000;

const noSuchUser = () => badRequest('No such user');

/** An active realm user by id, or by API email (a real email only where the caller may see it). */
function activeUser(ctx: RequestContext, directory: RealmDirectory, key: string): UserRow {
  const user = /^\d+$/.test(key) ? directory.users.get(Number(key)) : directory.userByApiEmail(key);
  if (!user || !user.is_active || user.is_system_bot) throw noSuchUser();
  const byRealEmail = user.email_key === key.trim().toLowerCase();
  if (byRealEmail && !canSeeRealEmail(directory.realm, ctx.user, user)) throw noSuchUser();
  return user;
}

/** Presence: report the caller's status (and poll everyone's), or read it for the realm or one user. */
export const presenceEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/users/me/presence',
    params: {
      status: str(),
      ping_only: bool().default(false),
      new_user_input: bool().default(false),
      slim_presence: bool().default(false),
      last_update_id: int().optional(),
      history_limit_days: int().optional(),
    },
    async handler(ctx, params) {
      const { engine } = ctx;
      await runAction(engine, async (scope) => updatePresence(scope, await RealmDirectory.load(scope.db), ctx.user, params.status));
      if (params.ping_only) return {};
      // Passing `last_update_id` asks for the modern format.
      const query = {
        slim: params.slim_presence || params.last_update_id !== undefined,
        lastUpdateId: params.last_update_id,
        historyLimitDays: params.history_limit_days,
      };
      const data = await readSnapshot(engine, async (db) =>
        realmPresence(db, await RealmDirectory.load(db), ctx.user, engine.nowSeconds(), query),
      );
      return { ...data, server_timestamp: serverTimestamp(ctx) };
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/realm/presence',
    params: {},
    async handler(ctx) {
      const { engine } = ctx;
      const { presences } = await readSnapshot(engine, async (db) =>
        realmPresence(db, await RealmDirectory.load(db), ctx.user, engine.nowSeconds(), { slim: false }),
      );
      return { presences, server_timestamp: serverTimestamp(ctx) };
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/users/{user_id}/presence',
    params: { user_id: str(), slim_presence: bool().default(false) },
    async handler(ctx, params) {
      const { engine } = ctx;
      const { target, row } = await readSnapshot(engine, async (db) => {
        const directory = await RealmDirectory.load(db);
        const user = activeUser(ctx, directory, params.user_id);
        return { target: user, row: await db.presence.get(user.id) };
      });
      if (target.bot_type !== null) throw badRequest('Presence is not supported for bot users.');
      // An invisible user's data is hidden from others as if there were none.
      const visible = target.id === ctx.user.id || sharesPresence(target);
      if (!row || !visible) throw badRequest(`No presence data for ${params.user_id}`);
      if (params.slim_presence) return { presence: modernPresence(row) };
      const now = engine.nowSeconds();
      const { website, aggregated } = legacyPresence(row, now);
      // This endpoint shows only status and time, and calls a stale aggregate offline.
      return {
        presence: {
          website: { status: website.status, timestamp: website.timestamp },
          aggregated: {
            status: now - aggregated.timestamp > OFFLINE_THRESHOLD_SECS ? 'offline' : aggregated.status,
            timestamp: aggregated.timestamp,
          },
        },
      };
    },
  }),
];
