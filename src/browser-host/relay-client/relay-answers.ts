import { API_PATH_PREFIX, type RelayedResponse } from '../protocol/relay-protocol.ts';

/** A long-poll waits up to ~55 s for a heartbeat; anything else answers at once. */
const POLL_TIMEOUT_MS = 90_000;
const REQUEST_TIMEOUT_MS = 10_000;

/** How long a relayed request may wait for the engine's answer before it is answered 503. */
export function relayTimeoutMs(request: Request): number {
  const isPoll = request.method === 'GET' && new URL(request.url).pathname === `${API_PATH_PREFIX}events`;
  return isPoll ? POLL_TIMEOUT_MS : REQUEST_TIMEOUT_MS;
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
