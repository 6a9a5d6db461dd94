import { expect, it } from 'vitest';
import { caseSuite } from './harness.ts';

const SEND = { type: 'channel', to: 'general', topic: 'wire', content: 'hi' };

export const wireCases = caseSuite('wire conventions', (api) => {
  it('answers an unknown API path with a 404 error JSON', async () => {
    const answer = await api.as('mark').get('/no/such/endpoint');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
  });

  it('answers a wrong method with 405 and the allowed methods', async () => {
    const answer = await api.as('mark').request('PUT', '/fetch_api_key');
    expect(answer.status).toBe(405);
    expect(answer.body).toEqual({ result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST', allowed_methods: ['POST'] });
  });

  it('answers OPTIONS with 204 and an Allow header', async () => {
    const answer = await api.as('mark').request('OPTIONS', '/messages');
    expect(answer.status).toBe(204);
    expect(answer.headers.allow?.split(', ').sort()).toEqual(['GET', 'POST']);
    expect(answer.text).toBe('');
  });

  it('answers HEAD with the status and headers of GET and no body', async () => {
    const answer = await api.as('mark').request('HEAD', '/users/me');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.text).toBe('');
  });

  it('sends JSON as application/json ending with a newline, as upstream does', async () => {
    const answer = await api.as('mark').get('/users/me');
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.text).toMatch(/}\n$/);
  });

  it('lists unsupported parameters, sorted, in ignored_parameters_unsupported', async () => {
    const answer = await api.as('mark').post('/messages', { ...SEND, zebra: '1', apple: '2' });
    expect(answer.status).toBe(200);
    expect(answer.body.ignored_parameters_unsupported).toEqual(['apple', 'zebra']);
  });

  it('names a missing required parameter with REQUEST_VARIABLE_MISSING and var_name', async () => {
    const answer = await api.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 't' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: 'error', msg: "Missing 'content' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'content' });
  });

  it('refuses a boolean that is not JSON, or not a boolean', async () => {
    const notJson = await api.as('mark').post('/messages', { ...SEND, read_by_sender: 'yes' });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toEqual({ result: 'error', msg: 'read_by_sender is not valid JSON', code: 'BAD_REQUEST' });
    const notBool = await api.as('mark').post('/messages', { ...SEND, read_by_sender: '1' });
    expect(notBool.body.msg).toBe('read_by_sender is not a boolean');
  });

  it('refuses an enum value outside its set with "Invalid <name>"', async () => {
    const answer = await api.as('mark').post('/messages', { type: 'carrier-pigeon', to: 'general', content: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: 'error', msg: 'Invalid type', code: 'BAD_REQUEST' });
  });

  it('refuses a parameter given under both its name and its alias', async () => {
    const answer = await api.as('mark').post('/messages', { ...SEND, subject: 'b' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      result: 'error',
      msg: "Can't decide between 'topic' and 'subject' arguments",
      code: 'REQUEST_CONFUSING_VAR',
      var_name1: 'topic',
      var_name2: 'subject',
    });
  });

  it('carries Unicode in parameters and answers unchanged', async () => {
    const content = 'Grüße 👋 — 日本語 & <tags> + plus';
    const sent = await api.as('mark').post('/messages', { ...SEND, topic: 'ünïcode ✓', content });
    const read = await api.as('mark').get(`/messages/${sent.body.id}`, { apply_markdown: false });
    expect(read.body.message).toMatchObject({ subject: 'ünïcode ✓', content });
    expect(read.body.raw_content).toBe(content);
  });
});
