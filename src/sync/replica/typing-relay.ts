import { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import { API_PREFIX, type Engine } from '../../engine/engine.ts';
import type { EngineEvent } from '../../engine/events/event-types.ts';
import { readBoundedBody } from '../../engine/http/bounded-body.ts';
import { EPHEMERAL_EVENT_TYPES, TYPING_PATH, type TypingBody } from '../protocol.ts';

/**
 * Typing notices between replicas (docs/SYNC.md, "Ephemeral events"): a replica's user's typing
 * request goes to the hub besides running locally, and the notices of others the hub's wait
 * brings go to the user's local queues. Fire and forget: nothing stored, nothing retried.
 */

/** A typing request is a few short fields; a larger body is not relayed (the local engine still answers it). */
const MAX_TYPING_BODY_BYTES = 16 * 1024;
/** At most this many notices from one wait answer: the hub sends the newest few. */
const MAX_DELIVERED = 8;

/** A typing request's path below `/api/v1/` and its parameters, as the hub takes them. */
export type RelayedTyping = Omit<TypingBody, 'hub_id' | 'epoch'>;

/** The request's path and parameters if it is a typing request; null for any other. */
export async function typingRequest(request: Request): Promise<RelayedTyping | null> {
  const url = new URL(request.url);
  const path = url.pathname.slice(API_PREFIX.length + 1);
  if (request.method !== 'POST' || !url.pathname.startsWith(`${API_PREFIX}/`) || !TYPING_PATH.test(path)) return null;
  const params: Record<string, string> = Object.fromEntries(url.searchParams);
  const body = await readBoundedBody(request.clone(), MAX_TYPING_BODY_BYTES);
  if (!body) return null;
  const contentType = request.headers.get('content-type') ?? 'application/x-www-form-urlencoded';
  const form = body.byteLength === 0 ? null : await new Response(body, { headers: { 'Content-Type': contentType } }).formData().catch(() => null);
  for (const [name, value] of form ?? []) {
    if (typeof value !== 'string') return null;
    params[name] = value;
  }
  return { path, params };
}

/**
 * The hub's typing events for this replica's user, to its local queues: each queue reshapes
 * them as the engine's own delivery would (channel typing only for clients that declared it,
 * the realm's name for the empty topic), so a client sees what a client of the hub sees.
 */
export async function deliverEphemeral(engine: Engine, userId: number, events: readonly EngineEvent[]): Promise<void> {
  const directory = await RealmDirectory.load(engine.db);
  const emptyTopicDisplayName = directory.realm.empty_topic_display_name;
  engine.queues.deliver(
    events
      .filter((event) => EPHEMERAL_EVENT_TYPES.has(event.type))
      .slice(-MAX_DELIVERED)
      .map((event) => ({ event, users: [userId], emptyTopicDisplayName })),
  );
}
