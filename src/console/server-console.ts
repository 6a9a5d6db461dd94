import type { RequestLogEntry } from '../engine/engine.ts';
import { REQUEST_LOG_CHANNEL, type RealmSummary } from '../browser-host/protocol/relay-protocol.ts';
import { el } from './element.ts';
import { eventDetail, eventKind } from './event-description.ts';
import type { ApiEvent } from './event-follower.ts';

const ROLE_NAMES: Record<number, string> = { 100: 'Owner', 200: 'Administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' };
const LOG_LINES = 200;

/** The page: server status, realm controls, the realm's people with their credentials, live request and event logs. */
export class ServerConsole {
  readonly #status: HTMLElement;
  readonly #location: HTMLElement;
  readonly #storage: HTMLElement;
  readonly #controls: HTMLElement;
  readonly #realm: HTMLElement;
  readonly #log: HTMLOListElement;
  readonly #eventsTitle: HTMLElement;
  readonly #events: HTMLOListElement;

  constructor(root: HTMLElement) {
    root.replaceChildren(
      el('header', {}, [el('h1', {}, ['Offline Realm']), el('p', { className: 'subtitle' }, ['server console'])]),
      (this.#status = el('p', { className: 'status', role: 'status' })),
      (this.#location = el('p', { className: 'location' })),
      (this.#storage = el('p', { className: 'storage' })),
      (this.#controls = el('div')),
      (this.#realm = el('section', { className: 'realm' })),
      el('div', { className: 'logs' }, [
        el('section', { className: 'log requests' }, [el('h2', {}, ['Requests']), (this.#log = el('ol', {}))]),
        el('section', { className: 'log events' }, [(this.#eventsTitle = el('h2', {}, ['Events'])), (this.#events = el('ol', {}))]),
      ]),
    );
  }

  showStatus(state: 'starting' | 'ready' | 'failed', text: string): void {
    this.#status.dataset.state = state;
    this.#status.textContent = text;
  }

  /** Where the engine runs: this origin, and in which kind of worker. */
  showLocation(text: string): void {
    this.#location.textContent = text;
  }

  showControls(controls: HTMLElement): void {
    this.#controls.replaceChildren(controls);
  }

  /** Space used by this origin (the realm) and whether the browser may evict it. */
  showStorage(text: string): void {
    this.#storage.textContent = text;
  }

  showRealm(summary: RealmSummary, passwords: Map<string, string>): void {
    const rows = summary.users.map((user) =>
      el('tr', {}, [
        el('td', {}, [user.fullName]),
        el('td', {}, [el('code', {}, [user.email])]),
        el('td', {}, [user.isBot ? 'Bot' : (ROLE_NAMES[user.role] ?? String(user.role))]),
        el('td', {}, [passwords.has(user.email.toLowerCase()) ? el('code', {}, [passwords.get(user.email.toLowerCase()) ?? '']) : '—']),
        el('td', {}, [el('code', {}, [user.apiKey])]),
      ]),
    );
    this.#realm.replaceChildren(
      el('h2', {}, [`${summary.realmName} `, el('span', { className: 'host' }, [summary.host])]),
      el('p', {}, ['Call ', el('code', {}, ['/api/v1/…']), ' from any page of this site with HTTP Basic auth: email and API key.']),
      el('table', {}, [
        el('thead', {}, [el('tr', {}, ['Name', 'Email', 'Role', 'Password', 'API key'].map((h) => el('th', {}, [h])))]),
        el('tbody', {}, rows),
      ]),
    );
  }

  /** Every tab's requests, as the engine reports them. */
  followRequestLog(): void {
    new BroadcastChannel(REQUEST_LOG_CHANNEL).onmessage = ({ data }: MessageEvent<RequestLogEntry>) => {
      const line = el('li', { className: data.status >= 400 ? 'failed' : '' }, [
        el('time', {}, [new Date().toLocaleTimeString()]),
        el('span', { className: 'status-code' }, [String(data.status)]),
        `${data.method} ${data.path}`,
        el('span', { className: 'ms' }, [`${data.ms} ms`]),
      ]);
      prependLine(this.#log, line);
    };
  }

  /** Names whose queue the event log reads (it sees what that user may see). */
  showEventObserver(fullName: string): void {
    this.#eventsTitle.replaceChildren('Events ', el('span', { className: 'host' }, [`as seen by ${fullName}`]));
  }

  showEvent(event: ApiEvent): void {
    const line = el('li', {}, [
      el('time', {}, [new Date().toLocaleTimeString()]),
      el('span', { className: 'kind' }, [eventKind(event)]),
      el('span', { className: 'detail', title: eventDetail(event) }, [eventDetail(event)]),
    ]);
    prependLine(this.#events, line);
  }
}

/** Newest first, and only the last LOG_LINES. */
function prependLine(list: HTMLOListElement, line: HTMLLIElement): void {
  list.prepend(line);
  while (list.children.length > LOG_LINES) list.lastElementChild?.remove();
}
