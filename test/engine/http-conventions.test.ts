import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

describe('wire conventions', () => {
  it('answers unknown API paths with a 404 error JSON', async () => {
    const { status, body } = await realm.as('mark').get('/no/such/endpoint');
    expect(status).toBe(404);
    expect(body).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
  });

  it('answers a wrong method with 405 and the allowed methods', async () => {
    const { status, body } = await realm.as('mark').request('PUT', '/fetch_api_key');
    expect(status).toBe(405);
    expect(body).toEqual({ result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST', allowed_methods: ['POST'] });
  });

  it('ends every JSON body with a newline, as upstream does', async () => {
    const response = await realm.engine.handle(new Request('http://zulip.test/api/v1/nothing'));
    expect(await response.text()).toMatch(/}\n$/);
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('lists parameters the endpoint does not support in ignored_parameters_unsupported, sorted', async () => {
    const { status, body } = await realm.as('mark').post('/messages', {
      type: 'channel',
      to: 'general',
      topic: 't',
      content: 'hi',
      zebra: '1',
      apple: '2',
    });
    expect(status).toBe(200);
    expect(body.ignored_parameters_unsupported).toEqual(['apple', 'zebra']);
  });

  it('names a missing required parameter with REQUEST_VARIABLE_MISSING and var_name', async () => {
    const { status, body } = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 't' });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: "Missing 'content' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'content' });
  });

  it('refuses a boolean that is not JSON true or false', async () => {
    const { status, body } = await realm.as('mark').post('/messages', {
      type: 'channel',
      to: 'general',
      topic: 't',
      content: 'x',
      read_by_sender: 'yes',
    });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'read_by_sender is not valid JSON', code: 'BAD_REQUEST' });
    const wrongType = await realm.as('mark').post('/messages', {
      type: 'channel', to: 'general', topic: 't', content: 'x', read_by_sender: '1',
    });
    expect(wrongType.body.msg).toBe('read_by_sender is not a boolean');
  });

  it('refuses an enum value outside its set with "Invalid <name>"', async () => {
    const { body } = await realm.as('mark').post('/messages', { type: 'carrier-pigeon', to: 'general', content: 'x' });
    expect(body).toEqual({ result: 'error', msg: 'Invalid type', code: 'BAD_REQUEST' });
  });

  it('refuses a parameter sent under both its name and its alias', async () => {
    const { status, body } = await realm.as('mark').post('/messages', {
      type: 'channel',
      to: 'general',
      topic: 'a',
      subject: 'b',
      content: 'x',
    });
    expect(status).toBe(400);
    expect(body).toEqual({
      result: 'error',
      msg: "Can't decide between 'topic' and 'subject' arguments",
      code: 'REQUEST_CONFUSING_VAR',
      var_name1: 'topic',
      var_name2: 'subject',
    });
  });

  it('reads parameters from the query string of a POST as well as from its body', async () => {
    const response = await realm.engine.handle(
      new Request('http://zulip.test/api/v1/messages?type=channel&to=general&topic=q', {
        method: 'POST',
        headers: {
          Authorization: `Basic ${btoa('mark@zulip.test:MarkKey0000000000000000000000004')}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'content=from+both',
      }),
    );
    expect(response.status).toBe(200);
    const { id } = await response.json();
    const { body } = await realm.as('mark').get(`/messages/${id}`, { apply_markdown: false });
    expect(body.message).toMatchObject({ display_recipient: 'general', subject: 'q', content: 'from both' });
  });

  it('reads a multipart body, as zulip-js sends it', async () => {
    const form = new FormData();
    form.set('type', 'stream');
    form.set('to', 'general');
    form.set('subject', 'multipart');
    form.set('content', 'sent as multipart');
    const response = await realm.engine.handle(
      new Request('http://zulip.test/api/v1/messages', {
        method: 'POST',
        headers: { Authorization: `Basic ${btoa('mark@zulip.test:MarkKey0000000000000000000000004')}` },
        body: form,
      }),
    );
    expect(response.status).toBe(200);
    expect((await response.json()).id).toBeTypeOf('number');
  });

  it('turns an unexpected exception into a 500 error JSON without a stack trace', async () => {
    const fail = () => {
      throw new Error('disk on fire');
    };
    realm.engine.db.messages.hook('creating', fail);
    const errors: unknown[] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const before = await realm.engine.db.user_messages.count();
      const { status, body } = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 't', content: 'x' });
      expect(status).toBe(500);
      expect(body).toEqual({ result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' });
      expect(JSON.stringify(body)).not.toContain('disk on fire');
      expect(await realm.engine.db.user_messages.count()).toBe(before);
    } finally {
      realm.engine.db.messages.hook('creating').unsubscribe(fail);
      console.error = originalError;
    }
    expect(errors).toHaveLength(1);
  });
});
