import { isDeepStrictEqual } from 'node:util';
import type { EventQueue } from '../../../src/engine/events/event-queue.ts';
import { createTestRealm, openQueue, TEST_SCENARIO, type TestRealm, type TestUser } from '../../support/test-realm.ts';

/** Every kind of caller the API knows, and the test realm's account for each. */
export const ROLE_USERS = {
  owner: 'olivia',
  admin: 'adam',
  moderator: 'mona',
  member: 'mark',
  guest: 'gail',
  bot: 'bot',
} as const satisfies Record<string, TestUser>;

export type Role = keyof typeof ROLE_USERS | 'anonymous';
export const ROLES: readonly Role[] = [...(Object.keys(ROLE_USERS) as (keyof typeof ROLE_USERS)[]), 'anonymous'];

/** A request as the fuzzer builds it: parameters raw, in the query (GET) or a body of the chosen encoding. */
export interface RawRequest {
  method: string;
  path: string;
  params: [string, string][];
  role: Role;
  encoding: 'urlencoded' | 'multipart' | 'none';
}

/** Every row of every table, read in one transaction. */
export type RealmState = Record<string, unknown[]>;

/**
 * The test realm with a watcher queue per user, for checking that a refused request changed
 * nothing: no row in any table and no event for anyone.
 */
export class RoleRealm {
  readonly realm: TestRealm;
  #watchers = new Map<number, EventQueue>();

  private constructor(realm: TestRealm) {
    this.realm = realm;
  }

  static async create(): Promise<RoleRealm> {
    return new RoleRealm(await createTestRealm());
  }

  /** Back to the scenario's realm (a fuzzed success may have deactivated an account or changed a key). */
  async reset(): Promise<void> {
    await this.realm.engine.loadScenario(TEST_SCENARIO);
    this.#watchers.clear();
  }

  async state(): Promise<RealmState> {
    const { db } = this.realm.engine;
    return db.transaction('r', db.tables, async (tx) =>
      Object.fromEntries(await Promise.all(db.tables.map(async (table) => [table.name, await tx.table(table.name).toArray()] as const))),
    );
  }

  static sameState(a: RealmState, b: RealmState): boolean {
    return isDeepStrictEqual(a, b);
  }

  /** Each user's watcher queue, live (a fuzzed /register may have evicted one past the per-user cap). */
  async watchers(): Promise<EventQueue[]> {
    const { engine } = this.realm;
    for (const user of await engine.db.users.toArray()) {
      const watcher = this.#watchers.get(user.id);
      if (!watcher || ![...engine.queues.queuesOf(user.id)].includes(watcher)) this.#watchers.set(user.id, openQueue(engine, user.id));
    }
    return [...this.#watchers.values()];
  }

  /** The account name, API key and role of every user: what the fuzzer's callers rely on. */
  async callerFingerprint(): Promise<string> {
    const users = await this.realm.engine.db.users.toArray();
    return JSON.stringify(users.map((user) => [user.id, user.api_key, user.role, user.is_active]));
  }

  request(raw: RawRequest): Request {
    return rawToRequest(raw, 'http://zulip.test', (role) => this.realm.as(ROLE_USERS[role]));
  }
}

/** `raw` as a Request to `origin`, with the Basic credentials of its role's user (none when anonymous). */
export function rawToRequest(raw: RawRequest, origin: string, credentialsOf: (role: Exclude<Role, 'anonymous'>) => { email: string | null; apiKey: string | null }): Request {
  const headers = new Headers();
  if (raw.role !== 'anonymous') {
    const client = credentialsOf(raw.role);
    headers.set('Authorization', `Basic ${btoa(`${client.email}:${client.apiKey}`)}`);
  }
  const form = new URLSearchParams(raw.params);
  const url = `${origin}/api/v1${raw.path}`;
  if (raw.method === 'GET' || raw.encoding === 'none') {
    const query = form.toString();
    return new Request(query ? `${url}?${query}` : url, { method: raw.method, headers });
  }
  if (raw.encoding === 'multipart') {
    const body = new FormData();
    for (const [name, value] of raw.params) body.append(name, value);
    return new Request(url, { method: raw.method, headers, body });
  }
  headers.set('Content-Type', 'application/x-www-form-urlencoded');
  return new Request(url, { method: raw.method, headers, body: form.toString() });
}
