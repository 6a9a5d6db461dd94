import { mergePresence } from '../../engine/actions/presence.ts';
import { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import { API_PREFIX, type Engine } from '../../engine/engine.ts';
import type { EngineEvent } from '../../engine/events/event-types.ts';
import { readBoundedBody } from '../../engine/http/bounded-body.ts';
import type { ModernPresence } from '../../engine/wire/presence-wire.ts';
import { EPHEMERAL_EVENT_TYPES, EPHEMERAL_PATH, type EphemeralBody, MAX_EPHEMERAL_PER_WAIT } from '../protocol.ts';

/**
 * Typing notices and presence between replicas (docs/SYNC.md, "Ephemeral events"): a replica's
 * user's typing or presence request goes to the hub besides running locally, and the events of
 * others the hub's wait brings go to the user's local queues, a presence change to the stored
 * presence rows too. Fire and forget: nothing journaled, nothing retried.
 */

/** A typing or presence request is a few short fields; a larger body is not relayed (the local engine still answers it). */
const MAX_RELAYED_BODY_BYTES = 16 * 1024;

/** A relayed request's path below `/api/v1/` and its parameters, as the hub takes them. */
export type RelayedRequest = Omit<EphemeralBody, 'hub_id' | 'epoch'>;

/** The request's path and parameters if it is a typing or presence request; null for any other. */
export async function ephemeralRequest(request: Request): Promise<RelayedRequest | null> {
  const url = new URL(request.url);
  const path = url.pathname.slice(API_PREFIX.length + 1);
  if (request.method !== 'POST' || !url.pathname.startsWith(`${API_PREFIX}/`) || !EPHEMERAL_PATH.test(path)) return null;
  const params: Record<string, string> = Object.fromEntries(url.searchParams);
  const body = await readBoundedBody(request.clone(), MAX_RELAYED_BODY_BYTES);
  if (!body) return null;
  const contentType = request.headers.get('content-type') ?? 'application/x-www-form-urlencoded';
  const form = body.byteLength === 0 ? null : await new Response(body, { headers: { 'Content-Type': contentType } }).formData().catch(() => null);
  for (const [name, value] of form ?? []) {
    if (typeof value !== 'string') return null;
    params[name] = value;
  }
  return { path, params };
}

const PRESENCE_PATH = 'users/me/presence';

/**
 * What goes to the hub for a relayed request: a presence report asks the hub for every user's
 * presence, in the modern format (the parameters choose only the answer's shape), so the replica
 * can store it (`storeHubPresences`).
 */
export function relayedToHub(relayed: RelayedRequest): RelayedRequest {
  if (relayed.path !== PRESENCE_PATH) return relayed;
  return { path: relayed.path, params: { ...relayed.params, ping_only: 'false', last_update_id: '-1' } };
}

/**
 * Stores the presences the hub answered a relayed presence report with. Other users' regular
 * reports move the hub's rows without an event (only coming online is told), so without this a
 * replica's buddy list would show them gone after a few minutes; its clients read these rows on
 * their own next report, as a hub client reads the hub's. Users this replica does not know, and
 * entries without whole-second times, are skipped.
 */
export async function storeHubPresences(engine: Engine, answer: unknown): Promise<void> {
  const presences = (answer as { presences?: unknown } | null)?.presences;
  if (presences === null || typeof presences !== 'object') return;
  const directory = await RealmDirectory.load(engine.db);
  const rows = Object.entries(presences as Record<string, Partial<ModernPresence>>).flatMap(([id, presence]) => {
    const userId = Number(id);
    const { active_timestamp: active, idle_timestamp: idle } = presence ?? {};
    if (!directory.users.has(userId) || !Number.isSafeInteger(active) || !Number.isSafeInteger(idle)) return [];
    return [{ userId, presence: { active_timestamp: active!, idle_timestamp: idle! } }];
  });
  if (rows.length === 0) return;
  const { db } = engine;
  await db.transaction('rw', [db.presence, db.counters], async () => {
    for (const { userId, presence } of rows) await mergePresence(db, userId, presence);
  });
}

/**
 * The hub's ephemeral events for this replica's user, to its local queues: each queue shapes
 * them as the engine's own delivery would (channel typing only for clients that declared it, the
 * realm's name for the empty topic, the presence format the client asked for), so a client sees
 * what a client of the hub sees. A presence change is stored first, so a client that reads the
 * realm's presence on hearing of it finds it there.
 */
export async function deliverEphemeral(engine: Engine, userId: number, events: readonly EngineEvent[]): Promise<void> {
  const directory = await RealmDirectory.load(engine.db);
  const delivered = events
    .filter((event) => EPHEMERAL_EVENT_TYPES.has(event.type) && (event.type !== 'presence' || relayedPresence(event, directory)))
    .slice(-MAX_EPHEMERAL_PER_WAIT);
  const presences = delivered.flatMap((event) => relayedPresence(event, directory) ?? []);
  if (presences.length > 0) {
    const { db } = engine;
    await db.transaction('rw', [db.presence, db.counters], async () => {
      for (const { userId: user, presence } of presences) await mergePresence(db, user, presence);
    });
  }
  const emptyTopicDisplayName = directory.realm.empty_topic_display_name;
  engine.queues.deliver(delivered.map((event) => ({ event, users: [userId], emptyTopicDisplayName })));
}

/** A presence event's user and timestamps, if it names a user this replica knows with whole-second times. */
function relayedPresence(event: EngineEvent, directory: RealmDirectory): { userId: number; presence: ModernPresence } | null {
  if (event.type !== 'presence' || typeof event.user_id !== 'number' || !directory.users.has(event.user_id)) return null;
  const presence = (event.presences as Record<string, Partial<ModernPresence>> | undefined)?.[String(event.user_id)];
  const { active_timestamp: active, idle_timestamp: idle } = presence ?? {};
  if (!Number.isSafeInteger(active) || !Number.isSafeInteger(idle)) return null;
  return { userId: event.user_id, presence: { active_timestamp: active!, idle_timestamp: idle! } };
}
