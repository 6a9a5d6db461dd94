import type { ClientCapabilities } from '../events/event-types.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { SubscriberMode } from '../wire/subscription-wire.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { UserRow } from '../storage/rows.ts';

/** What every initial-state section reads: one snapshot of the realm and the client's options. */
export interface StateContext {
  db: RealmDatabase;
  directory: RealmDirectory;
  /** null: an unauthenticated spectator. */
  user: UserRow | null;
  capabilities: ClientCapabilities;
  includeSubscribers: SubscriberMode;
  /** The personal settings in effect (defaults for spectators). */
  settings: Record<string, unknown>;
  /** UNIX seconds. */
  now: number;
  /** When the engine hosting the queue started, UNIX seconds (upstream's `server_generation`). */
  serverGeneration: number;
  /** The register `slim_presence` and `presence_history_limit_days` (defaults: legacy format, 14 days). */
  presence?: { slim: boolean; historyLimitDays?: number };
}
