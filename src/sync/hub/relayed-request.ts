import { API_PREFIX, type Engine } from '../../engine/engine.ts';
import type { EphemeralBody, HubReadBody } from '../protocol.ts';

/**
 * `POST /sync/v1/ephemeral`: a replica's user started or stopped typing, or reported their
 * presence. Run as that user's own API request (their Authorization header), so the API's checks
 * and permissions apply and the hub's own clients, and the other replicas' relays, get the
 * engine's `typing` or `presence` events (and the hub stores the presence row). The answer is the
 * API's; the replica does not wait for it.
 */
export function runRelayedRequest(engine: Engine, request: Request, body: EphemeralBody): Promise<Response> {
  const headers = { Authorization: request.headers.get('authorization')!, 'Content-Type': 'application/x-www-form-urlencoded' };
  const url = new URL(`${API_PREFIX}/${body.path}`, request.url);
  return engine.handle(new Request(url, { method: 'POST', headers, body: new URLSearchParams(body.params) }));
}

/**
 * `POST /sync/v1/read`: a read only the hub can answer (`HUB_READ_PATH`), run as the replica's
 * user's own `GET` (their Authorization header, so the API's checks apply); the answer is the
 * API's, whatever it is, for the replica to hand its client.
 */
export function runRelayedRead(engine: Engine, request: Request, body: HubReadBody): Promise<Response> {
  const url = new URL(`${API_PREFIX}/${body.path}`, request.url);
  url.search = new URLSearchParams(body.params).toString();
  return engine.handle(new Request(url, { method: 'GET', headers: { Authorization: request.headers.get('authorization')! } }));
}
