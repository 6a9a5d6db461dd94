import { DatabaseSync } from 'node:sqlite';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { ManualClock } from '../../src/engine/clock/clock.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { EventQueue, QueueOptions } from '../../src/engine/events/event-queue.ts';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { RealmDatabase } from '../../src/engine/storage/database.ts';
import { attachSqlite } from '../../src/hosts/sqlite-persistence.ts';
import { newSubscription } from '../../src/engine/settings/subscription-defaults.ts';
import { encodeParams, IDS, TEST_SCENARIO, type TestUser } from './test-scenario.ts';

export { encodeParams, IDS, TEST_SCENARIO, type TestUser };

export interface ApiResult {
  status: number;
  body: Record<string, any>;
}

/** Calls the engine as one user, the way an HTTP client would. */
export class TestClient {
  readonly engine: Engine;
  readonly email: string | null;
  readonly apiKey: string | null;

  constructor(engine: Engine, email: string | null, apiKey: string | null) {
    this.engine = engine;
    this.email = email;
    this.apiKey = apiKey;
  }

  get(path: string, params: Record<string, unknown> = {}): Promise<ApiResult> {
    return this.request('GET', path, params);
  }
  post(path: string, params: Record<string, unknown> = {}): Promise<ApiResult> {
    return this.request('POST', path, params);
  }
  patch(path: string, params: Record<string, unknown> = {}): Promise<ApiResult> {
    return this.request('PATCH', path, params);
  }
  delete(path: string, params: Record<string, unknown> = {}): Promise<ApiResult> {
    return this.request('DELETE', path, params);
  }

  /** POST /user_uploads with these files as multipart parts (upstream's clients name the part `filename`). */
  upload(...files: File[]): Promise<ApiResult> {
    return this.postFiles('/user_uploads', files);
  }

  /** POST a multipart body of these files to `path` below /api/v1 (a single one in upstream's `filename` part). */
  async postFiles(path: string, files: File[]): Promise<ApiResult> {
    const form = new FormData();
    for (const file of files) form.append(files.length === 1 ? 'filename' : file.name, file);
    const response = await this.engine.handle(
      new Request(`http://zulip.test/api/v1${path}`, { method: 'POST', headers: this.#authorization(), body: form }),
    );
    return { status: response.status, body: JSON.parse(await response.text()) };
  }

  /** A GET outside /api/v1 (an uploaded file's URL); with `authorized`, this client's Basic auth goes along. */
  fetchFile(path: string, authorized = true): Promise<Response> {
    return this.engine.handle(new Request(`http://zulip.test${path}`, { headers: authorized ? this.#authorization() : {} }));
  }

  #authorization(): Record<string, string> {
    if (this.email === null || this.apiKey === null) return {};
    return { Authorization: `Basic ${btoa(`${this.email}:${this.apiKey}`)}` };
  }

  async request(method: string, path: string, params: Record<string, unknown> = {}, init: RequestInit = {}): Promise<ApiResult> {
    const form = encodeParams(params);
    const inQuery = method === 'GET';
    const url = `http://zulip.test/api/v1${path}${inQuery && [...form].length > 0 ? `?${form}` : ''}`;
    const headers = new Headers(init.headers);
    if (this.email !== null && this.apiKey !== null) {
      headers.set('Authorization', `Basic ${btoa(`${this.email}:${this.apiKey}`)}`);
    }
    if (!inQuery) headers.set('Content-Type', 'application/x-www-form-urlencoded');
    const response = await this.engine.handle(
      new Request(url, { ...init, method, headers, body: inQuery ? undefined : form.toString() }),
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  }
}

export interface TestRealm {
  engine: Engine;
  clock: ManualClock;
  as(user: TestUser): TestClient;
  anonymous(): TestClient;
}

/**
 * Whether test realms run on the Node host's SQLite store (`ENGINE_STORAGE=sqlite`). Tests of
 * fake-indexeddb itself (its requests counted, a second engine opened on the same IndexedDB)
 * have nothing to measure there and are skipped.
 */
export const onSqliteStore = process.env.ENGINE_STORAGE === 'sqlite';

/**
 * A fresh engine on its own in-memory IndexedDB, loaded with `scenario`. With
 * `ENGINE_STORAGE=sqlite` in the environment, on the Node host's SQLite store instead (an
 * in-memory SQLite database), so any engine test file can be run against that store too.
 */
export async function createTestRealm(scenario: unknown = TEST_SCENARIO): Promise<TestRealm> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const db = new RealmDatabase({ name: `test-${crypto.randomUUID()}`, indexedDB: new IDBFactory(), IDBKeyRange });
  if (onSqliteStore) await attachSqlite(db, new DatabaseSync(':memory:'));
  const engine = await Engine.create({ db, clock, passwordIterations: 1000 });
  await engine.loadScenario(scenario);
  const users = (scenario as typeof TEST_SCENARIO).users;
  return {
    engine,
    clock,
    as(user) {
      const row = users.find((u) => u.email.startsWith(`${user}@`));
      if (!row) throw new Error(`no test user ${user}`);
      return new TestClient(engine, row.email, row.api_key);
    },
    anonymous: () => new TestClient(engine, null, null),
  };
}

/** The options of a queue registered with every default, for reading events directly. */
export function queueOptions(userId: number, extra: Partial<QueueOptions> = {}): QueueOptions {
  return {
    userId,
    eventTypes: null,
    narrow: [],
    allPublicStreams: false,
    applyMarkdown: true,
    clientGravatar: false,
    slimPresence: false,
    capabilities: { ...NO_CAPABILITIES },
    ...extra,
  };
}

/** A queue on the engine, as /register would create it, to inspect `queue.events`. */
export function openQueue(engine: Engine, userId: number, extra: Partial<QueueOptions> = {}): EventQueue {
  return engine.queues.create(queueOptions(userId, extra));
}

/** Subscribes a user behind the API's back (for tests that need a subscription the API cannot make yet). */
export async function subscribe(engine: Engine, userId: number, channelId: number, firstMessageIdSeen = 0): Promise<void> {
  await engine.db.subscriptions.put(newSubscription(userId, channelId, '#76ce90', firstMessageIdSeen));
}
