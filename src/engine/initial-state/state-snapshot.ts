import { readSnapshot } from '../services/run-action.ts';
import type { EngineServices } from '../services/engine-services.ts';
import type { ClientCapabilities } from '../events/event-types.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import type { SubscriberMode } from '../wire/subscription-wire.ts';
import type { UserRow } from '../storage/rows.ts';
import { fetchInitialState } from './fetch-initial-state.ts';
import type { StateContext } from './state-context.ts';
import { userSettingsObject } from '../settings/user-settings.ts';

export interface StateRequest {
  /** null: a spectator. */
  user: UserRow | null;
  capabilities: ClientCapabilities;
  includeSubscribers: SubscriberMode;
  /** null: every section. */
  fetchTypes: string[] | null;
  presence: StateContext['presence'];
}

/**
 * /register's initial state, read in one snapshot. Not an async function: the caller chains
 * the queue's creation directly onto the snapshot's completion, with no extra turn between.
 */
export function snapshotInitialState(engine: EngineServices, request: StateRequest): Promise<Record<string, unknown>> {
  const { user, fetchTypes } = request;
  return readSnapshot(engine, async (db) => {
    const directory = await RealmDirectory.load(db);
    // The caller's row as of the snapshot, not as of authentication.
    const current = user ? (directory.users.get(user.id) ?? user) : null;
    const stateContext: StateContext = {
      db,
      directory,
      user: current,
      capabilities: request.capabilities,
      includeSubscribers: request.includeSubscribers,
      settings: userSettingsObject(current, directory.realm),
      now: engine.nowSeconds(),
      serverGeneration: engine.queues.startedAt,
      presence: request.presence,
    };
    return fetchInitialState(stateContext, fetchTypes && new Set(fetchTypes));
  });
}
