import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const render = (params: Record<string, unknown>) => realm.as('mark').post('/messages/render', params);
/** How many messages and receipts exist: "nothing was written" is what no endpoint can show. */
const stored = async () => ({ messages: await realm.engine.db.messages.count(), userMessages: await realm.engine.db.user_messages.count() });

describe('POST /messages/render', () => {
  it('renders bold, a user mention and an emoji as the Markdown of a sent message', async () => {
    const { status, body } = await render({ content: '**bold** @**Mia Member** :smile:' });
    expect(status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      rendered:
        '<p><strong>bold</strong> <span class="user-mention" data-user-id="12">@Mia Member</span> ' +
        '<span aria-label="smile" class="emoji emoji-1f604" role="img" title="smile">:smile:</span></p>',
    });
  });

  it('turns emoticons into emoji for a sender who chose translate_emoticons, as upstream: only set apart, never inside code', async () => {
    const content = ':) foo :( bar <3 with space : ) x:) `:D` (:!';
    const span = (name: string, code: string) => `<span aria-label="${name.replace(/_/g, ' ')}" class="emoji emoji-${code}" role="img" title="${name.replace(/_/g, ' ')}">:${name}:</span>`;
    expect((await render({ content })).body.rendered).toBe('<p>:) foo :( bar &lt;3 with space : ) x:) <code>:D</code> (:!</p>');
    expect((await realm.as('mark').patch('/settings', { translate_emoticons: true })).status).toBe(200);
    expect((await render({ content })).body.rendered).toBe(
      `<p>${span('slight_smile', '1f642')} foo ${span('frown', '1f641')} bar ${span('heart', '2764')} with space : ) x:) <code>:D</code> ${span('slight_smile', '1f642')}!</p>`,
    );
    const sent = await realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'emoticons', content: 'ok ;)' });
    const { body } = await realm.as('olivia').get(`/messages/${sent.body.id}`);
    expect(body.message.content).toBe(`<p>ok ${span('wink', '1f609')}</p>`);
  });

  it('gives the HTML a send of the same content stores, channel links and all', async () => {
    const content = 'See #**design** and @**Olivia Owner**\n\n> quoted';
    const { body } = await render({ content });
    const sent = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 't', content });
    expect((await realm.as('mark').get(`/messages/${sent.body.id}`)).body.message.content).toBe(body.rendered);
    expect(body.rendered).toContain(`data-stream-id="${IDS.design}"`);
  });

  it('stores nothing and tells no one', async () => {
    const queue = openQueue(realm.engine, IDS.mia, { capabilities: NO_CAPABILITIES });
    const before = await stored();
    expect(await render({ content: 'hello @**Mia Member**' })).toEqual({
      status: 200,
      body: { result: 'success', msg: '', rendered: `<p>hello <span class="user-mention" data-user-id="${IDS.mia}">@Mia Member</span></p>` },
    });
    expect(await stored()).toEqual(before);
    expect(queue.events).toEqual([]);
  });

  it('refuses a request without content', async () => {
    const { status, body } = await render({});
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: "Missing 'content' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'content' });
  });

  it("refuses content longer than the realm's max_message_length", async () => {
    const { body: registered } = await realm.as('mark').post('/register', { fetch_event_types: ['realm'] });
    const limit: number = registered.max_message_length;
    expect(await render({ content: 'x'.repeat(limit) })).toEqual({
      status: 200,
      body: { result: 'success', msg: '', rendered: `<p>${'x'.repeat(limit)}</p>` },
    });
    const { status, body } = await render({ content: 'x'.repeat(limit + 1) });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: `content is too long (limit: ${limit} characters)`, code: 'BAD_REQUEST' });
  });
});
