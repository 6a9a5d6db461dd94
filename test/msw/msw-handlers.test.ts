import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine, RequestLogEntry } from '../../src/engine/engine.ts';
import { ScenarioError } from '../../src/engine/index.ts';
import { createInProcessEngine, handlersFor } from '../../src/hosts/msw.ts';
import { IDS, TEST_SCENARIO } from '../support/test-realm.ts';

const MARK_AUTH = `Basic ${btoa('mark@zulip.test:MarkKey0000000000000000000000004')}`;

let engine: Engine;
let server: SetupServer;
const handled: RequestLogEntry[] = [];

beforeAll(async () => {
  engine = await createInProcessEngine(TEST_SCENARIO, { passwordIterations: 1000, onRequest: (entry) => handled.push(entry) });
  server = setupServer(...handlersFor(engine));
  server.listen({ onUnhandledFrame: 'bypass' });
});

afterAll(() => {
  server.close();
  engine.close();
});

describe('the msw host', () => {
  it('answers fetch_api_key from a plain fetch to any origin', async () => {
    const response = await fetch('http://localhost/api/v1/fetch_api_key', {
      method: 'POST',
      body: new URLSearchParams({ username: 'mark@zulip.test', password: 'mark-pass' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      result: 'success',
      msg: '',
      api_key: 'MarkKey0000000000000000000000004',
      email: 'mark@zulip.test',
      user_id: IDS.mark,
    });
  });

  it('sends a channel message with Basic auth and reads it back with GET /messages', async () => {
    const sent = await fetch('https://chat.example.com/api/v1/messages', {
      method: 'POST',
      headers: { Authorization: MARK_AUTH },
      body: new URLSearchParams({ type: 'channel', to: 'general', topic: 'msw', content: 'hello from **msw**' }),
    });
    const { id } = await sent.json();
    expect(sent.status).toBe(200);

    const query = new URLSearchParams({
      anchor: String(id),
      num_before: '0',
      num_after: '0',
      narrow: JSON.stringify([{ operator: 'channel', operand: 'general' }]),
    });
    const read = await fetch(`http://localhost/api/v1/messages?${query}`, { headers: { Authorization: MARK_AUTH } });
    expect(read.status).toBe(200);
    const body = await read.json();
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0]).toMatchObject({
      id,
      sender_id: IDS.mark,
      stream_id: IDS.general,
      subject: 'msw',
      content: '<p>hello from <strong>msw</strong></p>',
      // An API client (no known UI client name) does not mark its own message read.
      flags: [],
    });
  });

  it('answers an unauthenticated call with the engine’s 401 error', async () => {
    const response = await fetch('http://localhost/api/v1/messages', { method: 'POST' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      result: 'error',
      msg: 'Missing authorization header for basic auth',
      code: 'UNAUTHORIZED',
    });
  });

  it('answers unknown API paths with the engine’s 404 error JSON', async () => {
    const response = await fetch('http://localhost/api/v1/no/such/thing', { headers: { Authorization: MARK_AUTH } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
  });

  it('leaves requests outside /api/v1/ and /user_uploads/ alone', async () => {
    expect(handlersFor(engine).map((handler) => handler.info.path)).toEqual(['*/api/v1/*', '*/user_uploads/*']);
    // Not claimed, so msw lets it go to the network, where nothing listens.
    await expect(fetch('http://localhost/static/app.js')).rejects.toThrow('fetch failed');
    expect(handled.map((entry) => entry.path)).not.toContain('/static/app.js');
  });

  it('hands every API request to the engine', () => {
    expect(handled.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      'POST /api/v1/fetch_api_key 200',
      'POST /api/v1/messages 200',
      'GET /api/v1/messages 200',
      'POST /api/v1/messages 401',
      'GET /api/v1/no/such/thing 404',
    ]);
  });
});

describe('createInProcessEngine', () => {
  it('loads the default demo scenario when given none', async () => {
    const demo = await createInProcessEngine(undefined, { passwordIterations: 1000 });
    try {
      expect((await demo.realm()).name).toBe('Lakeside Labs');
      expect(await demo.db.users.where('email_key').equals('olivia@lakeside.test').count()).toBe(1);
    } finally {
      demo.close();
    }
  });

  it('gives each engine its own in-memory storage', async () => {
    const other = await createInProcessEngine(TEST_SCENARIO, { passwordIterations: 1000 });
    try {
      await other.handle(
        new Request('http://localhost/api/v1/messages', {
          method: 'POST',
          headers: { Authorization: MARK_AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ type: 'channel', to: 'general', topic: 'solo', content: 'only here' }),
        }),
      );
      expect(await other.db.messages.filter((m) => m.content === 'only here').count()).toBe(1);
      expect(await engine.db.messages.filter((m) => m.content === 'only here').count()).toBe(0);
    } finally {
      other.close();
    }
  });

  it('rejects a faulty scenario with a ScenarioError naming the JSON path', async () => {
    const faulty = { ...TEST_SCENARIO, users: [{ ...TEST_SCENARIO.users[0], role: 250 }] };
    const error = await createInProcessEngine(faulty).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).path).toBe('$.users[0].role');
  });
});
