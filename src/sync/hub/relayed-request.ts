import { API_PREFIX, type Engine } from '../../engine/engine.ts';
import type { EphemeralBody } from '../protocol.ts';

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
