import { API_PATH_PREFIX, type RelayedResponse } from '../protocol/relay-protocol.ts';

/** A long-poll waits up to ~55 s for a heartbeat; anything else answers at once, but a file. */
const POLL_TIMEOUT_MS = 90_000;
const REQUEST_TIMEOUT_MS = 10_000;
/**
 * An upload, or an uploaded file: up to the realm's largest file (25 MiB by default) to store,
 * and on a synced replica to carry to or from its hub over the room's network first (the
 * replica gives the hub as long, `hub-client.ts`). Answered 503 sooner, a slow upload the hub
 * still takes would be offered again by its user: a second copy.
 */
const FILE_TIMEOUT_MS = 120_000;

/**
 * A login: on a browser replica the first one asks the hub (within 20 s) and then takes the
 * user's snapshot (within 120 s) before it answers; a second login waits behind it. Elsewhere
 * it answers at once. Answered 503 sooner, the trainee would be told the login failed while it
 * went on and succeeded.
 */
const LOGIN_TIMEOUT_MS = 180_000;

/** How long a relayed request may wait for the engine's answer before it is answered 503. */
export function relayTimeoutMs(request: Request): number {
  const { pathname } = new URL(request.url);
  if (request.method === 'GET' && pathname === `${API_PATH_PREFIX}events`) return POLL_TIMEOUT_MS;
  if (request.method === 'POST' && pathname === `${API_PATH_PREFIX}fetch_api_key`) return LOGIN_TIMEOUT_MS;
  if (pathname === `${API_PATH_PREFIX}user_uploads` || pathname.startsWith('/user_uploads/')) return FILE_TIMEOUT_MS;
  return REQUEST_TIMEOUT_MS;
}

export function toResponse(reply: RelayedResponse): Response {
  return new Response(reply.body, { status: reply.status, statusText: reply.statusText, headers: reply.headers });
}

/** The answer when no engine answers: upstream-style JSON, worth retrying. */
export function unavailable(msg: string): Response {
  return new Response(`${JSON.stringify({ result: 'error', msg, code: 'SERVER_UNAVAILABLE' })}\n`, {
    status: 503,
    headers: { 'Content-Type': 'application/json', 'Retry-After': '1' },
  });
}
