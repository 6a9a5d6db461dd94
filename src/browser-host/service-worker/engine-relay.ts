import { EngineLink } from '../relay-client/engine-link.ts';
import { relayedBody } from '../relay-client/relayed-body.ts';
import { isEngineAlive, whenEngineDies } from '../protocol/engine-lock.ts';
import { askForEnginePort } from './port-request.ts';
import { relayTimeoutMs, toResponse, unavailable } from '../relay-client/relay-answers.ts';

/** The page that made the request is asked first; if it cannot answer, every window is. */
const OWN_CLIENT_WAIT_MS = 3_000;
const ANY_CLIENT_WAIT_MS = 3_000;

/**
 * The Service Worker's side of the relay: answers an intercepted `/api/v1/*` or `/user_uploads/*`
 * fetch by sending it to the engine in the SharedWorker. The Service Worker cannot start a SharedWorker, and the
 * browser may stop and restart the Service Worker at any time, losing its port; so a port is
 * asked for from a page whenever there is none, or the engine behind the current one has died.
 * A link is trusted until its engine's lock is released (`whenEngineDies`): asking the lock
 * manager before every request would cost each one a round trip to the browser process.
 */
export class EngineRelay {
  /** Tells the engine which Service Worker instance relayed a request (see replay-guard.ts). */
  readonly instance = crypto.randomUUID();
  readonly #clients: Clients;
  readonly #locks: LockManager;
  #link: EngineLink | null = null;
  #acquiring: Promise<EngineLink> | null = null;
  #nextId = 1;

  constructor(clients: Clients, locks: LockManager) {
    this.#clients = clients;
    this.#locks = locks;
  }

  async answer(event: FetchEvent, retried = false): Promise<Response> {
    const { request } = event;
    // Read no more of the body than the engine would: a longer one is refused here, unread.
    const relayed = await relayedBody(request);
    if ('refused' in relayed) return relayed.refused;
    const { body } = relayed;
    let link: EngineLink;
    try {
      link = await this.#usableLink(event.clientId);
    } catch {
      return unavailable('The in-browser server is not running: open the app in a tab of this site');
    }
    const reply = await link.send(
      {
        type: 'request',
        id: this.#nextId++,
        relayInstance: this.instance,
        clientId: event.clientId,
        method: request.method,
        url: request.url,
        headers: [...request.headers],
        body,
      },
      relayTimeoutMs(request),
      request.signal,
    );
    if (reply) return toResponse(reply);
    // A GET whose engine died under it (a leader tab closed, see elected-engine.ts) is safe to ask
    // the engine that took over: a long-poll then learns at once that its queue is gone.
    if (!retried && request.method === 'GET' && !request.signal.aborted && !(await isEngineAlive(this.#locks, link.lockName))) {
      return this.answer(event, true);
    }
    // The engine may have died with a new one not yet visible: the next request re-connects.
    if (!request.signal.aborted && this.#link === link) {
      this.#link = null;
      link.retire();
    }
    return unavailable('The in-browser server did not answer in time');
  }

  #usableLink(clientId: string): EngineLink | Promise<EngineLink> {
    if (this.#link) return this.#link;
    this.#acquiring ??= this.#acquire(clientId).finally(() => {
      this.#acquiring = null;
    });
    return this.#acquiring;
  }

  async #acquire(clientId: string): Promise<EngineLink> {
    const own = clientId ? await this.#clients.get(clientId) : undefined;
    let offer = own ? await askForEnginePort([own], OWN_CLIENT_WAIT_MS) : null;
    if (!offer) {
      const windows = await this.#clients.matchAll({ type: 'window', includeUncontrolled: true });
      offer = await askForEnginePort(windows, ANY_CLIENT_WAIT_MS);
    }
    if (!offer) throw new Error('no page could connect the engine');
    this.#link?.retire();
    const link = new EngineLink(offer.port, offer.lockName, this.instance);
    // What is pending on a dead engine will never be answered: give up on it at once.
    void whenEngineDies(this.#locks, offer.lockName).then(() => {
      if (this.#link === link) this.#link = null;
      link.fail();
    });
    this.#link = link;
    return link;
  }
}
