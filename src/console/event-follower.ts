/** An event as GET /api/v1/events returns it. */
export type ApiEvent = { id: number; type: string; op?: string } & Record<string, unknown>;

/** The user whose event queue the console reads, with credentials for Basic auth. */
export interface Observer {
  email: string;
  apiKey: string;
  fullName: string;
}

export interface EventFollowerHooks {
  /** Whom to watch, asked before each registration; null: nobody, stop. */
  observe(): Promise<Observer | null>;
  /** The queue is registered: from now on no event of the observer's is missed. */
  following(observer: Observer): void;
  event(event: ApiEvent): void;
}

/** After a failed call (engine restarting, relay timing out), before trying again. */
const RETRY_MS = 2_000;
/** The relay's answer when the engine did not reply in time: worth another try as is. */
const ENGINE_UNAVAILABLE = 503;

/**
 * Follows the realm's events the way any client does: registers an event queue over the API
 * and long-polls it. When the engine refuses a poll (the queue is gone because the realm was
 * replaced or the engine restarted; the observer no longer exists in a new realm) it asks again
 * whom to watch, which also lets the page redraw the realm, and registers anew.
 */
export class EventFollower {
  readonly #hooks: EventFollowerHooks;

  constructor(hooks: EventFollowerHooks) {
    this.#hooks = hooks;
  }

  async run(): Promise<void> {
    for (;;) {
      const observer = await this.#hooks.observe();
      if (!observer) return;
      const queue = await this.#register(observer);
      if (!queue) {
        await sleep(RETRY_MS);
        continue;
      }
      this.#hooks.following(observer);
      await this.#follow(observer, queue);
    }
  }

  async #register(observer: Observer): Promise<{ id: string; lastEventId: number } | null> {
    // Every public channel too, so the log shows messages the observer is not subscribed to.
    const body = new URLSearchParams({ all_public_streams: 'true', apply_markdown: 'false' });
    const answer = await api(observer, 'POST', '/api/v1/register', body);
    if (answer?.body.result !== 'success') return null;
    return { id: answer.body.queue_id as string, lastEventId: answer.body.last_event_id as number };
  }

  /** Returns once the engine refuses the poll. */
  async #follow(observer: Observer, queue: { id: string; lastEventId: number }): Promise<void> {
    let lastEventId = queue.lastEventId;
    for (;;) {
      const query = new URLSearchParams({ queue_id: queue.id, last_event_id: String(lastEventId) });
      const answer = await api(observer, 'GET', `/api/v1/events?${query}`);
      if (!answer || answer.status === ENGINE_UNAVAILABLE) {
        await sleep(RETRY_MS);
        continue;
      }
      if (answer.body.result !== 'success') return;
      for (const event of answer.body.events as ApiEvent[]) {
        lastEventId = Math.max(lastEventId, event.id);
        if (event.type !== 'heartbeat') this.#hooks.event(event);
      }
    }
  }
}

/** One API call; null when no JSON answer came back (network or relay failure). */
async function api(
  observer: Observer,
  method: string,
  path: string,
  body?: URLSearchParams,
): Promise<{ status: number; body: Record<string, unknown> } | null> {
  try {
    const response = await fetch(path, { method, body, headers: { Authorization: `Basic ${btoa(`${observer.email}:${observer.apiKey}`)}` } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } catch {
    return null;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
