import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { ResolvedConfig } from 'vite';
import { afterEach, describe, expect, test } from 'vitest';
import { prebuiltRealm, prebuiltRealms } from '../../build/prebuilt-realms.ts';
import { Engine } from '../../src/engine/engine.ts';
import { importRealm } from '../../src/engine/realm-archive/realm-archive.ts';
import { TestClient } from '../support/test-realm.ts';

const DEMO = 'public/scenarios/demo.json';

async function engineNamed(name: string): Promise<Engine> {
  return Engine.create({ name, indexedDB: new IDBFactory(), IDBKeyRange, passwordIterations: 1 });
}

/** What a person of the realm sees through the API: the whole history, users, unread state. */
async function seenBy(engine: Engine, email: string, apiKey: string): Promise<unknown> {
  const client = new TestClient(engine, email, apiKey);
  const messages = await client.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, apply_markdown: true });
  const users = await client.get('/users');
  const state = await client.post('/register', { fetch_event_types: JSON.stringify(['message', 'subscription', 'update_message_flags', 'realm']) });
  const { queue_id: _queue, last_event_id: _last, ...initial } = state.body;
  return withoutSetupTimes({ messages: messages.body, users: users.body, initial });
}

/** When the realm, its users and channels were set up: the build's time in one, the load's in the other. */
const SETUP_TIMES = new Set(['date_created', 'date_joined', 'realm_date_created']);
/** The random avatar key each user gets when set up, in avatar URLs. */
const AVATAR_KEY = /([?&]k=)[a-z2-7]{24}/g;

function withoutSetupTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSetupTimes);
  if (typeof value === 'string') return value.replace(AVATAR_KEY, '$1KEY');
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !SETUP_TIMES.has(key)).map(([key, inner]) => [key, withoutSetupTimes(inner)]));
}

describe('the realm the build writes beside a scenario', () => {
  const engines: Engine[] = [];
  // Made once (a child process loads the scenario) for the tests below.
  let demoArchive: Promise<string> | undefined;
  const builtDemo = () => (demoArchive ??= prebuiltRealm(DEMO));
  afterEach(() => {
    for (const engine of engines.splice(0)) engine.close();
  });

  test('shows every demo user the same realm as loading the scenario itself, but for when it was set up', { timeout: 60_000 }, async () => {
    const scenario = JSON.parse(await readFile(DEMO, 'utf8')) as { users: { email: string; api_key: string }[] };
    const archive = await builtDemo();
    const imported = await engineNamed('prebuilt');
    const trusted = await engineNamed('prebuilt-as-made-by-build');
    const loaded = await engineNamed('scenario');
    engines.push(imported, trusted, loaded);
    await importRealm(imported, JSON.parse(archive));
    // As a browser's first visit imports it: the rows unchecked, as the build's own export.
    await importRealm(trusted, JSON.parse(archive), { madeByBuild: true });
    await loaded.loadScenario(scenario);

    for (const user of scenario.users.filter((u) => u.api_key)) {
      const expected = await seenBy(loaded, user.email, user.api_key);
      expect(await seenBy(imported, user.email, user.api_key), user.email).toEqual(expected);
      expect(await seenBy(trusted, user.email, user.api_key), user.email).toEqual(expected);
    }
  });

  test('hashes the scenario\'s public passwords cheaply, and they log in', { timeout: 30_000 }, async () => {
    const archive = JSON.parse(await builtDemo()) as { tables: { users: { email: string; password_hash: string | null }[] } };
    const scenario = JSON.parse(await readFile(DEMO, 'utf8')) as { users: { email: string; password?: string }[] };
    const withPasswords = scenario.users.filter((user) => user.password);
    const hashes = archive.tables.users.filter((user) => withPasswords.some((u) => u.email === user.email)).map((user) => user.password_hash);
    expect(hashes).toHaveLength(withPasswords.length);
    for (const hash of hashes) expect(hash).toMatch(/^pbkdf2-sha256\$1000\$/);

    const engine = await engineNamed('logins');
    engines.push(engine);
    await importRealm(engine, archive, { madeByBuild: true });
    const [first] = withPasswords;
    const login = await engine.handle(
      new Request('http://realm.test/api/v1/fetch_api_key', { method: 'POST', body: new URLSearchParams({ username: first.email, password: first.password ?? '' }) }),
    );
    expect(login.status).toBe(200);
    expect(await login.json()).toMatchObject({ result: 'success', email: first.email });
  });

  test('imported as made by the build, is still refused for another format version or no tables, leaving the realm as it was', { timeout: 30_000 }, async () => {
    const archive = JSON.parse(await builtDemo()) as Record<string, unknown>;
    const engine = await engineNamed('refusals');
    engines.push(engine);
    await importRealm(engine, archive, { madeByBuild: true });

    await expect(importRealm(engine, { ...archive, version: 999 }, { madeByBuild: true })).rejects.toThrow(/^\$\.version: unsupported archive version/);
    await expect(importRealm(engine, { ...archive, tables: 'none' }, { madeByBuild: true })).rejects.toThrow('$.tables: must map each table to its rows');
    expect(await engine.db.messages.count()).toBe((archive.tables as { messages: unknown[] }).messages.length);
  });
});

describe('the build plugin', () => {
  let folder: string;
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  test('writes NAME.realm.json only for scenarios whose messages carry their own timestamps', { timeout: 30_000 }, async () => {
    folder = await mkdtemp(join(tmpdir(), 'prebuilt-realms-'));
    await mkdir(join(folder, 'scenarios'));
    const user = { email: 'ann@example.test', full_name: 'Ann' };
    const message = { sender: user.email, channel: 'lobby', topic: 'hi', content: 'hello' };
    const scenario = (timestamp?: number) => ({ users: [user], channels: [{ name: 'lobby', subscribers: [user.email] }], messages: [{ ...message, timestamp }] });
    await writeFile(join(folder, 'scenarios', 'fixed.json'), JSON.stringify(scenario(1_700_000_000)));
    // Its message is dated "now" at load: a realm made at build time would be stale.
    await writeFile(join(folder, 'scenarios', 'relative.json'), JSON.stringify(scenario()));

    const emitted: { fileName: string; source: string }[] = [];
    // The two hooks the plugin has, called as Vite would at build time.
    const plugin = prebuiltRealms() as unknown as {
      configResolved(config: Pick<ResolvedConfig, 'publicDir' | 'build'>): void;
      generateBundle(this: { emitFile(file: { fileName: string; source: string }): void }): Promise<void>;
    };
    plugin.configResolved({ publicDir: folder, build: { copyPublicDir: true } as ResolvedConfig['build'] });
    await plugin.generateBundle.call({ emitFile: (file) => emitted.push(file) });

    expect(emitted.map((file) => file.fileName)).toEqual(['scenarios/fixed.realm.json']);
    const archive = JSON.parse(emitted[0].source) as { format: string; tables: { messages: { content: string; timestamp: number }[] } };
    expect(archive.format).toBe('offline-realm-archive');
    expect(archive.tables.messages.map((m) => [m.content, m.timestamp])).toEqual([['hello', 1_700_000_000]]);
  });
});
