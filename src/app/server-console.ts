import type { RequestLogEntry } from '../engine/engine.ts';
import { REQUEST_LOG_CHANNEL, type RealmSummary } from '../browser-host/relay-protocol.ts';

const ROLE_NAMES: Record<number, string> = { 100: 'Owner', 200: 'Administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' };
const LOG_LINES = 200;

/** The page: server status, the realm's people with their credentials, and a live request log. */
export class ServerConsole {
  readonly #status: HTMLElement;
  readonly #realm: HTMLElement;
  readonly #log: HTMLOListElement;

  constructor(root: HTMLElement) {
    root.replaceChildren(
      el('header', {}, [el('h1', {}, ['Offline Realm']), el('p', { className: 'subtitle' }, ['server console'])]),
      (this.#status = el('p', { className: 'status', role: 'status' })),
      (this.#realm = el('section', { className: 'realm' })),
      el('section', { className: 'log' }, [el('h2', {}, ['Requests']), (this.#log = el('ol', {}))]),
    );
  }

  showStatus(state: 'starting' | 'ready' | 'failed', text: string): void {
    this.#status.dataset.state = state;
    this.#status.textContent = text;
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
      this.#log.prepend(line);
      while (this.#log.children.length > LOG_LINES) this.#log.lastElementChild?.remove();
    };
  }
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  children: (Node | string)[] = [],
): HTMLElementTagNameMap[K] {
  const element = Object.assign(document.createElement(tag), props);
  element.append(...children);
  return element;
}
