import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { ManualClock } from '../../src/engine/clock.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { EventQueue, QueueOptions } from '../../src/engine/events/event-queues.ts';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { newSubscription } from '../../src/engine/lib/subscription-defaults.ts';

/** A small realm covering every role, public, private and announcement channels. */
export const TEST_SCENARIO = {
  realm: { name: 'Test Realm', host: 'zulip.test', email_address_visibility: 1 },
  users: [
    { email: 'olivia@zulip.test', full_name: 'Olivia Owner', role: 100, password: 'olivia-pass', api_key: 'OwnerKey000000000000000000000001' },
    { email: 'adam@zulip.test', full_name: 'Adam Admin', role: 200, password: 'adam-pass', api_key: 'AdminKey000000000000000000000002' },
    { email: 'mona@zulip.test', full_name: 'Mona Moderator', role: 300, api_key: 'ModKey00000000000000000000000003' },
    { email: 'mark@zulip.test', full_name: 'Mark Member', role: 400, password: 'mark-pass', api_key: 'MarkKey0000000000000000000000004' },
    { email: 'mia@zulip.test', full_name: 'Mia Member', role: 400, api_key: 'MiaKey00000000000000000000000005' },
    { email: 'gail@zulip.test', full_name: 'Gail Guest', role: 600, api_key: 'GuestKey000000000000000000000006' },
    { email: 'bot@zulip.test', full_name: 'Test Bot', role: 400, is_bot: true, bot_type: 1, bot_owner: 'mark@zulip.test', api_key: 'BotKey00000000000000000000000007' },
  ],
  channel_folders: [{ name: 'Work', description: 'Work channels' }],
  channels: [
    {
      name: 'general',
      description: 'Everyone',
      folder: 'Work',
      subscribers: ['olivia@zulip.test', 'adam@zulip.test', 'mona@zulip.test', 'mark@zulip.test', 'mia@zulip.test', 'gail@zulip.test', 'bot@zulip.test'],
      is_default_stream: true,
    },
    { name: 'design', description: 'Design talk', subscribers: ['olivia@zulip.test', 'mark@zulip.test'] },
    { name: 'secret', description: 'Private', invite_only: true, subscribers: ['olivia@zulip.test', 'mark@zulip.test'] },
    { name: 'announce', description: 'Announcements', subscribers: ['olivia@zulip.test', 'adam@zulip.test', 'mark@zulip.test'], stream_post_policy: 2 },
    { name: 'strict', description: 'Topics required', subscribers: ['olivia@zulip.test', 'mark@zulip.test'], topics_policy: 'disable_empty_topic' },
  ],
  messages: [
    { sender: 'olivia@zulip.test', channel: 'general', topic: 'welcome', content: 'Welcome **everyone**', timestamp: 1767225000 },
    { sender: 'mark@zulip.test', channel: 'general', topic: 'welcome', content: 'Thanks @**Olivia Owner**', timestamp: 1767225060 },
    { sender: 'mark@zulip.test', channel: 'secret', topic: 'plans', content: 'secret plans', timestamp: 1767225120 },
    { sender: 'olivia@zulip.test', to: ['mark@zulip.test'], content: 'a direct hello', timestamp: 1767225180 },
  ],
} as const;

/** The ids the scenario gives (users from 8, channels from 1, messages from 1, in file order). */
export const IDS = {
  olivia: 8,
  adam: 9,
  mona: 10,
  mark: 11,
  mia: 12,
  gail: 13,
  bot: 14,
  general: 1,
  design: 2,
  secret: 3,
  announce: 4,
  strict: 5,
} as const;

export type TestUser = Exclude<keyof typeof IDS, 'general' | 'design' | 'secret' | 'announce' | 'strict'>;

export interface ApiResult {
  status: number;
  body: Record<string, any>;
}

/** Form-encodes parameters as real clients do: strings raw, everything else as JSON. */
export function encodeParams(params: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
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

/** A fresh engine on its own in-memory IndexedDB, loaded with `scenario`. */
export async function createTestRealm(scenario: unknown = TEST_SCENARIO): Promise<TestRealm> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const engine = await Engine.create({
    name: `test-${crypto.randomUUID()}`,
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    clock,
    passwordIterations: 1000,
  });
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
    narrow: null,
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
