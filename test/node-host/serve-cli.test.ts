import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RealmDatabase } from '../../src/engine/storage/database.ts';
import { openPersistentDatabase } from '../../src/hosts/sqlite-persistence.ts';
import { IDS, TEST_SCENARIO } from '../support/test-realm.ts';
import { basicAuth, killServeProcesses, runServeToExit, startServe, writeScenarioFile } from './serve-process.ts';

const MARK = basicAuth('mark@zulip.test', 'MarkKey0000000000000000000000004');
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

let dir: string;
let scenarioFile: string;
let dataDir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'realm-serve-'));
  scenarioFile = writeScenarioFile(dir);
  dataDir = join(dir, 'data');
});

afterEach(() => {
  killServeProcesses();
  rmSync(dir, { recursive: true, force: true });
});

async function sendToGeneral(url: string, content: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/api/v1/messages`, {
    method: 'POST',
    headers: { ...MARK, ...FORM },
    body: new URLSearchParams({ type: 'channel', to: 'general', topic: 'persistence', content }),
  });
  return { status: response.status, body: await response.json() };
}

/** The stored message rows, read by reopening the data dir as a restarted server would. */
async function storedMessages(data: string): Promise<{ id: number; content: string }[]> {
  const db = new RealmDatabase({ name: 'check', indexedDB: new IDBFactory(), IDBKeyRange });
  const store = await openPersistentDatabase(db, join(data, 'realm.sqlite'));
  try {
    return (await db.messages.toArray()).map(({ id, content }) => ({ id, content }));
  } finally {
    store.close();
  }
}

describe('npm run serve', () => {
  it('prints exactly one listening line naming the real port when started with --port 0', async () => {
    const server = await startServe(['--port', '0', '--scenario', scenarioFile]);
    expect(server.firstLine).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(server.url).port)).toBeGreaterThan(0);
  });

  it('answers a CORS preflight for an API path with 204 and the allowed methods and headers', async () => {
    const { url } = await startServe(['--port', '0', '--scenario', scenarioFile]);
    const response = await fetch(`${url}/api/v1/messages`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://app.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, PATCH, PUT, DELETE, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
    expect(response.headers.get('access-control-max-age')).toBe('86400');
    expect(await response.text()).toBe('');
  });

  it('adds Access-Control-Allow-Origin to successes and errors alike', async () => {
    const { url } = await startServe(['--port', '0', '--scenario', scenarioFile]);
    const ok = await fetch(`${url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { ...FORM, Origin: 'http://app.example' },
      body: new URLSearchParams({ username: 'mark@zulip.test', password: 'mark-pass' }),
    });
    const refused = await fetch(`${url}/api/v1/messages`, { method: 'POST', headers: { Origin: 'http://app.example' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.status).toBe(401);
    expect((await refused.json()).code).toBe('UNAUTHORIZED');
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers an unknown API path with a 404 error JSON', async () => {
    const { url } = await startServe(['--port', '0', '--scenario', scenarioFile]);
    const response = await fetch(`${url}/api/v1/no/such/endpoint`, { headers: MARK });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
  });

  it('serves the scenario it was given: the password gives the fixed API key and the user can send', async () => {
    const { url } = await startServe(['--port', '0', '--scenario', scenarioFile]);
    const key = await fetch(`${url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: FORM,
      body: new URLSearchParams({ username: 'mark@zulip.test', password: 'mark-pass' }),
    });
    expect(await key.json()).toEqual({
      result: 'success',
      msg: '',
      api_key: 'MarkKey0000000000000000000000004',
      email: 'mark@zulip.test',
      user_id: IDS.mark,
    });
    const sent = await sendToGeneral(url, 'over real HTTP');
    expect(sent).toEqual({ status: 200, body: { result: 'success', msg: '', id: TEST_SCENARIO.messages.length + 1 } });
  });

  it.each([
    ['a field of the wrong type', { ...TEST_SCENARIO, users: [TEST_SCENARIO.users[0], { ...TEST_SCENARIO.users[1], role: 250 }] }, '$.users[1].role'],
    ['an unknown key', { ...TEST_SCENARIO, realm: { ...TEST_SCENARIO.realm, colour: 'blue' } }, '$.realm'],
    [
      'a message from a user the file does not define',
      { ...TEST_SCENARIO, messages: [{ ...TEST_SCENARIO.messages[0], sender: 'nobody@zulip.test' }] },
      '$.messages[0].sender',
    ],
    ['text that is not JSON', '{"realm": {', '$'],
  ])('refuses a scenario with %s: exit code 2, the JSON path on stderr, no data dir', async (_, scenario, path) => {
    const bad = writeScenarioFile(dir, scenario, 'bad.json');
    const result = await runServeToExit(['--port', '0', '--scenario', bad, '--data', dataDir]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${bad}: ${path}`);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('refuses a malformed scenario in memory too, with exit code 2 and the JSON path', async () => {
    const bad = writeScenarioFile(dir, { ...TEST_SCENARIO, channels: [{ ...TEST_SCENARIO.channels[0], subscribers: ['ghost@zulip.test'] }] }, 'bad.json');
    const result = await runServeToExit(['--port', '0', '--scenario', bad]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${bad}: $.channels[0].subscribers[0]`);
  });

  it('refuses a scenario file that does not exist with exit code 2', async () => {
    const missing = join(dir, 'missing.json');
    const result = await runServeToExit(['--port', '0', '--scenario', missing, '--data', dataDir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${missing}: cannot read the scenario file (ENOENT)`);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('refuses a malformed scenario without touching a data dir that already holds a realm', async () => {
    const first = await startServe(['--port', '0', '--scenario', scenarioFile, '--data', dataDir]);
    await sendToGeneral(first.url, 'kept');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const before = readdirSync(dataDir);

    const bad = writeScenarioFile(dir, '[1, 2', 'bad.json');
    const result = await runServeToExit(['--port', '0', '--scenario', bad, '--data', dataDir, '--reset']);
    expect(result.code).toBe(2);
    expect(readdirSync(dataDir)).toEqual(before);
    expect((await storedMessages(dataDir)).at(-1)).toEqual({ id: 5, content: 'kept' });
  });

  it('refuses unknown flags with the usage text and exit code 2', async () => {
    const result = await runServeToExit(['--prot', '9991']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown option '--prot'");
    expect(result.stderr).toContain('usage: offline-realm serve [--port P]');
  });

  it('prints the usage text and exits 0 for --help', async () => {
    const result = await runServeToExit(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('usage: offline-realm serve [--port P]');
    expect(result.stdout).toContain('--reset ');
  });

  it('refuses to start, with exit code 1, on a port that is already taken', async () => {
    const first = await startServe(['--port', '0', '--scenario', scenarioFile]);
    const port = new URL(first.url).port;
    const second = await runServeToExit(['--port', port, '--scenario', scenarioFile]);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain(`offline-realm: cannot start: listen EADDRINUSE: address already in use 127.0.0.1:${port}`);
  });

  it.each([
    [['--port', 'http'], '--port must be an integer from 0 to 65535'],
    [['--port', '70000'], '--port must be an integer from 0 to 65535'],
    [['--reset'], '--reset needs --data DIR'],
    [['extra'], "Unexpected argument 'extra'"],
  ])('refuses %j with exit code 2', async (args, message) => {
    const result = await runServeToExit(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('creates the --data directory for its owner only', async () => {
    const server = await startServe(['--port', '0', '--scenario', scenarioFile, '--data', dataDir]);
    expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    expect((statSync(join(dataDir, 'realm.sqlite')).mode & 0o777).toString(8)).toBe('600');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('keeps an acknowledged message across kill -9 and a restart on the same --data', async () => {
    const first = await startServe(['--port', '0', '--scenario', scenarioFile, '--data', dataDir]);
    const sent = await sendToGeneral(first.url, 'survives kill -9');
    expect(sent.status).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startServe(['--port', '0', '--data', dataDir]);
    expect(second.stderr()).toContain(`reopened the realm stored in ${dataDir}`);
    // The restarted server continues the stored id sequence rather than reloading the scenario.
    expect(await sendToGeneral(second.url, 'after restart')).toEqual({
      status: 200,
      body: { result: 'success', msg: '', id: (sent.body.id as number) + 1 },
    });
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect((await storedMessages(dataDir)).slice(-2)).toEqual([
      { id: sent.body.id, content: 'survives kill -9' },
      { id: (sent.body.id as number) + 1, content: 'after restart' },
    ]);
  });

  it('keeps an uploaded file across kill -9 and a restart, in owner-only directories and files under --data', async () => {
    const first = await startServe(['--port', '0', '--scenario', scenarioFile, '--data', dataDir]);
    const form = new FormData();
    form.append('filename', new File(['kept on disk'], 'notes.txt', { type: 'text/plain' }));
    const uploaded = await fetch(`${first.url}/api/v1/user_uploads`, { method: 'POST', headers: MARK, body: form });
    const { url } = (await uploaded.json()) as { url: string };
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startServe(['--port', '0', '--data', dataDir]);
    const served = await fetch(`${second.url}${url}`, { headers: MARK });
    expect([served.status, await served.text()]).toEqual([200, 'kept on disk']);
    const [, realm, hex, random] = url.split('/').slice(1);
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(join(dataDir, 'uploads'))).toBe(0o700);
    expect(mode(join(dataDir, 'uploads', realm, hex))).toBe(0o700);
    expect(mode(join(dataDir, 'uploads', realm, hex, random))).toBe(0o600);
    expect(readdirSync(join(dataDir, 'uploads', realm, hex))).toEqual([random]);
  });

  it('refuses to start a second server on the same --data with a clear message', async () => {
    await startServe(['--port', '0', '--scenario', scenarioFile, '--data', dataDir]);
    const second = await runServeToExit(['--port', '0', '--data', dataDir]);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain(`${join(dataDir, 'realm.sqlite')} is in use by another Offline Realm process`);
  });

  it('refuses --scenario on a data dir that already holds a realm, and replaces the realm with --reset', async () => {
    const first = await startServe(['--port', '0', '--scenario', scenarioFile, '--data', dataDir]);
    await sendToGeneral(first.url, 'before reset');
    first.child.kill('SIGTERM');
    await first.exited;

    const refused = await runServeToExit(['--port', '0', '--scenario', scenarioFile, '--data', dataDir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${dataDir} already holds a realm; start without --scenario to reopen it, or add --reset`);
    expect((await storedMessages(dataDir)).at(-1)).toEqual({ id: 5, content: 'before reset' });

    const reset = await startServe(['--port', '0', '--scenario', scenarioFile, '--data', dataDir, '--reset']);
    reset.child.kill('SIGTERM');
    await reset.exited;
    expect((await storedMessages(dataDir)).map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it('stops on SIGTERM while an event long-poll is waiting, answering the poll first', async () => {
    const server = await startServe(['--port', '0', '--scenario', scenarioFile, '--data', dataDir]);
    const registered = await fetch(`${server.url}/api/v1/register`, {
      method: 'POST',
      headers: { ...MARK, ...FORM },
      body: new URLSearchParams({ event_types: '["message"]' }),
    });
    const { queue_id } = await registered.json();
    const pollUrl = `${server.url}/api/v1/events?${new URLSearchParams({ queue_id, last_event_id: '-1' })}`;
    const polls = [fetch(pollUrl, { headers: MARK }), fetch(pollUrl, { headers: MARK })];
    // A newer poll on a queue answers the older one: once one is answered, the other is waiting.
    const answered = await Promise.race(polls.map((poll, index) => poll.then(() => index)));
    expect(await (await polls[answered]).json()).toMatchObject({ result: 'success', events: [] });
    server.child.kill('SIGTERM');
    const answer = await polls[1 - answered];
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ result: 'success', events: [] });
    expect(await server.exited).toBe(0);
  });

  it('creates a missing data dir, nested, and stores the new realm there', async () => {
    const nested = join(dataDir, 'a', 'b');
    const server = await startServe(['--port', '0', '--scenario', scenarioFile, '--data', nested]);
    expect(server.stderr()).toContain(`new realm from ${scenarioFile} stored in ${nested}`);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect((await storedMessages(nested)).map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it('uses an existing empty directory as a fresh data dir', async () => {
    mkdirSync(dataDir);
    const server = await startServe(['--port', '0', '--scenario', scenarioFile, '--data', dataDir]);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(readdirSync(dataDir)).toContain('realm.sqlite');
  });
});
