import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  callEndpoint(path: string, method: string, params: Body): Promise<Body>;
  messages: { send(params: Body): Promise<Body>; retrieve(params: Body): Promise<Body>; update(params: Body): Promise<Body> };
  reactions: { add(params: Body): Promise<Body> };
  users: { retrieve(params?: Body): Promise<Body> };
  queues: { register(params: Body): Promise<Body> };
  events: { retrieve(params: Body): Promise<Body> };
}
// zulip-js's form polyfill replaces the global FormData with the `form-data` package's
// (isomorphic-form-data); zulip-js keeps its own reference, so the global is put back for the
// test files that run after this one in the same worker (the node project does not isolate them).
const nativeFormData = globalThis.FormData;
const zulip = createRequire(import.meta.url)('zulip-js') as (config: Body) => Promise<ZulipClient>;
globalThis.FormData = nativeFormData;

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
    const retrieve = () => client.events.retrieve({ queue_id: queue.queue_id, last_event_id: -1 });
    const polls = [retrieve(), retrieve()];
    // A newer poll on a queue answers the older one: once one is answered, the other is waiting.
    const answered = await Promise.race(polls.map((poll, index) => poll.then(() => index)));
    expect(await polls[answered]).toMatchObject({ result: 'success', events: [] });
    const poll = polls[1 - answered];
    const sent = await client.messages.send({ type: 'stream', to: 'general', topic: 'events', content: 'live' });
    const { result, events } = await poll;
    expect(result).toBe('success');
    expect(events.map((e: Body) => [e.type, e.message?.id])).toEqual([['message', sent.id]]);
  });
});

describe('zulip-js through a long session', () => {
  it('registers, then sends, edits, reacts and uploads, receiving each change as an event', async () => {
    const queue = await client.queues.register({ event_types: ['message', 'update_message', 'reaction', 'attachment'] });
    let lastEventId = queue.last_event_id as number;
    const nextEvents = async (): Promise<Body[]> => {
      const { events } = await client.events.retrieve({ queue_id: queue.queue_id, last_event_id: lastEventId });
      lastEventId = Math.max(lastEventId, ...events.map((e: Body) => e.id));
      return events;
    };

    const sent = await client.messages.send({ type: 'stream', to: 'general', topic: 'session', content: 'first draft' });
    // Registered without apply_markdown: the queue gets the Markdown source, as upstream sends it.
    expect((await nextEvents()).map((e) => [e.type, e.message.id, e.message.content])).toEqual([['message', sent.id, 'first draft']]);

    expect(await client.messages.update({ message_id: sent.id, content: 'second draft' })).toMatchObject({ result: 'success' });
    expect((await nextEvents()).map((e) => [e.type, e.message_id, e.rendered_content])).toEqual([['update_message', sent.id, '<p>second draft</p>']]);

    expect(await client.reactions.add({ message_id: sent.id, emoji_name: 'octopus' })).toMatchObject({ result: 'success' });
    expect((await nextEvents()).map((e) => [e.type, e.op, e.message_id, e.emoji_name, e.user_id])).toEqual([
      ['reaction', 'add', sent.id, 'octopus', IDS.mark],
    ]);

    // zulip-js posts multipart form data; a file stream carries its name, as an upload needs.
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'offline notes');
    const uploaded = await client.callEndpoint('/user_uploads', 'POST', { filename: createReadStream(file) });
    expect(uploaded).toMatchObject({ result: 'success', filename: 'notes.txt', url: expect.stringMatching(/^\/user_uploads\/\d+\/[0-9a-f]{2}\/[\w-]{24}\/notes\.txt$/) });
    expect((await nextEvents()).map((e) => [e.type, e.op, e.attachment?.name])).toEqual([['attachment', 'add', 'notes.txt']]);
    expect(await (await fetch(`${url}${uploaded.url}`)).text()).toBe('offline notes');
  });
});
