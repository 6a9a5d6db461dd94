import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDS } from '../support/test-realm.ts';
import { killServeProcesses, startServe, writeScenarioFile } from './serve-process.ts';

/** The slice of zulip-js (CommonJS, untyped) these tests call; every call resolves to the JSON body. */
type Body = Record<string, any>;
interface ZulipClient {
  config: { apiKey: string };
  messages: { send(params: Body): Promise<Body>; retrieve(params: Body): Promise<Body> };
  users: { retrieve(params?: Body): Promise<Body> };
  queues: { register(params: Body): Promise<Body> };
  events: { retrieve(params: Body): Promise<Body> };
}
const zulip = createRequire(import.meta.url)('zulip-js') as (config: Body) => Promise<ZulipClient>;

let dir: string;
let url: string;
let client: ZulipClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'realm-zulip-js-'));
  ({ url } = await startServe(['--port', '0', '--scenario', writeScenarioFile(dir)]));
  client = await zulip({ username: 'mark@zulip.test', password: 'mark-pass', realm: url });
});

afterAll(() => {
  killServeProcesses();
  rmSync(dir, { recursive: true, force: true });
});

describe('zulip-js against a served instance', () => {
  it('fetches the API key from the username and password', () => {
    expect(client.config.apiKey).toBe('MarkKey0000000000000000000000004');
  });

  it('sends a channel message and retrieves it', async () => {
    const sent = await client.messages.send({ type: 'stream', to: 'general', topic: 'zulip-js', content: 'sent by *zulip-js*' });
    expect(sent).toEqual({ result: 'success', msg: '', id: expect.any(Number) });

    const page = await client.messages.retrieve({
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: 'stream', operand: 'general' }],
    });
    expect(page.result).toBe('success');
    expect(page.messages.map((m: Body) => [m.id, m.subject, m.content])).toEqual([
      [sent.id, 'zulip-js', '<p>sent by <em>zulip-js</em></p>'],
    ]);
  });

  it('lists the users of the realm', async () => {
    const listed = await client.users.retrieve();
    expect(listed.result).toBe('success');
    expect(listed.members.map((u: Body) => u.user_id)).toEqual(expect.arrayContaining([IDS.olivia, IDS.mark, IDS.bot]));
  });

  it('receives a message event through a long-poll that was waiting when the message was sent', async () => {
    const queue = await client.queues.register({ event_types: ['message'] });
    expect(queue.result).toBe('success');
    const poll = client.events.retrieve({ queue_id: queue.queue_id, last_event_id: -1 });
    // Give the poll time to reach the server and start waiting.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sent = await client.messages.send({ type: 'stream', to: 'general', topic: 'events', content: 'live' });
    const { result, events } = await poll;
    expect(result).toBe('success');
    expect(events.map((e: Body) => [e.type, e.message?.id])).toEqual([['message', sent.id]]);
  });
});
