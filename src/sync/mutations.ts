import { mutationParams, PROVISIONAL_ID_BASE } from './protocol.ts';

/**
 * The API writes that travel through sync in this slice (docs/SYNC.md), each with the
 * parameters it may carry. A mutation *is* one of these requests: the replica runs it locally,
 * the hub runs it again as the user's own request.
 */
interface SyncedRoute {
  method: string;
  /** Below /api/v1; a captured group is a message id. */
  pattern: RegExp;
  params: readonly string[];
  /**
   * `send` creates a message; `flags` names messages in its `messages` list; `narrow` may name
   * one as its `anchor`; `subscribe` names channels, which must exist; `other` names no message;
   * `forward` is any other write, run on the hub only (`forwardedRequest`).
   */
  kind: 'send' | 'message' | 'flags' | 'narrow' | 'subscribe' | 'other' | 'forward';
  /**
   * Parameters the replica's own run takes instead of the user's (the hub runs the user's): a
   * move's notes from the notification bot are the hub's messages, which the pull brings; made
   * on the replica too, they would be messages no hub ever confirms.
   */
  localParams?: Readonly<Record<string, string>>;
}

const REACTION_PARAMS = ['emoji_name', 'emoji_code', 'reaction_type'];
const EDIT_PARAMS = [
  'content',
  'topic',
  'subject',
  'stream_id',
  'propagate_mode',
  'send_notification_to_old_thread',
  'send_notification_to_new_thread',
];
const NARROW_PARAMS = ['anchor', 'include_anchor', 'num_before', 'num_after', 'narrow', 'op', 'flag'];
const NO_MOVE_NOTES = { send_notification_to_old_thread: 'false', send_notification_to_new_thread: 'false' };

const SYNCED_ROUTES: readonly SyncedRoute[] = [
  { method: 'POST', pattern: /^\/messages$/, params: ['type', 'to', 'content', 'topic', 'subject', 'read_by_sender'], kind: 'send' },
  { method: 'PATCH', pattern: /^\/messages\/(\d{1,16})$/, params: EDIT_PARAMS, kind: 'message', localParams: NO_MOVE_NOTES },
  { method: 'DELETE', pattern: /^\/messages\/(\d{1,16})$/, params: [], kind: 'message' },
  { method: 'POST', pattern: /^\/messages\/(\d{1,16})\/reactions$/, params: REACTION_PARAMS, kind: 'message' },
  { method: 'DELETE', pattern: /^\/messages\/(\d{1,16})\/reactions$/, params: REACTION_PARAMS, kind: 'message' },
  { method: 'POST', pattern: /^\/messages\/flags$/, params: ['messages', 'op', 'flag'], kind: 'flags' },
  { method: 'POST', pattern: /^\/messages\/flags\/narrow$/, params: NARROW_PARAMS, kind: 'narrow' },
  { method: 'POST', pattern: /^\/mark_all_as_read$/, params: [], kind: 'other' },
  { method: 'POST', pattern: /^\/mark_stream_as_read$/, params: ['stream_id'], kind: 'other' },
  { method: 'POST', pattern: /^\/mark_topic_as_read$/, params: ['stream_id', 'topic_name'], kind: 'other' },
  { method: 'POST', pattern: /^\/user_topics$/, params: ['stream_id', 'topic', 'visibility_policy'], kind: 'other' },
  { method: 'PATCH', pattern: /^\/users\/me\/subscriptions\/muted_topics$/, params: ['stream_id', 'stream', 'topic', 'op'], kind: 'other' },
  { method: 'POST', pattern: /^\/users\/me\/subscriptions$/, params: ['subscriptions', 'principals', 'authorization_errors_fatal'], kind: 'subscribe' },
  { method: 'DELETE', pattern: /^\/users\/me\/subscriptions$/, params: ['subscriptions', 'principals'], kind: 'other' },
  { method: 'POST', pattern: /^\/users\/me\/subscriptions\/properties$/, params: ['subscription_data'], kind: 'other' },
];

/** The flags whose changes sync in this slice. */
const SYNCED_FLAGS = new Set(['read', 'starred']);

/** Parameters that belong to the local client, never pushed (the hub's queues are not the replica's). */
export const LOCAL_PARAMS = new Set(['queue_id', 'local_id', 'client']);

export interface SyncedRequest {
  route: SyncedRoute;
  method: string;
  path: string;
  params: Record<string, string>;
}

/** The synced request this is, or why it cannot be one (`null` message: not a synced route). */
export function syncedRequest(method: string, path: string, params: Record<string, string>): SyncedRequest | string {
  const route = SYNCED_ROUTES.find((r) => r.method === method && r.pattern.test(path));
  if (!route) return `${method} ${path} is not available on a synced replica yet`;
  for (const name of Object.keys(params)) {
    if (!route.params.includes(name) && !LOCAL_PARAMS.has(name)) return `${method} ${path} with '${name}' is not available on a synced replica yet`;
  }
  if ((route.kind === 'flags' || route.kind === 'narrow') && !SYNCED_FLAGS.has(params.flag ?? '')) return `The '${params.flag ?? ''}' flag is not synced yet`;
  return { route, method, path, params };
}

/**
 * A forwarded write's path: segments of URL-safe characters (a navigation view's fragment may be
 * several), no `.` or `..` segment, so it can only name a route below `/api/v1`.
 */
const FORWARDED_PATH = /^(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9_.~%@+:=,-]{1,100}){1,8}$/;
const MAX_FORWARDED_PATH = 200;

/**
 * Any other API write, as a replica forwards it to the hub while the hub is reachable (docs/SYNC.md):
 * run there only, as the user's own request, never locally. Its path may name provisional
 * message ids (a segment at or above `PROVISIONAL_ID_BASE`), as may a `messages` list.
 */
export function forwardedRequest(method: string, path: string, params: Record<string, string>): SyncedRequest | string {
  if (path.length > MAX_FORWARDED_PATH || !FORWARDED_PATH.test(path)) return `${method} ${path.slice(0, MAX_FORWARDED_PATH)} is not an API path`;
  // Checked as the hub will: a push the hub refuses as malformed answers nothing about the write.
  if (!mutationParams.safeParse(params).success) return `${method} ${path.slice(0, MAX_FORWARDED_PATH)} has more than 64 parameters or a parameter name over 64 characters, which the hub does not take`;
  return { route: { method, pattern: FORWARDED_PATH, params: [], kind: 'forward' }, method, path, params };
}

/**
 * The channel names a subscribe request names, or null when they cannot be read (the engine
 * then refuses the request itself). Subscribing to a name no channel has would create one,
 * with an id only the hub may give: a replica refuses that.
 */
export function subscribedChannelNames(request: SyncedRequest): string[] | null {
  if (request.route.kind !== 'subscribe') return [];
  try {
    const value: unknown = JSON.parse(request.params.subscriptions ?? '');
    if (!Array.isArray(value)) return null;
    return value.map((entry: unknown) => (entry !== null && typeof entry === 'object' && 'name' in entry ? String(entry.name) : ''));
  } catch {
    return null;
  }
}

/** The message ids a synced request names, or null when its `messages` list is not a list of ids. */
export function messageIdsOf(request: SyncedRequest): number[] | null {
  if (request.route.kind === 'forward') return [...provisionalSegments(request.path), ...(parseIdList(request.params.messages) ?? [])];
  const match = request.route.pattern.exec(request.path);
  if (match?.[1] !== undefined) return [Number(match[1])];
  if (request.route.kind === 'narrow') return anchorId(request.params.anchor);
  return request.route.kind === 'flags' ? parseIdList(request.params.messages) : [];
}

/** A narrow's anchor as a message id, if it is one (else `newest`, `oldest`, `first_unread`). */
const anchorId = (anchor: string | undefined): number[] => (anchor !== undefined && /^\d{1,16}$/.test(anchor) ? [Number(anchor)] : []);

/**
 * The request with every provisional id replaced through `finalId`; null if one has no final
 * id (the send that made it was refused or never reached the hub).
 */
export function withFinalIds(request: SyncedRequest, finalId: (provisional: number) => number | undefined): SyncedRequest | null {
  const map = (id: number): number | undefined => (id >= PROVISIONAL_ID_BASE ? finalId(id) : id);
  if (request.route.kind === 'forward') return forwardedWithFinalIds(request, map);
  const match = request.route.pattern.exec(request.path);
  if (match?.[1] !== undefined) {
    const id = map(Number(match[1]));
    if (id === undefined) return null;
    return { ...request, path: request.path.replace(`/${match[1]}`, `/${id}`) };
  }
  if (request.route.kind === 'narrow') {
    const [anchor] = anchorId(request.params.anchor);
    if (anchor === undefined) return request;
    const id = map(anchor);
    return id === undefined ? null : { ...request, params: { ...request.params, anchor: String(id) } };
  }
  if (request.route.kind !== 'flags') return request;
  const ids = parseIdList(request.params.messages);
  if (!ids) return request;
  const mapped = ids.map(map);
  if (mapped.some((id) => id === undefined)) return null;
  return { ...request, params: { ...request.params, messages: JSON.stringify(mapped) } };
}

/** The path segments that are provisional message ids (hub ids are 32-bit, so never one of these). */
const provisionalSegments = (path: string): number[] =>
  path.split('/').filter((segment) => /^\d{1,16}$/.test(segment)).map(Number).filter((id) => id >= PROVISIONAL_ID_BASE);

function forwardedWithFinalIds(request: SyncedRequest, map: (id: number) => number | undefined): SyncedRequest | null {
  const segments = request.path.split('/').map((segment) => {
    if (!/^\d{1,16}$/.test(segment)) return segment;
    const id = map(Number(segment));
    return id === undefined ? null : String(id);
  });
  if (segments.includes(null)) return null;
  const params = { ...request.params };
  const ids = parseIdList(params.messages);
  if (ids) {
    const mapped = ids.map(map);
    if (mapped.some((id) => id === undefined)) return null;
    params.messages = JSON.stringify(mapped);
  }
  return { ...request, path: segments.join('/'), params };
}

function parseIdList(raw: string | undefined): number[] | null {
  if (raw === undefined) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) && value.every((id) => Number.isSafeInteger(id)) ? (value as number[]) : null;
  } catch {
    return null;
  }
}
